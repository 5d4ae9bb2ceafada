import fs from 'node:fs';
import { signalProcesses, type ProcessId } from '@blitz/core';
import { processStart } from '@blitz/process';

interface Entry {
  pid: number;
  /** Kernel start time of the process (/proc/PID/stat field 22): a reused pid will not match. */
  start: string;
  /** Its descendants as last seen, whatever their group or session (a setsid grandchild). */
  descendants?: ProcessId[];
}

/**
 * The server processes the daemon runs, kept in `state/children.json`, so that a daemon killed
 * hard (SIGKILL, a crash) leaves nothing running for long: the next daemon ends every recorded
 * process group whose leader is still the very process we started, and every recorded
 * descendant that is still the process seen (a descendant started after the last look, by a
 * parent that died before it, is the limit). Linux only: elsewhere the record stays empty.
 */
export class ChildRecord {
  readonly #file: string;
  readonly #live = new Map<string, Entry>();
  /** Descendants by leader pid: they may be reported before the leader's key is known. */
  readonly #trees = new Map<number, ProcessId[]>();

  constructor(file: string) {
    this.#file = file;
  }

  /** Ends what an earlier daemon left running; returns the pids it ended. */
  reapLeftovers(): number[] {
    let entries: Entry[] = [];
    try {
      entries = JSON.parse(fs.readFileSync(this.#file, 'utf8')) as Entry[];
    } catch {
      return [];
    }
    const reaped = entries.filter((e) => processStart(e.pid) === e.start);
    for (const e of reaped) {
      try {
        process.kill(-e.pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
    const descendants = entries
      .flatMap((e) => (Array.isArray(e.descendants) ? e.descendants : []))
      .filter((d) => d.start !== undefined && processStart(d.pid) === d.start);
    signalProcesses(descendants, 'SIGKILL');
    this.#write();
    return [...reaped, ...descendants].map((e) => e.pid);
  }

  /** A server of `key` (workspace and name) now runs as `pid`, or runs no more (undefined). */
  set(key: string, pid: number | undefined): void {
    const current = this.#live.get(key);
    if (pid === current?.pid) return;
    if (current) this.#trees.delete(current.pid);
    const start = pid === undefined ? undefined : processStart(pid);
    if (pid === undefined || start === undefined) this.#live.delete(key);
    else this.#live.set(key, { pid, start });
    this.#write();
  }

  /** The descendants of the server process `leader`, as seen now. */
  setDescendants(leader: number, descendants: readonly ProcessId[]): void {
    this.#trees.set(leader, [...descendants]);
    if ([...this.#live.values()].some((e) => e.pid === leader)) this.#write();
  }

  clear(): void {
    this.#live.clear();
    this.#trees.clear();
    fs.rmSync(this.#file, { force: true });
  }

  #write(): void {
    // Small and rewritten whole; losing it to a crash mid-write costs only the clean-up.
    const entries = [...this.#live.values()].map((e) => {
      const tree = this.#trees.get(e.pid);
      return tree?.length ? { ...e, descendants: tree } : e;
    });
    fs.writeFileSync(this.#file, JSON.stringify(entries), { mode: 0o600 });
  }
}
