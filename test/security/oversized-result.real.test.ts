import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { readDaemonState } from '@blitz/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { BLITZ_BIN, runBlitz, tempDir } from '../support/blitz-cli.js';
import { writeSettings } from '../support/daemon-process.js';
import { textOf } from '../support/hub-client.js';

let home: string;
let workspace: string;
let client: Client | undefined;

beforeEach(() => {
  home = tempDir('blitz-oversized-');
  workspace = tempDir('blitz-oversized-ws-');
  const { command, args } = fixtureCommand('resources');
  // No [hub] table: the default limit is what is tested.
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "big"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\nauto_approve = true\n`,
  );
});

afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
  if (readDaemonState(home)) await runBlitz(['daemon', 'stop'], { home });
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
});

describe('a result past what an SDK stdio client reads, through blitz connect', () => {
  it('is refused with the error naming [hub] max_result_mb; the session lives on, and a result just under the default passes whole', async () => {
    // What the SDK client holds of one message: the default must stay below it.
    expect(STDIO_DEFAULT_MAX_BUFFER_SIZE).toBe(10 * 1024 * 1024);
    client = new Client({ name: 'oversized-test', version: '1' });
    let closed = false;
    client.onclose = () => (closed = true);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BLITZ_BIN, 'connect', '--workspace', workspace],
        env: { PATH: process.env.PATH!, HOME: home, BLITZ_HOME: home },
        stderr: 'pipe',
      }),
    );
    await client.listTools();

    const refused = await client.callTool({ name: 'sized', arguments: { kb: 10 * 1024 } }, undefined, { timeout: 60_000 });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /^MCP server big sent a message of 10\.0 MB, more than the limit of 8\.0 MB \(\[hub\] max_result_mb\); it was not passed on$/,
    );
    expect(closed).toBe(false);

    const passed = await client.callTool({ name: 'sized', arguments: { kb: 7 * 1024 } }, undefined, { timeout: 60_000 });
    expect(textOf(passed)).toHaveLength(7 * 1024 * 1024);
    expect(textOf(await client.callTool({ name: 'sized', arguments: { kb: 1 } }))).toHaveLength(1024);
    expect(closed).toBe(false);
  });
});
