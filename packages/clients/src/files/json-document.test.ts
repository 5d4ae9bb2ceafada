import { describe, expect, it } from 'vitest';
import { parseJsonText, setJsonValue } from './json-document.js';

describe('setJsonValue', () => {
  it('in a file on one line, changes only the bytes of the value (the rest is not reformatted)', () => {
    const text = '{"numStartups": 5, "projects": {"/x": {"mcpServers": {}}}, "mcpServers": {"mem": {"command": "npx"}}, "userID": "abc"}\n';
    const after = setJsonValue(text, ['mcpServers', 'blitz'], { command: '/usr/bin/node', args: ['blitz.cjs', 'connect'] });
    expect(after).toBe(
      '{"numStartups": 5, "projects": {"/x": {"mcpServers": {}}}, "mcpServers": {"mem": {"command": "npx"},"blitz": {"command":"/usr/bin/node","args":["blitz.cjs","connect"]}}, "userID": "abc"}\n',
    );
    expect(parseJsonText(after, 'f.json')).toEqual({
      ...parseJsonText(text, 'f.json'),
      mcpServers: { mem: { command: 'npx' }, blitz: { command: '/usr/bin/node', args: ['blitz.cjs', 'connect'] } },
    });
  });

  it("in a file of several lines, writes the value in the file's indentation", () => {
    const text = '{\n\t// servers\n\t"mcpServers": {}\n}\n';
    expect(setJsonValue(text, ['mcpServers', 'blitz'], { command: 'x' })).toBe(
      '{\n\t// servers\n\t"mcpServers": {\n\t\t"blitz": {\n\t\t\t"command": "x"\n\t\t}\n\t}\n}\n',
    );
  });

  it('a sibling written on one line stays on its line when a property is added after it (claude_desktop_config.json, VS Code mcp.json)', () => {
    const text =
      '{\n  "mcpServers": {\n    "memory": { "command": "node", "args": ["m.js"], "env": { "K": "v" } }\n  },\n  "globalShortcut": "Ctrl+Space"\n}\n';
    expect(setJsonValue(text, ['mcpServers', 'blitz'], { command: 'x', args: ['connect'] })).toBe(
      '{\n  "mcpServers": {\n    "memory": { "command": "node", "args": ["m.js"], "env": { "K": "v" } },\n    "blitz": {\n      "command": "x",\n      "args": [\n        "connect"\n      ]\n    }\n  },\n  "globalShortcut": "Ctrl+Space"\n}\n',
    );
  });

  it('a property added first, before siblings on one line, leaves them as they are', () => {
    const text = '{\n  "servers": {}, "inputs": [{ "id": "a", "password": true }]\n}\n';
    expect(setJsonValue(text, ['servers', 'blitz'], { command: 'x' })).toBe(
      '{\n  "servers": {\n    "blitz": {\n      "command": "x"\n    }\n  }, "inputs": [{ "id": "a", "password": true }]\n}\n',
    );
  });

  it('a file with \\r\\n line ends keeps them all', () => {
    const text = '{\r\n  "a": 1\r\n}\r\n';
    expect(setJsonValue(text, ['mcpServers', 'blitz'], { command: 'x' })).toBe(
      '{\r\n  "a": 1,\r\n  "mcpServers": {\r\n    "blitz": {\r\n      "command": "x"\r\n    }\r\n  }\r\n}\r\n',
    );
    const servers = '{\r\n  "mcpServers": {\r\n    "m": { "command": "m" }\r\n  }\r\n}\r\n';
    expect(setJsonValue(servers, ['mcpServers', 'blitz'], { command: 'x' })).toBe(
      '{\r\n  "mcpServers": {\r\n    "m": { "command": "m" },\r\n    "blitz": {\r\n      "command": "x"\r\n    }\r\n  }\r\n}\r\n',
    );
  });

  it("a sibling's comment at the end of its line stays with it: the new property goes after the comment", () => {
    const text = '{\n  "mcpServers": {\n    "a": { "command": "a" } // mine\n  }\n}\n';
    expect(setJsonValue(text, ['mcpServers', 'blitz'], { command: 'x' })).toBe(
      '{\n  "mcpServers": {\n    "a": { "command": "a" }, // mine\n    "blitz": {\n      "command": "x"\n    }\n  }\n}\n',
    );
  });

  it('a value replaced in place is formatted alone', () => {
    const text = '{\n  "mcpServers": { "a": { "command": "old" }, "b": { "command": "y" } }\n}\n';
    expect(setJsonValue(text, ['mcpServers', 'a'], { command: 'new' })).toBe(
      '{\n  "mcpServers": { "a": {\n      "command": "new"\n    }, "b": { "command": "y" } }\n}\n',
    );
  });

  it('a new file is written formatted', () => {
    expect(setJsonValue('', ['mcpServers', 'blitz'], { command: 'x' })).toBe(
      '{\n  "mcpServers": {\n    "blitz": {\n      "command": "x"\n    }\n  }\n}',
    );
  });
});

describe('parseJsonText, nesting', () => {
  it('refuses a file nested past the limit with its line and column, before anything recurses', () => {
    const deep = `{\n  "mcpServers": {},\n  "x": ${'['.repeat(5_000)}${']'.repeat(5_000)}\n}\n`;
    expect(() => parseJsonText(deep, '/h/.config/opencode/opencode.json')).toThrow(
      expect.objectContaining({
        code: 'FAILED_PRECONDITION',
        reason: 'CLIENT_CONFIG_INVALID',
        message:
          '/h/.config/opencode/opencode.json nests objects and arrays deeper than 64 levels (line 3, column 71); it was not read — nothing was changed',
      }),
    );
  });

  it('reads 64 levels, and counts no bracket inside a string or a comment', () => {
    const ok = `// [[[[\n{"a": "${'['.repeat(100)}", "b": ${'['.repeat(63)}${']'.repeat(63)}}`;
    expect(parseJsonText(ok, 'f.json')).toMatchObject({ a: '['.repeat(100) });
  });
});

describe('removing a server takes its own comments with it, and only its own (issue 26.9)', () => {
  const servers = (...lines: string[]) => `{\n  "mcpServers": {\n${lines.map((l) => `    ${l}`).join('\n')}\n  }\n}\n`;
  it.each([
    [
      'the last, with a comment line above',
      servers('"a": { "command": "x" },', '// postgres for dev', '"postgres": { "command": "pg" }'),
      servers('"a": { "command": "x" }'),
    ],
    [
      'the last, with a comment after it on its line',
      servers('"a": { "command": "x" },', '"postgres": { "command": "pg" } // dev db'),
      servers('"a": { "command": "x" }'),
    ],
    [
      'the first, with a comment after its comma',
      servers('"postgres": { "command": "pg" }, // dev db', '"a": { "command": "x" }'),
      servers('"a": { "command": "x" }'),
    ],
    [
      'the last, keeping the comment of the one before',
      servers('"a": { "command": "x" }, // mine', '"postgres": { "command": "pg" }'),
      servers('"a": { "command": "x" } // mine'),
    ],
    ['one of a file on one line', '{"mcpServers": {"a": 1, "postgres": 2}}', '{"mcpServers": {"a": 1}}'],
  ])('%s', (_, text, expected) => {
    expect(setJsonValue(text, ['mcpServers', 'postgres'], undefined)).toBe(expected);
  });
});
