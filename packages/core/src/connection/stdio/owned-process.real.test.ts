import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { isBlitzError } from '../../errors/blitz-error.js';
import { fixtureCommand } from '../../testing/fixture-servers.js';
import { assertNoOrphans, isAlive } from '../../testing/no-orphans.js';
import { OwnedProcess, type OwnedProcessOptions } from './owned-process.js';
import { REAL_WAIT } from '../../testing/real-wait.js';

const started: OwnedProcess[] = [];
const tmpDirs: string[] = [];

function own(line: { command: string; args: string[] }, options: Partial<OwnedProcessOptions> = {}): OwnedProcess {
  const proc = OwnedProcess.spawn({ ...line, env: { PATH: process.env.PATH ?? '' }, cwd: os.tmpdir(), graceMs: 200, ...options });
  started.push(proc);
  return proc;
}

function nodeEval(script: string): { command: string; args: string[] } {
  return { command: process.execPath, args: ['-e', script] };
}

function tmpDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'blitz-owned-'));
  tmpDirs.push(dir);
  return dir;
}

afterEach(async () => {
  const sessions = started.flatMap((p) => (p.pid === undefined ? [] : [p.pid]));
  await Promise.all(started.splice(0).map((p) => p.close()));
  for (const dir of tmpDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  await assertNoOrphans({ sessions });
});

describe('OwnedProcess', () => {
  it.skipIf(!existsSync('/proc/self/stat'))(
    'ends a descendant that left its group with setsid(), on close and after it was seen by the tree scan',
    async () => {
      const pidFile = path.join(tmpDir(), 'grandchild.pid');
      const clock = new FakeClock();
      const seen: number[][] = [];
      const proc = own(fixtureCommand('spawn-grandchild', ['--setsid']), {
        env: { PATH: process.env.PATH ?? '', GRANDCHILD_PID_FILE: pidFile },
        clock,
        treeScanMs: 1_000,
        onDescendants: (_leader, d) => seen.push(d.map((p) => p.pid)),
      });
      await proc.spawned;
      await vi.waitFor(() => expect(readFileSync(pidFile, 'utf8')).not.toBe(''), { timeout: 10_000 });
      const grandchild = Number(readFileSync(pidFile, 'utf8'));
      clock.advance(1_000);
      expect(seen.at(-1)).toContain(grandchild);
      await proc.close();
      await vi.waitFor(() => expect(isAlive(grandchild)).toBe(false), { timeout: 5_000 });
    },
  );

  it.skipIf(!existsSync('/proc/self/stat'))(
    'looks at an unchanged tree less and less often, and every treeScanMs again once it changed',
    async () => {
      const pidFile = path.join(tmpDir(), 'grandchildren.pid');
      const clock = new FakeClock();
      const seen: number[][] = [];
      // Starts a grandchild in a session of its own for each line on stdin, and adds its pid to the file.
      const script = `process.stdin.on('data', () => { const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' }); require('node:fs').appendFileSync(${JSON.stringify(pidFile)}, c.pid + ' '); }); process.stdin.on('end', () => process.exit(0));`;
      const proc = own(nodeEval(script), { clock, treeScanMs: 1_000, onDescendants: (_leader, d) => seen.push(d.map((p) => p.pid)) });
      const grandchild = async (n: number): Promise<number> => {
        proc.stdin.write('go\n');
        await vi.waitFor(() => expect(existsSync(pidFile) ? readFileSync(pidFile, 'utf8').trim().split(' ') : []).toHaveLength(n), {
          timeout: 10_000,
        });
        return Number(readFileSync(pidFile, 'utf8').trim().split(' ')[n - 1]);
      };
      await proc.spawned;
      clock.advance(1_000); // look 1 (t = 1 s): nothing new, next in 2 s
      clock.advance(2_000); // look 2 (t = 3 s): nothing new, next in 4 s (t = 7 s)
      const first = await grandchild(1);
      clock.advance(3_000); // t = 6 s: no look yet
      expect(seen).toEqual([]);
      clock.advance(1_000); // look 3 (t = 7 s) finds it; the next look is 1 s away again
      expect(seen).toEqual([[first]]);
      const second = await grandchild(2);
      clock.advance(1_000); // look 4 (t = 8 s)
      expect(seen).toEqual([[first], [first, second]]);
    },
  );

  it('notices the exit code at once', async () => {
    const proc = own(nodeEval('process.exit(7)'));
    await proc.spawned;
    expect(await proc.exited).toEqual({ code: 7, signal: null });
    expect(proc.exit).toEqual({ code: 7, signal: null });
  });

  it('notices the exit even while a grandchild holds its stderr, and takes the grandchild down', async () => {
    const dir = tmpDir();
    const pidFile = path.join(dir, 'pid');
    const proc = own(
      nodeEval(`
        const child = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: ['ignore', 'ignore', 'inherit'] });
        require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));
        process.stderr.write('parent going\\n');
        process.exit(5);`),
      { drainMs: 30_000 },
    );
    expect(await proc.exited).toEqual({ code: 5, signal: null });
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    // The group is killed at the leader's exit, so the pipes close and `ended` needs no timer.
    await proc.ended;
    await vi.waitFor(() => expect(isAlive(grandchild)).toBe(false), REAL_WAIT);
    expect(proc.stderr.text()).toContain('parent going');
  });

  it('reports a command that does not exist as SERVER_UNAVAILABLE', async () => {
    const proc = own({ command: 'blitz-no-such-command-here', args: [] });
    const err = await proc.spawned.catch((e: unknown) => e);
    expect(isBlitzError(err, 'SERVER_UNAVAILABLE')).toBe(true);
    expect((err as Error).message).toContain('ENOENT');
    const exit = await proc.exited;
    expect(exit.error?.message).toContain('ENOENT');
    await proc.close();
  });

  it('passes exactly the environment and cwd it is given', async () => {
    const dir = tmpDir();
    const proc = own(nodeEval('process.stdout.write(JSON.stringify({ env: process.env, cwd: process.cwd() }))'), {
      env: { ONLY_THIS: 'yes' },
      cwd: dir,
    });
    const chunks: Buffer[] = [];
    proc.stdout.on('data', (c: Buffer) => chunks.push(c));
    await proc.ended;
    const seen = JSON.parse(Buffer.concat(chunks).toString()) as { env: Record<string, string>; cwd: string };
    expect(seen.env).toEqual({ ONLY_THIS: 'yes' });
    expect(seen.cwd).toBe(dir);
  });

  it('leads its own process group', async () => {
    const proc = own(nodeEval('setInterval(() => {}, 1000)'));
    await proc.spawned;
    const stat = readFileSync(`/proc/${proc.pid}/stat`, 'utf8');
    const [, , pgid, sid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    expect(Number(pgid)).toBe(proc.pid);
    expect(Number(sid)).toBe(proc.pid);
  });

  it('keeps the last 64 KB of a stderr flood', async () => {
    const proc = own(fixtureCommand('flood-stderr', ['4']), { env: { PATH: process.env.PATH ?? '' } });
    await vi.waitFor(() => expect(proc.stderr.text()).toContain('flood-stderr: last line'), { timeout: 20_000 });
    expect(proc.stderr.size).toBe(64 * 1024);
    expect(proc.stderr.lastLines(2)[0]).toMatch(/^flood 0004095 x+$/);
    expect(proc.exit).toBeUndefined();
  });

  describe('close()', () => {
    it('(1) ends a server that exits when stdin closes, without signals', async () => {
      // A long grace period: the test passes as soon as the process exits, however slow the machine.
      const proc = own(nodeEval("process.stdin.resume(); process.stdin.on('end', () => process.exit(0))"), { graceMs: 30_000 });
      await proc.spawned;
      expect(await proc.close()).toEqual({ code: 0, signal: null });
    });

    it('(2) sends SIGTERM when stdin closing is not enough', async () => {
      const proc = own(nodeEval('process.stdin.resume(); setInterval(() => {}, 1000)'));
      await proc.spawned;
      expect(await proc.close()).toEqual({ code: null, signal: 'SIGTERM' });
    });

    it('(3) ends a server that ignores stdin and SIGTERM with SIGKILL, each step after the grace period', async () => {
      const clock = new FakeClock();
      const proc = own(fixtureCommand('ignore-sigterm'), { clock, graceMs: 5_000 });
      await vi.waitFor(() => expect(proc.stderr.text()).toContain('ready'), REAL_WAIT);

      const closing = proc.close();
      expect(clock.pendingTimers()).toBe(1);
      await vi.waitFor(() => expect(proc.stderr.text()).toContain('ignoring end of stdin'), REAL_WAIT);
      clock.advance(4_999);
      expect(proc.stderr.text()).not.toContain('ignoring SIGTERM');

      clock.advance(1);
      await vi.waitFor(() => expect(proc.stderr.text()).toContain('ignoring SIGTERM'), REAL_WAIT);
      expect(proc.exit).toBeUndefined();
      await vi.waitFor(() => expect(clock.pendingTimers()).toBe(1), REAL_WAIT);

      clock.advance(5_000);
      expect(await closing).toEqual({ code: null, signal: 'SIGKILL' });
    });

    it('kills the group when the leader exits on stdin close but its grandchild would not', async () => {
      const dir = tmpDir();
      const pidFile = path.join(dir, 'pid');
      const proc = own(fixtureCommand('spawn-grandchild'), {
        env: { PATH: process.env.PATH ?? '', GRANDCHILD_PID_FILE: pidFile },
        graceMs: 30_000,
      });
      await vi.waitFor(() => expect(readFileSync(pidFile, 'utf8')).not.toBe(''), REAL_WAIT);
      const grandchild = Number(readFileSync(pidFile, 'utf8'));
      expect(isAlive(grandchild)).toBe(true);

      expect(await proc.close()).toEqual({ code: 0, signal: null });
      await vi.waitFor(() => expect(isAlive(grandchild)).toBe(false), REAL_WAIT);
    });

    it.skipIf(process.platform !== 'linux')(
      'resolves once the whole group is gone, not when its leader is: a server slow to die of its SIGKILL, too',
      async () => {
        // A shell leading the group, as bubblewrap does, and a server with a large heap, whose
        // exit takes the kernel a while: killed together, the shell's exit is heard first.
        const heap = 'const b = Buffer.alloc(256 * 1024 * 1024, 1); console.log(process.pid); setInterval(() => b[0]++, 1000)';
        const proc = own({ command: '/bin/sh', args: ['-c', '"$0" -e "$1" & wait', process.execPath, heap] });
        let server: number | undefined;
        proc.stdout.once('data', (chunk: Buffer) => (server = Number(chunk.toString())));
        await vi.waitFor(() => expect(server).toBeGreaterThan(0), REAL_WAIT);
        process.kill(-proc.pid!, 'SIGKILL');
        expect(await proc.close()).toEqual({ code: null, signal: 'SIGKILL' });
        expect(isAlive(server!)).toBe(false);
      },
    );

    it('is a no-op after the process exited, and can be called twice', async () => {
      const proc = own(nodeEval('process.exit(2)'));
      await proc.exited;
      expect(await proc.close()).toEqual({ code: 2, signal: null });
      expect(await proc.close()).toEqual({ code: 2, signal: null });
    });
  });
});
