import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixtureCommand } from '../../testing/fixture-servers.js';
import { assertNoOrphans, canListProcesses, helpersMarked, isAlive } from '../../testing/no-orphans.js';
import { serverConfig } from '../../testing/server-config.js';
import { createContainment, type Containment } from './containment.js';
import type { OwnedProcess } from './owned-process.js';
import { findOnPath } from './find-on-path.js';
import { createSandbox, probeBubblewrap } from './sandbox.js';
import { spawnServer } from './spawn-server.js';

describe('createContainment', () => {
  const which = (found: string[]) => (name: string) => (found.includes(name) ? `/usr/bin/${name}` : undefined);
  const line = { command: '/usr/bin/node', args: ['server.js'] };

  it('prefers bubblewrap with only a pid namespace, when it runs here', () => {
    const tried: string[] = [];
    const c = createContainment({ platform: 'linux', which: which(['bwrap', 'unshare', 'true']), runs: (cmd) => (tried.push(cmd), true) });
    expect(c.wrap(line)).toEqual({
      command: '/usr/bin/bwrap',
      // The server's stdout on fd 3, so that bwrap's own processes hold no copy of it (issue 25.7).
      args: [
        '--die-with-parent',
        '--unshare-pid',
        '--dev-bind',
        '/',
        '/',
        '--proc',
        '/proc',
        '--',
        '/bin/sh',
        '-c',
        'exec "$@" 1>&3 3>&-',
        'sh',
        '/usr/bin/node',
        'server.js',
      ],
      leaderIsWrapper: true,
      contained: true,
      stdoutFd: 3,
    });
    c.wrap(line);
    expect(c.kind()).toBe('bwrap');
    expect(tried).toEqual(['/usr/bin/bwrap']); // Tried once, on first use.
  });

  it('falls back to unshare, with a user namespace when not root', () => {
    const runs = (cmd: string) => cmd.endsWith('unshare');
    expect(createContainment({ platform: 'linux', which: which(['bwrap', 'unshare']), runs, root: false }).wrap(line).args).toEqual([
      '--pid',
      '--fork',
      '--kill-child',
      '--mount-proc',
      '--user',
      '--map-current-user',
      '--',
      '/usr/bin/node',
      'server.js',
    ]);
    expect(createContainment({ platform: 'linux', which: which(['unshare']), runs, root: true }).wrap(line)).toEqual({
      command: '/usr/bin/unshare',
      args: ['--pid', '--fork', '--kill-child', '--mount-proc', '--', '/usr/bin/node', 'server.js'],
      leaderIsWrapper: true,
      contained: true,
    });
  });

  it('scans the tree where nothing works, saying so once on Linux', () => {
    const warnings: string[] = [];
    const c = createContainment({
      platform: 'linux',
      which: which(['bwrap', 'unshare']),
      runs: () => false,
      warn: (m) => warnings.push(m),
    });
    expect(c.wrap(line)).toEqual({ ...line, leaderIsWrapper: false, contained: false });
    c.wrap(line);
    expect(c.kind()).toBe('scan');
    expect(warnings).toEqual([expect.stringContaining('no pid namespace here')]);
    const mac = createContainment({ platform: 'darwin', runs: () => true, warn: (m) => warnings.push(m) });
    expect(mac.kind()).toBe('scan');
    expect(warnings).toHaveLength(1);
  });
});

// For real: a server whose helper runs `setsid --fork` and so is orphaned before any scan can see it.
const here = process.platform === 'linux' && canListProcesses ? createContainment() : undefined;
const contained = here !== undefined && here.kind() !== 'scan';
const bwrapOk = process.platform === 'linux' && probeBubblewrap().ok;
const withoutBwrap = createContainment({ which: (name) => (name === 'bwrap' ? undefined : findOnPath(name, process.env.PATH ?? '')) });

describe.skipIf(!contained)(`an orphaned helper ends with its server (${here?.kind() ?? 'not Linux'})`, () => {
  let dir: string;
  let proc: OwnedProcess | undefined;
  let marked: number[] = [];

  afterEach(async () => {
    await proc?.close();
    proc = undefined;
    const left = marked.filter(isAlive);
    for (const pid of left) process.kill(pid, 'SIGKILL');
    marked = [];
    rmSync(dir, { recursive: true, force: true });
    await assertNoOrphans();
    expect(left, 'helpers that outlived their server').toEqual([]);
  });

  async function startOrphaning(sandbox: boolean, containment: Containment | undefined): Promise<number> {
    dir = mkdtempSync(path.join(os.tmpdir(), 'blitz-contain-'));
    const mark = `blitz-orphan-${randomUUID()}`;
    const pidFile = path.join(dir, 'pid');
    const { command, args } = fixtureCommand('spawn-grandchild', ['--orphan', mark]);
    const config = serverConfig('orphaning', {
      transport: { kind: 'stdio', command, args, env: { GRANDCHILD_PID_FILE: pidFile } },
      sandbox,
    });
    proc = spawnServer(config, {
      workspaceDir: dir,
      sandbox: createSandbox({ blitzHome: path.join(dir, 'home'), tmpDir: dir, warn: () => {} }),
      ...(containment ? { containment } : {}),
      graceMs: 200,
    });
    await vi.waitFor(() => expect(readFileSync(pidFile, 'utf8')).toBe(mark), { timeout: 10_000 });
    await vi.waitFor(() => expect(helpersMarked(mark)).toHaveLength(1), { timeout: 10_000 });
    marked = helpersMarked(mark);
    return marked[0]!;
  }

  it('unsandboxed: in the pid namespace of the containment', async () => {
    const helper = await startOrphaning(false, here);
    expect(isAlive(helper)).toBe(true);
    await proc!.close();
    await vi.waitFor(() => expect(isAlive(helper)).toBe(false), { timeout: 5_000 });
  });

  it.skipIf(!canListProcesses || withoutBwrap.kind() !== 'unshare')(
    'unsandboxed, where only unshare works: in its pid namespace',
    async () => {
      const helper = await startOrphaning(false, withoutBwrap);
      await proc!.close();
      await vi.waitFor(() => expect(isAlive(helper)).toBe(false), { timeout: 5_000 });
    },
  );

  it.skipIf(!bwrapOk)('sandboxed: in the sandbox’s pid namespace', async () => {
    const helper = await startOrphaning(true, undefined);
    await proc!.close();
    await vi.waitFor(() => expect(isAlive(helper)).toBe(false), { timeout: 5_000 });
  });

  it('unsandboxed, the server exiting by itself takes the helper with it', async () => {
    const helper = await startOrphaning(false, here);
    proc!.stdin.end();
    await proc!.exited;
    await vi.waitFor(() => expect(isAlive(helper)).toBe(false), { timeout: 5_000 });
  });
});
