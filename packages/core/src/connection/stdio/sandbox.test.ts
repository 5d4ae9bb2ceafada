import { describe, expect, it } from 'vitest';
import { isBlitzError } from '../../errors/blitz-error.js';
import { bwrapArgs, createSandbox, sandboxExecArgs, sandboxPaths, seatbeltProfile, type SandboxPaths } from './sandbox.js';

const places = { workspace: '/work/proj', tmpDir: '/tmp', home: '/home/ann', blitzHome: '/home/ann/.config/blitz' };
const existing = (paths: string[]) => (p: string) => paths.includes(p);

describe('sandboxPaths', () => {
  it('binds the workspace and tmp, and only the cache and secret folders that exist', () => {
    const exists = existing(['/home/ann/.npm', '/home/ann/.ssh', '/home/ann/.config/blitz']);
    expect(sandboxPaths(places, exists)).toEqual({
      writable: ['/work/proj', '/tmp', '/home/ann/.npm'],
      hidden: ['/home/ann/.config/blitz', '/home/ann/.ssh'],
    });
  });

  it('takes every optional folder when all exist, once each', () => {
    const all = sandboxPaths({ ...places, workspace: '/tmp' }, () => true);
    expect(all).toEqual({
      writable: ['/tmp', '/home/ann/.npm', '/home/ann/.cache'],
      hidden: ['/home/ann/.config/blitz', '/home/ann/.ssh', '/home/ann/.aws', '/home/ann/.gnupg'],
    });
  });

  it("adds the server's sandbox_write paths to the writable ones", () => {
    expect(sandboxPaths({ ...places, extraWritable: ['/home/ann/.local/share/memory', '/tmp'] }, () => false).writable).toEqual([
      '/work/proj',
      '/tmp',
      '/home/ann/.local/share/memory',
    ]);
  });

  it('skips home folders without a home', () => {
    expect(sandboxPaths({ ...places, home: undefined }, () => true)).toEqual({
      writable: ['/work/proj', '/tmp'],
      hidden: ['/home/ann/.config/blitz'],
    });
  });
});

const paths: SandboxPaths = { writable: ['/work/proj', '/tmp', '/home/ann/.cache'], hidden: ['/blitz home', '/home/ann/.ssh'] };

describe('bwrapArgs', () => {
  it('mounts / read-only, binds the writable paths and hides the secret ones, after the binds', () => {
    expect(bwrapArgs(paths, 'node', ['server.js', '--flag'])).toEqual([
      '--die-with-parent',
      '--unshare-pid',
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--bind',
      '/work/proj',
      '/work/proj',
      '--bind',
      '/tmp',
      '/tmp',
      '--bind',
      '/home/ann/.cache',
      '/home/ann/.cache',
      '--tmpfs',
      '/blitz home',
      '--remount-ro',
      '/blitz home',
      '--tmpfs',
      '/home/ann/.ssh',
      '--remount-ro',
      '/home/ann/.ssh',
      '--',
      'node',
      'server.js',
      '--flag',
    ]);
  });

  it('keeps the network and the session: no --unshare-net, --unshare-all or --new-session', () => {
    const argv = bwrapArgs(paths, 'node', []);
    expect(argv.filter((a) => /net|all|session/.test(a))).toEqual([]);
  });
});

describe('seatbeltProfile', () => {
  it('denies writes except to the writable paths, then denies reading the hidden ones', () => {
    expect(seatbeltProfile(paths)).toBe(
      [
        '(version 1)',
        '(allow default)',
        '(deny file-write*)',
        '(allow file-write*',
        '  (subpath (param "WRITABLE_0"))',
        '  (subpath (param "WRITABLE_1"))',
        '  (subpath (param "WRITABLE_2"))',
        '  (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper")',
        '  (regex #"^/dev/tty") (regex #"^/dev/fd/"))',
        '(deny file-read* file-write*',
        '  (subpath (param "HIDDEN_0"))',
        '  (subpath (param "HIDDEN_1"))',
        ')',
        '',
      ].join('\n'),
    );
  });

  it('writes no unfiltered deny, which would deny every file, when nothing is hidden', () => {
    expect(seatbeltProfile({ writable: ['/w'], hidden: [] })).not.toContain('file-read*');
  });

  it('passes paths as parameters, never inside the profile text', () => {
    const tricky: SandboxPaths = { writable: ['/w/") (allow file-write* (subpath "/'], hidden: [] };
    const argv = sandboxExecArgs(tricky, 'node', ['s.js']);
    expect(argv[0]).toBe('-p');
    expect(argv[1]).not.toContain('/w/');
    expect(argv.slice(2)).toEqual(['-D', 'WRITABLE_0=/w/") (allow file-write* (subpath "/', 'node', 's.js']);
  });
});

describe('createSandbox', () => {
  const line = { command: 'node', args: ['s.js'] };
  const base = { blitzHome: '/b', home: undefined, tmpDir: '/t', exists: () => false };

  it('wraps in bwrap on Linux', () => {
    const sandbox = createSandbox({
      ...base,
      warn: () => {},
      platform: 'linux',
      which: (n) => (n === 'bwrap' ? '/usr/bin/bwrap' : undefined),
    });
    const wrapped = sandbox.wrap('srv', line, '/w');
    expect(wrapped.command).toBe('/usr/bin/bwrap');
    expect(wrapped.args).toEqual(
      bwrapArgs({ writable: ['/w', '/t'], hidden: [] }, '/bin/sh', ['-c', 'exec "$@" 1>&3 3>&-', 'sh', 'node', 's.js']),
    );
    expect(wrapped.stdoutFd).toBe(3);
    expect(wrapped.leaderIsWrapper).toBe(true);
  });

  it('binds sandbox_write paths on Linux, creating a missing one as a folder first', () => {
    const made: string[] = [];
    const sandbox = createSandbox({
      ...base,
      warn: () => {},
      platform: 'linux',
      which: () => '/usr/bin/bwrap',
      makeDir: (p) => made.push(p),
    });
    const wrapped = sandbox.wrap('srv', line, '/w', ['/data/mem']);
    expect(made).toEqual(['/data/mem']);
    expect(wrapped.args).toEqual(
      bwrapArgs({ writable: ['/w', '/t', '/data/mem'], hidden: [] }, '/bin/sh', ['-c', 'exec "$@" 1>&3 3>&-', 'sh', 'node', 's.js']),
    );
    expect(sandbox.writable('/w', ['/data/mem'])).toEqual(['/w', '/t', '/data/mem']);
  });

  it('refuses on Linux without bwrap, naming the server', () => {
    const sandbox = createSandbox({ ...base, warn: () => {}, platform: 'linux', which: () => undefined });
    let err: unknown;
    try {
      sandbox.wrap('github', line, '/w');
    } catch (e) {
      err = e;
    }
    expect(isBlitzError(err, 'FAILED_PRECONDITION')).toBe(true);
    expect((err as Error).message).toBe('sandbox unavailable: install bubblewrap, or set sandbox = false for github');
  });

  it('uses sandbox-exec on macOS', () => {
    const wrapped = createSandbox({ ...base, warn: () => {}, platform: 'darwin' }).wrap('srv', line, '/w');
    expect(wrapped.command).toBe('/usr/bin/sandbox-exec');
    expect(wrapped.args.slice(2)).toEqual(['-D', 'WRITABLE_0=/w', '-D', 'WRITABLE_1=/t', 'node', 's.js']);
  });

  it('passes the command through on Windows, warning once', () => {
    const warnings: string[] = [];
    const sandbox = createSandbox({ ...base, warn: (m) => warnings.push(m), platform: 'win32' });
    expect(sandbox.wrap('a', line, 'C:\\w')).toEqual({ ...line, leaderIsWrapper: false, contained: false });
    expect(sandbox.wrap('b', line, 'C:\\w')).toEqual({ ...line, leaderIsWrapper: false, contained: false });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('no sandbox on win32');
  });
});
