/**
 * The sandbox for real: bubblewrap around fixture servers. Needs Linux and `bwrap`
 * (apt-get install bubblewrap) able to create namespaces; skipped with the reason otherwise.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../config/server-config.js';
import { fixtureCommand, type FixtureName } from '../../testing/fixture-servers.js';
import { assertNoOrphans } from '../../testing/no-orphans.js';
import { serverConfig } from '../../testing/server-config.js';
import { createSandbox, probeBubblewrap } from './sandbox.js';
import type { OwnedProcess } from './owned-process.js';
import { createStdioTransport, spawnServer } from './spawn-server.js';
import type { StdioTransport } from './stdio-transport.js';

const probe = process.platform === 'linux' ? probeBubblewrap() : { ok: false as const, reason: 'not Linux' };
const skipReason = probe.ok ? '' : `: skipped, ${probe.reason}`;

let root: string;
let dirs: { workspace: string; tmp: string; blitzHome: string; outside: string };
const transports: StdioTransport[] = [];
const processes: OwnedProcess[] = [];

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'blitz-sandbox-'));
  const sub = (name: string) => mkdtempSync(path.join(root, `${name}-`));
  dirs = { workspace: sub('workspace'), tmp: sub('tmp'), blitzHome: sub('blitz-home'), outside: sub('outside') };
  writeFileSync(path.join(dirs.blitzHome, 'secrets.json'), '{"token":"s3cret"}');
});

afterEach(async () => {
  const owned = [...transports.map((t) => t.process), ...processes].filter((p) => p !== undefined);
  const sessions = owned.flatMap((p) => (p.pid === undefined ? [] : [p.pid]));
  await Promise.all([...transports.splice(0).map((t) => t.close()), ...processes.splice(0).map((p) => p.close())]);
  rmSync(root, { recursive: true, force: true });
  await assertNoOrphans({ sessions });
});

function boxedConfig(name: string, line: { command: string; args: string[] }, env: Record<string, string> = {}): ServerConfig {
  return serverConfig(name, {
    transport: { kind: 'stdio', command: line.command, args: line.args, env },
    sandbox: true,
    timeoutSeconds: 60,
  });
}

function deps(graceMs = 200) {
  return { workspaceDir: dirs.workspace, sandbox: createSandbox({ blitzHome: dirs.blitzHome, tmpDir: dirs.tmp, warn: () => {} }), graceMs };
}

function boxed(fixture: FixtureName, env: Record<string, string> = {}): StdioTransport {
  const transport = createStdioTransport(boxedConfig(`boxed-${fixture}`, fixtureCommand(fixture), env), deps());
  transports.push(transport);
  return transport;
}

async function connect(transport: StdioTransport): Promise<Client> {
  const client = new Client({ name: 'blitz-test', version: '0.0.0' });
  await client.connect(transport);
  return client;
}

async function call(client: Client, name: string, args: Record<string, string>): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as { content: { text: string }[]; isError?: boolean };
  return { text: result.content[0]!.text, isError: result.isError === true };
}

describe('bubblewrap sandbox (Linux)', () => {
  it.skipIf(!probe.ok)(`lets a server write in its workspace and tmp, and nowhere else${skipReason}`, async () => {
    const client = await connect(boxed('write-file'));
    expect(await call(client, 'write', { path: path.join(dirs.workspace, 'ok.txt'), content: 'in' })).toEqual({
      text: 'written',
      isError: false,
    });
    expect(readFileSync(path.join(dirs.workspace, 'ok.txt'), 'utf8')).toBe('in');
    expect((await call(client, 'write', { path: path.join(dirs.tmp, 'scratch'), content: 't' })).isError).toBe(false);

    const outside = await call(client, 'write', { path: path.join(dirs.outside, 'escape.txt'), content: 'out' });
    expect(outside).toMatchObject({ isError: true, text: expect.stringContaining('EROFS') });
    expect(existsSync(path.join(dirs.outside, 'escape.txt'))).toBe(false);
  });

  it.skipIf(!probe.ok)(`hides BLITZ_HOME: nothing to read, nothing to write${skipReason}`, async () => {
    const client = await connect(boxed('write-file'));
    const read = await call(client, 'read', { path: path.join(dirs.blitzHome, 'secrets.json') });
    expect(read).toMatchObject({ isError: true, text: expect.stringContaining('ENOENT') });
    const write = await call(client, 'write', { path: path.join(dirs.blitzHome, 'planted'), content: 'x' });
    expect(write).toMatchObject({ isError: true, text: expect.stringContaining('EROFS') });
  });

  it.skipIf(!probe.ok)(`keeps the daemon's environment out of reach through /proc${skipReason}`, async () => {
    const client = await connect(boxed('write-file'));
    const read = await call(client, 'read', { path: `/proc/${process.pid}/environ` });
    expect(read.isError).toBe(true);
  });

  it.skipIf(!probe.ok)(`still ends a server that ignores SIGTERM, with everything it started${skipReason}`, async () => {
    const transport = boxed('ignore-sigterm');
    const client = await connect(transport);
    await client.close();
    expect(transport.process!.exit?.signal).toBe('SIGKILL');
    expect(transport.process!.stderr.text()).toContain('ignoring SIGTERM');
  });

  it.skipIf(!probe.ok)(`lets a sandboxed server finish its SIGTERM handler: bwrap is spared the signal${skipReason}`, async () => {
    const script = `
      process.stdin.resume();
      process.stdin.on('end', () => {});
      setInterval(() => {}, 1000);
      process.on('SIGTERM', () => setTimeout(() => {
        require('node:fs').writeFileSync('cleaned-up', 'yes');
        process.exit(0);
      }, 100));
      process.stderr.write('ready\\n');`;
    // Step (1) waits the full grace period; step (2) must outlast the handler even on a slow machine.
    const proc = spawnServer(boxedConfig('graceful', { command: process.execPath, args: ['-e', script] }), deps(1_500));
    processes.push(proc);
    await expect.poll(() => proc.stderr.text()).toContain('ready');
    expect(await proc.close()).toEqual({ code: 0, signal: null });
    expect(readFileSync(path.join(dirs.workspace, 'cleaned-up'), 'utf8')).toBe('yes');
  });

  it.skipIf(!probe.ok)(`takes a sandboxed server's grandchild down with it${skipReason}`, async () => {
    // Inside the sandbox's pid namespace the pid file would hold the inner pid; the orphan
    // check in afterEach looks at the whole session instead.
    const transport = boxed('spawn-grandchild', { GRANDCHILD_PID_FILE: path.join(dirs.workspace, 'pid') });
    const client = await connect(transport);
    expect(existsSync(path.join(dirs.workspace, 'pid'))).toBe(true);
    await client.close();
  });
});
