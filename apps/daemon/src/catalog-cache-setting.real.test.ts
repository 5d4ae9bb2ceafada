import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '@blitz/process';
import { startInProcessDaemon, type InProcessDaemon } from './testing/in-process-daemon.js';

// `[hub] catalog_cache` turned off while the daemon runs (docs/settings.md): from then on the
// daemon writes state/catalog-cache.json no more — not for a sign-in change, not at its stop.

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));
const SERVER = `[[mcp.servers]]\nname = "one"\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify([path.join(FIXTURES, 'env-dump.mjs')])}\nsandbox = false\n`;
const settings = (cache: boolean) => `[hub]\ncatalog_cache = ${cache}\n\n${SERVER}`;

let running: InProcessDaemon | undefined;

afterAll(async () => {
  await running?.stop();
});

describe('catalog_cache turned off while the daemon runs', () => {
  it('leaves the cache file as it was: a sign-in change and the stop write nothing to it', async () => {
    running = await startInProcessDaemon('blitz-cache-off', settings(true));
    const { home, workspace, daemon, client } = running;
    const file = path.join(home, 'state', 'catalog-cache.json');
    const { id } = await client.openWorkspace(workspace);
    await client.listWorkspaceServers(id, { connect: true });
    const pids = (await client.status()).servers.flatMap((s) => (s.copies ?? []).flatMap((c) => (c.pid === undefined ? [] : [c.pid])));
    // The listing is kept for the next cold start: the file names the server.
    await expect.poll(() => fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes('"server":"one"')).toBe(true);
    const kept = fs.readFileSync(file, 'utf8');

    fs.writeFileSync(path.join(home, 'settings.toml'), settings(false));
    await daemon.reload();
    // With the cache on, this forgets the server's entries in the file.
    expect(await client.oauthChanged('one')).toMatchObject({ server: 'one', restarted: 1 });
    await daemon.stop();
    expect(fs.readFileSync(file, 'utf8')).toBe(kept);
    // No orphans: the server process the listing started has ended.
    expect(pids).toHaveLength(1);
    for (const pid of pids) expect(isProcessAlive(pid), `server process ${pid} outlived the daemon`).toBe(false);
  });
});
