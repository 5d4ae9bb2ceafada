import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub } from '../support/hub-client.js';

// The catalog cache through the daemon (issue 18, cold start), with real servers that answer
// initialize only once the test opens their gate (gated-tools.mjs): a daemon started again
// answers from what the servers listed under the last one while they start.
let home: string;
let workspace: string;
let cacheFile: string;
const SECRET = 'sekrit-cold-start-7f3a';
const gates = { a: '', b: '' };
let toolsFile: string;

// `pin = false`: a tool new between two starts is what these tests make, not one held for review (issue 31, hub/pins.real.test.ts).
function entry(name: 'a' | 'b', extra = ''): string {
  const { command, args } = fixtureCommand('gated-tools', [gates[name], name === 'a' ? toolsFile : path.join(home, 'none')]);
  return `[[mcp.servers]]\nname = "${name}"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\nprefix = "${name}"\nstartup_timeout_seconds = 120\npin = false\n${extra}\n`;
}

function settings(hub: string, bEnv = ''): void {
  writeSettings(home, `[daemon]\nport = 0\n\n[hub]\n${hub}\n\n${entry('a', `env = { API_TOKEN = "${SECRET}" }`)}${entry('b', bEnv)}`);
}

/** One daemon run: started, used, stopped (SIGTERM: the cache is written before it exits). */
async function run<T>(use: (daemon: RunningDaemon, client: Client) => Promise<T>, client?: (c: Client) => void): Promise<T> {
  const daemon = await startDaemonProcess(home);
  let c: Client | undefined;
  try {
    c = await connectHub(daemon.state, { workspace, ...(client ? { prepare: client } : {}) });
    return await use(daemon, c);
  } finally {
    await c?.close().catch(() => undefined);
    await daemon.stop();
  }
}

const served = async (c: Client) => (await c.listTools()).tools.map((t) => t.name).filter((n) => /^[ab]__/.test(n));
const stateOf = async (daemon: RunningDaemon, name: string) => (await daemon.client.status()).servers.find((s) => s.name === name)?.state;

beforeAll(async () => {
  home = tempDir('blitz-catalog-cache-');
  workspace = tempDir('blitz-catalog-cache-ws-');
  cacheFile = path.join(home, 'state', 'catalog-cache.json');
  gates.a = path.join(home, 'gate-a');
  gates.b = path.join(home, 'gate-b');
  toolsFile = path.join(home, 'tools-a');
  // The first daemon: both servers come up and list; what they listed is cached.
  fs.writeFileSync(gates.a, '');
  fs.writeFileSync(gates.b, '');
  fs.writeFileSync(toolsFile, 'first\n');
  settings('list_wait_ms = 120000');
  expect(await run((_d, c) => served(c))).toEqual(['a__echo', 'a__first', 'b__echo']);
  fs.rmSync(gates.a);
  fs.rmSync(gates.b);
});

afterAll(async () => {
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
});

describe('the catalog cache: a cold start answers from what the servers listed last time', () => {
  it('is a 0600 file under state/ holding no env value', () => {
    expect(fs.statSync(cacheFile).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(cacheFile, 'utf8');
    expect(text).toContain('"first"');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('API_TOKEN');
  });

  it('answers initialize and the first tools/list from the cache while the servers have not answered initialize, then the real list replaces it with list_changed', async () => {
    fs.writeFileSync(toolsFile, 'second\n');
    // Without the cache, initialize and this listing would wait up to 10 minutes for the gated servers.
    settings('list_wait_ms = 600000');
    let changed!: () => void;
    const heard = new Promise<void>((resolve) => (changed = resolve));
    await run(
      async (daemon, c) => {
        expect(await served(c)).toEqual(['a__echo', 'a__first', 'b__echo']);
        // Both still start (MCP-10), once the client's listings pause (start-soon.ts).
        await expect.poll(async () => [await stateOf(daemon, 'a'), await stateOf(daemon, 'b')]).toEqual(['starting', 'starting']);

        fs.writeFileSync(gates.a, '');
        await heard;
        await expect.poll(() => served(c)).toEqual(['a__echo', 'a__second', 'b__echo']);
        fs.rmSync(gates.a);
      },
      (c) => c.setNotificationHandler(ToolListChangedNotificationSchema, () => changed()),
    );
    expect(fs.readFileSync(cacheFile, 'utf8')).toContain('"second"');
  });

  it('does not answer for a server whose settings changed', async () => {
    settings('list_wait_ms = 0', 'env = { MORE = "1" }');
    const tools = await run((_d, c) => served(c));
    expect(tools).toContain('a__echo');
    expect(tools.filter((n) => n.startsWith('b__'))).toEqual([]);
  });

  it('ignores a corrupt cache file, with a log line naming it, and sets it aside', async () => {
    fs.writeFileSync(cacheFile, '{"version": 1, "entries": {');
    settings('list_wait_ms = 0');
    const tools = await run((_d, c) => served(c));
    expect(tools).toEqual([]);
    expect(fs.readFileSync(`${cacheFile}.corrupt`, 'utf8')).toBe('{"version": 1, "entries": {');
    const log = fs
      .readdirSync(path.join(home, 'logs'))
      .map((f) => fs.readFileSync(path.join(home, 'logs', f), 'utf8'))
      .join('\n');
    expect(log).toContain(`catalog cache ${cacheFile} ignored: not JSON`);
  });

  it('with catalog_cache = false, neither reads the file (a corrupt one stays where it is) nor writes it once the servers list', async () => {
    const text = '{"version": 1, "entries": {';
    fs.writeFileSync(cacheFile, text);
    fs.rmSync(`${cacheFile}.corrupt`, { force: true });
    fs.writeFileSync(gates.a, '');
    fs.writeFileSync(gates.b, '');
    settings('catalog_cache = false\nlist_wait_ms = 0');
    await run(async (_d, c) => {
      await expect.poll(async () => (await served(c)).filter((n) => n.endsWith('__echo'))).toEqual(['a__echo', 'b__echo']);
    });
    expect(fs.readFileSync(cacheFile, 'utf8')).toBe(text);
    expect(fs.existsSync(`${cacheFile}.corrupt`)).toBe(false);
    fs.rmSync(gates.a);
    fs.rmSync(gates.b);
  });
});
