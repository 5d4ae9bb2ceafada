import { describe, expect, it } from 'vitest';
import { emptyForm, formFromConfig, formFromPasted, formToEntry } from './server-form-model.js';

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
    expect(formToEntry({ ...emptyForm(), name: 'a', command: 'x', sandbox: false, autoApprove: true }).entry).toEqual({
      name: 'a',
      command: 'x',
      sandbox: false,
      auto_approve: true,
    });
  });

  it('saves only the chosen transport’s fields, and leaves the other one’s behind', () => {
    const filled = {
      ...emptyForm(),
      name: 'a',
      command: 'x',
      env: 'A=1',
      sandbox: false,
      url: 'http://h/mcp',
      headers: 'Authorization: Bearer ***',
      rest: { cwd: '/w', oauth: { scopes: ['s'] } },
    };
    expect(formToEntry({ ...filled, transport: 'http' }).entry).toEqual({
      name: 'a',
      url: 'http://h/mcp',
      headers: { Authorization: 'Bearer ***' },
      oauth: { scopes: ['s'] },
    });
    expect(formToEntry({ ...filled, transport: 'stdio' }).entry).toEqual({
      name: 'a',
      command: 'x',
      env: { A: '1' },
      sandbox: false,
      cwd: '/w',
    });
  });

  it('writes the prefix when one is given', () => {
    expect(formToEntry({ ...emptyForm(), name: 'a', command: 'x', prefix: ' gh ' }).entry).toEqual({
      name: 'a',
      command: 'x',
      prefix: 'gh',
    });
  });

  it('sends a timeout that is not a number as typed', () => {
    expect(formToEntry({ ...emptyForm(), name: 'a', command: 'x', timeout: 'soon' }).entry.timeout_seconds).toBe('soon');
  });

  it('names a line that is not NAME=value without repeating it (it may be a secret)', () => {
    const { entry, problems } = formToEntry({ ...emptyForm(), name: 'a', command: 'x', env: 'A=1\nsecret-token' });
    expect(entry.env).toEqual({ A: '1' });
    expect(problems).toEqual([{ field: 'env', message: 'line 2 is not NAME=value', text: 'env: line 2 is not NAME=value' }]);
    expect(formToEntry({ ...emptyForm(), name: 'a', transport: 'http', url: 'https://h/mcp', headers: ': v' }).problems).toEqual([
      { field: 'headers', message: 'line 1 is not Name: value', text: 'headers: line 1 is not Name: value' },
    ]);
  });
});

describe('formFromConfig', () => {
  it('round-trips a server, carrying the fields the form does not show', () => {
    const config = {
      name: 'gh',
      url: 'https://h/mcp',
      headers: { 'X-Key': '***' },
      tool_timeout_sec: 20,
      enabled_tools: ['a'],
      prefix: 'g',
      disabled: true,
      oauth: { scopes: ['repo'] },
    };
    const form = formFromConfig(config);
    expect(form).toMatchObject({
      transport: 'http',
      url: 'https://h/mcp',
      headers: 'X-Key: ***',
      timeout: '20',
      tools: 'a',
      prefix: 'g',
      rest: { disabled: true, oauth: { scopes: ['repo'] } },
    });
    expect(formToEntry(form).entry).toEqual({
      name: 'gh',
      url: 'https://h/mcp',
      headers: { 'X-Key': '***' },
      timeout_seconds: 20,
      tools: ['a'],
      prefix: 'g',
      disabled: true,
      oauth: { scopes: ['repo'] },
    });
  });

  it('fills from pasted JSON, keeping what the form says of its tools', () => {
    const form = formFromPasted(
      { ...emptyForm(), command: 'old', timeout: '9' },
      { name: 'docs', transport: 'http', url: 'https://d/mcp', headers: { 'X-Key': 'k' }, ignored: [], others: [] },
    );
    expect(form).toMatchObject({ name: 'docs', transport: 'http', command: '', url: 'https://d/mcp', headers: 'X-Key: k', timeout: '9' });
  });
});
