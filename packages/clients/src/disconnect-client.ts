import { rm } from 'node:fs/promises';
import { parse as parseToml } from 'smol-toml';
import { isTable, writeTextAtomic } from '@blitz/core';
import type { ClientSpec } from './client-spec.js';
import type { BackupStore } from './files/backup-store.js';
import {
  parseClientText,
  serversOf,
  withoutServerText,
  withSavedServerText,
  withSavedTablesInPlaceOf,
  withServerData,
  type SavedServer,
} from './files/client-document.js';
import { editClientFile } from './files/edit-client-file.js';
import { readClientFile } from './files/read-client-file.js';
import { setJsonValue } from './files/json-document.js';
import { isBlitzEntry } from './plan/fingerprint.js';
import { BLITZ_ENTRY } from './plan/plan-connect.js';
import { planDisconnect, type DisconnectPlan } from './plan/plan-disconnect.js';

export type DisconnectResult =
  | { readonly kind: 'restored'; readonly file: string; readonly backup: string | null }
  | { readonly kind: 'undone'; readonly file: string; readonly plan: Extract<DisconnectPlan, { kind: 'undo' }> }
  | { readonly kind: 'not-connected'; readonly file: string; readonly removedEntry: boolean };

/**
 * Undoes `connect` for one client: the original bytes when nothing else touched the file
 * since, otherwise only Blitz's entry removed and the moved servers put back, keeping every
 * later edit. Without a record, a `blitz` entry that runs `blitz connect` is still removed.
 */
export async function disconnectClient(
  spec: ClientSpec,
  file: string,
  store: BackupStore,
  options: { beforeWrite?: () => Promise<void> | void } = {},
): Promise<DisconnectResult> {
  const record = await store.load(spec.id, file);
  const parse = (text: string) => parseClientText(spec, text, file);
  if (record === undefined) {
    const outcome = await editClientFile(
      file,
      (text, exists) => {
        if (!exists) return undefined;
        const data = parse(text);
        const ours = serversOf(spec, data, file).find(([name]) => name === BLITZ_ENTRY);
        if (ours === undefined) return undefined;
        const mapped = spec.fromClient(ours[0], ours[1]);
        if (mapped.kind !== 'server' || !isBlitzEntry(mapped.entry)) return undefined;
        return {
          after: withoutServerText(spec, text, file, BLITZ_ENTRY, true),
          intended: withServerData(spec, data, BLITZ_ENTRY, undefined),
        };
      },
      { parse, maxBytes: spec.maxFileBytes, ...(options.beforeWrite ? { beforeWrite: options.beforeWrite } : {}) },
    );
    return { kind: 'not-connected', file, removedEntry: outcome.changed };
  }

  const read = await readClientFile(file, spec.maxFileBytes);
  const text = read.exists ? read.text : '';
  const names = read.exists ? serversOf(spec, parse(text), file).map(([n]) => n) : [];
  const first = planDisconnect(record, text, names);
  if (first.kind === 'restore') {
    const original = await store.readBackup(record);
    await options.beforeWrite?.();
    // Read again just before writing, as every edit does: a change made meanwhile is not written over.
    const now = await readClientFile(file, spec.maxFileBytes);
    if (now.exists === read.exists && (!now.exists || now.text === text)) {
      if (original === undefined) await rm(file, { force: true });
      else await writeTextAtomic(file, original);
      await store.drop(spec.id, file);
      return { kind: 'restored', file, backup: record.backup };
    }
  }
  let plan: Extract<DisconnectPlan, { kind: 'undo' }> =
    first.kind === 'undo' ? first : { kind: 'undo', removeBlitz: false, restoreBlitz: null, putBack: [], present: [] };
  // The servers object connect made (no file, or none in it, before): left empty, it goes too (issue 26.9).
  const original = spec.format === 'json' ? await store.readBackup(record) : undefined;
  const madeServersKey = spec.format === 'json' && (original === undefined || !hasServersKey(spec, parse(original)));
  await editClientFile(
    file,
    (current) => {
      const data0 = parse(current);
      const now = planDisconnect(
        record,
        current,
        serversOf(spec, data0, file).map(([n]) => n),
      );
      // The file was put back as connect left it between our reads: undo everything except bytes.
      if (now.kind === 'restore') return undefined;
      plan = now;
      let after = current;
      let data = data0;
      const back = [...(now.restoreBlitz && now.removeBlitz ? [{ name: BLITZ_ENTRY, saved: now.restoreBlitz }] : []), ...now.putBack];
      if (now.removeBlitz) data = withServerData(spec, data, BLITZ_ENTRY, undefined);
      // In TOML the servers go back where the blitz table stands, under the comments above it, which are not Blitz's.
      const inPlace = now.removeBlitz && spec.format === 'toml';
      if (inPlace)
        after = withSavedTablesInPlaceOf(
          spec,
          after,
          file,
          BLITZ_ENTRY,
          back.map((b) => b.saved),
        );
      else if (now.removeBlitz) after = withoutServerText(spec, after, file, BLITZ_ENTRY);
      for (const { name, saved } of back) {
        if (!inPlace) after = withSavedServerText(spec, after, file, name, saved);
        data = withServerData(spec, data, name, savedValue(spec.serversKey, name, saved));
      }
      if (madeServersKey && hasServersKey(spec, data) && serversOf(spec, data, file).length === 0) {
        after = setJsonValue(after, spec.serversKey, undefined);
        data = withoutServersKey(spec, data);
      }
      return { after, intended: data };
    },
    { parse, maxBytes: spec.maxFileBytes, ...(options.beforeWrite ? { beforeWrite: options.beforeWrite } : {}) },
  );
  await store.drop(spec.id, file);
  return { kind: 'undone', file, plan };
}

function savedValue(serversKey: readonly string[], name: string, saved: SavedServer): unknown {
  if (saved.kind === 'json') return saved.value;
  let node: unknown = parseToml(saved.text);
  for (const key of [...serversKey, name]) node = isTable(node) ? node[key] : undefined;
  return node;
}

function hasServersKey(spec: ClientSpec, data: Record<string, unknown>): boolean {
  let node: unknown = data;
  for (const key of spec.serversKey) {
    if (!isTable(node) || !(key in node)) return false;
    node = node[key];
  }
  return true;
}

function withoutServersKey(spec: ClientSpec, data: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(data);
  let node: Record<string, unknown> = copy;
  for (const key of spec.serversKey.slice(0, -1)) node = node[key] as Record<string, unknown>;
  delete node[spec.serversKey.at(-1)!];
  return copy;
}
