import type { ConnectionRecord } from '../files/backup-store.js';
import type { SavedServer } from '../files/client-document.js';

export type DisconnectPlan =
  /** Nothing changed the file since connect: it gets back its original bytes (or goes, if connect created it). */
  | { readonly kind: 'restore' }
  /** The file changed since: only connect's own changes are undone. */
  | {
      readonly kind: 'undo';
      readonly removeBlitz: boolean;
      readonly restoreBlitz: SavedServer | null;
      readonly putBack: readonly { readonly name: string; readonly saved: SavedServer }[];
      /** Moved servers the file has again under their name: left as they are now. */
      readonly present: readonly string[];
    };

/** Decides how `disconnect` undoes one recorded connect, given the file's text and server names now. */
export function planDisconnect(record: ConnectionRecord, text: string, names: readonly string[]): DisconnectPlan {
  if (text === record.after) return { kind: 'restore' };
  const putBack = record.removed.filter((r) => !names.includes(r.name));
  return {
    kind: 'undo',
    removeBlitz: names.includes('blitz'),
    restoreBlitz: record.previousBlitz,
    putBack,
    present: record.removed.filter((r) => names.includes(r.name)).map((r) => r.name),
  };
}
