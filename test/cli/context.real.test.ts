import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ClientContext, ContextReceipt } from '@blitz/client';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { BLITZ_BIN, REPO_ROOT, runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';

// `blitz context` (issue 30.4): what each client's tools/list costs, checked against the bytes
// a client with that clientInfo name reads from the hub, and against inspector-cli.

const MEMORY = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');

let home: string;
let workspace: string;
let daemon: RunningDaemon;

beforeAll(async () => {
  home = tempDir('blitz-context-');
  workspace = tempDir('blitz-context-ws-');
  const proto = fixtureCommand('protocol');
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[hub]\nmax_tools = 8\n\n[hub.clients."codex-mcp-client"]\nmax_tools = 6\n\n` +
      `[[mcp.servers]]\nname = "proto"\ncommand = ${JSON.stringify(proto.command)}\nargs = ${JSON.stringify(proto.args)}\nsandbox = false\n\n` +
      `[[mcp.servers]]\nname = "memory"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(MEMORY)}]\nsandbox = false\n`,
  );
  daemon = await startDaemonProcess(home);
});

afterAll(async () => {
  await daemon.stop();
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
});

async function receipt(...args: string[]): Promise<ContextReceipt> {
  const run = await runBlitz(['context', '--workspace', workspace, '--json', ...args], { home });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as ContextReceipt;
}

/** The `tools/list` result a client named `name` reads from `/mcp`, as the bytes it got. */
async function listedTo(name: string): Promise<string> {
  const url = `http://127.0.0.1:${daemon.state.port}/mcp?${new URLSearchParams({ workspace })}`;
  let session: string | undefined;
  const post = async (message: object) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${daemon.state.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}),
      },
      body: JSON.stringify(message),
    });
    session ??= res.headers.get('mcp-session-id') ?? undefined;
    const text = await res.text();
    // An SSE answer's data line, or the JSON itself.
    return text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '');
  };
  await post({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name, version: '1' } },
  });
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const answer = JSON.parse(await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' })) as { result: unknown };
  return JSON.stringify(answer.result);
}

const clientOf = (r: ContextReceipt, name: string | undefined) => r.clients.find((c) => c.client === name)!;

it("counts each client's tools/list as that client reads it: tools, bytes and o200k tokens", async () => {
  const all = await receipt();
  expect(all.tokenizer).toMatch(/o200k_base/);
  const labels = all.clients.map((c) => c.label);
  expect(labels).toEqual(expect.arrayContaining(['Claude Code', 'Codex', 'Gemini CLI', 'any other client']));

  for (const name of ['claude-code', 'codex-mcp-client', 'some-new-client']) {
    const read = await listedTo(name);
    const tools = (JSON.parse(read) as { tools: Array<{ name: string }> }).tools;
    const context: ClientContext = clientOf(all, name === 'some-new-client' ? undefined : name);
    expect({ name, ...context.listed }).toEqual({ name, tools: tools.length, bytes: Buffer.byteLength(read), tokens: countTokens(read) });
    // By server: every listed tool counted once, under its server (the hub's own under blitz).
    expect(context.servers.reduce((n, s) => n + s.tools, 0)).toBe(tools.length);
    expect(context.servers.map((s) => s.server)).toEqual(['blitz', 'proto', 'memory']);
    // The same list again: the same bytes, so a client's prompt cache stays valid.
    expect(await listedTo(name)).toBe(read);
  }

  const claude = clientOf(all, 'claude-code');
  expect(claude.surface).toBe('every tool listed');
  expect(claude.listed).toEqual(claude.everyTool);
  expect(claude.saved).toEqual({ bytes: 0, tokens: 0 });

  const codex = clientOf(all, 'codex-mcp-client');
  expect(codex.because).toBe('settings: [hub.clients."codex-mcp-client"]');
  expect(codex.listed.tools).toBe(6);
  // Each server's tools are listed or deferred, never lost: as many as Claude Code is listed.
  for (const s of codex.servers.slice(1)) expect(s.tools + s.deferred).toBe(claude.servers.find((c) => c.server === s.server)!.tools);
  expect(codex.servers.reduce((n, s) => n + s.deferred, 0)).toBeGreaterThan(0);
  expect(codex.saved.tokens).toBe(codex.everyTool.tokens - codex.listed.tokens);
  expect(codex.saved.tokens).toBeGreaterThan(0);
});

it('--client takes a name people use, and prints the client server by server', async () => {
  const run = await runBlitz(['context', '--workspace', workspace, '--client', 'codex'], { home });
  expect(run.code).toBe(0);
  expect(run.stdout).toContain(
    'Codex (codex-mcp-client): up to 6 tools listed, the rest found with search_tools (settings: [hub.clients."codex-mcp-client"]).',
  );
  expect(run.stdout).toMatch(/^SERVER +LISTED +DEFERRED +BYTES +TOKENS$/m);
  expect(run.stdout).toMatch(/^memory +\d+ +[1-9]\d* +/m);
  expect(run.stdout).toMatch(/search_tools saves [\d,]+ tokens \(\d+ %\)\.$/m);
});

it("agrees with what inspector-cli lists through blitz connect (its clientInfo name is the package.json's above its folder: 'blitz')", async () => {
  const inspector = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build', 'cli.js');
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      [inspector, '--cli', process.execPath, BLITZ_BIN, 'connect', '--workspace', workspace, '--method', 'tools/list'],
      { cwd: path.join(REPO_ROOT, 'test'), env: { PATH: process.env.PATH, HOME: home, BLITZ_HOME: home }, timeout: 30_000 },
      (error, out) => (error ? reject(error) : resolve(out)),
    ),
  );
  const tools = (JSON.parse(stdout) as { tools: unknown[] }).tools;
  const [blitz] = (await receipt('--client', 'blitz')).clients;
  expect(blitz!.label).toBe('blitz');
  expect(blitz!.listed.tools).toBe(tools.length);
  expect(blitz!.listed.tools).toBe(8);
});
