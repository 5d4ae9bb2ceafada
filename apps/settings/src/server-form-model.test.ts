import { describe, expect, it } from 'vitest';
import { emptyForm, formFromConfig, formToEntry } from './server-form-model.js';

describe('formToEntry', () => {
  it('writes a command server with its lines read, the sandbox left out while on', () => {
    const { entry, problems } = formToEntry({
      ...emptyForm(),
      name: ' fs ',
      command: 'npx',
      args: '-y\n\n @modelcontextprotocol/server-filesystem \n/tmp',
      env: 'A=1\nB = two=2',
      timeout: '30',
      agents: 'main, reviewer',
      tools: 'read_file\nlist_directory',
    });
    expect(problems).toEqual([]);
    expect(entry).toEqual({
      name: 'fs',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
      env: { A: '1', B: 'two=2' },
      timeout_seconds: 30,
      agents: ['main', 'reviewer'],
      tools: ['read_file', 'list_directory'],
    });
  });

  it('writes sandbox = false only when switched off, and auto_approve only when on', () => {
    expect(formToEntry({ ...emptyForm(), name: 'a', command: 'x', sandbox: false, autoApprove: true }).entry).toEqual({ name: 'a', command: 'x', sandbox: false, auto_approve: true });
  });

  it('keeps both a command and a URL when both are filled, for the daemon to name the problem', () => {
    const { entry } = formToEntry({ ...emptyForm(), name: 'a', command: 'x', url: 'http://h/mcp', headers: 'Authorization: Bearer ***' });
    expect(entry).toMatchObject({ command: 'x', url: 'http://h/mcp', headers: { Authorization: 'Bearer ***' } });
  });

  it('sends a timeout that is not a number as typed', () => {
    expect(formToEntry({ ...emptyForm(), name: 'a', command: 'x', timeout: 'soon' }).entry.timeout_seconds).toBe('soon');
  });

  it('names a line that is not NAME=value without repeating it (it may be a secret)', () => {
    const { entry, problems } = formToEntry({ ...emptyForm(), name: 'a', command: 'x', env: 'A=1\nsecret-token', headers: ': v' });
    expect(entry.env).toEqual({ A: '1' });
    expect(problems).toEqual([
      { field: 'env', message: 'line 2 is not NAME=value', text: 'env: line 2 is not NAME=value' },
      { field: 'headers', message: 'line 1 is not Name: value', text: 'headers: line 1 is not Name: value' },
    ]);
  });
});

describe('formFromConfig', () => {
  it('round-trips a server, carrying the fields the form does not show', () => {
    const config = { name: 'gh', url: 'https://h/mcp', headers: { 'X-Key': '***' }, tool_timeout_sec: 20, enabled_tools: ['a'], prefix: 'g', disabled: true, oauth: { scopes: ['repo'] } };
    const form = formFromConfig(config);
    expect(form).toMatchObject({ url: 'https://h/mcp', headers: 'X-Key: ***', timeout: '20', tools: 'a', sandbox: true, rest: { prefix: 'g', disabled: true, oauth: { scopes: ['repo'] } } });
    expect(formToEntry(form).entry).toEqual({ name: 'gh', url: 'https://h/mcp', headers: { 'X-Key': '***' }, timeout_seconds: 20, tools: ['a'], prefix: 'g', disabled: true, oauth: { scopes: ['repo'] } });
  });
});
