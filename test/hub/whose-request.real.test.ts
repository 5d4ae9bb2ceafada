import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../fixtures/ask-together.mjs';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';

// Two clients of one workspace call the same server at the same time; the server asks
// something of "its" client during each call (MCP-37). Whose call it is must be known, or nobody is asked.

let home: string;
let workspace: string;
let web: Awaited<ReturnType<typeof startServer>>;
let daemon: RunningDaemon;
const asked = { a: [] as string[], b: [] as string[] };
let a: Client;
let b: Client;

beforeAll(async () => {
  home = tempDir('blitz-whose-');
  workspace = tempDir('blitz-whose-ws-');
  web = await startServer();
  const local = fixtureCommand('ask-together');
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "web"\nurl = "${web.url}"\nprefix = "web"\nauto_approve = true\n\n` +
      `[[mcp.servers]]\nname = "local"\ncommand = ${JSON.stringify(local.command)}\nargs = ${JSON.stringify(local.args)}\nsandbox = false\nprefix = "local"\nauto_approve = true\nsampling = true\n`,
  );
  daemon = await startDaemonProcess(home);
  const client = (who: 'a' | 'b') =>
    connectHub(daemon.state, {
      workspace,
      via: 'http',
      elicit: (message) => {
        asked[who].push(message);
        return { action: 'accept', content: { name: who.toUpperCase() } };
      },
      sample: () => ({ role: 'assistant', model: 'test', content: { type: 'text', text: `sampled by ${who}` } }),
    });
  [a, b] = await Promise.all([client('a'), client('b')]);
});

afterAll(async () => {
  await Promise.all([a, b].map((c) => c?.close().catch(() => undefined)));
  await daemon?.stop();
  await web?.close();
  await assertNoOrphans();
  for (const dir of [home, workspace]) fs.rmSync(dir, { recursive: true, force: true });
});

/** Both clients call `tool` at once; the server asks only once both calls are in flight. */
async function together(tool: string): Promise<[string, string]> {
  asked.a = [];
  asked.b = [];
  const [ra, rb] = await Promise.all([
    a.callTool({ name: tool, arguments: { label: 'a', together: 2 } }),
    b.callTool({ name: tool, arguments: { label: 'b', together: 2 } }),
  ]);
  return [textOf(ra), textOf(rb)];
}

describe("a server's own request during a call goes to that call's client", () => {
  it('an HTTP server sends it on the call’s stream: each elicitation reaches its own caller', async () => {
    const [ra, rb] = await together('web__ask');
    expect(ra).toBe('a: {"action":"accept","content":{"name":"A"}}');
    expect(rb).toBe('b: {"action":"accept","content":{"name":"B"}}');
    expect(asked).toEqual({ a: ['who answers a?'], b: ['who answers b?'] });
  });

  it('a stdio server with calls from two clients in flight cannot say whose: declined (sampling refused), and the log says why', async () => {
    const [ra, rb] = await together('local__ask');
    expect(ra).toBe('a: {"action":"decline"}');
    expect(rb).toBe('b: {"action":"decline"}');
    expect(asked).toEqual({ a: [], b: [] });
    const [sa, sb] = await together('local__sample');
    expect(sa).toMatch(/^a: refused: .*sampling declined/);
    expect(sb).toMatch(/^b: refused: .*sampling declined/);
    const logged = () =>
      fs
        .readFileSync(path.join(home, 'logs', 'blitz.log'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { level: string; msg: string; server?: string })
        .filter((e) => e.level === 'warn' && e.server === 'local' && e.msg.includes('calls from 2 clients are in flight'))
        .map((e) => e.msg.match(/^declined a server's (\w+) request/)?.[1]);
    await expect.poll(logged).toEqual(['elicitation', 'elicitation', 'sampling', 'sampling']);
  });

  it('a stdio server with one client calling: that client is asked, as before', async () => {
    expect(textOf(await a.callTool({ name: 'local__ask', arguments: { label: 'solo' } }))).toBe(
      'solo: {"action":"accept","content":{"name":"A"}}',
    );
    expect(textOf(await b.callTool({ name: 'local__sample', arguments: { label: 'solo' } }))).toContain('sampled by b');
  });
});
