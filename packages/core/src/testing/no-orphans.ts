/**
 * Test support: find processes a test left running. Linux only (reads /proc); elsewhere
 * every check passes vacuously.
 *
 * Descendants are found through ppid chains. A grandchild whose parent died is re-parented
 * to init and drops out of that chain, so callers can also name sessions to search: a
 * process spawned `detached` leads its own session, whose id is its pid, and everything it
 * starts stays in it.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  /** R, S, D, Z, … from /proc/<pid>/stat. */
  state: string;
  command: string;
}

export const canListProcesses = existsSync('/proc/self/stat');

function readProcess(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may itself contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return {
      pid,
      state: fields[0]!,
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
      sid: Number(fields[3]),
      command: cmdline || stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    };
  } catch {
    return undefined; // Gone between listing and reading.
  }
}

/** Every process still alive (zombies, already dead and waiting to be reaped, left out). */
export function listProcesses(): ProcessInfo[] {
  if (!canListProcesses) return [];
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProcess(Number(name)))
    .filter((p): p is ProcessInfo => p !== undefined && p.state !== 'Z' && p.state !== 'X');
}

/** Live descendants of `rootPid`, plus any live member of the given sessions. */
export function liveDescendants(rootPid: number = process.pid, sessions: Iterable<number> = []): ProcessInfo[] {
  const all = listProcesses();
  const wanted = new Set(sessions);
  const byParent = new Map<number, ProcessInfo[]>();
  for (const p of all) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), p]);
  const found = new Map<number, ProcessInfo>();
  const queue = [rootPid];
  while (queue.length > 0) {
    for (const child of byParent.get(queue.shift()!) ?? []) {
      if (!found.has(child.pid)) {
        found.set(child.pid, child);
        queue.push(child.pid);
      }
    }
  }
  for (const p of all) if (wanted.has(p.sid) && p.pid !== rootPid) found.set(p.pid, p);
  return [...found.values()].sort((a, b) => a.pid - b.pid);
}

export function isAlive(pid: number): boolean {
  const p = canListProcesses ? readProcess(pid) : undefined;
  return p !== undefined && p.state !== 'Z' && p.state !== 'X';
}

/**
 * Waits until no descendant of this process (and no member of `sessions`) is alive; throws,
 * listing them, if some still are after `timeoutMs`. Killed processes take a moment to go.
 */
export async function assertNoOrphans(options: { rootPid?: number; sessions?: Iterable<number>; timeoutMs?: number } = {}): Promise<void> {
  const sessions = [...(options.sessions ?? [])];
  const deadline = Date.now() + (options.timeoutMs ?? 5_000);
  for (;;) {
    const left = liveDescendants(options.rootPid, sessions);
    if (left.length === 0) return;
    if (Date.now() > deadline) {
      const list = left.map((p) => `  ${p.pid} (ppid ${p.ppid}, pgid ${p.pgid}, sid ${p.sid}, ${p.state}) ${p.command}`).join('\n');
      throw new Error(`processes left running:\n${list}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Live processes run as `node -e SCRIPT MARK`: how a test finds, by its pid outside, a helper
 * that ran inside a pid namespace (where the pid it knows itself by means nothing to us).
 */
export function helpersMarked(mark: string): number[] {
  return listProcesses()
    .filter((p) => {
      try {
        const argv = readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
        return argv[1] === '-e' && argv.at(-1) === mark;
      } catch {
        return false;
      }
    })
    .map((p) => p.pid);
}
