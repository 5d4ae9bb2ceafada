import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { processStart } from '@blitz/process';

/** A process as recorded: its pid and, on Linux, its kernel start time, so a reused pid is never taken for it. */
export interface ProcessId {
  pid: number;
  start?: string;
}

/**
 * Every live descendant of `root`, found by parent pid whatever its process group or session:
 * a grandchild that called `setsid()` leaves the group `close()` signals, not the tree.
 * Linux reads /proc (each task's `children`, else every process's stat); macOS asks
 * `ps -A -o pid=,ppid=`. Windows is left to `taskkill /T`, which walks the same tree.
 *
 * The limit: a descendant whose parent has died is re-parented (to init or a subreaper) and
 * is no longer found from `root`. So callers look while the tree is whole — periodically and
 * just before stopping — and keep what they saw.
 */
export function descendantsOf(root: number, platform: NodeJS.Platform = process.platform): ProcessId[] {
  const children = platform === 'linux' ? linuxChildren() : platform === 'darwin' ? psChildren() : undefined;
  if (!children) return [];
  const found: ProcessId[] = [];
  const seen = new Set([root]);
  const queue = [root];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    for (const child of children(pid)) {
      if (seen.has(child)) continue;
      seen.add(child);
      queue.push(child);
      const start = platform === 'linux' ? processStart(child) : undefined;
      found.push(start === undefined ? { pid: child } : { pid: child, start });
    }
  }
  return found;
}

/** Whether `p` is still the very process recorded (same start time where one is known). */
export function isSameProcess(p: ProcessId): boolean {
  if (p.start !== undefined) return processStart(p.pid) === p.start;
  try {
    process.kill(p.pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Signals each recorded process that is still the one recorded; gone ones are skipped. */
export function signalProcesses(processes: readonly ProcessId[], signal: NodeJS.Signals): void {
  for (const p of processes) {
    if (!isSameProcess(p)) continue;
    try {
      process.kill(p.pid, signal);
    } catch {
      // ESRCH: gone meanwhile, which is the goal.
    }
  }
}

type ChildrenOf = (pid: number) => number[];

/** Whether this kernel has /proc/PID/task/TID/children, asked once. */
let childrenFiles: boolean | undefined;

function linuxChildren(): ChildrenOf | undefined {
  // Each task's `children` file names that thread's children: cheap, the tree only.
  childrenFiles ??= readChildrenFiles(process.pid) !== undefined;
  if (childrenFiles) return (pid) => readChildrenFiles(pid) ?? [];
  try {
    return byParent(linuxParents());
  } catch {
    return undefined; // No /proc at all.
  }
}

function readChildrenFiles(pid: number): number[] | undefined {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const task of tasks) {
    try {
      for (const word of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ')) if (word) children.push(Number(word));
    } catch (err) {
      // A kernel without CONFIG_PROC_CHILDREN has no such file at all; a task may also have just ended.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && pid === process.pid) return undefined;
    }
  }
  return children;
}

/** Every process's parent, from /proc/PID/stat. */
function linuxParents(): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after "(comm)": state, ppid, …; comm itself may hold spaces and parentheses.
      pairs.push([Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])]);
    } catch {
      // Exited while we looked.
    }
  }
  return pairs;
}

function psChildren(): ChildrenOf | undefined {
  const ps = spawnSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8', timeout: 5_000 });
  if (ps.status !== 0 || typeof ps.stdout !== 'string') return undefined;
  return byParent(parsePsPairs(ps.stdout));
}

/** `ps -o pid=,ppid=` output: two numbers a line. */
export function parsePsPairs(text: string): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (const line of text.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s*$/.exec(line);
    if (m) pairs.push([Number(m[1]), Number(m[2])]);
  }
  return pairs;
}

/** Children by parent from (pid, ppid) pairs, in one pass: init alone may have thousands of children. */
export function byParent(pairs: ReadonlyArray<[number, number]>): ChildrenOf {
  const map = new Map<number, number[]>();
  for (const [pid, ppid] of pairs) {
    const siblings = map.get(ppid);
    if (siblings) siblings.push(pid);
    else map.set(ppid, [pid]);
  }
  return (pid) => map.get(pid) ?? [];
}
