import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOAuthServer, type OAuthFixture } from '../fixtures/oauth/oauth-server.mjs';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { completeInBrowser, startLogin } from '../oauth/login-process.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';

// Planted where a user keeps secrets: an env value, a header value, a Bearer token inside
// `args`, an OAuth client secret; the OAuth tokens come from a real sign-in.
const ENV_SECRET = 'env-secret-8f3a91c2d4';
const HEADER_SECRET = 'hdr-secret-5d7e02b4aa';
const ARGS_SECRET = 'args-bearer-1c9f44aa07';
const CLIENT_SECRET = 'client-secret-3b8e6f10';

let fixture: OAuthFixture | undefined;
let home: string;
let workspace: string;
let daemon: RunningDaemon | undefined;
const clients: Client[] = [];

beforeEach(() => {
  home = tempDir('blitz-secrets-');
  workspace = tempDir('blitz-secrets-ws-');
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  if (daemon) await daemon.stop();
  daemon = undefined;
  await fixture?.close();
  fixture = undefined;
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
});

function leaky(name: string, args: string[], extra: string): string {
  const { command, args: script } = fixtureCommand('leak-secrets');
  const env = `{ LEAK_TOKEN = "${ENV_SECRET}", LEAK_VARS = "LEAK_TOKEN", LEAK_FILE = ${JSON.stringify(path.join(home, 'planted.txt'))} }`;
  return `[[mcp.servers]]\nname = "${name}"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify([...script, ...args])}\nsandbox = false\nauto_approve = true\nenv = ${env}\n${extra}\n`;
}

/** Every planted secret, and the tokens of the sign-in, as stored. */
function allSecrets(): string[] {
  const stored = JSON.parse(fs.readFileSync(path.join(home, 'state', 'secrets.json'), 'utf8')) as { secrets: Record<string, string> };
  const tokens = (JSON.parse(stored.secrets['mcp-oauth-remote']!) as { tokens: { access_token: string; refresh_token: string } }).tokens;
  return [ENV_SECRET, HEADER_SECRET, ARGS_SECRET, CLIENT_SECRET, tokens.access_token, tokens.refresh_token];
}

function expectNoSecret(surface: string, text: string, secrets: readonly string[]): void {
  for (const secret of secrets) expect(text, `${surface} holds ${secret}:\n${text}`).not.toContain(secret);
}

describe('no planted secret leaves the daemon or the CLI', () => {
  it('a dying server spills env values, header values, an args Bearer, a client secret and OAuth tokens on stderr: every surface masks them', async () => {
    const env = { LEAKY_CLIENT_SECRET: CLIENT_SECRET };
    fixture = await startOAuthServer({ clients: [{ client_id: 'blitz-pre', client_secret: CLIENT_SECRET }] });
    writeSettings(
      home,
      `[daemon]\nport = 0\n\n` +
        leaky('leaky', ['--header', `Authorization: Bearer ${ARGS_SECRET}`], 'prefix = "lk"') +
        leaky('leaky-start', ['start'], 'disabled = true') +
        `[[mcp.servers]]\nname = "remote"\nurl = "${fixture.url}"\nprefix = "rm"\nauto_approve = true\nheaders = { "X-Api-Key" = "${HEADER_SECRET}" }\n\n` +
        // A client secret is only ever a reference; its value comes from the environment.
        `[mcp.servers.oauth]\nclient_id = "blitz-pre"\nclient_secret = "\${LEAKY_CLIENT_SECRET}"\n`,
    );
    const login = startLogin(home, 'remote', { env });
    await completeInBrowser(await login.authorizationUrl());
    const signedIn = await login.exit();
    expect(signedIn.code, signedIn.stderr).toBe(0);
    const secrets = allSecrets();
    // The servers' stderr will carry every one of them.
    fs.writeFileSync(path.join(home, 'planted.txt'), `planted ${secrets.join(' ')}`);
    expectNoSecret('blitz mcp login', signedIn.stdout + signedIn.stderr, secrets);

    daemon = await startDaemonProcess(home, env);
    const logged: string[] = [];
    for (const via of ['http', 'lines'] as const) {
      const client = await connectHub(daemon.state, { workspace, via });
      client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => void logged.push(JSON.stringify(n.params.data)));
      clients.push(client);
      await client.listTools();
    }
    const [first] = clients;
    // The daemon uses the sign-in (and so knows its tokens) before anything quotes them.
    expect(textOf(await first!.callTool({ name: 'rm__whoami', arguments: {} }))).toBe('blitz-pre');
    const crashed = await first!.callTool({ name: 'lk__crash', arguments: {} });
    expect(crashed.isError).toBe(true);
    const toolError = textOf(crashed);
    expect(toolError).toMatch(
      /^MCP server leaky exited with code 7; its stderr ends with:\nleak-secrets: LEAK_TOKEN=\*\*\*\nleak-secrets: argv --header Authorization: Bearer \*\*\*\nleak-secrets: planted \*\*\* \*\*\* \*\*\* \*\*\* \*\*\* \*\*\*$/,
    );
    // Every session hears the notice (MCP-33), masked.
    await expect.poll(() => logged.filter((l) => l.includes('MCP server leaky failed')).length, { timeout: 10_000 }).toBe(2);
    expect(logged.join('\n')).toContain('leak-secrets: planted ***');

    const ws = await daemon.client.openWorkspace(workspace);
    const api = [
      JSON.stringify(await daemon.client.status()),
      JSON.stringify(await daemon.client.listWorkspaceServers(ws.id)),
      JSON.stringify(await daemon.client.listServerConfigs()),
    ].join('\n');
    expect(api).toContain('MCP server leaky');
    const logs = fs
      .readdirSync(path.join(home, 'logs'))
      .map((f) => fs.readFileSync(path.join(home, 'logs', f), 'utf8'))
      .join('\n');
    expect(logs).toContain('its stderr ends with');

    const cli: Record<string, string> = {};
    for (const args of [
      ['mcp', 'list'],
      ['mcp', 'list', '--json'],
      ['mcp', 'get', 'leaky'],
      ['mcp', 'get', 'leaky', '--json'],
      ['mcp', 'get', 'remote', '--json'],
      ['config', 'show'],
      ['config', 'show', '--json'],
    ]) {
      const run = await runBlitz(args, { home, env });
      expect(run.code, run.stderr).toBe(0);
      cli[args.join(' ')] = run.stdout + run.stderr;
    }
    expect(cli['mcp list']).toContain(`'Authorization: Bearer ***'`);
    expect(JSON.parse(cli['mcp get leaky --json']!).args).toContain('Authorization: Bearer ***');
    expect(cli['config show']).toContain('"Authorization: Bearer ***"');

    expect((await runBlitz(['mcp', 'enable', 'leaky-start'], { home, env })).code).toBe(0);
    const doctor = await runBlitz(['doctor', '--online'], { home, cwd: workspace, env });
    expect(doctor.stdout).toMatch(
      /^FAIL {2}leaky-start: it exited with code 7: leak-secrets: planted \*\*\* \*\*\* \*\*\* \*\*\* \*\*\* \*\*\*; see its output/m,
    );
    expect(doctor.stdout).toMatch(/^ {6}leak-secrets: planted \*\*\* \*\*\* \*\*\* \*\*\* \*\*\* \*\*\*$/m);
    expect(doctor.stdout).toMatch(/^ok {4}remote: 2 tools$/m);

    const surfaces = {
      'tool error': toolError,
      'MCP logging': logged.join('\n'),
      'control API': api,
      'blitz.log': logs,
      'doctor --online': doctor.stdout + doctor.stderr,
      ...cli,
    };
    for (const [surface, text] of Object.entries(surfaces)) expectNoSecret(surface, text, secrets);
  });
});
