import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { tempDir } from '../support/blitz-cli.js';
import { connectLines } from '../support/connect-lines.js';
import { modernMeta, postModern } from '../support/modern-post.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';

// Issue 28 point 3: the tasks extension (io.modelcontextprotocol/tasks) passes through the hub to
// a 2026-07-28 client that declares it, on /mcp and on blitz connect; a client that does not gets
// a call that stays a call. A real daemon, and test/fixtures/modern-tasks.mjs over stdio (a
// 2026-07-28 server that makes tasks; SDK v2 has no runtime for them).
const TASKS = 'io.modelcontextprotocol/tasks';
const metaWith = (capabilities: Record<string, unknown>) => modernMeta(capabilities, 'modern-tasks-test');
const FOLLOWS = metaWith({ extensions: { [TASKS]: {} } });
const PLAIN = metaWith({});

let home: string;
let workspace: string;
let daemon: RunningDaemon;
const dirs: string[] = [];

beforeAll(async () => {
  home = tempDir('blitz-modern-tasks-');
  workspace = tempDir('blitz-modern-tasks-ws-');
  dirs.push(home, workspace);
  const tk = fixtureCommand('modern-tasks');
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[hub]\nlist_wait_ms = 120000\n\n[[mcp.servers]]\nname = "tk"\nprefix = "tk"\ncommand = ${JSON.stringify(tk.command)}\nargs = ${JSON.stringify(tk.args)}\nsandbox = false\nauto_approve = true\n`,
  );
  daemon = await startDaemonProcess(home);
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await assertNoOrphans();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const post = (id: unknown, method: string, params: Record<string, unknown>, at = workspace, headers: Record<string, string> = {}) =>
  postModern(daemon.state, at, { id, method, params }, headers);

const result = async (...args: Parameters<typeof post>) => {
  const { message } = await post(...args);
  expect(message.error, JSON.stringify(message.error)).toBeUndefined();
  return message.result!;
};
const call = (name: string, args: Record<string, unknown>, meta: object) => ({ name, arguments: args, _meta: meta });
const task = (taskId: unknown, meta: object, extra: Record<string, unknown> = {}) => ({ taskId, _meta: meta, ...extra });

describe('/mcp at 2026-07-28: the tasks extension', () => {
  it('is declared, and a call of a client that follows tasks is a task, followed by tasks/get under the hub’s own id until it is done', async () => {
    const discovered = await result(1, 'server/discover', { _meta: FOLLOWS });
    expect(discovered.capabilities).toMatchObject({ extensions: { [TASKS]: {} } });

    const made = await result(2, 'tools/call', call('tk__sum', { a: 2, b: 3 }, FOLLOWS));
    expect(made).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 60_000, pollIntervalMs: 10 });
    expect(made).not.toHaveProperty('content');
    // The server's own id (t1, t2, …) stays the hub's business.
    const id = made.taskId as string;
    expect(id).not.toMatch(/^t\d+$/);

    expect(await result(3, 'tasks/get', task(id, FOLLOWS))).toMatchObject({
      resultType: 'complete',
      taskId: id,
      status: 'working',
      ttlMs: 60_000,
    });
    const done = await result(4, 'tasks/get', task(id, FOLLOWS));
    expect(done).toMatchObject({ resultType: 'complete', taskId: id, status: 'completed' });
    expect(textOf(done.result)).toBe('sum: 5');
  });

  it('keeps a call a call for a client that does not follow tasks, and refuses it the task methods (-32021)', async () => {
    const plain = await result(1, 'tools/call', call('tk__sum', { a: 2, b: 3 }, PLAIN));
    expect(plain).toMatchObject({ resultType: 'complete' });
    expect(textOf(plain)).toBe('sum: 5');
    // What the server was told of this client: no tasks extension.
    const seen = JSON.parse(textOf(await result(2, 'tools/call', call('tk__seen', {}, PLAIN))));
    expect(seen.extensions ?? {}).not.toHaveProperty([TASKS]);
    // A tool that needs a task: the server's own refusal, naming the extension.
    const needs = await post(3, 'tools/call', call('tk__long_job', {}, PLAIN));
    expect(needs.status).toBe(400);
    expect(needs.message.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });

    const id = (await result(4, 'tools/call', call('tk__long_job', {}, FOLLOWS))).taskId;
    const refused = await post(5, 'tasks/get', task(id, PLAIN));
    expect(refused.status).toBe(400);
    expect(refused.message.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
  });

  it('passes a task’s questions on and tasks/update’s answers back; tasks/cancel cancels', async () => {
    const id = (await result(1, 'tools/call', call('tk__ask_name', {}, FOLLOWS))).taskId;
    const asking = await result(2, 'tasks/get', task(id, FOLLOWS));
    expect(asking).toMatchObject({
      status: 'input_required',
      inputRequests: { 'name-1': { method: 'elicitation/create', params: { message: 'Your name?' } } },
    });
    const ack = await result(
      3,
      'tasks/update',
      task(id, FOLLOWS, { inputResponses: { 'name-1': { action: 'accept', content: { name: 'Ada' } } } }),
    );
    expect(ack).toMatchObject({ resultType: 'complete' });
    const greeted = await result(4, 'tasks/get', task(id, FOLLOWS));
    expect(greeted).toMatchObject({ status: 'completed', taskId: id });
    expect(textOf(greeted.result)).toBe('hello Ada');

    const long = (await result(5, 'tools/call', call('tk__long_job', {}, FOLLOWS))).taskId;
    expect(await result(6, 'tasks/get', task(long, FOLLOWS))).toMatchObject({ status: 'working' });
    expect(await result(7, 'tasks/cancel', task(long, FOLLOWS))).toMatchObject({ resultType: 'complete' });
    expect(await result(8, 'tasks/get', task(long, FOLLOWS))).toMatchObject({ status: 'cancelled', taskId: long });
  });

  it('knows no task it did not hand out, nor one of another workspace, and checks Mcp-Name against the task’s id', async () => {
    const id = (await result(1, 'tools/call', call('tk__long_job', {}, FOLLOWS))).taskId as string;
    for (const [taskId, at] of [
      ['t1', workspace],
      [id, tempDir('blitz-modern-tasks-other-')],
    ] as const) {
      if (at !== workspace) dirs.push(at);
      const { message } = await post(2, 'tasks/get', task(taskId, FOLLOWS), at);
      expect(message.error).toMatchObject({ code: -32602, message: `Invalid params: there is no task "${taskId}" here` });
    }
    const named = await post(3, 'tasks/get', task(id, FOLLOWS), workspace, { 'mcp-name': 'another-task' });
    expect(named.status).toBe(400);
    expect(named.message.error?.code).toBe(-32020);
  });
});

describe('blitz connect at 2026-07-28: the tasks extension', () => {
  it('answers a call with a task on the connection, and tasks/get there follows it to its result', async () => {
    const lines = connectLines(home, workspace);
    const ask = async (id: string, method: string, params: Record<string, unknown>) => {
      lines.request(id, method, params);
      return lines.answerTo(id);
    };
    try {
      await ask('d', 'server/discover', { _meta: FOLLOWS });
      const made = await ask('c', 'tools/call', call('tk__sum', { a: 40, b: 2 }, FOLLOWS));
      expect(made.result).toMatchObject({ resultType: 'task', status: 'working' });
      const id = made.result!.taskId;
      expect((await ask('g1', 'tasks/get', task(id, FOLLOWS))).result).toMatchObject({ status: 'working', taskId: id });
      const done = await ask('g2', 'tasks/get', task(id, FOLLOWS));
      expect(done.result).toMatchObject({ status: 'completed', taskId: id });
      expect(textOf(done.result!.result)).toBe('sum: 42');
    } finally {
      await lines.close();
    }
  });
});

describe('a 2025-11-25 client and a server that makes tasks', () => {
  it('gets a call that stays a call, and the server’s refusal for a tool that needs a task', async () => {
    const client = await connectHub(daemon.state, { workspace });
    try {
      expect(textOf(await client.callTool({ name: 'tk__sum', arguments: { a: 1, b: 1 } }))).toBe('sum: 2');
      await expect(client.callTool({ name: 'tk__long_job', arguments: {} })).rejects.toThrow(/-32021/);
    } finally {
      await client.close();
    }
  });
});
