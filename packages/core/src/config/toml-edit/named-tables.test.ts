import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import {
  addNamedTable,
  insertNamedTableText,
  locateNamedTables,
  namedTableLines,
  namedTableText,
  removeNamedTable,
  replaceNamedTable,
} from './named-tables.js';

const P = ['mcp_servers'];
const CODEX = `model = "o3" # the model

# Docs server
[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]

[mcp_servers.docs.env]
TOKEN = "abc"

[mcp_servers.remote]
url = "https://mcp.example.com/mcp"
# bearer_token_env_var = "OLD"

[profiles.fast]
model = "o4-mini"
`;

describe('locateNamedTables', () => {
  it('finds each table with its sub-tables and attached comments', () => {
    const layout = locateNamedTables(CODEX, P, 'config.toml');
    expect(layout.blocks.map((b) => [b.name, b.firstLine, b.headerLine, b.lastLine])).toEqual([
      ['docs', 2, 3, 8],
      ['remote', 10, 10, 12],
    ]);
  });

  it.each([
    ['an inline table under [mcp_servers]', '[mcp_servers]\ndocs = { command = "x" }\n', /mcp_servers\.docs is written as a key.*line 2/],
    ['mcp_servers as one inline value', 'mcp_servers = { docs = { command = "x" } }\n', /mcp_servers is written as a key.*line 1/],
    ['dotted keys at the top', 'mcp_servers.docs.command = "x"\n', /mcp_servers\.docs is not written as its own table/],
    [
      'a sub-table away from its table',
      '[mcp_servers.a]\ncommand = "x"\n[mcp_servers.b]\ncommand = "y"\n[mcp_servers.a.env]\nK = "v"\n',
      /\[mcp_servers\.a\.env\] is separated.*line 5/,
    ],
  ])('refuses %s', (_, text, message) => {
    expect(() => locateNamedTables(text, P, 'config.toml')).toThrow(message);
  });

  it('refuses text that does not parse, naming the line', () => {
    expect(() => locateNamedTables('[mcp_servers.a]\ncommand = \n', P, 'config.toml')).toThrow(/config\.toml is not valid TOML \(line 2/);
  });
});

describe('addNamedTable and removeNamedTable', () => {
  const blitz = { command: '/opt/blitz/bin/blitz.js', args: ['connect'], env: { BLITZ_HOME: '/h' } };

  it('adds after the last table of the parent, keeping every other byte', () => {
    const out = addNamedTable(CODEX, P, 'blitz', blitz, 'config.toml');
    expect(out).toBe(
      CODEX.replace(
        '# bearer_token_env_var = "OLD"\n',
        '# bearer_token_env_var = "OLD"\n\n[mcp_servers.blitz]\ncommand = "/opt/blitz/bin/blitz.js"\nargs = ["connect"]\nenv = { BLITZ_HOME = "/h" }\n',
      ),
    );
    expect((parse(out) as { mcp_servers: Record<string, unknown> }).mcp_servers.blitz).toEqual(blitz);
  });

  it('adds at the end of a file without such tables, and into an empty file', () => {
    expect(addNamedTable('model = "o3"', P, 'a b', { url: 'https://x' }, 'c')).toBe(
      'model = "o3"\n\n[mcp_servers."a b"]\nurl = "https://x"\n',
    );
    expect(addNamedTable('', P, 'a', { url: 'https://x' }, 'c')).toBe('[mcp_servers.a]\nurl = "https://x"\n');
  });

  it('refuses a name in use', () => {
    expect(() => addNamedTable(CODEX, P, 'docs', blitz, 'config.toml')).toThrow(/already has a \[mcp_servers\.docs\] table/);
  });

  it('removes a table with its sub-table and comment; add then remove gives back the bytes', () => {
    const out = removeNamedTable(CODEX, P, 'docs', 'config.toml');
    expect(out).toBe(
      'model = "o3" # the model\n\n[mcp_servers.remote]\nurl = "https://mcp.example.com/mcp"\n# bearer_token_env_var = "OLD"\n\n[profiles.fast]\nmodel = "o4-mini"\n',
    );
    expect(removeNamedTable(addNamedTable(CODEX, P, 'blitz', blitz, 'c'), P, 'blitz', 'c')).toBe(CODEX);
  });

  it('puts a removed table back as it was written, comments included', () => {
    const docs = namedTableText(CODEX, P, 'docs', 'c')!;
    expect(docs).toBe(
      '# Docs server\n[mcp_servers.docs]\ncommand = "npx"\nargs = ["-y", "docs-mcp"]\n\n[mcp_servers.docs.env]\nTOKEN = "abc"\n',
    );
    const back = insertNamedTableText(removeNamedTable(CODEX, P, 'docs', 'c'), P, docs, 'c');
    expect(parse(back)).toEqual(parse(CODEX));
    expect(back).toContain('# Docs server\n[mcp_servers.docs]');
  });
});

describe('replaceNamedTable', () => {
  it('puts new tables where one stood, from its header on: the comment above it stays, and so does every other byte', () => {
    const blitzLines = namedTableLines(P, 'blitz', { command: 'blitz' }, '\n');
    const out = replaceNamedTable(CODEX, P, 'docs', blitzLines, 'c');
    expect(out).toBe(CODEX.replace(namedTableText(CODEX, P, 'docs', 'c', 'header')!, '[mcp_servers.blitz]\ncommand = "blitz"\n'));
    expect(out).toContain('# Docs server\n[mcp_servers.blitz]\n');
    expect(replaceNamedTable(out, P, 'blitz', namedTableText(CODEX, P, 'docs', 'c', 'header')!, 'c')).toBe(CODEX);
  });

  it('with nothing in its place, only the table goes; a table that ended the file without a line break leaves it so', () => {
    expect(replaceNamedTable(CODEX, P, 'docs', '', 'c')).toBe(CODEX.replace(namedTableText(CODEX, P, 'docs', 'c', 'header')!, ''));
    expect(replaceNamedTable('[mcp_servers.a]\ncommand = "a"', P, 'a', '[mcp_servers.b]\ncommand = "b"\n', 'c')).toBe(
      '[mcp_servers.b]\ncommand = "b"',
    );
  });

  it('refuses a name that is not there', () => {
    expect(() => replaceNamedTable(CODEX, P, 'nope', '', 'c')).toThrow(/has no \[mcp_servers.nope\] table/);
  });
});
