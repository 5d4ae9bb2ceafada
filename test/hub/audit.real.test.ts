import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { AuditEntry } from '@blitz/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf, type HubTransport } from '../support/hub-client.js';

// Issue 31 point 2: a line of logs/audit.jsonl for every call through the hub, with what decided it and how it ended.
let home: string;
let workspace: string;
let callsFile: string;
let daemon: RunningDaemon | undefined;
const clients: Client[] = [];

const ARG_VALUE = 'arg-value-d41c9e';
const ENV_SECRET = 'env-secret-77aa01';

function fixture(name: string, file: Parameters<typeof fixtureCommand>[0], extra: string): string {
  const { command, args } = fixtureCommand(file);
  return `[[mcp.servers]]\nname = "${name}"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\npin = false\n${extra}\n`;
}

function settings(hub = ''): void {
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[hub]\nmax_result_mb = 0.01\n${hub}\n\n[permissions]\nallow = ["mcp:fix:echo"]\ndeny = ["mcp:files:write"]\n\n` +
      fixture('fix', 'hang-call', `prefix = "f"\ntimeout_seconds = 1\nenv = { HANG_CALLS_FILE = ${JSON.stringify(callsFile)} }`) +
      fixture('res', 'resources', `prefix = "r"\nauto_approve = true\nenv = { API_TOKEN = "${ENV_SECRET}" }`) +
      fixture('files', 'write-file', 'prefix = "w"\nauto_approve = true'),
  );
}

beforeEach(() => {
  home = tempDir('blitz-audit-');
  workspace = tempDir('blitz-audit-ws-');
  callsFile = path.join(home, 'hang-calls');
  settings();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  if (daemon) await daemon.stop();
  daemon = undefined;
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
});

async function client(opts: Partial<Parameters<typeof connectHub>[1]> = {}): Promise<Client> {
  const c = await connectHub(daemon!.state, { workspace, clientName: 'audit-test', ...opts });
  clients.push(c);
  return c;
}

const auditFile = () => path.join(home, 'logs', 'audit.jsonl');
const lines = (): AuditEntry[] =>
  fs.existsSync(auditFile())
    ? fs
        .readFileSync(auditFile(), 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as AuditEntry)
    : [];
const hangCalls = () => (fs.existsSync(callsFile) ? fs.readFileSync(callsFile, 'utf8').trim().split('\n').filter(Boolean).length : 0);

describe.each<HubTransport>(['http', 'lines'])('the audit log, over %s', (via) => {
  it('records every kind of outcome with what decided it, and no argument or secret value', async () => {
    daemon = await startDaemonProcess(home);
    const answers = ['allow_once', 'allow_once', 'decline'];
    const c = await client({
      via,
      elicit: () =>
        answers[0] === 'decline' ? (answers.shift(), { action: 'decline' }) : { action: 'accept', content: { decision: answers.shift()! } },
    });
    const calls: Array<() => Promise<unknown>> = [
      () => c.callTool({ name: 'f__echo', arguments: { text: ARG_VALUE } }), // allow rule → result
      () => c.callTool({ name: 'r__echo', arguments: { text: ARG_VALUE } }), // auto_approve → result
      () => c.callTool({ name: 'w__read', arguments: { path: `/nonexistent/${ARG_VALUE}` } }), // auto_approve → tool_error
      () => c.callTool({ name: 'w__write', arguments: { path: `/tmp/${ARG_VALUE}`, content: ARG_VALUE } }), // deny rule → refused
      () => c.callTool({ name: 'f__hang', arguments: {} }), // asked, allowed → timed_out (timeout_seconds = 1)
      () => c.callTool({ name: 'r__sized', arguments: { kb: 20 } }), // auto_approve → error RESULT_TOO_LARGE
      () => c.callTool({ name: 'nope', arguments: { text: ARG_VALUE } }).catch(() => undefined), // no such tool → error
      () => c.readResource({ uri: 'fixture://small.txt' }),
      () => c.getPrompt({ name: 'r__greet', arguments: { who: ARG_VALUE } }),
    ];
    for (const call of calls) await call();
    // Cancelled while the server works on it: allowed once more, then the client gives up.
    const cancel = new AbortController();
    const hanging = c.callTool({ name: 'f__hang', arguments: {} }, undefined, { signal: cancel.signal }).catch(() => undefined);
    await expect.poll(hangCalls).toBe(2);
    cancel.abort();
    await hanging;
    await expect.poll(() => lines().length).toBe(calls.length + 1);
    await c.callTool({ name: 'f__hang', arguments: {} }); // asked, declined → refused
    const readOnly = await client({ via, mode: 'read-only' });
    await readOnly.callTool({ name: 'f__echo', arguments: { text: ARG_VALUE } }); // read-only → refused

    await expect.poll(() => lines().length).toBe(calls.length + 3);
    const seen = lines().map(({ kind, server, name, rule, outcome, client: who, agent, workspace: ws, ...rest }) => {
      expect(who).toBe('audit-test');
      expect(agent).toBe('main');
      expect(ws).toBe(workspace);
      expect(rest.argsHash).toMatch(/^[0-9a-f]{64}$/);
      expect(rest.durationMs).toBeGreaterThanOrEqual(0);
      expect(rest).not.toHaveProperty('args');
      return { kind, server, name, rule, outcome, ...('code' in rest ? { code: rest.code } : {}) };
    });
    expect(seen).toEqual([
      { kind: 'tool', server: 'fix', name: 'echo', rule: { by: 'allow', rule: 'mcp:fix:echo' }, outcome: 'result' },
      { kind: 'tool', server: 'res', name: 'echo', rule: { by: 'auto_approve' }, outcome: 'result' },
      { kind: 'tool', server: 'files', name: 'read', rule: { by: 'auto_approve' }, outcome: 'tool_error' },
      { kind: 'tool', server: 'files', name: 'write', rule: { by: 'deny', rule: 'mcp:files:write' }, outcome: 'refused' },
      { kind: 'tool', server: 'fix', name: 'hang', rule: { by: 'asked', answer: 'allow_once' }, outcome: 'timed_out' },
      { kind: 'tool', server: 'res', name: 'sized', rule: { by: 'auto_approve' }, outcome: 'error', code: 'RESULT_TOO_LARGE' },
      { kind: 'tool', server: null, name: 'nope', rule: { by: 'none' }, outcome: 'error', code: 'TOOL_NOT_FOUND' },
      { kind: 'resource', server: 'res', name: 'fixture://small.txt', rule: { by: 'none' }, outcome: 'result' },
      { kind: 'prompt', server: 'res', name: 'r__greet', rule: { by: 'none' }, outcome: 'result' },
      { kind: 'tool', server: 'fix', name: 'hang', rule: { by: 'asked', answer: 'allow_once' }, outcome: 'cancelled' },
      { kind: 'tool', server: 'fix', name: 'hang', rule: { by: 'asked', answer: 'declined' }, outcome: 'refused' },
      { kind: 'tool', server: null, name: 'f__echo', rule: { by: 'refused', why: 'read_only' }, outcome: 'refused' },
    ]);
    // The same arguments hash the same; no value of them, nor the server's env secret, is in the file.
    expect(lines()[0]!.argsHash).toBe(lines()[1]!.argsHash);
    const text = fs.readFileSync(auditFile(), 'utf8');
    expect(text).not.toContain(ARG_VALUE);
    expect(text).not.toContain(ENV_SECRET);
    expect(fs.statSync(auditFile()).mode & 0o777).toBe(0o600);

    const json = await runBlitz(['log', 'calls', '--server', 'fix', '--since', '1h', '--json'], { home });
    expect(json).toMatchObject({ code: 0, stderr: '' });
    expect(
      json.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as AuditEntry).name),
    ).toEqual(['echo', 'hang', 'hang', 'hang']);
    const table = await runBlitz(['log', 'calls', '--client', 'audit-test'], { home });
    expect(table.stdout).toMatch(/^TIME {2,}CLIENT {2,}SERVER {2,}CALL {2,}DECIDED BY {2,}OUTCOME {2,}MS$/m);
    expect(table.stdout).toMatch(/audit-test \(main\) +fix +echo +allow mcp:fix:echo +result/);
    expect(table.stdout).toMatch(/files +write +deny mcp:files:write +refused/);
  });
});

describe('the audit log', () => {
  it('keeps the arguments, redacted, only when [hub] audit_arguments asks', async () => {
    settings('audit_arguments = true');
    daemon = await startDaemonProcess(home);
    const c = await client();
    await c.callTool({ name: 'r__echo', arguments: { text: 'hello', token: ENV_SECRET } });
    await expect.poll(() => lines().length).toBe(1);
    expect(lines()[0]!.args).toEqual({ text: 'hello', token: '***' });
    expect(fs.readFileSync(auditFile(), 'utf8')).not.toContain(ENV_SECRET);
  });

  it.skipIf(!fs.existsSync('/dev/full'))('a full disk stops the audit log with one notice; the calls go on', async () => {
    fs.mkdirSync(path.join(home, 'logs'), { recursive: true, mode: 0o700 });
    // Every write to /dev/full fails with ENOSPC, as on a full disk.
    fs.symlinkSync('/dev/full', auditFile());
    daemon = await startDaemonProcess(home);
    const c = await client();
    expect(textOf(await c.callTool({ name: 'r__echo', arguments: { text: 'one' } }))).toBe('one');
    expect(textOf(await c.callTool({ name: 'r__echo', arguments: { text: 'two' } }))).toBe('two');
    const notices = (await daemon.client.status()).notices.filter((n) => n.kind === 'audit');
    expect(notices).toEqual([
      expect.objectContaining({
        server: '',
        message: expect.stringContaining(`the audit log ${auditFile()} could not be written (ENOSPC) and is stopped`),
      }),
    ]);
  });

  it('blitz log calls reports a line that is not an entry with its number, and reads on', async () => {
    fs.mkdirSync(path.join(home, 'logs'), { recursive: true });
    const entry: AuditEntry = {
      time: new Date().toISOString(),
      kind: 'tool',
      client: 'c',
      agent: 'main',
      workspace,
      server: 'fix',
      name: 'echo',
      rule: { by: 'auto_approve' },
      outcome: 'result',
      durationMs: 3,
      argsHash: 'a'.repeat(64),
    };
    fs.writeFileSync(auditFile(), `${JSON.stringify(entry)}\n{"time": tru\n{"time":"x"}\n${JSON.stringify({ ...entry, name: 'later' })}\n`);
    const read = await runBlitz(['log', 'calls', '--json'], { home });
    expect(read.code).toBe(0);
    expect(
      read.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as AuditEntry).name),
    ).toEqual(['echo', 'later']);
    expect(read.stderr).toContain(`blitz: ${auditFile()}:2: not JSON`);
    expect(read.stderr).toContain(`blitz: ${auditFile()}:3: not an audit entry`);
  });
});
