/**
 * Issue 26.4 through the real daemon and CLI: the redactor masks what is secret — values of
 * secret-named variables and credential-shaped values — and leaves paths, words and numbers
 * readable in `mcp list`, `config show` and the control API; a server named like an env value
 * keeps its name; a removed server's values are masked no longer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';

const API_KEY = 'plain-key-value-9';
const GITHUB = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';

let home: string;
let workspace: string;
let daemon: RunningDaemon | undefined;

beforeEach(() => {
  home = tempDir('blitz-redact-');
  workspace = tempDir('blitz-redact-ws-');
});

afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  await assertNoOrphans();
  for (const dir of [home, workspace]) fs.rmSync(dir, { recursive: true, force: true });
});

/** leak-secrets dying at start, printing the named env values to stderr. */
function leaking(name: string, env: Record<string, string>): string {
  const { command, args } = fixtureCommand('leak-secrets');
  const table = Object.entries({ ...env, LEAK_VARS: Object.keys(env).join(',') })
    .map(([k, v]) => `${k} = ${JSON.stringify(v)}`)
    .join(', ');
  return `[[mcp.servers]]\nname = "${name}"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify([...args, 'start'])}\nsandbox = false\nenv = { ${table} }\n\n`;
}

async function errorOf(name: string): Promise<string> {
  const ws = await daemon!.client.openWorkspace(workspace);
  const servers = await daemon!.client.listWorkspaceServers(ws.id, { connect: true });
  return servers.find((s) => s.name === name)?.error ?? '';
}

describe('the redactor masks what is secret, not every value (issue 26.4)', () => {
  it("paths, words and numbers stay readable in the API, mcp list and config show; secrets do not; a removed server's values are dropped", async () => {
    const env = { CONFIG: '/etc/app.conf', MODE: 'production', TMPDIR: '/tmp', PORT: '8080', SERVICE_API_KEY: API_KEY, OTHER: GITHUB };
    writeSettings(home, `[daemon]\nport = 0\n\n${leaking('production', env)}`);
    daemon = await startDaemonProcess(home);

    const error = await errorOf('production');
    for (const line of ['CONFIG=/etc/app.conf', 'MODE=production', 'TMPDIR=/tmp', 'PORT=8080', 'SERVICE_API_KEY=***', 'OTHER=***'])
      expect(error).toContain(`leak-secrets: ${line}`);
    expect(error).toMatch(/^MCP server production /);
    // The server's name equals an env value: it is still its name in the API the page reads.
    expect((await daemon.client.status()).servers.map((s) => s.name)).toEqual(['production']);
    expect((await daemon.client.listServerConfigs()).servers.map((s) => s.name)).toEqual(['production']);
    expect((await daemon.client.listServerConfigs()).servers[0]!.env).toEqual({
      ...env,
      SERVICE_API_KEY: '***',
      OTHER: '***',
      LEAK_VARS: Object.keys(env).join(','),
    });

    const { command } = fixtureCommand('leak-secrets');
    const list = await runBlitz(['mcp', 'list'], { home });
    expect(list.stdout).toMatch(/^production\s+stdio\s+/m);
    expect(list.stdout).toContain(command);
    const show = await runBlitz(['config', 'show'], { home });
    expect(show.stdout).toContain(`command = ${JSON.stringify(command)}`);
    expect(show.stdout).toContain('CONFIG = "/etc/app.conf"');
    expect(show.stdout).toContain('SERVICE_API_KEY = "***"');
    for (const text of [error, list.stdout, show.stdout, JSON.stringify(await daemon.client.status())]) {
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain(GITHUB);
    }

    // The server goes; another prints the removed one's value under a name that is no secret.
    fs.writeFileSync(path.join(home, 'settings.toml'), `[daemon]\nport = 0\n\n${leaking('later', { NOTE: API_KEY })}`);
    const deadline = Date.now() + 20_000;
    while (!(await daemon.client.status()).servers.some((s) => s.name === 'later')) {
      if (Date.now() > deadline) throw new Error(`the new settings were not applied:\n${daemon.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await errorOf('later')).toContain(`leak-secrets: NOTE=${API_KEY}`);
  });
});
