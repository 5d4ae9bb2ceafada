import { describe, expect, it } from 'vitest';
import { parseJsonText, setJsonValue } from './json-document.js';

describe('setJsonValue', () => {
  it('in a file on one line, changes only the bytes of the value (the rest is not reformatted)', () => {
    const text = '{"numStartups": 5, "projects": {"/x": {"mcpServers": {}}}, "mcpServers": {"mem": {"command": "npx"}}, "userID": "abc"}\n';
    const after = setJsonValue(text, ['mcpServers', 'blitz'], { command: '/usr/bin/node', args: ['blitz.cjs', 'connect'] });
    expect(after).toBe('{"numStartups": 5, "projects": {"/x": {"mcpServers": {}}}, "mcpServers": {"mem": {"command": "npx"},"blitz": {"command":"/usr/bin/node","args":["blitz.cjs","connect"]}}, "userID": "abc"}\n');
    expect(parseJsonText(after, 'f.json')).toEqual({ ...parseJsonText(text, 'f.json'), mcpServers: { mem: { command: 'npx' }, blitz: { command: '/usr/bin/node', args: ['blitz.cjs', 'connect'] } } });
  });

  it('in a file of several lines, writes the value in the file\'s indentation', () => {
    const text = '{\n\t// servers\n\t"mcpServers": {}\n}\n';
    expect(setJsonValue(text, ['mcpServers', 'blitz'], { command: 'x' })).toBe('{\n\t// servers\n\t"mcpServers": {\n\t\t"blitz": {\n\t\t\t"command": "x"\n\t\t}\n\t}\n}\n');
  });

  it('a new file is written formatted', () => {
    expect(setJsonValue('', ['mcpServers', 'blitz'], { command: 'x' })).toBe('{\n  "mcpServers": {\n    "blitz": {\n      "command": "x"\n    }\n  }\n}');
  });
});
