import { readFileSync, readdirSync } from 'node:fs';

/**
 * Sends `signal` to every process in group `pgid` (POSIX). With `spareLeader`, the leader is
 * left out: a wrapper such as bubblewrap dies of SIGTERM without passing it on, and its death
 * would SIGKILL the server it wraps before the server could shut down. Spared, it exits when
 * its child does. Sparing needs /proc; without it the whole group is signalled.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals, options: { spareLeader?: boolean } = {}): void {
  const members = options.spareLeader ? groupMembers(pgid) : undefined;
  if (members === undefined) {
    trySignal(-pgid, signal);
    return;
  }
  for (const pid of members) if (pid !== pgid) trySignal(pid, signal);
}

function trySignal(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: already gone, which is the goal.
  }
}

/**
 * The pids in group `pgid`, from /proc; undefined where there is no /proc. With `live`, zombies
 * (dead, their parent yet to reap them) are left out.
 */
export function groupMembers(pgid: number, options: { live?: boolean } = {}): number[] | undefined {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const members: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after "(comm)": state, ppid, pgrp, …; comm itself may hold spaces and parentheses.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) !== pgid) continue;
      if (options.live && (state === 'Z' || state === 'X')) continue;
      members.push(Number(name));
    } catch {
      // Exited while we looked.
    }
  }
  return members;
}
