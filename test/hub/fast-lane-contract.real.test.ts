import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand, type FixtureName } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { REAL_WAIT } from '../../packages/core/src/testing/real-wait.js';
import { openDaemonSocket } from '../../apps/cli/src/commands/connect/daemon-stream.js';
import { BLITZ_BIN, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';

// The differential contract of the fast lanes (docs/architecture.md "The fast lane"): the same
// calls, written as bytes by a client, through the SDK's path and through the fast lanes, and
// the same bytes back. `sdk`: a daemon with BLITZ_FAST_LANES=off (the SDK server dispatches
// tools/call, the SDK client calls the server) and the client on the daemon's own upgraded
// `/mcp` stream. `fast`: a daemon with its fast lanes (tool-call-fast-path.ts,
// direct-tool-calls.ts) and the client through `blitz connect`'s byte relay (line-link.ts).

const LANES = ['sdk', 'fast'] as const;
type Lane = (typeof LANES)[number];

const EVERYTHING = path.join(
  path.dirname(
    createRequire(path.join(import.meta.dirname, '..', '..', 'packages', 'core', 'package.json')).resolve(
      '@modelcontextprotocol/server-everything/package.json',
    ),
  ),
  'dist',
  'index.js',
);

interface LaneDaemon {
  home: string;
  daemon: RunningDaemon;
}
/** One folder for both lanes: its path is in what initialize says. */
let workspace: string;

const lanes = new Map<Lane, LaneDaemon>();
const open: LineClient[] = [];

function server(name: string, command: string, args: string[], extra = ''): string {
  return `[[mcp.servers]]\nname = "${name}"\nprefix = "${name}"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\nauto_approve = true\n${extra}\n`;
}
function fixture(name: string, file: FixtureName, args: string[] = [], extra = ''): string {
  const { command, args: all } = fixtureCommand(file, args);
  return server(name, command, all, extra);
}
const hangFile = (lane: Lane, what: 'calls' | 'cancels') => path.join(lanes.get(lane)!.home, `hang-${what}.txt`);
const linesOf = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : []);

beforeAll(async () => {
  workspace = tempDir('blitz-lanes-ws-');
  await Promise.all(
    LANES.map(async (lane) => {
      const home = tempDir(`blitz-lanes-${lane}-`);
      const hangEnv = `env = { HANG_CALLS_FILE = ${JSON.stringify(path.join(home, 'hang-calls.txt'))}, HANG_CANCELS_FILE = ${JSON.stringify(path.join(home, 'hang-cancels.txt'))} }`;
      writeSettings(
        home,
        `[daemon]\nport = 0\n\n` +
          fixture('proto', 'protocol') +
          fixture('ask', 'ask-together') +
          fixture('hang', 'hang-call', [], hangEnv) +
          fixture(
            'slow',
            'hang-call',
            [],
            `timeout_seconds = 1\nenv = { HANG_CANCELS_FILE = ${JSON.stringify(path.join(home, 'slow-cancels.txt'))} }`,
          ) +
          fixture('crash', 'crash-after', ['0']) +
          fixture('burst', 'progress-burst') +
          server('ev', process.execPath, [EVERYTHING, 'stdio']),
      );
      const daemon = await startDaemonProcess(home, lane === 'sdk' ? { BLITZ_FAST_LANES: 'off' } : {});
      lanes.set(lane, { home, daemon });
    }),
  );
});

afterAll(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
  await Promise.all([...lanes.values()].map(({ daemon }) => daemon.stop()));
  await assertNoOrphans();
  for (const { home } of lanes.values()) fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
});

/** A client writing raw lines and keeping every line it reads, as it read it. */
interface LineClient {
  lines: string[];
  write(text: string): void;
  close(): Promise<void>;
}

function reader(stream: Readable, lines: string[], head: Buffer = Buffer.alloc(0)): void {
  let rest: Buffer = Buffer.alloc(0);
  const read = (chunk: Buffer) => {
    let bytes: Buffer = Buffer.concat([rest, chunk]);
    for (let newline = bytes.indexOf(0x0a); newline >= 0; newline = bytes.indexOf(0x0a)) {
      lines.push(bytes.subarray(0, newline).toString('utf8'));
      bytes = bytes.subarray(newline + 1);
    }
    rest = bytes;
  };
  read(head);
  stream.on('data', read);
}

async function connect(lane: Lane): Promise<LineClient> {
  const { daemon, home } = lanes.get(lane)!;
  const lines: string[] = [];
  let client: LineClient;
  if (lane === 'sdk') {
    const { socket, head } = await openDaemonSocket(daemon.state, new URLSearchParams({ workspace, agent: 'main' }));
    reader(socket, lines, head);
    client = {
      lines,
      write: (text) => void socket.write(text),
      close: () => new Promise((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve()).end())),
    };
  } else {
    const child = spawn(process.execPath, [BLITZ_BIN, 'connect', '--workspace', workspace], {
      env: { PATH: process.env.PATH, HOME: home, BLITZ_HOME: home },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    reader(child.stdout, lines);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    client = {
      lines,
      write: (text) => void child.stdin.write(text),
      close: () => {
        child.stdin.end();
        return exited;
      },
    };
  }
  open.push(client);
  return client;
}

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: { elicitation: {}, sampling: {} },
    clientInfo: { name: 'contract', version: '1' },
  },
})}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`;

/** A request as the SDK client writes it: method first, jsonrpc and id last (the shape `blitz connect` passes as bytes). */
function request(id: number | string, method: string, params?: object): string {
  return `${JSON.stringify({ method, ...(params ? { params } : {}), jsonrpc: '2.0', id })}\n`;
}
const call = (id: number | string, name: string, args: object = {}, meta?: object) =>
  request(id, 'tools/call', { name, arguments: args, ...(meta ? { _meta: meta } : {}) });

type Message = { id?: number | string; method?: string; params?: Record<string, unknown>; result?: unknown; error?: unknown };

/** The first line read (from `from` on) that parses to a message `match` takes. */
async function next(client: LineClient, match: (message: Message) => boolean, from = 0): Promise<Message> {
  let found: Message | undefined;
  await expect
    .poll(() => {
      found = client.lines
        .slice(from)
        .map((line) => JSON.parse(line) as Message)
        .find(match);
      return found !== undefined;
    }, REAL_WAIT)
    .toBe(true);
  return found!;
}
const answerTo = (id: number | string) => (message: Message) => message.id === id && message.method === undefined;

/** Notifications a session hears when its servers' catalogs move, at times no call decides: not part of a call's bytes. */
const CATALOG_NEWS = new Set([
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
]);
/**
 * server-everything logs each roots list it receives, 350 ms after it starts and whenever the
 * hub's roots change: at times no call decides, so a session may hear it or not.
 */
const isRootsNews = (message: Message) =>
  message.method === 'notifications/message' && String(message.params?.data).startsWith('Roots updated:');
const isNotice = (message: Message) => message.method === 'notifications/message' && message.params?.logger === 'blitz';
/**
 * What a client read of its calls, in order; then Blitz's own notices (a server failed), sorted:
 * they come from the server's state, not the call, and may pass its answer either way.
 */
function aboutCalls(lines: string[]): string[] {
  const messages = lines.map((line) => ({ line, message: JSON.parse(line) as Message }));
  const calls = messages.filter(({ message }) => !CATALOG_NEWS.has(message.method ?? '') && !isRootsNews(message) && !isNotice(message));
  const notices = messages.filter(({ message }) => isNotice(message));
  return [...calls.map(({ line }) => line), ...notices.map(({ line }) => line).sort()];
}

/** Runs `script` on a fresh session of each lane and returns what each client read past initialize's answer. */
async function bothLanes(script: (client: LineClient, lane: Lane) => Promise<void>): Promise<Record<Lane, string[]>> {
  const read = await Promise.all(
    LANES.map(async (lane) => {
      const client = await connect(lane);
      client.write(INITIALIZE);
      await next(client, answerTo(0));
      await script(client, lane);
      await client.close();
      open.splice(open.indexOf(client), 1);
      return aboutCalls(client.lines.slice(1));
    }),
  );
  return { sdk: read[0]!, fast: read[1]! };
}

describe.each(LANES)('the %s lane', (lane) => {
  it(
    lane === 'sdk'
      ? 'has the fast lanes off: the daemon says so, and the server sees the SDK client’s ids'
      : 'has the fast lanes on: the server sees direct calls’ ids',
    async () => {
      expect(lanes.get(lane)!.daemon.output().includes('fast lanes are off')).toBe(lane === 'sdk');
      const client = await connect(lane);
      client.write(INITIALIZE + call(1, 'hang__hang'));
      await expect.poll(() => linesOf(hangFile(lane, 'calls')).length, REAL_WAIT).toBe(1);
      // direct-tool-calls.ts numbers its calls from 1e9; the SDK client from 0.
      expect(Number(linesOf(hangFile(lane, 'calls'))[0]) >= 1_000_000_000).toBe(lane === 'fast');
      // Answered or cancelled, nothing in flight: `blitz connect` ends once its client's input has.
      client.write('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}\n');
      await expect.poll(() => linesOf(hangFile(lane, 'cancels')).length, REAL_WAIT).toBe(1);
      await client.close();
      open.splice(open.indexOf(client), 1);
      fs.rmSync(hangFile(lane, 'calls'));
      fs.rmSync(hangFile(lane, 'cancels'), { force: true });
    },
  );
});

describe('the fast lanes and the SDK path send a client the same bytes', () => {
  it('for results: every content kind, structuredContent, _meta, images, a tool with an output schema and one without', async () => {
    const read = await bothLanes(async (client) => {
      // One at a time: answers to calls in flight together may come in either order.
      for (const [id, line] of [
        [1, call(1, 'proto__describe')],
        [2, call(2, 'ev__echo', { message: 'héllo "there"' })],
        [3, call(3, 'ev__get-tiny-image')],
        ['four', call('four', 'ev__get-structured-content', { location: 'New York' })],
        [5, call(5, 'ev__get-sum', { a: 2, b: 3 })],
      ] as const) {
        client.write(line);
        await next(client, answerTo(id));
      }
    });
    expect(read.fast).toEqual(read.sdk);
    expect(read.sdk.join('\n')).toContain('"structuredContent":{"answer":"42"}');
    expect(read.sdk.join('\n')).toContain('Echo: héllo \\"there\\"');
  });

  it('for errors: an unknown tool, arguments the server refuses, params the hub refuses, a tool error', async () => {
    const read = await bothLanes(async (client) => {
      for (const [id, line] of [
        [1, call(1, 'proto__nope')],
        [2, call(2, 'ev__get-sum', { a: 'two' })],
        [3, request(3, 'tools/call', { name: 'ev__echo', arguments: 5 })],
        [4, request(4, 'tools/call', { arguments: {} })],
        [5, call(5, 'ask__ask', { label: 7 })],
      ] as const) {
        client.write(line);
        await next(client, answerTo(id));
      }
    });
    expect(read.fast).toEqual(read.sdk);
    expect(read.sdk.filter((line) => line.includes('"error"') || line.includes('"isError":true'))).toHaveLength(5);
  });

  it('for progress: each notification before the result, with the client’s token, and none without a token', async () => {
    const read = await bothLanes(async (client) => {
      client.write(call(1, 'proto__progress', {}, { progressToken: 'tok' }));
      await next(client, answerTo(1));
      client.write(call(2, 'burst__burst', {}, { progressToken: 7 }));
      await next(client, answerTo(2));
      client.write(call(3, 'proto__progress'));
      await next(client, answerTo(3));
    });
    expect(read.fast).toEqual(read.sdk);
    const progress = read.sdk.filter((line) => line.includes('notifications/progress'));
    expect(progress.map((line) => (JSON.parse(line) as Message).params!.progressToken)).toEqual(['tok', 'tok', 7, 7, 7]);
  });

  it('for a server’s request mid-call: the elicitation reaches the client and its answer the server; sampling, not offered, is refused', async () => {
    const read = await bothLanes(async (client) => {
      client.write(call(1, 'ask__ask', { label: 'who' }));
      const elicit = await next(client, (m) => m.method === 'elicitation/create');
      client.write(`${JSON.stringify({ jsonrpc: '2.0', id: elicit.id, result: { action: 'accept', content: { name: 'me' } } })}\n`);
      await next(client, answerTo(1));
      // The hub offers its servers no sampling (hub-endpoint.ts SERVER_CAPABILITIES): the server hears a refusal.
      client.write(call(2, 'ask__sample', { label: 'what' }));
      await next(client, answerTo(2));
    });
    expect(read.fast).toEqual(read.sdk);
    expect(read.sdk.join('\n')).toContain('who: {\\"action\\":\\"accept\\",\\"content\\":{\\"name\\":\\"me\\"}}');
    expect(read.sdk.join('\n')).toContain('what: refused');
  });

  it('for cancellation: nothing more of the call reaches the client, and the server hears the cancel', async () => {
    const read = await bothLanes(async (client, lane) => {
      client.write(call(1, 'hang__hang'));
      await expect.poll(() => linesOf(hangFile(lane, 'calls')).length, REAL_WAIT).toBe(1);
      client.write('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"the user pressed stop"}}\n');
      await expect.poll(() => linesOf(hangFile(lane, 'cancels')).length, REAL_WAIT).toBe(1);
      client.write(request(2, 'ping'));
      await next(client, answerTo(2));
    });
    expect(read.fast).toEqual(read.sdk);
    expect(read.sdk.map((line) => (JSON.parse(line) as Message).id)).toEqual([2]);
  });

  it('for a call past its timeout: the same error, and the server hears the cancel', async () => {
    const read = await bothLanes(async (client, lane) => {
      client.write(call(1, 'slow__hang'));
      await next(client, answerTo(1));
      await next(client, isNotice);
      await expect.poll(() => linesOf(path.join(lanes.get(lane)!.home, 'slow-cancels.txt')).length, REAL_WAIT).toBe(1);
    });
    expect(read.fast).toEqual(read.sdk);
    expect(read.sdk[0]).toContain('timed out after 1s');
  });

  // Last: the crash opens nothing else, but the server stays down for the rest of the file.
  it('for a server dying mid-call: the same error to the caller', async () => {
    const read = await bothLanes(async (client) => {
      client.write(call(1, 'crash__echo', { text: 'boom' }));
      await next(client, answerTo(1));
      await next(client, isNotice);
    });
    expect(read.fast).toEqual(read.sdk);
    expect(read.sdk[0]).toContain('MCP server crash exited with code 3');
  });
});
