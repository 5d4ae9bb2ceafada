/**
 * Issue 26.1: approval (`blitz mcp approve/unapprove`), like the rest of the hub's policy, is
 * taken in place. The real server-everything keeps running a long call through an `approve`,
 * and the real server-memory keeps its process (its pid) and its state through `approve` and
 * `unapprove`; a change to what the process sees (its env) does restart it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../apps/tray/src/testing/fake-helper.js';
import { assertNoOrphans, liveDescendants } from '../../packages/core/src/testing/no-orphans.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';

const require = createRequire(path.join(import.meta.dirname, '..', '..', 'packages', 'core', 'package.json'));
const EVERYTHING = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const MEMORY = require.resolve('@modelcontextprotocol/server-memory/dist/index.js');

let home: string;
let workspace: string;
let daemon: RunningDaemon | undefined;
const clients: Client[] = [];

beforeEach(() => {
  home = tempDir('blitz-policy-');
  workspace = tempDir('blitz-policy-ws-');
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await daemon?.stop();
  daemon = undefined;
  await assertNoOrphans();
  for (const dir of [home, workspace]) fs.rmSync(dir, { recursive: true, force: true });
});

function stdio(name: string, script: string, extra = ''): string {
  return `[[mcp.servers]]\nname = "${name}"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(script)}${name === 'everything' ? ', "stdio"' : ''}]\nsandbox = false\n${extra}\n`;
}

/** The daemon's child running this script: its pid tells a kept process from a restarted one. */
function pidOf(script: string): number | undefined {
  return liveDescendants(daemon!.child.pid).find((p) => p.command.includes(script))?.pid;
}

/** What the daemon's live connection of a server decides for its tools now: `allow` once it runs auto-approved. */
async function approvalOf(name: string): Promise<string[]> {
  const { id } = await daemon!.client.openWorkspace(workspace);
  const answer = await fetch(`http://127.0.0.1:${daemon!.state.port}/v1/workspaces/${id}/mcp-servers/${name}`, {
    headers: { authorization: `Bearer ${daemon!.state.token}` },
  });
  const detail = (await answer.json()) as { exposedTools: Array<{ approval: string }> };
  return [...new Set(detail.exposedTools.map((t) => t.approval))];
}

/** Runs `blitz mcp approve|unapprove NAME` and waits until the daemon's connection of NAME decides so. */
async function edit(verb: 'approve' | 'unapprove', name: string): Promise<void> {
  const result = await runBlitz(['mcp', verb, name], { home });
  expect(result, result.stderr).toMatchObject({ code: 0 });
  const wanted = verb === 'approve' ? 'allow' : 'ask';
  const deadline = Date.now() + 20_000;
  while ((await approvalOf(name)).join() !== wanted) {
    if (Date.now() > deadline) throw new Error(`the daemon did not take blitz mcp ${verb} ${name}:\n${daemon!.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('policy changes keep the server running (issue 26.1)', () => {
  it('a long call in flight on server-everything survives blitz mcp approve; server-memory keeps its pid and state across approve and unapprove; an env change restarts it', async () => {
    const memoryFile = path.join(home, 'memory.jsonl');
    writeSettings(
      home,
      `[daemon]\nport = 0\n\n${stdio('everything', EVERYTHING)}${stdio('memory', MEMORY, `env = { MEMORY_FILE_PATH = ${JSON.stringify(memoryFile)} }`)}`,
    );
    daemon = await startDaemonProcess(home);
    const client = await connectHub(daemon.state, { workspace, elicit: () => ({ action: 'accept', content: { decision: 'allow_once' } }) });
    clients.push(client);
    await client.listTools();
    const everythingPid = pidOf(EVERYTHING);
    const memoryPid = pidOf(MEMORY);
    expect(everythingPid).toBeDefined();
    expect(memoryPid).toBeDefined();

    // A call long enough to be in flight while the CLI edits the settings and the daemon applies them.
    let firstProgress!: () => void;
    const started = new Promise<void>((resolve) => (firstProgress = resolve));
    let finished = false;
    const long = client
      .callTool({ name: 'trigger-long-running-operation', arguments: { duration: 20, steps: 20 } }, undefined, {
        onprogress: () => firstProgress(),
        timeout: 120_000,
      })
      .finally(() => (finished = true));
    await started;
    await edit('approve', 'everything');
    expect(finished).toBe(false);
    const result = await long;
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(textOf(result)).toContain('Long running operation completed');
    expect(pidOf(EVERYTHING)).toBe(everythingPid);

    const created = await client.callTool({
      name: 'create_entities',
      arguments: { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] },
    });
    expect(created.isError ?? false, textOf(created)).toBe(false);
    await edit('approve', 'memory');
    expect(pidOf(MEMORY)).toBe(memoryPid);
    await edit('unapprove', 'memory');
    expect(pidOf(MEMORY)).toBe(memoryPid);
    expect(textOf(await client.callTool({ name: 'read_graph', arguments: {} }))).toContain('wrote the first program');
    expect(pidOf(MEMORY)).toBe(memoryPid);

    // What the process sees is another process.
    const settings = path.join(home, 'settings.toml');
    fs.writeFileSync(
      settings,
      fs.readFileSync(settings, 'utf8').replace('env = { MEMORY_FILE_PATH', 'env = { MODE = "x", MEMORY_FILE_PATH'),
    );
    await waitFor(
      () => pidOf(MEMORY) !== memoryPid,
      'server-memory stopped after its env changed',
      20_000,
      () => daemon!.output(),
    );
    expect(textOf(await client.callTool({ name: 'read_graph', arguments: {} }))).toContain('wrote the first program');
    expect(pidOf(MEMORY)).not.toBe(memoryPid);
  });
});
