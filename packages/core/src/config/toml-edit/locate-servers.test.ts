import { describe, expect, it } from 'vitest';
import { BlitzError } from '../../errors/blitz-error.js';
import { findServer, locateServers } from './locate-servers.js';
import { removeServerEntry } from './remove-server-entry.js';

function errorOf(fn: () => unknown): BlitzError {
  try {
    fn();
  } catch (err) {
    if (err instanceof BlitzError) return err;
    throw err;
  }
  throw new Error('expected a BlitzError');
}

describe('locateServers', () => {
  it.each([
    ['single quotes', "[[mcp.servers]]\nname = 'x'\ncommand = 'c'\n"],
    ['a quoted key', '[[mcp.servers]]\n"name" = "x"\ncommand = "c"\n'],
    ['an escaped key', '[[mcp.servers]]\n"na\\u006De" = "x"\ncommand = "c"\n'],
    ['no spaces and a comment', '[[mcp.servers]]\nname="x"#c\ncommand = "c"\n'],
    ['lots of whitespace', '[[mcp.servers]]\n  name   =   "x"   # c\n\tcommand = "c"\n'],
    ['an escaped value', '[[mcp.servers]]\nname = "\\u0078"\ncommand = "c"\n'],
    ['a spaced header', '[[ mcp . servers ]]   # header comment\nname = "x"\ncommand = "c"\n'],
    ['a quoted header', '[["mcp".\'servers\']]\nname = "x"\ncommand = "c"\n'],
    ['name after other keys', '[[mcp.servers]]\ncommand = "c"\nname = "x"\n'],
  ])('finds a server named with %s', (_, text) => {
    const layout = locateServers(text, 'f.toml');
    expect(findServer(layout, 'x', 'f.toml').headerLine).toBe(0);
  });

  it('names the file in NOT_FOUND', () => {
    const err = errorOf(() => removeServerEntry('[[mcp.servers]]\nname = "a"\n', 'x', '/home/me/.blitz/settings.toml'));
    expect(err.code).toBe('NOT_FOUND');
    expect(err.reason).toBe('MCP_SERVER_NOT_FOUND');
    expect(err.message).toBe('no MCP server named "x" in /home/me/.blitz/settings.toml');
  });

  it('falls back to "settings.toml" when no file is given', () => {
    expect(errorOf(() => removeServerEntry('', 'x')).message).toBe('no MCP server named "x" in settings.toml');
  });

  it('does not take a header inside a multi-line string for an entry', () => {
    const text = 'note = """\n[[mcp.servers]]\nname = "ghost"\n"""\n[[mcp.servers]]\nname = "real"\n';
    expect(locateServers(text, 'f').servers.map((s) => s.name)).toEqual(['real']);
  });

  it.each([
    ['an inline array at the root', 'mcp.servers = [{ name = "a", command = "x" }]\n', /inline array.*\(line 1\)/],
    ['an inline array under [mcp]', '[daemon]\nport = 1\n\n[mcp]\nservers = [\n  { name = "a" },\n]\n', /inline array.*\(line 5\)/],
    ['an empty inline array', '[mcp]\nservers = []\n', /inline array/],
    ['an inline mcp table', 'mcp = { servers = [] }\n', /inline array.*\(line 1\)/],
    ['a table of servers', '[mcp.servers.github]\ncommand = "x"\n', /written as a table/],
    [
      'a sub-table away from its entry',
      '[[mcp.servers]]\nname = "a"\n\n[hub]\nx = 1\n\n[mcp.servers.env]\nK = "v"\n',
      /table at line 7 is separated/,
    ],
  ])('refuses %s, telling the user to edit by hand', (_, text, message) => {
    const err = errorOf(() => locateServers(text, 'f.toml'));
    expect(err.code).toBe('FAILED_PRECONDITION');
    expect(err.reason).toBe('SETTINGS_NOT_EDITABLE');
    expect(err.message).toMatch(message);
    expect(err.message).toMatch(/^cannot edit f\.toml: .*edit the file by hand$/);
  });

  it('refuses text that is not TOML, naming file, line and column', () => {
    const err = errorOf(() => locateServers('a = 1\nb = [\n', 'f.toml'));
    expect(err.code).toBe('FAILED_PRECONDITION');
    expect(err.reason).toBe('SETTINGS_INVALID_TOML');
    expect(err.message).toMatch(/^f\.toml is not valid TOML \(line \d+, column \d+: .+\)/);
  });

  it('takes the first entry when a name repeats', () => {
    const text = '[[mcp.servers]]\nname = "a"\n[[mcp.servers]]\nname = "a"\n';
    expect(findServer(locateServers(text, 'f'), 'a', 'f').index).toBe(0);
  });
});
