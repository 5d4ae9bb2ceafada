import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, BlitzClient } from '@blitz/client';
import { blitzPaths, readProjectConfig, TrustStore } from '@blitz/core';
import type { Daemon } from './daemon.js';
import { startInProcessDaemon, type InProcessDaemon } from './testing/in-process-daemon.js';

// In-process: the daemon runs in the test's own process, on 127.0.0.1 port 0, with a fake
// clock. The control API is reached without a socket (daemon.request, as Hono's app.request());
// the hub session through real HTTP with the SDK's client. What crosses a process boundary
// (the daemon's own process, signals, daemon.json left by a killed one) stays in test/daemon.

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));

function stdio(name: string, fixture: string, extra = ''): string {
  return `[[mcp.servers]]\nname = "${name}"\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify([path.join(FIXTURES, `${fixture}.mjs`)])}\nsandbox = false\n${extra}\n`;
}

const SETTINGS =
  '# my servers\n' +
  stdio('steady', 'garbage-stdout', 'env = { TOKEN = "env-secret-value-3c2a" }') +
  '\n' +
  stdio('other', 'env-dump', 'auto_approve = true') +
  '\n[[mcp.servers]]\nname = "remote"\nurl = "https://mcp.example.com/mcp"\nheaders = { Authorization = "Bearer bearer-token-6e5b" }\ndisabled = true\n';

let running: InProcessDaemon;
let home: string;
let workspace: string;
let daemon: Daemon;
let client: BlitzClient;

beforeAll(async () => {
  running = await startInProcessDaemon('blitz-daemon', SETTINGS);
  ({ home, workspace, daemon, client } = running);
});

afterAll(async () => {
  const pids = (await client.status()).servers.flatMap((s) => (s.copies ?? []).flatMap((c) => (c.pid === undefined ? [] : [c.pid])));
  expect(pids.length).toBeGreaterThan(0);
  await running.stop();
  // No orphans: every server process the daemon started has ended with it.
  for (const pid of pids) expect(isAlive(pid), `server process ${pid} outlived the daemon`).toBe(false);
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function api(
  pathname: string,
  init: RequestInit & { headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await daemon.request(pathname, { ...init, headers: { authorization: `Bearer ${daemon.token}`, ...init.headers } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** What a BlitzClient call threw, as the CLI sees it. */
async function apiError(call: Promise<unknown>): Promise<Pick<ApiError, 'status' | 'code' | 'reason' | 'problems'>> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(err)}`);
  return { status: err.status, code: err.code, reason: err.reason, problems: err.problems };
}

describe('the control API in-process', () => {
  it('refuses a missing or wrong token (401), a foreign Origin (403); answers health without one', async () => {
    expect(await api('/v1/status', { headers: { authorization: '' } })).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHENTICATED', reason: 'BAD_TOKEN' },
    });
    expect(await api('/v1/status', { headers: { authorization: 'Bearer wrong' } })).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHENTICATED', reason: 'BAD_TOKEN' },
    });
    expect(await api('/v1/status', { headers: { origin: 'https://evil.example' } })).toMatchObject({
      status: 403,
      body: { code: 'PERMISSION_DENIED', reason: 'FOREIGN_ORIGIN' },
    });
    expect((await api('/v1/status', { headers: { origin: daemon.url } })).status).toBe(200);
    expect((await daemon.request('/v1/health')).status).toBe(200);
    expect((await daemon.request(new Request(`${daemon.url}/v1/health`))).status).toBe(200);
    expect(await api('/v1/status', { headers: { host: 'evil.example:80' } })).toMatchObject({
      status: 403,
      body: { code: 'PERMISSION_DENIED', reason: 'FOREIGN_HOST' },
    });
  });

  it('answers NOT_FOUND and INVALID_ARGUMENT with code, reason and every problem', async () => {
    expect(await api('/v1/config/mcp-servers/nope')).toEqual({
      status: 404,
      body: {
        code: 'NOT_FOUND',
        reason: 'MCP_SERVER_NOT_FOUND',
        message: `no MCP server named "nope" in ${path.join(home, 'settings.toml')}`,
      },
    });
    expect(await apiError(client.setServerEnabled('nope', true))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    const bad = await apiError(client.saveServer({ name: 'x y', command: 'a', url: 'http://example.com/mcp', args: 'no' } as never));
    expect(bad).toMatchObject({ status: 400, code: 'INVALID_ARGUMENT', reason: 'INVALID_MCP_SERVER' });
    expect(bad.problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('name: "x y" may use only'),
        expect.stringContaining('both command and url'),
        expect.stringContaining('args: must be an array of strings'),
      ]),
    );
    expect(await apiError(client.listWorkspaceServers('abc'))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      reason: 'WORKSPACE_NOT_FOUND',
    });
  });

  it('takes the status of each refusal of the router from the one table: 405, 413, 400', async () => {
    expect(await api('/v1/status', { method: 'DELETE' })).toMatchObject({ status: 405, body: { code: 'METHOD_NOT_ALLOWED' } });
    const huge = JSON.stringify({ name: 'big', command: 'x', args: ['y'.repeat(1024 * 1024)] });
    expect(await api('/v1/config/mcp-servers', { method: 'PUT', body: huge })).toMatchObject({
      status: 413,
      body: { code: 'PAYLOAD_TOO_LARGE' },
    });
    expect(await api('/v1/config/mcp-servers', { method: 'PUT', body: '{"name": nope' })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_ARGUMENT', reason: 'NOT_JSON' },
    });
    expect(await api('/v1/nothing-here')).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', reason: 'ENDPOINT_NOT_FOUND' } });
    expect(fs.readFileSync(path.join(home, 'settings.toml'), 'utf8')).toBe(SETTINGS);
  });

  it('a PUT with an unknown field nested 100,000 deep is a 400, not a 500, and changes nothing', async () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    expect(await api('/v1/config/mcp-servers', { method: 'PUT', body: `{"name": "deep", "command": "node", "extra": ${deep}}` })).toEqual({
      status: 400,
      body: {
        code: 'INVALID_ARGUMENT',
        reason: 'BODY_TOO_DEEP',
        message: 'request body nests objects and arrays deeper than 16 levels; nothing was changed',
      },
    });
    expect(fs.readFileSync(path.join(home, 'settings.toml'), 'utf8')).toBe(SETTINGS);
    expect((await daemon.request('/v1/health')).status).toBe(200);
  });

  it('a server body with fields no server has (__proto__, a typo) is refused naming them, and nothing is written (issue 25.12)', async () => {
    const body =
      '{"name": "extra", "command": "node", "__proto__": {"polluted": true}, "colour": "red", "oauth": {"client_id": "x", "scope": "y"}}';
    expect(await api('/v1/config/mcp-servers', { method: 'PUT', body })).toEqual({
      status: 400,
      body: {
        code: 'INVALID_ARGUMENT',
        reason: 'INVALID_MCP_SERVER',
        message: 'MCP server "extra" is not valid',
        problems: [
          'oauth.scope: is not a field of an MCP server',
          '__proto__: is not a field of an MCP server',
          'colour: is not a field of an MCP server',
        ],
      },
    });
    expect(await api('/v1/config/mcp-servers/other', { method: 'PUT', body: body.replace('"extra"', '"other"') })).toMatchObject({
      status: 400,
      body: { reason: 'INVALID_MCP_SERVER' },
    });
    const validated = await api('/v1/config/mcp-servers/validate', { method: 'POST', body: `{"server": ${body}}` });
    expect((validated.body.problems as Array<{ reason?: string }>).map((p) => p.reason)).toEqual([
      'UNKNOWN_FIELD',
      'UNKNOWN_FIELD',
      'UNKNOWN_FIELD',
    ]);
    expect(fs.readFileSync(path.join(home, 'settings.toml'), 'utf8')).toBe(SETTINGS);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a path is not a secret: opening /etc/passwd as a workspace says what it is', async () => {
    expect(await apiError(client.openWorkspace('/etc/passwd'))).toEqual({
      status: 400,
      code: 'INVALID_ARGUMENT',
      reason: 'WORKSPACE_NOT_A_DIRECTORY',
      problems: [],
    });
    const answer = await api('/v1/workspaces', { method: 'POST', body: JSON.stringify({ root: '/etc/passwd' }) });
    expect(answer.body.message).toBe('cannot open a workspace for /etc/passwd: not a directory');
  });

  it('status lists the global servers in settings order with their state; a workspace connects them', async () => {
    const status = await client.status();
    expect(status.servers.map((s) => [s.name, s.enabled, s.state])).toEqual([
      ['steady', true, 'idle'],
      ['other', true, 'idle'],
      ['remote', false, 'disabled'],
    ]);
    expect(status.problems).toEqual([]);
    const ws = await client.openWorkspace(workspace);
    const servers = await client.listWorkspaceServers(ws.id, { connect: true });
    expect(servers.map((s) => [s.name, s.state])).toEqual([
      ['steady', 'connected'],
      ['other', 'connected'],
      ['remote', 'disabled'],
    ]);
    expect((await client.status()).servers.map((s) => s.state)).toEqual(['connected', 'connected', 'disabled']);
  });

  it('status answers the same between changes, and the next GET after a change shows it', async () => {
    const before = await api('/v1/status');
    expect(await api('/v1/status')).toEqual(before);
    expect(before.body['problems']).toEqual([]);
    // A settings problem: the reload's event drops the status built before it.
    fs.writeFileSync(path.join(home, 'settings.toml'), SETTINGS + '\n[[mcp.servers]]\nname = "broken"\n');
    await daemon.reload();
    const after = await api('/v1/status');
    expect(after.body['problems']).toEqual([expect.stringContaining('broken')]);
    fs.writeFileSync(path.join(home, 'settings.toml'), SETTINGS);
    await daemon.reload();
    expect((await api('/v1/status')).body['problems']).toEqual([]);
  });

  it('a tools entry the server does not offer and a tool_exposure key matching none of its tools are warnings naming settings.toml and their lines, which follow an edit above them', async () => {
    const file = path.join(home, 'settings.toml');
    const text = SETTINGS + '\n' + stdio('exposed', 'env-dump', 'prefix = "x"\ntools = ["gone"]\ntool_exposure = { "pr_*" = "hidden" }');
    const lineOf = (t: string, field: string) => t.split('\n').findIndex((l) => l.startsWith(`${field} =`)) + 1;
    const expected = (t: string) => [
      `tools lists "gone", which the server does not offer (${file}:${lineOf(t, 'tools')})`,
      `tool_exposure "pr_*" matches no tool the server offers (${file}:${lineOf(t, 'tool_exposure')})`,
    ];
    const ws = await client.openWorkspace(workspace);
    const warnings = async () => (await client.listWorkspaceServers(ws.id, { connect: true })).find((s) => s.name === 'exposed')?.warnings;
    try {
      fs.writeFileSync(file, text);
      await daemon.reload();
      expect(await warnings()).toEqual(expected(text));
      // A comment above them changes no setting: nothing restarts, and the lines move.
      const moved = '# moved\n' + text;
      fs.writeFileSync(file, moved);
      await daemon.reload();
      expect(await warnings()).toEqual(expected(moved));
      expect(lineOf(moved, 'tools')).toBe(lineOf(text, 'tools') + 1);
    } finally {
      fs.writeFileSync(file, SETTINGS);
      await daemon.reload();
    }
  });

  it("a project's .mcp.json server: its tools entry and tool_exposure key matching none are warnings naming the file and their own lines", async () => {
    const project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-daemon-project-')));
    const file = path.join(project, '.mcp.json');
    try {
      // One key a line: the warnings' lines are those of "tools" (5) and "pr_*" (7), not the server's (3).
      fs.writeFileSync(
        file,
        `{
  "mcpServers": {
    "proj": {
      "command": ${JSON.stringify(process.execPath)},
      "tools": ["gone"],
      "tool_exposure": {
        "pr_*": "hidden"
      },
      "args": ${JSON.stringify([path.join(FIXTURES, 'env-dump.mjs')])},
      "sandbox": false
    }
  }
}
`,
      );
      await new TrustStore(blitzPaths(home).trust).trust(readProjectConfig(project));
      const ws = await client.openWorkspace(project);
      const proj = (await client.listWorkspaceServers(ws.id, { connect: true })).find((s) => s.name === 'proj');
      expect(proj?.warnings).toEqual([
        `tools lists "gone", which the server does not offer (${file}:5)`,
        `tool_exposure "pr_*" matches no tool the server offers (${file}:7)`,
      ]);
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
    }
  });

  it('masks secret values in what it answers', async () => {
    const { servers } = await client.listServerConfigs();
    const text = JSON.stringify(servers);
    expect(text).not.toContain('env-secret-value-3c2a');
    expect(text).not.toContain('bearer-token-6e5b');
    expect(servers.find((s) => s.name === 'remote')?.headers).toEqual({ Authorization: 'Bearer ***' });
  });
});

describe('a hub session in-process', () => {
  it('lists and calls a server tool through /mcp with the SDK client', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp?workspace=${encodeURIComponent(workspace)}`), {
      requestInit: { headers: { authorization: `Bearer ${daemon.token}` } },
    });
    const mcp = new Client({ name: 'in-process', version: '0' });
    await mcp.connect(transport);
    try {
      const names = (await mcp.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['env', 'echo', 'list_mcp_resources']));
      const env = await mcp.callTool({ name: 'env', arguments: {} });
      expect(env.isError).toBeFalsy();
      expect(JSON.parse((env.content as Array<{ text: string }>)[0]!.text)).toHaveProperty('PATH');
      // echo is steady's (the first in settings order), not auto_approve, and this client cannot be asked: refused, with why.
      const refused = await mcp.callTool({ name: 'echo', arguments: { text: 'hi' } });
      expect(refused).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('blitz mcp approve steady') }] });
      await expect(mcp.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/^MCP error -32602: unknown tool nope$/);
    } finally {
      await transport.terminateSession();
      await mcp.close();
    }
  });

  it('answers a session-less request without _meta as a 2026-07-28 one it cannot serve (400 -32602), and one of a session it does not have 404 -32001', async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${daemon.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${daemon.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const none = await post({});
    expect(none.status).toBe(400);
    // Outside a session a request is the 2026-07-28 revision's (issue 28.1), which carries its version in _meta.
    expect(await none.json()).toMatchObject({ error: { code: -32602, message: expect.stringContaining('_meta') } });
    const gone = await post({ 'mcp-session-id': 'from-an-earlier-daemon' });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ error: { code: -32001, message: 'Session not found' } });
  });

  it('refuses /mcp without the token in JSON-RPC, with the status the control API gives', async () => {
    const response = await fetch(`${daemon.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'missing or wrong bearer token (see $BLITZ_HOME/state/token)' },
    });
  });
});

describe('a settings edit judges the file as its lock finds it', () => {
  const file = () => path.join(home, 'settings.toml');

  /**
   * Runs `edit` while another holder has the settings lock, and `meanwhile` once the edit waits
   * on it (its first try seen; or once it settled, not having waited); then lets the lock go
   * and returns what the edit settled to.
   */
  async function whileLocked<T>(edit: () => Promise<T>, meanwhile: () => void): Promise<PromiseSettledResult<T>> {
    const lock = `${file()}.lock`;
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, token: 'another-holder' }));
    const watcher = fs.watch(home);
    try {
      const tried = new Promise<void>((resolve) =>
        watcher.on('change', (_event, name) => String(name).startsWith('settings.toml.lock.') && resolve()),
      );
      const settled = Promise.allSettled([edit()]);
      await Promise.race([tried, settled]);
      meanwhile();
      fs.rmSync(lock);
      return (await settled)[0];
    } finally {
      watcher.close();
      fs.rmSync(lock, { force: true });
    }
  }

  const rewrite = (from: string, to: string) => fs.writeFileSync(file(), fs.readFileSync(file(), 'utf8').replace(from, to));

  it('a replace fills the secrets a form sent back masked from the file under the lock: a value changed meanwhile is not undone', async () => {
    await client.saveServer({
      name: 'rotating',
      command: process.execPath,
      args: ['-e', ''],
      env: { KEY: 'first-secret-1a2b' },
      disabled: true,
    });
    try {
      const shown = await client.getServerConfig('rotating');
      expect(shown.env).toEqual({ KEY: '***' });
      const saved = await whileLocked(
        () => client.saveServer({ ...shown, args: ['-e', '1'] }, 'rotating'),
        () => rewrite('first-secret-1a2b', 'rotated-secret-3c4d'),
      );
      expect(saved.status).toBe('fulfilled');
      const text = fs.readFileSync(file(), 'utf8');
      expect(text).toContain('rotated-secret-3c4d');
      expect(text).not.toContain('first-secret-1a2b');
    } finally {
      await client.removeServer('rotating');
    }
  });

  it('an add meets a name taken while it waited with every problem at once, its own too', async () => {
    const added = await whileLocked(
      () => client.saveServer({ name: 'late', command: process.execPath, args: 'no' } as never),
      () => fs.appendFileSync(file(), `\n[[mcp.servers]]\nname = "late"\ncommand = "true"\ndisabled = true\n`),
    );
    try {
      expect(added.status).toBe('rejected');
      const err = (added as PromiseRejectedResult).reason as ApiError;
      expect({ status: err.status, code: err.code, reason: err.reason }).toEqual({
        status: 400,
        code: 'INVALID_ARGUMENT',
        reason: 'INVALID_MCP_SERVER',
      });
      expect(err.problems).toEqual([
        expect.stringContaining('args: must be an array of strings'),
        expect.stringContaining('name: an MCP server named "late" already exists'),
      ]);
    } finally {
      await client.removeServer('late');
    }
  });
});
