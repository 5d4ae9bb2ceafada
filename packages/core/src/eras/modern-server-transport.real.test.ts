import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type ClientCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '@blitz/clock';
import type { ServerConfig } from '../config/server-config.js';
import { createConnector } from '../connection/create-connector.js';
import type { EraMemory } from './era-memory.js';
import type { Link } from '../connection/link.js';
import { fixtureCommand, FIXTURES_DIR } from '../testing/fixture-servers.js';
import { assertNoOrphans } from '../testing/no-orphans.js';
import { REAL_WAIT } from '../testing/real-wait.js';
import { serverConfig } from '../testing/server-config.js';
import type { Era, EraVerdict } from './modern-server-transport.js';

// Issue 28 point 2: a server is spoken to in the newest era it speaks, found by asking
// (server/discover) and remembered; the SDK v2 fixture (test/fixtures/modern.mjs) over stdio and
// HTTP, 2025 servers, and one that exits when asked anything before initialize.
let tmp: string;
const links: Link[] = [];
const remembered = new Map<string, Era>();
const verdicts: EraVerdict[] = [];
const eras: EraMemory = {
  recall: (config) => remembered.get(config.name),
  remember: (config, _workspace, era) => void remembered.set(config.name, era),
};

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-eras-'));
});
afterEach(async () => {
  await Promise.all(links.splice(0).map((l) => l.close()));
  remembered.clear();
  verdicts.length = 0;
  await assertNoOrphans();
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const connector = createConnector({
  blitzHome: path.join(os.tmpdir(), 'blitz-eras-home'),
  clock: systemClock,
  clientVersion: '0.0.0-test',
  warn: () => {},
  eras,
});
const capabilities: ClientCapabilities = { elicitation: { form: {} } };

function stdio(
  name: string,
  file: Parameters<typeof fixtureCommand>[0],
  args: string[] = [],
  env: Record<string, string> = {},
): ServerConfig {
  const command = fixtureCommand(file);
  return serverConfig(name, {
    transport: { kind: 'stdio', command: command.command, args: [...command.args, ...args], env },
    sandbox: false,
  });
}

async function connect(config: ServerConfig, prepare: (client: Client) => void = () => {}, deadlineMs = 20_000): Promise<Link> {
  const link = await connector(config, {
    workspace: tmp,
    deadlineMs,
    capabilities,
    prepareClient: prepare,
    onVerdict: (v) => verdicts.push(v),
  });
  links.push(link);
  return link;
}

/** Answers each elicitation with `answer` filled in, and records the questions' keys. */
function answering(answer: string, keys: unknown[]) {
  return (client: Client) =>
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      keys.push(request.params._meta?.['blitz/inputKey']);
      return { action: 'accept', content: { answer } };
    });
}

describe.each([
  ['both eras (the SDK v2 fixture)', [] as string[]],
  ['2026-07-28 only', ['--modern-only']],
])('a stdio server speaking %s is spoken to in 2026-07-28', (_title, args) => {
  it('lists and calls; its input_required is asked of the client under its key and the call retried with the answer', async () => {
    const keys: unknown[] = [];
    const link = await connect(stdio('modern', 'modern', args), answering('Ada', keys));
    expect(link.era).toBe('modern');
    expect(verdicts).toEqual([{ era: 'modern' }]);
    expect(link.client.getServerVersion()).toMatchObject({ name: 'modern-fixture' });
    expect(link.client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    const tools = await link.client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'ask', 'add_tool']));
    // A 2025 client reads a 2025 result: none of the revision's own fields.
    expect(Object.keys(tools)).not.toContain('resultType');
    expect(Object.keys(tools)).not.toContain('ttlMs');
    expect(await link.client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    expect(await link.client.callTool({ name: 'ask', arguments: { question: 'your name?' } })).toEqual({
      content: [{ type: 'text', text: 'answer: Ada' }],
    });
    expect(keys).toEqual(['answer']);
    await expect(link.client.ping()).resolves.toEqual({});
    await link.client.setLoggingLevel('debug');
  });

  it('list changes and subscribed resources reach the client through one subscriptions/listen', async () => {
    const changed: string[] = [];
    let heardBoth!: () => void;
    const both = new Promise<void>((resolve) => (heardBoth = resolve));
    const heard = (what: string) => {
      changed.push(what);
      if (changed.length === 2) heardBoth();
    };
    const link = await connect(stdio('modern', 'modern', args), (client) => {
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => heard('tools'));
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => heard(n.params.uri));
    });
    await link.client.subscribeResource({ uri: 'test://watched-resource' });
    await link.client.callTool({ name: 'add_tool', arguments: { name: 'added' } });
    await link.client.callTool({ name: 'touch', arguments: { uri: 'test://watched-resource' } });
    await link.client.callTool({ name: 'touch', arguments: { uri: 'test://not-subscribed' } });
    await both;
    expect(changed).toEqual(['tools', 'test://watched-resource']);
    expect((await link.client.listTools()).tools.map((t) => t.name)).toContain('added');
  });
});

describe('a 2025 server', () => {
  it('that refuses server/discover is sent its initialize, and remembered as legacy: the next start asks nothing', async () => {
    const first = await connect(stdio('everything-like', 'resources'));
    expect(first.era).toBe('legacy');
    expect(verdicts).toEqual([{ era: 'legacy', how: 'refused' }]);
    expect((await first.client.callTool({ name: 'echo', arguments: { text: 'old' } })).content).toEqual([{ type: 'text', text: 'old' }]);
    const again = await connect(stdio('everything-like', 'resources'));
    expect(again.era).toBe('legacy');
    expect(verdicts).toHaveLength(1);
  });

  it('that exits when asked anything before initialize is started again as legacy, once: later starts ask nothing', async () => {
    const starts = path.join(tmp, 'strict-starts');
    fs.rmSync(starts, { force: true });
    const config = stdio('strict', 'strict-initialize', [], { STARTS_FILE: starts });
    const link = await connect(config);
    expect(link.era).toBe('legacy');
    expect(verdicts).toEqual([{ era: 'legacy', how: 'closed' }]);
    expect((await link.client.callTool({ name: 'echo', arguments: { text: 'strict' } })).content).toEqual([
      { type: 'text', text: 'strict' },
    ]);
    expect(startsIn(starts)).toBe(2);
    await connect(config);
    expect(startsIn(starts)).toBe(3);
  });
});

describe('a 2025 server that ignores anything before initialize', () => {
  it('is sent its initialize once half its startup deadline passed, and remembered as legacy', async () => {
    const starts = path.join(tmp, 'silent-starts');
    fs.rmSync(starts, { force: true });
    const config = stdio('silent', 'strict-initialize', ['ignore'], { STARTS_FILE: starts });
    // Half of 6 s: the process starts and answers its initialize in the other half, on a loaded
    // machine too (with 2 s, the 1 s left was once not enough in CI).
    const link = await connect(config, () => {}, 6_000);
    expect(link.era).toBe('legacy');
    expect(verdicts).toEqual([{ era: 'legacy', how: 'silent' }]);
    expect((await link.client.callTool({ name: 'echo', arguments: { text: 'late' } })).content).toEqual([{ type: 'text', text: 'late' }]);
    expect(startsIn(starts)).toBe(1);
    expect(remembered.get('silent')).toBe('legacy');
  });
});

describe('over streamable HTTP', () => {
  it('the SDK v2 fixture is spoken to in 2026-07-28, each POST carrying the revision’s headers, and remembered', async () => {
    const server = await startHttpFixture('modern');
    try {
      const keys: unknown[] = [];
      const config = serverConfig('modern-http', { transport: { kind: 'http', url: server.url, headers: {} }, sandbox: false });
      const link = await connect(config, answering('Grace', keys));
      expect(link.era).toBe('modern');
      expect(verdicts).toEqual([{ era: 'modern' }]);
      expect(remembered.get('modern-http')).toBe('modern');
      expect((await link.client.callTool({ name: 'ask', arguments: { question: 'name?' } })).content).toEqual([
        { type: 'text', text: 'answer: Grace' },
      ]);
      expect(keys).toEqual(['answer']);
      // Its region is marked x-mcp-header: the call carries Mcp-Param-Region, without which the SDK's server refuses it (-32020).
      expect((await link.client.listTools()).tools.map((t) => t.name)).toContain('regional_echo');
      expect((await link.client.callTool({ name: 'regional_echo', arguments: { region: 'Zürich', text: 'grüezi' } })).content).toEqual([
        { type: 'text', text: 'Zürich: grüezi' },
      ]);
      await link.close();
    } finally {
      await server.close();
    }
  });

  it('a listen whose stream is cut before its answer is opened again, and the next list change is heard', async () => {
    const server = await startHttpFixture('modern');
    try {
      let changes = 0;
      const config = serverConfig('modern-cut', { transport: { kind: 'http', url: server.url, headers: {} }, sandbox: false });
      const link = await connect(config, (client) =>
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++),
      );
      expect(link.era).toBe('modern');
      await server.listens(1);
      server.cutListens();
      await server.listens(2);
      await link.client.callTool({ name: 'add_tool', arguments: { name: 'after_the_cut' } });
      await expect.poll(() => changes, REAL_WAIT).toBeGreaterThan(0);
      await link.close();
    } finally {
      await server.close();
    }
  });

  it('a 2025 server (SDK v1, sessions) refuses the discovery outside a session: it gets its initialize, and is not asked again', async () => {
    const server = await startHttpFixture('conformance');
    try {
      const config = serverConfig('legacy-http', { transport: { kind: 'http', url: server.url, headers: {} }, sandbox: false });
      const first = await connect(config);
      expect(first.era).toBe('legacy');
      expect(verdicts).toEqual([{ era: 'legacy', how: 'refused' }]);
      expect((await first.client.listTools()).tools.length).toBeGreaterThan(0);
      const again = await connect(config);
      expect(again.era).toBe('legacy');
      expect(verdicts).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

function startsIn(file: string): number {
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
}

interface HttpFixture {
  url: string;
  /** Resolves once the fixture has opened `n` listen streams in all (modern.mjs says each). */
  listens(n: number): Promise<void>;
  /** Cuts its open listen streams, unanswered (modern.mjs, SIGUSR2). */
  cutListens(): void;
  close(): Promise<void>;
}

/** A fixture's `http` mode in its own process: its URL once it says its port. */
async function startHttpFixture(file: 'modern' | 'conformance'): Promise<HttpFixture> {
  const child = spawn(process.execPath, [path.join(FIXTURES_DIR, `${file}.mjs`), 'http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const lines = createInterface({ input: child.stdout! });
  let opened = 0;
  const port = await new Promise<number>((resolve) =>
    lines.on('line', (line) => {
      const said = JSON.parse(line) as { port?: number; listens?: number };
      if (said.port !== undefined) resolve(said.port);
      if (said.listens !== undefined) opened = said.listens;
    }),
  );
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    listens: (n) => expect.poll(() => opened, REAL_WAIT).toBeGreaterThanOrEqual(n),
    cutListens: () => void child.kill('SIGUSR2'),
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
