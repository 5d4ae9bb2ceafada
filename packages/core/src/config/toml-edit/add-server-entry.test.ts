import { describe, expect, it } from 'vitest';
import { isBlitzError } from '../../errors/blitz-error.js';
import { addServerEntry } from './add-server-entry.js';

const entry = { name: 'new', command: 'x' };
const block = '[[mcp.servers]]\nname = "new"\ncommand = "x"\n';

describe('addServerEntry', () => {
  it.each([
    ['an empty file', '', block],
    ['a file without a final newline', 'a = 1', `a = 1\n\n${block}`],
    ['a file ending in a blank line', 'a = 1\n\n', `a = 1\n\n${block}`],
    ['a file with a header only', '[mcp]\n', `[mcp]\n\n${block}`],
  ])('appends to %s', (_, text, expected) => {
    expect(addServerEntry(text, entry)).toBe(expected);
  });

  it('goes after the last entry, keeping one blank line before what follows', () => {
    const text = '[[mcp.servers]]\nname = "a"\ncommand = "x"\n[hub]\nx = 1';
    expect(addServerEntry(text, entry)).toBe(`[[mcp.servers]]\nname = "a"\ncommand = "x"\n\n${block}\n[hub]\nx = 1\n`);
  });

  it('ends a last entry that lacks a newline before adding', () => {
    expect(addServerEntry('[[mcp.servers]]\nname = "a"', entry)).toBe(`[[mcp.servers]]\nname = "a"\n\n${block}`);
  });

  it('writes CRLF into a CRLF file', () => {
    expect(addServerEntry('a = 1\r\n', entry)).toBe(`a = 1\r\n\r\n${block.replace(/\n/g, '\r\n')}`);
  });

  it('refuses a name already in use', () => {
    const text = "[[mcp.servers]]\nname = 'new'\ncommand = 'y'\n";
    expect(() => addServerEntry(text, entry, 'f.toml')).toThrow(
      expect.objectContaining({ code: 'ALREADY_EXISTS', reason: 'MCP_SERVER_EXISTS' }),
    );
  });

  it('refuses an entry without a name', () => {
    try {
      addServerEntry('', { name: '' });
      expect.unreachable();
    } catch (err) {
      expect(isBlitzError(err, 'INVALID_ARGUMENT')).toBe(true);
    }
  });
});
