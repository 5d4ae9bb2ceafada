import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand, type FixtureName } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, type HubTransport } from '../support/hub-client.js';

// [hub] list_wait_ms (default 5000) through the daemon, with real servers: one that answers,
// one that never answers initialize (startup_timeout_seconds = 1), and one that comes up
// only when the test says so.
let home: string;
let workspace: string;
let gateFile: string;
let daemon: RunningDaemon;
const clients: Client[] = [];

function entry(name: string, file: FixtureName, args: string[], extra: string): string {
  const { command, args: argv } = fixtureCommand(file, args);
  return `[[mcp.servers]]\nname = "${name}"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(argv)}\nsandbox = false\n${extra}\n`;
}

beforeAll(async () => {
  home = tempDir('blitz-list-wait-');
  workspace = tempDir('blitz-list-wait-ws-');
  gateFile = path.join(home, 'gate');
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n${entry('fix', 'env-dump', [], '')}${entry('gated', 'gated-initialize', [gateFile], 'prefix = "g"\nstartup_timeout_seconds = 120')}${entry('hang', 'hang-initialize', [], 'startup_timeout_seconds = 1')}`,
  );
  daemon = await startDaemonProcess(home);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await daemon?.stop();
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
});

/** A client that records the tool list changes and logging messages it hears. */
async function client(via: HubTransport = 'http') {
  const c = await connectHub(daemon.state, { workspace, via });
  clients.push(c);
  const heard = { listChanged: 0, messages: [] as string[] };
  const waiters: Array<() => void> = [];
  const tell = () => waiters.splice(0).forEach((w) => w());
  c.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    heard.listChanged++;
    tell();
  });
  c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    heard.messages.push(String(n.params.data));
    tell();
  });
  const until = async (test: () => boolean) => {
    while (!test()) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { c, heard, until };
}

const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);

describe('[hub] list_wait_ms: a slow or broken server never holds a listing', () => {
  it('the first listing answers with the servers ready by then; the broken one is a notice, the slow one joins through list_changed', async () => {
    const a = await client();
    // Without the bound it would wait for the gated server's 120 s startup timeout.
    const first = await names(a.c);
    expect(first).toEqual(expect.arrayContaining(['echo', 'env']));
    expect(first.filter((n) => n.startsWith('g__'))).toEqual([]);

    await a.until(() => a.heard.messages.some((m) => m.startsWith('MCP server hang failed')));
    expect(a.heard.messages.find((m) => m.startsWith('MCP server hang failed'))).toBe(
      'MCP server hang failed: it did not answer initialize within 1s; check that it is an MCP server; if it is slow to start, raise startup_timeout_seconds',
    );
    expect((await daemon.client.status()).notices).toContainEqual(expect.objectContaining({ server: 'hang', kind: 'failed' }));

    fs.writeFileSync(gateFile, '');
    let latest = first;
    while (!latest.includes('g__echo')) {
      const heard = a.heard.listChanged;
      await a.until(() => a.heard.listChanged > heard);
      latest = await names(a.c);
    }
    expect(latest).toEqual(expect.arrayContaining(['echo', 'env', 'g__echo']));
  }, 60_000);

  it('a new client (over blitz connect) lists at once what is up, the server that failed a moment ago left out', async () => {
    const b = await client('lines');
    const listed = await names(b.c);
    expect(listed).toEqual(expect.arrayContaining(['echo', 'env', 'g__echo']));
    expect((await daemon.client.status()).servers.find((s) => s.name === 'hang')?.state).toBe('failed');
  });
});
