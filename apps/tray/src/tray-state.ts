import fs from 'node:fs';
import path from 'node:path';
import type { NoticeCursor } from './notify/notice-cursor.js';

export interface CursorStore {
  load(): NoticeCursor | undefined;
  save(cursor: NoticeCursor): void;
}

export function trayStatePath(home: string): string {
  return path.join(home, 'state', 'tray.json');
}

/**
 * `$BLITZ_HOME/state/tray.json`: the last notice shown and the daemon run it belongs to,
 * so a restarted tray repeats nothing. A missing or damaged file just means "nothing seen".
 */
export function fileCursorStore(home: string): CursorStore {
  const file = trayStatePath(home);
  return {
    load() {
      try {
        const data = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<NoticeCursor>;
        const { daemon, lastNoticeId } = data;
        if (typeof lastNoticeId !== 'number' || typeof daemon?.pid !== 'number' || typeof daemon.startedAt !== 'string') return undefined;
        return { daemon: { pid: daemon.pid, startedAt: daemon.startedAt }, lastNoticeId };
      } catch {
        return undefined;
      }
    },
    save(cursor) {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      // Written aside and renamed, so a crash mid-write never leaves half a file.
      const temp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, `${JSON.stringify(cursor, null, 2)}\n`, { mode: 0o600 });
      fs.renameSync(temp, file);
    },
  };
}
