import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { systemClock, type Clock } from '@blitz/clock';
import { BlitzError } from '../../errors/blitz-error.js';
import type { CommandLine } from './command-line.js';
import { groupMembers, signalGroup } from './process-group.js';
import { descendantsOf, isSameProcess, signalProcesses, type ProcessId } from './process-tree.js';
import { StderrRing } from './stderr-ring.js';

/** How long each polite step of `close()` waits before the next, harsher one. */
export const DEFAULT_GRACE_MS = 5_000;
/** How long after the exit we wait for the pipes to deliver what the process wrote last. */
export const DEFAULT_DRAIN_MS = 200;
/** How often `close()` looks whether the group's last members have died of their SIGKILL. */
export const GROUP_GONE_POLL_MS = 10;
/** How often the process tree is looked at (Linux, cheap: /proc's children files), to know descendants before they are orphaned. */
export const DEFAULT_TREE_SCAN_MS = 2_000;
/**
 * While the tree stays the same, each look waits twice as long as the last, up to this many
 * times the scan period: a hundred idle servers would otherwise cost the daemon half a percent
 * of a core for looks that find nothing. A change brings the period back.
 */
export const TREE_SCAN_BACKOFF_MAX = 8;

/** How a process ended; `error` is set when it never started (e.g. `ENOENT`). */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: Error;
}

export interface OwnedProcessOptions extends CommandLine {
  /** The complete environment; nothing of the daemon's is added (see `childEnv`). */
  env: Record<string, string>;
  cwd: string;
  platform?: NodeJS.Platform;
  clock?: Clock;
  graceMs?: number;
  drainMs?: number;
  stderrBytes?: number;
  /** Sees every stderr chunk, e.g. to log it; the ring keeps the tail regardless. */
  onStderr?: (chunk: Buffer) => void;
  /** The leader only wraps the server (bubblewrap): SIGTERM goes to the rest of its group. */
  leaderIsWrapper?: boolean;
  /** The server runs in a pid namespace that ends with it (see `Containment`): the tree is not looked at while it runs. */
  contained?: boolean;
  /** The server's stdout is this fd of the process started (`viaFd3`); its fd 1 is then /dev/null. */
  stdoutFd?: 3;
  /**
   * Hears the descendants known so far whenever they change, e.g. to record them for a
   * daemon that restarts after being killed (`state/children.json`).
   */
  onDescendants?: (leader: number, descendants: readonly ProcessId[]) => void;
  /** How often to look at the tree on Linux (default 2 s, less often while it stays the same; 0: only when stopping). Elsewhere only when stopping. */
  treeScanMs?: number;
}

/**
 * A child process we own from spawn to reaping. It leads its own process group (POSIX), so
 * everything it starts can be killed with it, and its exit is noticed the moment it happens,
 * not when its pipes close: a grandchild holding stderr must not hide a crash.
 */
export class OwnedProcess {
  readonly pid: number | undefined;
  readonly stdin: Writable;
  readonly stdout: Readable;
  /** The last `stderrBytes` (64 KB) of stderr. */
  readonly stderr: StderrRing;
  /** Settles once the OS has started the process; rejects with `SERVER_UNAVAILABLE` if it could not. */
  readonly spawned: Promise<void>;
  /** Resolves as soon as the process has exited or failed to start. */
  readonly exited: Promise<ProcessExit>;
  /** Resolves after `exited`, once stdout and stderr are drained (or `drainMs` has passed). */
  readonly ended: Promise<ProcessExit>;

  readonly #platform: NodeJS.Platform;
  readonly #clock: Clock;
  readonly #graceMs: number;
  readonly #leaderIsWrapper: boolean;
  readonly #onDescendants: OwnedProcessOptions['onDescendants'];
  /** Every descendant seen while the tree was whole, whatever its group or session: ended with the process. */
  readonly #descendants = new Map<number, ProcessId>();
  #scanTimer: { cancel(): void } | undefined;
  #exit: ProcessExit | undefined;
  #closing: Promise<ProcessExit> | undefined;

  static spawn(options: OwnedProcessOptions): OwnedProcess {
    return new OwnedProcess(options);
  }

  private constructor(options: OwnedProcessOptions) {
    this.#platform = options.platform ?? process.platform;
    this.#clock = options.clock ?? systemClock;
    this.#graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    this.#leaderIsWrapper = options.leaderIsWrapper ?? false;
    this.#onDescendants = options.onDescendants;
    this.stderr = new StderrRing(options.stderrBytes);

    let child: ChildProcess;
    try {
      child = spawn(options.command, options.args, {
        cwd: options.cwd,
        env: options.env,
        stdio: options.stdoutFd === 3 ? ['pipe', 'ignore', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
        // Its own process group, so close() can signal everything it started.
        detached: this.#platform !== 'win32',
        windowsHide: true,
        windowsVerbatimArguments: options.windowsVerbatimArguments ?? false,
      });
    } catch (err) {
      throw new BlitzError('SERVER_UNAVAILABLE', `could not start ${options.command}: ${(err as Error).message}`, { cause: err });
    }
    this.pid = child.pid;
    this.stdin = child.stdin!;
    this.stdout = (options.stdoutFd === 3 ? child.stdio[3] : child.stdout) as Readable;
    const stderr = child.stderr!;

    // A dead process's pipes raise EPIPE and friends; its exit is what we report.
    this.stdin.on('error', () => {});
    this.stdout.on('error', () => {});
    stderr.on('error', () => {});
    // Always read stderr, or a chatty server blocks once the pipe buffer is full.
    stderr.on('data', (chunk: Buffer) => {
      this.stderr.append(chunk);
      options.onStderr?.(chunk);
    });

    let started = false;
    this.spawned = new Promise<void>((resolve, reject) => {
      child.once('spawn', () => {
        started = true;
        resolve();
        // Contained, an orphaned helper is still in the namespace that dies with the server.
        const every = options.contained ? 0 : (options.treeScanMs ?? DEFAULT_TREE_SCAN_MS);
        if (this.#platform === 'linux' && every > 0) this.#scanEvery(every, every);
      });
      child.once('error', (err) => {
        if (!started) reject(new BlitzError('SERVER_UNAVAILABLE', `could not start ${options.command}: ${err.message}`, { cause: err }));
      });
    });
    this.spawned.catch(() => {}); // Reported through `exited` too; awaiting it still throws.

    this.exited = new Promise<ProcessExit>((resolve) => {
      child.once('exit', (code, signal) => resolve(this.#onExit({ code, signal })));
      child.once('error', (error) => {
        if (!started) resolve(this.#onExit({ code: null, signal: null, error }));
      });
    });

    const pipesClosed = Promise.all([this.stdout, stderr].map((s) => new Promise((r) => (s.closed ? r(null) : s.once('close', r)))));
    const drainMs = options.drainMs ?? DEFAULT_DRAIN_MS;
    this.ended = this.exited.then(async (exit) => {
      await this.#settlesWithin(pipesClosed, drainMs);
      return exit;
    });
  }

  /** How the process ended, once it has. */
  get exit(): ProcessExit | undefined {
    return this.#exit;
  }

  /** Whether the process exits within `ms` (on the injected clock). */
  exitsWithin(ms: number): Promise<boolean> {
    return this.#exit ? Promise.resolve(true) : this.#settlesWithin(this.exited, ms);
  }

  /**
   * Stops the process and everything in its group; resolves with how the leader ended, once no
   * member of the group lives. Calling it again, or after the process exited by itself, still
   * makes sure the group is gone.
   */
  close(): Promise<ProcessExit> {
    // A last look while the leader lives: what it started is still its descendant now.
    this.#scanTree();
    this.#scanTimer?.cancel();
    this.#closing ??= this.#closeSequence();
    return this.#closing.then(async (exit) => {
      this.#killGroup();
      await this.#groupGone();
      return exit;
    });
  }

  /**
   * Waits, up to one grace period, until the group's members have died of the SIGKILL they were
   * sent: a process killed still has to be scheduled and to free its memory, so a small leader's
   * exit (a wrapper such as bubblewrap above all) can be heard while the server it wraps still
   * runs. Each look sends the SIGKILL again. Linux only: elsewhere there is no /proc to look in.
   *
   * Real timers, not the injected Clock: this waits on the kernel finishing a kill, as awaiting
   * an exit event does, not on a delay of Blitz's; under a FakeClock nobody advances, a daemon's
   * stop hung whenever a member was still dying (status-answers.test.ts, 2 runs of 5 under load).
   */
  async #groupGone(): Promise<void> {
    if (this.pid === undefined || this.#platform !== 'linux') return;
    for (let looks = Math.ceil(this.#graceMs / GROUP_GONE_POLL_MS); looks > 0; looks--) {
      if ((groupMembers(this.pid, { live: true })?.length ?? 0) === 0) return;
      await new Promise<void>((resolve) => setTimeout(resolve, GROUP_GONE_POLL_MS));
      this.#killGroup();
    }
  }

  async #closeSequence(): Promise<ProcessExit> {
    // The close sequence, politest first:
    // (1) close stdin: a well-behaved MCP server exits on end of input; wait up to graceMs.
    // (2) SIGTERM the process group, wait up to graceMs (skipped on Windows: no such signal).
    // (3) SIGKILL the group (Windows: taskkill /T /F) and wait for the exit, however long.
    // (4) once the leader is gone, SIGKILL the group again: a grandchild may outlive its parent.
    if (this.#exit) return this.#exit;
    this.stdin.end();
    if (await this.exitsWithin(this.#graceMs)) return this.exited;
    if (this.#platform !== 'win32' && this.pid !== undefined) {
      signalGroup(this.pid, 'SIGTERM', { spareLeader: this.#leaderIsWrapper });
      // Descendants in a session or group of their own (setsid) hear it too.
      signalProcesses([...this.#descendants.values()], 'SIGTERM');
      if (await this.exitsWithin(this.#graceMs)) return this.exited;
    }
    this.#killGroup();
    return this.exited;
  }

  #onExit(exit: ProcessExit): ProcessExit {
    this.#exit = exit;
    this.#scanTimer?.cancel();
    // Step (4) right away: the group id cannot have been reused while its members live.
    this.#killGroup();
    return exit;
  }

  #settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = this.#clock.setTimeout(() => resolve(false), ms);
      void promise.then(() => {
        timer.cancel();
        resolve(true);
      });
    });
  }

  #killGroup(): void {
    if (this.pid === undefined) return;
    if (this.#platform === 'win32') {
      // Windows has no process groups; taskkill walks the tree (by parent, as ours does) while the root is alive.
      if (this.#exit) return;
      spawn('taskkill', ['/T', '/F', '/PID', String(this.pid)], { stdio: 'ignore', windowsHide: true }).on('error', () => {});
      return;
    }
    signalGroup(this.pid, 'SIGKILL');
    // Descendants in a session or group of their own (setsid) are not in the group.
    signalProcesses([...this.#descendants.values()], 'SIGKILL');
    this.#prune();
  }

  /** Looks at the tree in `ms`, then again: after `base` when it changed, otherwise after twice `ms` (at most `TREE_SCAN_BACKOFF_MAX` × `base`). */
  #scanEvery(ms: number, base: number): void {
    this.#scanTimer = this.#clock.setTimeout(() => {
      if (this.#exit || this.#closing) return;
      const changed = this.#scanTree();
      this.#scanEvery(changed ? base : Math.min(ms * 2, base * TREE_SCAN_BACKOFF_MAX), base);
    }, ms);
  }

  /** Adds what is in the tree now to what was seen; drops what has ended; tells `onDescendants` of a change, and returns whether there was one. */
  #scanTree(): boolean {
    if (this.pid === undefined || this.#exit || this.#platform === 'win32') return false;
    let changed = false;
    for (const p of descendantsOf(this.pid, this.#platform)) {
      if (this.#descendants.has(p.pid)) continue;
      this.#descendants.set(p.pid, p);
      changed = true;
    }
    if (this.#prune()) changed = true;
    if (changed) this.#onDescendants?.(this.pid, [...this.#descendants.values()]);
    return changed;
  }

  #prune(): boolean {
    let pruned = false;
    for (const [pid, p] of this.#descendants) {
      if (isSameProcess(p)) continue;
      this.#descendants.delete(pid);
      pruned = true;
    }
    return pruned;
  }
}
