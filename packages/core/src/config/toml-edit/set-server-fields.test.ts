import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { withServerFields } from './intended-settings.js';
import { setServerFields } from './set-server-fields.js';

const TEXT = [
  '# files',
  '[[mcp.servers]]',
  'name = "fs"',
  'command = "npx"',
  'prefix = "old"   # clashes with github',
  'tool_timeout_sec = 30',
  '# the env',
  '[mcp.servers.env]',
  'K = "v"',
  '',
  '[[mcp.servers]]',
  'name = "b"',
  'url = "https://b.example.com/mcp"',
  '',
].join('\n');

describe('setServerFields', () => {
  it('replaces a value where it stands, under the spelling found, keeping spacing and comment', () => {
    const out = setServerFields(TEXT, 'fs', { prefix: 'files', timeout_seconds: 60 });
    expect(out).toBe(TEXT.replace('prefix = "old"   #', 'prefix = "files"   #').replace('tool_timeout_sec = 30', 'tool_timeout_sec = 60'));
  });

  it('adds a new field after the last key, before the sub-tables, in the order given', () => {
    const out = setServerFields(TEXT, 'fs', { agents: ['main', 'review'], roots: false });
    expect(out).toBe(TEXT.replace('tool_timeout_sec = 30\n', 'tool_timeout_sec = 30\nagents = ["main", "review"]\nroots = false\n'));
  });

  it('removes a field with its line and trailing comment, in every spelling', () => {
    expect(setServerFields(TEXT, 'fs', { prefix: undefined, timeout_seconds: undefined })).toBe(
      TEXT.replace('prefix = "old"   # clashes with github\ntool_timeout_sec = 30\n', ''),
    );
  });

  it('removes the last key and adds another in one edit', () => {
    const out = setServerFields(TEXT, 'fs', { timeout_seconds: undefined, share: true });
    expect(out).toBe(TEXT.replace('tool_timeout_sec = 30\n', 'share = true\n'));
  });

  it('replaces a multi-line array whole and edits only the named entry', () => {
    const text = '[[mcp.servers]]\nname = "a"\n\n[[mcp.servers]]\nname = "b"\ntools = [\n  "x", # one\n  "y",\n]\n';
    expect(setServerFields(text, 'b', { tools: ['z'] })).toBe(
      '[[mcp.servers]]\nname = "a"\n\n[[mcp.servers]]\nname = "b"\ntools = ["z"]\n',
    );
  });

  it('keeps CRLF and a last line without a terminator', () => {
    expect(setServerFields('[[mcp.servers]]\r\nname = "a"', 'a', { prefix: 'p' })).toBe(
      '[[mcp.servers]]\r\nname = "a"\r\nprefix = "p"\r\n',
    );
  });

  it('does what withServerFields says, on the parsed settings', () => {
    for (const changes of [
      { prefix: 'files', timeout_seconds: 60 },
      { prefix: undefined, agents: ['*'] },
      { timeout_seconds: undefined, share: true },
    ]) {
      expect(parse(setServerFields(TEXT, 'fs', changes))).toEqual(withServerFields(parse(TEXT), 'fs', changes));
    }
  });
});
