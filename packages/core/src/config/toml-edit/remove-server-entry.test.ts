import { describe, expect, it } from 'vitest';
import { removeServerEntry } from './remove-server-entry.js';

const a = '# about a\n[[mcp.servers]]\nname = "a"\ncommand = "x"\n';
const b = '[[mcp.servers]]\nname = "b"\ncommand = "y"\n[mcp.servers.env]\nK = "v"\n';

describe('removeServerEntry', () => {
  it.each([
    ['the first block, and the blank line after it', `${a}\n${b}`, 'a', b],
    ['the last block, and the blank line before it', `${a}\n${b}`, 'b', a],
    ['the only block', a, 'a', ''],
    ['a block between blank lines, leaving one', `x = 1\n\n${b}\n[hub]\n`, 'b', 'x = 1\n\n[hub]\n'],
    ['a block tight against its neighbours', `x = 1\n${b}[hub]\n`, 'b', 'x = 1\n[hub]\n'],
    ['a block with a blank line before only', `x = 1\n\n${b}[hub]\n`, 'b', 'x = 1\n\n[hub]\n'],
    ['a last line without a newline', 'x = 1\n\n[[mcp.servers]]\nname = "a"', 'a', 'x = 1\n'],
  ])('removes %s', (_, text, name, expected) => {
    expect(removeServerEntry(text, name)).toBe(expected);
  });

  it('keeps a comment separated from the header by a blank line', () => {
    expect(removeServerEntry(`# free\n\n${a}`, 'a')).toBe('# free\n');
  });

  it('keeps the comments attached to the next header', () => {
    expect(removeServerEntry(`${b}# about a\n[[mcp.servers]]\nname = "a"\n`, 'b')).toBe('# about a\n[[mcp.servers]]\nname = "a"\n');
  });

  it('takes comments right below its last key with it', () => {
    expect(removeServerEntry(`x = 1\n${b}# old = "value"\n\n[hub]\n`, 'b')).toBe('x = 1\n\n[hub]\n');
  });
});
