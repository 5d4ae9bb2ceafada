import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';

// Issue 30.2, search before servers start: a daemon started again searches the listings its
// catalog cache holds (state/catalog-cache.json) while the servers have not come up, and a call
// to a tool found so starts its server and waits for it. The servers are real and held at a gate
// (a file) until the test opens it: the published server-filesystem behind a three-line script, and
// the gated-tools fixture.
let home: string;
let workspace: string;
/** The folder server-filesystem serves: the workspace, which the hub offers it as its root too. */
let files: string;
const gates = { fs: '', notes: '' };

const filesystemServer = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

function settings(hub: string): void {
  // server-filesystem, started only once its gate exists; it serves `files`.
  const gatedFs = path.join(home, 'gated-fs.mjs');
  fs.writeFileSync(
    gatedFs,
    `import fs from 'node:fs';\nwhile (!fs.existsSync(${JSON.stringify(gates.fs)})) await new Promise((r) => setTimeout(r, 50));\n` +
      `process.argv.splice(2, 0, ${JSON.stringify(files)});\nawait import(${JSON.stringify(pathToFileURL(filesystemServer).href)});\n`,
  );
  const notes = fixtureCommand('gated-tools', [gates.notes, path.join(home, 'notes-tools')]);
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[hub]\n${hub}\n\n` +
      `[[mcp.servers]]\nname = "fs"\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify([gatedFs])}\nsandbox = false\nauto_approve = true\nstartup_timeout_seconds = 120\npin = false\n\n` +
      `[[mcp.servers]]\nname = "notes"\ncommand = ${JSON.stringify(notes.command)}\nargs = ${JSON.stringify(notes.args)}\nsandbox = false\nprefix = "notes"\nstartup_timeout_seconds = 120\npin = false\n`,
  );
}

async function run<T>(use: (daemon: RunningDaemon, client: Client) => Promise<T>): Promise<T> {
  const daemon = await startDaemonProcess(home);
  let c: Client | undefined;
  try {
    c = await connectHub(daemon.state, { workspace });
    return await use(daemon, c);
  } finally {
    await c?.close().catch(() => undefined);
    await daemon.stop();
  }
}

const stateOf = async (daemon: RunningDaemon, name: string) => (await daemon.client.status()).servers.find((s) => s.name === name)?.state;
interface Found {
  name: string;
  server: string;
}
const search = async (c: Client, query: string): Promise<Found[]> =>
  ((await c.callTool({ name: 'search_tools', arguments: { query, limit: 5 } })).structuredContent as { tools: Found[] }).tools;

beforeAll(async () => {
  home = tempDir('blitz-cold-search-');
  workspace = tempDir('blitz-cold-search-ws-');
  files = workspace;
  gates.fs = path.join(home, 'gate-fs');
  gates.notes = path.join(home, 'gate-notes');
  fs.writeFileSync(path.join(home, 'notes-tools'), 'archive_note\n');
  // The first daemon: both servers come up and list; what they listed is cached.
  fs.writeFileSync(gates.fs, '');
  fs.writeFileSync(gates.notes, '');
  settings('list_wait_ms = 120000');
  const listed = await run(async (_d, c) => (await c.listTools()).tools.map((t) => t.name));
  expect(listed).toEqual(expect.arrayContaining(['move_file', 'notes__archive_note']));
  fs.rmSync(gates.fs);
  fs.rmSync(gates.notes);
}, 180_000);

afterAll(async () => {
  await assertNoOrphans();
  for (const dir of [home, workspace]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('search before servers start (issue 30.2)', () => {
  it("a cold daemon's search_tools answers from the cached listings; call_tool on a found tool waits for its server to come up and calls it", async () => {
    // Without the cache, this search would wait up to 10 minutes for the gated servers.
    settings('deferred = "always"\nlist_wait_ms = 600000');
    fs.writeFileSync(path.join(files, 'draft.md'), 'hello');
    await run(async (daemon, c) => {
      const found = await search(c, 'rename draft.md to final.md');
      expect(found[0]).toEqual(expect.objectContaining({ name: 'move_file', server: 'fs' }));
      expect((await search(c, 'archive a note')).map((t) => t.name)).toContain('notes__archive_note');
      // Found while neither server has answered initialize: their gates are shut.
      expect(await stateOf(daemon, 'fs')).not.toBe('connected');
      expect(await stateOf(daemon, 'notes')).not.toBe('connected');

      const call = c.callTool({
        name: 'call_tool',
        arguments: { name: 'move_file', arguments: { source: path.join(files, 'draft.md'), destination: path.join(files, 'final.md') } },
      });
      fs.writeFileSync(gates.fs, '');
      const result = await call;
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toContain('final.md');
      expect(fs.existsSync(path.join(files, 'final.md'))).toBe(true);
      expect(await stateOf(daemon, 'fs')).toBe('connected');
      // The server no call needed is still held at its gate.
      expect(await stateOf(daemon, 'notes')).not.toBe('connected');
    });
  });

  it('without the cache (catalog_cache = false) the same cold search finds nothing of a server that is not up', async () => {
    fs.rmSync(gates.fs, { force: true });
    settings('deferred = "always"\ncatalog_cache = false\nlist_wait_ms = 0');
    await run(async (_d, c) => {
      expect((await search(c, 'rename draft.md to final.md')).map((t) => t.name)).not.toContain('move_file');
    });
  });
});
