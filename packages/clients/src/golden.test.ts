import fs from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { maskConfigValue } from '@blitz/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BlitzLaunch, ClientSpec } from './client-spec.js';
import { connectClient } from './connect-client.js';
import { disconnectClient } from './disconnect-client.js';
import { BackupStore } from './files/backup-store.js';
import { parseJsonText, setJsonValue } from './files/json-document.js';
import { findServers } from './find-servers.js';
import { inspectClient } from './inspect-client.js';
import { CLIENTS } from './specs/index.js';
import { golden, tempHome, testdata } from './testing/temp-home.js';

const LAUNCH: BlitzLaunch = { command: '/opt/blitz/bin/blitz.js', args: ['connect'], env: { BLITZ_HOME: '/home/user/.blitz-test' } };
const ext = (spec: ClientSpec) => (spec.format === 'toml' ? 'toml' : 'json');

let t: ReturnType<typeof tempHome>;
let store: BackupStore;
beforeEach(() => {
  t = tempHome();
  store = new BackupStore(path.join(t.root, 'blitz', 'state', 'client-backups'), () => new Date('2026-12-01T08:00:00Z'));
});
afterEach(() => t.cleanup());

function install(spec: ClientSpec): string {
  const file = spec.userFiles(t.where)[0]!;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, testdata(`${spec.id}.${ext(spec)}`));
  return file;
}

describe.each(CLIENTS.map((c) => [c.id, c] as const))('%s: a realistic config', (id, spec) => {
  it('imports its servers with Blitz fields, warnings and skips', async () => {
    install(spec);
    const state = await inspectClient(spec, t.where);
    const { found, skipped } = findServers([state]);
    const result = {
      servers: found.map((f) => ({ name: f.name, entry: f.entry, warnings: f.warnings })),
      skipped: skipped.map((s) => ({ name: s.name, reason: s.reason })),
    };
    const text = `${JSON.stringify(result, null, 2)}\n`;
    expect(text).toBe(golden(`${id}.import.golden.json`, text));
  });

  it('connect writes the blitz entry and takes out what Blitz runs; again changes nothing; disconnect gives back the bytes', async () => {
    const file = install(spec);
    const original = fs.readFileSync(file, 'utf8');
    const { found } = findServers([await inspectClient(spec, t.where)]);
    const blitzServers = found.map((f) => f.entry);

    const dry = await connectClient(spec, file, { launch: LAUNCH, blitzServers, store, dryRun: true });
    expect(fs.readFileSync(file, 'utf8')).toBe(original);
    const diff = dry.diff.replaceAll(t.where.home, '~');
    expect(diff).toBe(golden(`${id}.connect.golden.diff`, diff));
    for (const f of found)
      for (const v of [...Object.values(f.entry.env ?? {}), ...Object.values(f.entry.headers ?? {})])
        if (maskConfigValue(v) !== v) expect(dry.diff).not.toContain(v);

    const connected = await connectClient(spec, file, { launch: LAUNCH, blitzServers, store });
    expect(connected.changed).toBe(true);
    const after = fs.readFileSync(file, 'utf8');
    expect(after).toBe(golden(`${id}.connect.golden.${ext(spec)}`, after));

    const again = await connectClient(spec, file, { launch: LAUNCH, blitzServers, store });
    expect(again.changed).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe(after);

    const backups = fs.readdirSync(store.dir).filter((f) => !f.endsWith('.connected.json'));
    expect(backups).toEqual([`${id}-2026-12-01T08-00-00-000Z-${path.basename(file)}`]);
    expect(fs.statSync(path.join(store.dir, backups[0]!)).mode & 0o777).toBe(0o600);

    const undone = await disconnectClient(spec, file, store);
    expect(undone.kind).toBe('restored');
    expect(fs.readFileSync(file, 'utf8')).toBe(original);
  });

  it('disconnect after a later edit removes only Blitz and puts the moved servers back, keeping the edit', async () => {
    const file = install(spec);
    const original = fs.readFileSync(file, 'utf8');
    const { found } = findServers([await inspectClient(spec, t.where)]);
    await connectClient(spec, file, { launch: LAUNCH, blitzServers: found.map((f) => f.entry), store });

    const edited = laterEdit(spec, fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, edited);
    const undone = await disconnectClient(spec, file, store);
    expect(undone.kind).toBe('undone');
    const result = fs.readFileSync(file, 'utf8');
    expect(parsed(spec, result)).toEqual(parsed(spec, laterEdit(spec, original)));
    if (spec.format === 'json')
      expect(result.split('\n').filter((l) => l.trim().startsWith('//'))).toEqual(
        original.split('\n').filter((l) => l.trim().startsWith('//')),
      );
    // TOML tables go back where the blitz table stood, under the comments that stayed: every byte is back.
    else expect(result).toBe(laterEdit(spec, original));
  });
});

/** Another program's change after connect: one key the user added. */
function laterEdit(spec: ClientSpec, text: string): string {
  return spec.format === 'json' ? setJsonValue(text, ['addedLater'], { by: 'the user' }) : `${text}\n[profiles.later]\nmodel = "o4-mini"\n`;
}

function parsed(spec: ClientSpec, text: string): unknown {
  return spec.format === 'json' ? parseJsonText(text, 'f') : parseToml(text);
}
