import fs from 'node:fs';
import { processStart } from '@blitz/client';

interface Entry {
  pid: number;
  /** Kernel start time of the process (/proc/PID/stat field 22): a reused pid will not match. */
  start: string;
}

/**
 * The server processes the daemon runs, kept in `state/children.json`, so that a daemon killed
 * hard (SIGKILL, a crash) leaves nothing running for long: the next daemon ends every recorded
 * process group whose leader is still the very process we started. Linux only: elsewhere the
 * record stays empty.
 */
export class ChildRecord {
  readonly #file: string;
  readonly #live = new Map<string, Entry>();

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
    this.#write();
    return reaped.map((e) => e.pid);
  }

  /** A server of `key` (workspace and name) now runs as `pid`, or runs no more (undefined). */
  set(key: string, pid: number | undefined): void {
    const current = this.#live.get(key);
    if (pid === current?.pid) return;
    const start = pid === undefined ? undefined : processStart(pid);
    if (pid === undefined || start === undefined) this.#live.delete(key);
    else this.#live.set(key, { pid, start });
    this.#write();
  }

  clear(): void {
    this.#live.clear();
    fs.rmSync(this.#file, { force: true });
  }

  #write(): void {
    // Small and rewritten whole; losing it to a crash mid-write costs only the clean-up.
    fs.writeFileSync(this.#file, JSON.stringify([...this.#live.values()]), { mode: 0o600 });
  }
}
