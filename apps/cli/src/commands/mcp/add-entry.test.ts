import { describe, expect, it } from 'vitest';
import { buildAddEntry } from './add-entry.js';

describe('buildAddEntry', () => {
  it.each([
    ['a command and its args', ['npx', '-y', 'pkg'], {}, { name: 's', command: 'npx', args: ['-y', 'pkg'] }],
    ['a command alone', ['server'], {}, { name: 's', command: 'server' }],
    ['env pairs, value keeps its = signs', ['x'], { env: ['A=1', 'B=x=y'] }, { name: 's', command: 'x', env: { A: '1', B: 'x=y' } }],
    [
      'a URL with headers',
      ['https://h/mcp'],
      { header: ['Authorization: Bearer ${T}', 'X-A:b'] },
      { name: 's', url: 'https://h/mcp', headers: { Authorization: 'Bearer ${T}', 'X-A': 'b' } },
    ],
    [
      'every option',
      ['x'],
      { prefix: 'p', agents: 'main, rev', timeout: '20', autoApprove: true, sandbox: false, disabled: true },
      {
        name: 's',
        command: 'x',
        prefix: 'p',
        agents: ['main', 'rev'],
        timeout_seconds: 20,
        auto_approve: true,
        sandbox: false,
        disabled: true,
      },
    ],
    ['no roots', ['x'], { roots: false as const }, { name: 's', command: 'x', roots: false }],
    [
      'roots and writable paths',
      ['x'],
      { roots: ['/src', '/data'], sandboxWrite: ['/w'] },
      { name: 's', command: 'x', roots: ['/src', '/data'], sandbox_write: ['/w'] },
    ],
    ['shared', ['npx', '-y', 'pkg'], { share: true }, { name: 's', command: 'npx', args: ['-y', 'pkg'], share: true }],
    ['no roots given is the workspace', ['x'], { roots: [], sandboxWrite: [] }, { name: 's', command: 'x' }],
  ])('%s', (_, target, opts, entry) => {
    expect(buildAddEntry('s', target, opts)).toEqual(entry);
  });

  it.each([
    ['nothing to run', [], {}, /give a command/],
    ['a URL with arguments', ['https://h/mcp', 'x'], {}, /a URL server takes no arguments/],
    ['env on a URL', ['https://h/mcp'], { env: ['A=1'] }, /--env is only for command/],
    ['no-sandbox on a URL', ['https://h/mcp'], { sandbox: false }, /--no-sandbox is only for command/],
    ['sandbox-write on a URL', ['https://h/mcp'], { sandboxWrite: ['/w'] }, /--sandbox-write is only for command/],
    ['a header on a command', ['x'], { header: ['A: b'] }, /--header is only for URL/],
    ['a pair with no key', ['x'], { env: ['=v'] }, /^--env needs KEY=value$/],
    ['a key given twice', ['x'], { env: ['A=1', 'A=2'] }, /--env A is given twice/],
    ['a bad timeout', ['x'], { timeout: 'soon' }, /--timeout must be a number of seconds/],
  ])('refuses %s', (_, target, opts, message) => {
    expect(() => buildAddEntry('s', target, opts)).toThrow(message);
  });
});
