import fs from 'node:fs';
import path from 'node:path';
import type { NoticeCursor } from './notify/notice-cursor.js';
import type { Told, ToldServers } from './notify/notification-policy.js';

export interface CursorStore {
  load(): NoticeCursor | undefined;
  save(cursor: NoticeCursor): void;
  /** The settings problems last told as a notification ([] for none), so each is told once. */
  loadProblems(): string[];
  saveProblems(problems: readonly string[]): void;
}

export function trayStatePath(home: string): string {
  return path.join(home, 'state', 'tray.json');
}

/**
 * `$BLITZ_HOME/state/tray.json`: the last notice shown and the daemon run it belongs to, and
 * the settings problems last told, so a restarted tray repeats nothing. A missing or damaged
 * file just means "nothing seen".
 */
export function fileCursorStore(home: string): CursorStore {
  const file = trayStatePath(home);
  const read = (): Partial<NoticeCursor> & { settingsProblems?: unknown } => {
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<NoticeCursor>;
    } catch {
      return {};
    }
  };
  const cursorOf = (data: Partial<NoticeCursor>): NoticeCursor | undefined => {
    const { daemon, lastNoticeId, told } = data;
    if (typeof lastNoticeId !== 'number' || typeof daemon?.pid !== 'number' || typeof daemon.startedAt !== 'string') return undefined;
    const cursor = { daemon: { pid: daemon.pid, startedAt: daemon.startedAt }, lastNoticeId };
    return told !== null && typeof told === 'object' ? { ...cursor, told: toldOf(told) } : cursor;
  };
  const problemsOf = (data: { settingsProblems?: unknown }): string[] =>
    Array.isArray(data.settingsProblems) ? data.settingsProblems.filter((p): p is string => typeof p === 'string') : [];
  const write = (cursor: NoticeCursor | undefined, problems: readonly string[]): void => {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // Written aside and renamed, so a crash mid-write never leaves half a file.
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, `${JSON.stringify({ ...cursor, settingsProblems: problems }, null, 2)}\n`, { mode: 0o600 });
    fs.renameSync(temp, file);
  };
  return {
    load: () => cursorOf(read()),
    save: (cursor) => write(cursor, problemsOf(read())),
    loadProblems: () => problemsOf(read()),
    saveProblems: (problems) => write(cursorOf(read()), problems),
  };
}

/** The told servers of a file that may be damaged: each entry checked, a bad one dropped. */
function toldOf(data: object): ToldServers {
  const told: Record<string, Told> = {};
  for (const [server, value] of Object.entries(data)) {
    const t = value as Partial<Told> | null;
    if (
      !t ||
      (t.kind !== 'failed' && t.kind !== 'paused' && t.kind !== 'keepsFailing' && t.kind !== 'signIn') ||
      typeof t.cause !== 'string'
    )
      continue;
    told[server] = { kind: t.kind, cause: t.cause, ...(typeof t.since === 'number' ? { since: t.since } : {}) };
  }
  return told;
}
