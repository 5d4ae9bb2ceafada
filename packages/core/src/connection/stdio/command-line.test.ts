import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandLine, resolveWindowsCommand } from './command-line.js';

describe('commandLine', () => {
  it('leaves every command alone on POSIX, batch-looking ones included', () => {
    for (const platform of ['linux', 'darwin', 'freebsd'] as const) {
      expect(commandLine('npx', ['-y', 'a&b'], platform)).toEqual({ command: 'npx', args: ['-y', 'a&b'] });
      expect(commandLine('./run.cmd', ['x'], platform)).toEqual({ command: './run.cmd', args: ['x'] });
    }
  });

  it('spawns executables directly on Windows', () => {
    expect(commandLine('node', ['server.js', 'a&b'], 'win32')).toEqual({ command: 'node', args: ['server.js', 'a&b'] });
    expect(commandLine('C:\\tools\\uvx.exe', ['mcp-server'], 'win32')).toEqual({ command: 'C:\\tools\\uvx.exe', args: ['mcp-server'] });
  });

  it('routes a .bat through cmd.exe, escaping metacharacters once', () => {
    expect(commandLine('C:\\tools\\run.bat', ['100%', 'a&b|c', 'hello world', '(x)<y>!'], 'win32')).toEqual({
      command: 'cmd.exe',
      args: ['/d', '/s', '/c', '"C:\\tools\\run.bat ^"100^%^" ^"a^&b^|c^" ^"hello^ world^" ^"^(x^)^<y^>^!^""'],
      windowsVerbatimArguments: true,
    });
  });

  it('escapes metacharacters in the command itself', () => {
    const line = commandLine('C:\\Program Files\\my tools\\run.bat', [], 'win32');
    expect(line.args[3]).toBe('"C:\\Program^ Files\\my^ tools\\run.bat"');
  });

  it('double-escapes for bare npx, npm, pnpm and yarn, which are .cmd shims', () => {
    for (const shim of ['npx', 'npm', 'pnpm', 'yarn', 'NPX']) {
      expect(commandLine(shim, ['-y', 'a&b'], 'win32')).toEqual({
        command: 'cmd.exe',
        args: ['/d', '/s', '/c', `"${shim} ^^^"-y^^^" ^^^"a^^^&b^^^""`],
        windowsVerbatimArguments: true,
      });
    }
  });

  it('double-escapes for node_modules\\.bin shims and a package manager .cmd', () => {
    expect(commandLine('C:\\p\\node_modules\\.bin\\server.cmd', ['%PATH%'], 'win32').args[3]).toBe(
      '"C:\\p\\node_modules\\.bin\\server.cmd ^^^"^^^%PATH^^^%^^^""',
    );
    expect(commandLine('C:\\nodejs\\npx.cmd', ['x'], 'win32').args[3]).toBe('"C:\\nodejs\\npx.cmd ^^^"x^^^""');
  });

  it('escapes quotes and the backslashes before them for the C runtime', () => {
    expect(commandLine('run.cmd', ['say "hi"', 'C:\\dir\\', 'a\\"b'], 'win32').args[3]).toBe(
      '"run.cmd ^"say^ \\^"hi\\^"^" ^"C:\\dir\\\\^" ^"a\\\\\\^"b^""',
    );
  });

  it('passes an empty argument as a pair of quotes', () => {
    expect(commandLine('run.cmd', [''], 'win32').args[3]).toBe('"run.cmd ^"^""');
  });
});

describe('resolveWindowsCommand', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-win-path-'));
    for (const file of ['mcp-tool.cmd', 'native.exe']) fs.writeFileSync(path.join(dir, file), '');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives the full path of a bare name PATH holds only as a .cmd shim, so it runs through cmd.exe', () => {
    const env = { Path: dir, PATHEXT: '.COM;.EXE;.CMD' };
    const resolved = resolveWindowsCommand('mcp-tool', env);
    expect(resolved).toBe(path.join(dir, 'mcp-tool.cmd'));
    expect(commandLine(resolved, ['a&b'], 'win32')).toMatchObject({ command: 'cmd.exe', windowsVerbatimArguments: true });
  });

  it('leaves executables, paths, names with an extension and unknown names for spawn', () => {
    const env = { PATH: dir };
    expect(resolveWindowsCommand('native', env)).toBe('native');
    expect(resolveWindowsCommand('missing', env)).toBe('missing');
    expect(resolveWindowsCommand('C:\\tools\\mcp-tool', env)).toBe('C:\\tools\\mcp-tool');
    expect(resolveWindowsCommand('mcp-tool.cmd', env)).toBe('mcp-tool.cmd');
  });
});
