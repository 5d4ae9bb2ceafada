import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readDaemonState } from '@blitz/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { REAL_WAIT } from '../../packages/core/src/testing/real-wait.js';
import { BLITZ_BIN, runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';

// `blitz connect` driven line by line, as a client writes them: the byte pass-through (requests
// passed on as their bytes, their ids read from the line's ends) and what is read whole.
let home: string;
let workspace: string;
let calls: string;
let daemon: RunningDaemon | undefined;

beforeAll(async () => {
  home = tempDir('blitz-connect-lines-');
  workspace = tempDir('blitz-connect-lines-ws-');
  calls = path.join(home, 'hang-calls.txt');
  const { command, args } = fixtureCommand('hang-call');
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "slow"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\nauto_approve = true\nenv = { HANG_CALLS_FILE = ${JSON.stringify(calls)} }\n`,
  );
  daemon = await startDaemonProcess(home);
});

afterAll(async () => {
  if (daemon) await daemon.stop();
  // A daemon `blitz connect` started after the test stopped the first one.
  if (readDaemonState(home)) await runBlitz(['daemon', 'stop'], { home });
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
});

type Answer = { id: string | number; result?: { content: { text: string }[] }; error?: { code: number; message: string } };

/** `blitz connect` as a process whose stdin the test writes raw, and whose stdout it reads line by line. */
function rawConnect(): {
  child: ChildProcess;
  answers: Map<string | number, Answer>;
  stderr: () => string;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, [BLITZ_BIN, 'connect', '--workspace', workspace], {
    env: { PATH: process.env.PATH, HOME: home, BLITZ_HOME: home },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const answers = new Map<string | number, Answer>();
  let rest = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => {
    const lines = (rest + d.toString()).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      const message = JSON.parse(line) as Answer & { method?: string };
      if (message.method === undefined) answers.set(message.id, message);
    }
  });
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, answers, stderr: () => stderr, exited };
}

const INITIALIZE =
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n';
const echoText = (answer: Answer | undefined) => answer?.result?.content[0]?.text;
/** A string id JSON writes with escapes: a quote, a backslash, a tab and a non-ASCII letter. */
const ESCAPED_ID = 'say "hi"\\\té';

describe('blitz connect, line by line', () => {
  it('a client that ends its input after its last request still gets every answer, then connect exits', async () => {
    const connect = rawConnect();
    // As `printf '<initialize>\n<initialized>\n<tools/list>\n<tools/call>\n' | blitz connect`: one write, then the end.
    connect.child.stdin!.end(
      `${INITIALIZE}{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n{"method":"tools/call","params":{"name":"echo","arguments":{"text":"the last one"}},"jsonrpc":"2.0","id":2}\n`,
    );
    expect(await connect.exited).toBe(0);
    expect(connect.answers.get(0)?.result).toMatchObject({ serverInfo: { name: expect.any(String) } });
    expect((connect.answers.get(1)?.result as unknown as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain('echo');
    expect(echoText(connect.answers.get(2))).toBe('the last one');
  });

  it("requests in every shape peers write, in one chunk or many, are each answered under their own id through a real daemon (that the common shape leaves as its bytes is stdio-bridge.test.ts's)", async () => {
    const connect = rawConnect();
    connect.child.stdin!.write(INITIALIZE);
    await expect.poll(() => connect.answers.has(0), REAL_WAIT).toBe(true);
    const echo = (text: string) => `"params":{"name":"echo","arguments":{"text":"${text}"}}`;
    // One write: bytes, read whole, bytes, read whole, bytes — in that order on the one connection.
    connect.child.stdin!.write(
      [
        `{"method":"tools/call",${echo('sdk shape')},"jsonrpc":"2.0","id":10}`,
        `{"method":"tools/call",${echo('escaped id')},"jsonrpc":"2.0","id":${JSON.stringify(ESCAPED_ID)}}`,
        `{"jsonrpc":"2.0","id":"id-11","method":"tools/call",${echo('id first')}}`,
        `{ "id" : 12 ,\t"params" : {"arguments":{"text":"spaced"},"name":"echo"}, "method" : "tools/call", "jsonrpc" : "2.0" }`,
        `{"method":"tools/call",${echo('crlf')},"jsonrpc":"2.0","id":13}\r`,
        '',
      ].join('\n'),
    );
    // And a request cut across writes.
    const split = `{"method":"tools/call",${echo('across writes')},"jsonrpc":"2.0","id":14}\n`;
    connect.child.stdin!.write(split.slice(0, 30));
    connect.child.stdin!.write(split.slice(30));
    await expect.poll(() => connect.answers.size, REAL_WAIT).toBe(7);
    expect(Object.fromEntries([...connect.answers].filter(([id]) => id !== 0).map(([id, answer]) => [id, echoText(answer)]))).toEqual({
      10: 'sdk shape',
      [ESCAPED_ID]: 'escaped id',
      'id-11': 'id first',
      12: 'spaced',
      13: 'crlf',
      14: 'across writes',
    });
    connect.child.stdin!.end();
    expect(await connect.exited).toBe(0);
    expect(connect.stderr()).toBe('');
  });

  // Last: it stops the daemon.
  it('a request in flight on either path is answered for under its own id when the daemon stops', async () => {
    const connect = rawConnect();
    connect.child.stdin!.write(INITIALIZE);
    await expect.poll(() => connect.answers.has(0), REAL_WAIT).toBe(true);
    const hang = '"params":{"name":"hang","arguments":{}}';
    connect.child.stdin!.write(
      [
        `{"method":"tools/call",${hang},"jsonrpc":"2.0","id":20}`,
        `{"jsonrpc":"2.0","id":"id-21","method":"tools/call",${hang}}`,
        `{"method":"tools/call",${hang},"jsonrpc":"2.0","id":${JSON.stringify(ESCAPED_ID)}}`,
        `{ "jsonrpc" : "2.0", "method" : "tools/call", ${hang}, "id" : 22 }`,
        '',
      ].join('\n'),
    );
    await expect.poll(() => (fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n').length : 0), REAL_WAIT).toBe(4);
    expect(await daemon!.stop()).toBe(0);
    daemon = undefined;
    await expect.poll(() => connect.answers.size, REAL_WAIT).toBe(5);
    for (const id of [20, 'id-21', ESCAPED_ID, 22]) {
      expect(connect.answers.get(id)?.error).toMatchObject({ code: -32603, message: expect.stringMatching(/may or may not have run/) });
    }
    connect.child.stdin!.end();
    expect(await connect.exited).toBe(0);
  });
});
