import { describe, expect, it } from 'vitest';
import { setServerDisabled } from './set-server-disabled.js';

describe('setServerDisabled', () => {
  it('adds disabled = true after the last key of the main table, before its sub-tables', () => {
    const text = '[[mcp.servers]]\nname = "a"\nargs = [\n  "x",\n]\n# the env\n[mcp.servers.env]\nK = "v"\n';
    expect(setServerDisabled(text, 'a', true)).toBe('[[mcp.servers]]\nname = "a"\nargs = [\n  "x",\n]\ndisabled = true\n# the env\n[mcp.servers.env]\nK = "v"\n');
  });

  it('follows the indentation of the keys and the CRLF line ending', () => {
    const text = '[[mcp.servers]]\r\n  name = "a"\r\n  command = "x"';
    expect(setServerDisabled(text, 'a', true)).toBe('[[mcp.servers]]\r\n  name = "a"\r\n  command = "x"\r\n  disabled = true\r\n');
  });

  it('replaces only the value, keeping spacing and comment', () => {
    const text = '[[mcp.servers]]\nname = "a"\n"disabled"   =   true   # keep\n';
    expect(setServerDisabled(text, 'a', false)).toBe('[[mcp.servers]]\nname = "a"\n"disabled"   =   false   # keep\n');
  });

  it('sets both keys when an entry has disabled and enabled', () => {
    const text = '[[mcp.servers]]\nname = "a"\nenabled = true\ndisabled = false\n';
    expect(setServerDisabled(text, 'a', true)).toBe('[[mcp.servers]]\nname = "a"\nenabled = false\ndisabled = true\n');
  });

  it('leaves a disabled key inside a sub-table alone', () => {
    const text = '[[mcp.servers]]\nname = "a"\n[mcp.servers.env]\ndisabled = "env var"\n';
    expect(setServerDisabled(text, 'a', true)).toBe('[[mcp.servers]]\nname = "a"\ndisabled = true\n[mcp.servers.env]\ndisabled = "env var"\n');
  });

  it('edits the named entry only', () => {
    const text = '[[mcp.servers]]\nname = "a"\ndisabled = false\n\n[[mcp.servers]]\nname = "b"\ndisabled = false\n';
    expect(setServerDisabled(text, 'b', true)).toBe('[[mcp.servers]]\nname = "a"\ndisabled = false\n\n[[mcp.servers]]\nname = "b"\ndisabled = true\n');
  });
});
