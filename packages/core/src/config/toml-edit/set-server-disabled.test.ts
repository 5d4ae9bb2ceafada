import { describe, expect, it } from 'vitest';
import { setServerDisabled } from './set-server-disabled.js';

describe('setServerDisabled', () => {
  it('adds disabled = true after the last key of the main table, before its sub-tables', () => {
    const text = '[[mcp.servers]]\nname = "a"\nargs = [\n  "x",\n]\n# the env\n[mcp.servers.env]\nK = "v"\n';
    expect(setServerDisabled(text, 'a', true)).toBe(
      '[[mcp.servers]]\nname = "a"\nargs = [\n  "x",\n]\ndisabled = true\n# the env\n[mcp.servers.env]\nK = "v"\n',
    );
  });

  it('follows the indentation of the keys and the CRLF line ending', () => {
    const text = '[[mcp.servers]]\r\n  name = "a"\r\n  command = "x"';
    expect(setServerDisabled(text, 'a', true)).toBe('[[mcp.servers]]\r\n  name = "a"\r\n  command = "x"\r\n  disabled = true\r\n');
  });

  it('replaces only the value, keeping spacing and comment', () => {
    const text = '[[mcp.servers]]\nname = "a"\n"disabled"   =   false   # keep\n';
    expect(setServerDisabled(text, 'a', true)).toBe('[[mcp.servers]]\nname = "a"\n"disabled"   =   true   # keep\n');
  });

  it('enabling removes disabled rather than leaving disabled = false, so disable then enable gives the text back', () => {
    const text = '[[mcp.servers]]\nname = "a"\ncommand = "x"\n\n[[mcp.servers]]\nname = "b"\n';
    const disabled = setServerDisabled(text, 'a', true);
    expect(disabled).toBe('[[mcp.servers]]\nname = "a"\ncommand = "x"\ndisabled = true\n\n[[mcp.servers]]\nname = "b"\n');
    expect(setServerDisabled(disabled, 'a', false)).toBe(text);
    expect(setServerDisabled('[[mcp.servers]]\nname = "a"\ndisabled = true\ncommand = "x"\n', 'a', false)).toBe(
      '[[mcp.servers]]\nname = "a"\ncommand = "x"\n',
    );
  });

  it("enabling keeps a disabled line that carries a comment, set to false: the comment is the user's", () => {
    expect(setServerDisabled('[[mcp.servers]]\nname = "a"\ndisabled = true # for now\n', 'a', false)).toBe(
      '[[mcp.servers]]\nname = "a"\ndisabled = false # for now\n',
    );
  });

  it('enabling a Codex-style entry sets enabled = true and drops a disabled beside it', () => {
    const text = '[[mcp.servers]]\nname = "a"\nenabled = false # codex\ndisabled = true\n';
    expect(setServerDisabled(text, 'a', false)).toBe('[[mcp.servers]]\nname = "a"\nenabled = true # codex\n');
  });

  it('sets both keys when an entry has disabled and enabled', () => {
    const text = '[[mcp.servers]]\nname = "a"\nenabled = true\ndisabled = false\n';
    expect(setServerDisabled(text, 'a', true)).toBe('[[mcp.servers]]\nname = "a"\nenabled = false\ndisabled = true\n');
  });

  it('leaves a disabled key inside a sub-table alone', () => {
    const text = '[[mcp.servers]]\nname = "a"\n[mcp.servers.env]\ndisabled = "env var"\n';
    expect(setServerDisabled(text, 'a', true)).toBe(
      '[[mcp.servers]]\nname = "a"\ndisabled = true\n[mcp.servers.env]\ndisabled = "env var"\n',
    );
  });

  it('edits the named entry only', () => {
    const text = '[[mcp.servers]]\nname = "a"\ndisabled = false\n\n[[mcp.servers]]\nname = "b"\ndisabled = false\n';
    expect(setServerDisabled(text, 'b', true)).toBe(
      '[[mcp.servers]]\nname = "a"\ndisabled = false\n\n[[mcp.servers]]\nname = "b"\ndisabled = true\n',
    );
  });
});
