import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';

/**
 * The probes of issue 11 point 9, kept: each case once gave a stack trace, a 500 or a
 * needless wait; each now gets a clear answer with a code, and changes nothing. The two that
 * need no daemon process (a body nested 100,000 deep, /etc/passwd as a workspace) are tested
 * in-process in apps/daemon/src/daemon.real.test.ts.
 */

const SETTINGS = '# mine\n[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "first"\ncommand = "node"\nargs = ["first.js"]\n';

let home: string;
let daemon: RunningDaemon | undefined;
let silent: http.Server | undefined;

beforeEach(() => {
  home = tempDir('blitz-errors-');
  writeSettings(home, SETTINGS);
});

afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  if (silent) {
    silent.closeAllConnections();
    await new Promise((resolve) => silent!.close(resolve));
    silent = undefined;
  }
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
});

async function api(method: string, pathname: string, body?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${daemon!.client.baseUrl}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${daemon!.state.token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const settingsText = () => fs.readFileSync(path.join(home, 'settings.toml'), 'utf8');

describe('clear errors', () => {
  it('names "." and ".." are refused by the CLI and the API (no API path could reach them)', async () => {
    daemon = await startDaemonProcess(home);
    for (const name of ['.', '..']) {
      const add = await runBlitz(['mcp', 'add', name, 'node', 'x.js'], { home });
      expect(add.code).toBe(1);
      expect(add.stderr).toBe(
        `blitz: MCP server "${name}" is not valid\n  name: "${name}" is not a name: use a letter, digit, "-" or "_" too\n`,
      );
      const put = await api('PUT', '/v1/config/mcp-servers', JSON.stringify({ name, command: 'node' }));
      expect(put.status).toBe(400);
      expect(put.body).toMatchObject({ code: 'INVALID_ARGUMENT', reason: 'INVALID_MCP_SERVER' });
    }
    expect(settingsText()).toBe(SETTINGS);
  });

  it('an empty lock file left by a killed command is taken over at once', async () => {
    fs.writeFileSync(path.join(home, 'settings.toml.lock'), '');
    const add = await runBlitz(['mcp', 'add', 'second', 'node', 'second.js'], { home });
    // Before, every edit waited out the lock's timeout and failed.
    expect({ code: add.code, stderr: add.stderr }).toEqual({ code: 0, stderr: '' });
    expect(settingsText()).toContain('name = "second"');
    expect(fs.readdirSync(home)).toEqual(['settings.toml']);
  });

  it('blitz daemon status against a daemon that never answers says so, without a stack', { timeout: 60_000 }, async () => {
    // Accepts the connection, never answers: a daemon that hangs.
    silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent!.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    fs.mkdirSync(path.join(home, 'state'), { recursive: true });
    // A live pid, so the state file is believed: this test's own.
    fs.writeFileSync(
      path.join(home, 'state', 'daemon.json'),
      JSON.stringify({ pid: process.pid, port, token: 't', version: 'x', startedAt: new Date().toISOString() }),
    );
    const status = await runBlitz(['daemon', 'status'], { home });
    expect(status.code).toBe(1);
    expect(status.stderr).toBe(
      `blitz: the Blitz daemon at http://127.0.0.1:${port} did not answer GET /v1/status within 10s; it may be busy or stuck: see its log, or restart it (blitz daemon stop, then blitz daemon start)\n`,
    );
  });
});
