/**
 * The sandbox explains itself: the real server-memory in a real bubblewrap sandbox, writing
 * its MEMORY_FILE_PATH outside what the sandbox lets it write, then inside sandbox_write.
 * Needs Linux and bwrap able to create namespaces; skipped with the reason otherwise.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { probeBubblewrap } from '../../packages/core/src/connection/stdio/sandbox.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';

const MEMORY = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js');
const probe = process.platform === 'linux' ? probeBubblewrap() : { ok: false as const, reason: 'not Linux' };
const skipReason = probe.ok ? '' : `: skipped, ${probe.reason}`;

let home: string;
let workspace: string;
let sandboxTmp: string;
let data: string;
let daemon: RunningDaemon | undefined;
let client: Client | undefined;

beforeEach(() => {
  home = tempDir('blitz-sbw-');
  workspace = tempDir('blitz-sbw-ws-');
  // The daemon's TMPDIR is the sandbox's writable temp folder: the rest of the system temp is not writable then.
  sandboxTmp = tempDir('blitz-sbw-tmp-');
  data = tempDir('blitz-sbw-data-');
});

afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
  if (daemon) await daemon.stop();
  daemon = undefined;
  await assertNoOrphans();
  for (const dir of [home, workspace, sandboxTmp, data]) fs.rmSync(dir, { recursive: true, force: true });
});

function memory(extra: string): string {
  const file = path.join(data, 'memory.jsonl');
  return `[[mcp.servers]]\nname = "memory"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(MEMORY)}]\nenv = { MEMORY_FILE_PATH = ${JSON.stringify(file)} }\nauto_approve = true\n${extra}\n`;
}

const entity = { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] };

it.skipIf(!probe.ok)(
  `a write the sandbox refuses says which path it keeps read-only and the setting; with sandbox_write it works${skipReason}`,
  async () => {
    writeSettings(home, `[daemon]\nport = 0\n\n${memory('')}`);
    daemon = await startDaemonProcess(home, { TMPDIR: sandboxTmp });
    client = await connectHub(daemon.state, { workspace });
    await client.listTools();
    const refused = await client.callTool({ name: 'create_entities', arguments: entity });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('EROFS');
    expect(textOf(refused)).toContain(
      `the sandbox keeps ${data} read-only for memory: to let it write there, add sandbox_write = [${JSON.stringify(data)}] to its entry in settings.toml`,
    );
    expect(fs.existsSync(path.join(data, 'memory.jsonl'))).toBe(false);

    // Opened as the hint says; the daemon picks the edit up and restarts the server.
    writeSettings(home, `[daemon]\nport = 0\n\n${memory(`sandbox_write = [${JSON.stringify(data)}]`)}`);
    expect((await runBlitz(['mcp', 'get', 'memory'], { home })).stdout).toMatch(new RegExp(`sandbox_write: +${data}\\n`));
    await expect
      .poll(
        async () => {
          const result = await client!
            .callTool({ name: 'create_entities', arguments: entity })
            .catch((err: Error) => ({ isError: true, content: [{ type: 'text', text: err.message }] }));
          return result.isError ? textOf(result) : 'written';
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe('written');
    expect(fs.readFileSync(path.join(data, 'memory.jsonl'), 'utf8')).toContain('Ada');
  },
);

it.skipIf(!probe.ok)(`a sandboxed server that dies on a refused write: mcp list ends its line with the hint${skipReason}`, async () => {
  const script = `require('node:fs').writeFileSync(${JSON.stringify(path.join(data, 'state.json'))}, '{}')`;
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "writer"\ncommand = ${JSON.stringify(process.execPath)}\nargs = ["-e", ${JSON.stringify(script)}]\n`,
  );
  daemon = await startDaemonProcess(home, { TMPDIR: sandboxTmp });
  const ws = await daemon.client.openWorkspace(workspace);
  await daemon.client.listWorkspaceServers(ws.id, { connect: true });
  await expect.poll(async () => (await daemon!.client.status()).servers[0]?.state, { timeout: 10_000 }).toBe('failed');
  const line = (await runBlitz(['mcp', 'list'], { home })).stdout.split('\n').find((l) => l.startsWith('writer'));
  expect(line).toContain(
    `failed: the sandbox keeps ${data} read-only; to let it write there, add sandbox_write = [${JSON.stringify(data)}]`,
  );
  const [json] = JSON.parse((await runBlitz(['mcp', 'list', '--json'], { home })).stdout) as Array<{ error: string }>;
  expect(json!.error).toMatch(/EROFS: read-only file system, open/);
});
