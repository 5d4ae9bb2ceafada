import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { REAL_WAIT } from '../../packages/core/src/testing/real-wait.js';
import { BLITZ_BIN, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';

// Issue 25.5: every request gets an answer, on /mcp and over blitz connect — a request with an
// id that is not a string or an integer (-32600, id null), params that are not an object or
// not of the method's types (-32602, one short line) — and 300 of them at once leave no fd
// behind. And (25.12) a request before initialize over blitz connect is refused, never run.
let home: string;
let workspace: string;
let daemon: RunningDaemon;

interface Answer {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: unknown;
  error?: { code: number; message: string };
}

const BAD_IDS: unknown[] = [null, { a: 1 }, [1], 1.5, true];
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const BAD_ID_ANSWER = {
  jsonrpc: '2.0',
  id: null,
  error: { code: -32600, message: 'Invalid Request: a request id must be a string or an integer' },
};

beforeAll(async () => {
  home = tempDir('blitz-bad-requests-');
  workspace = tempDir('blitz-bad-requests-ws-');
  const { command, args } = fixtureCommand('resources');
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "fx"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\nauto_approve = true\n`,
  );
  daemon = await startDaemonProcess(home);
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await assertNoOrphans();
  for (const dir of [home, workspace]) fs.rmSync(dir, { recursive: true, force: true });
});

/** One POST to /mcp on a connection of its own, closed after the answer; rejects if none comes within 20 s. */
function post(body: unknown, session?: string): Promise<{ status: number; session: string | undefined; body: Answer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: daemon.state.port,
        path: `/mcp?workspace=${encodeURIComponent(workspace)}`,
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${daemon.state.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          connection: 'close',
          ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            session: res.headers['mcp-session-id'] as string | undefined,
            body: text ? (JSON.parse(text) as Answer) : (undefined as never),
          }),
        );
      },
    );
    req.setTimeout(20_000, () => req.destroy(new Error(`no answer within 20 s to ${JSON.stringify(body)}`)));
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const openFds = (): number => fs.readdirSync(`/proc/${daemon.child.pid}/fd`).length;

describe('/mcp answers every request (issue 25.5)', () => {
  it('a bad id gets -32600 with id null; params that are an array or of the wrong types get -32602 in one short line', async () => {
    const init = await post(INITIALIZE);
    expect(init.body.result).toBeDefined();
    const session = init.session!;
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    for (const id of BAD_IDS)
      expect((await post({ jsonrpc: '2.0', id, method: 'ping' }, session)).body, JSON.stringify(id)).toEqual(BAD_ID_ANSWER);
    expect((await post({ jsonrpc: '2.0', id: 7, method: 'ping', params: [1, 2] }, session)).body).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32602, message: 'Invalid params: the params of ping must be an object, not an array' },
    });
    for (const params of [{ name: 5 }, { name: 'echo', arguments: 'text' }]) {
      const { body } = await post({ jsonrpc: '2.0', id: 8, method: 'tools/call', params }, session);
      expect(body.error?.code, JSON.stringify(body)).toBe(-32602);
      expect(body.error?.message).toMatch(/^Invalid params of tools\/call: params\.(name|arguments): [^\n]{1,200}$/);
    }
    const read = await post({ jsonrpc: '2.0', id: 9, method: 'resources/read', params: { uri: 42 } }, session);
    expect(read.body.error).toEqual({
      code: -32602,
      message: expect.stringMatching(/^Invalid params of resources\/read: params\.uri: [^\n]+$/),
    });
    // A batch: each bad request answered beside the good one.
    const batch = (
      await post(
        [
          { jsonrpc: '2.0', id: null, method: 'ping' },
          { jsonrpc: '2.0', id: 10, method: 'ping' },
        ],
        session,
      )
    ).body as unknown as Answer[];
    expect(batch).toEqual(expect.arrayContaining([BAD_ID_ANSWER, { jsonrpc: '2.0', id: 10, result: {} }]));
    expect(batch).toHaveLength(2);

    // 300 at once: all answered, and the daemon's open fds come back to what they were.
    const baseline = openFds();
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) => post({ jsonrpc: '2.0', id: BAD_IDS[i % BAD_IDS.length], method: 'ping' }, session)),
    );
    expect(answers.filter((a) => a.body.error?.code !== -32600)).toEqual([]);
    await expect.poll(openFds, REAL_WAIT).toBeLessThanOrEqual(baseline);
  }, 120_000);
});

describe('blitz connect answers every request (issue 25.5) and refuses one before initialize (25.12)', () => {
  it('bad ids and params are answered, not dropped; tools/call before initialize is refused and never runs', async () => {
    const child = spawn(process.execPath, [BLITZ_BIN, 'connect', '--workspace', workspace], {
      env: { PATH: process.env.PATH, HOME: home, BLITZ_HOME: home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const answers: Answer[] = [];
    let rest = '';
    child.stdout!.on('data', (d: Buffer) => {
      const lines = (rest + d.toString()).split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        const message = JSON.parse(line) as Answer & { method?: string };
        if (message.method === undefined) answers.push(message);
      }
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const send = (message: unknown) => child.stdin!.write(`${JSON.stringify(message)}\n`);
    const answerTo = async (id: string | number) => {
      await expect.poll(() => answers.some((a) => a.id === id), REAL_WAIT).toBe(true);
      return answers.find((a) => a.id === id)!;
    };

    // Before initialize: refused as /mcp refuses a request without a session.
    send({ jsonrpc: '2.0', id: 'early', method: 'tools/call', params: { name: 'echo', arguments: { text: 'ran early' } } });
    expect(await answerTo('early')).toEqual({
      jsonrpc: '2.0',
      id: 'early',
      error: { code: -32000, message: 'Bad Request: tools/call before initialize; send initialize first' },
    });
    send({ jsonrpc: '2.0', id: 'early-ping', method: 'ping' });
    expect((await answerTo('early-ping')).result).toEqual({});

    send(INITIALIZE);
    await answerTo(0);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    for (const id of BAD_IDS) send({ jsonrpc: '2.0', id, method: 'ping' });
    await expect.poll(() => answers.filter((a) => a.id === null).length, REAL_WAIT).toBe(BAD_IDS.length);
    expect(answers.filter((a) => a.id === null)).toEqual(BAD_IDS.map(() => BAD_ID_ANSWER));
    send({ jsonrpc: '2.0', id: 'arr', method: 'tools/list', params: [] });
    expect((await answerTo('arr')).error).toEqual({
      code: -32602,
      message: 'Invalid params: the params of tools/list must be an object, not an array',
    });
    send({ jsonrpc: '2.0', id: 'typed', method: 'tools/call', params: { name: 5 } });
    expect((await answerTo('typed')).error).toEqual({
      code: -32602,
      message: expect.stringMatching(/^Invalid params of tools\/call: params\.name: [^\n]+$/),
    });
    send({ jsonrpc: '2.0', id: 'late', method: 'tools/call', params: { name: 'echo', arguments: { text: 'ran late' } } });
    expect((await answerTo('late')).result).toEqual({ content: [{ type: 'text', text: 'ran late' }] });
    child.stdin!.end();
    expect(await exited).toBe(0);
  }, 120_000);
});
