import fs from 'node:fs';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand, type FixtureName } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { BLITZ_BIN, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { textOf } from '../support/hub-client.js';

// Issue 28 point 5: a 2025-11-25 client (SDK v1) and a 2026-07-28 client (SDK v2, pinned to the
// revision) × a 2025-only server (legacy-twin.mjs, SDK v1) and a 2026-07-28-only server
// (modern.mjs --modern-only, SDK v2) × the hub's two ways in (/mcp over streamable HTTP, and
// `blitz connect` over stdio): in each, a tool call, an elicitation mid-call, a subscription and a
// list change. Every message crosses the hub, which bridges what differs between the eras.
let home: string;
let workspace: string;
let daemon: RunningDaemon;

/** Each server's tool prefix, and the resource a client subscribes to. */
const SERVERS = [
  { era: '2025-11-25', prefix: 'l', uri: 'test://legacy-watched' },
  { era: '2026-07-28', prefix: 'm', uri: 'test://watched-resource' },
] as const;

/** pin = false: a tool a server adds while it runs would be held for review, and no client would hear of it (docs/trust-and-audit.md). */
function server(name: string, prefix: string, fixture: FixtureName, args: string[] = []): string {
  const command = fixtureCommand(fixture, args);
  return `[[mcp.servers]]\nname = "${name}"\nprefix = "${prefix}"\ncommand = ${JSON.stringify(command.command)}\nargs = ${JSON.stringify(command.args)}\nsandbox = false\nauto_approve = true\npin = false\n\n`;
}

beforeAll(async () => {
  home = tempDir('blitz-eras-');
  workspace = tempDir('blitz-eras-ws-');
  writeSettings(home, `[daemon]\nport = 0\n\n${server('legacy', 'l', 'legacy-twin')}${server('modern', 'm', 'modern', ['--modern-only'])}`);
  daemon = await startDaemonProcess(home);
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await assertNoOrphans();
  for (const dir of [home, workspace]) fs.rmSync(dir, { recursive: true, force: true });
});

/** What a client heard, as it comes: a promise for the next of a kind, taken before the step that causes it. */
class Heard {
  /** The `_meta` of each question a server put to the client. */
  readonly metas: unknown[] = [];
  readonly #waiting: Array<{ what: string; resolve: () => void }> = [];

  hear(what: string): void {
    for (const waiter of this.#waiting.filter((w) => w.what === what)) {
      this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
      waiter.resolve();
    }
  }

  next(what: string): Promise<void> {
    return new Promise((resolve) => this.#waiting.push({ what, resolve }));
  }
}

/** The steps every client takes, in its era's words. */
interface EraClient {
  callTool(name: string, args: Record<string, unknown>): Promise<unknown>;
  listToolNames(): Promise<string[]>;
  /** Subscribes to the URIs (resources/subscribe, or one subscriptions/listen with the list changes). */
  subscribe(uris: string[]): Promise<void>;
  close(): Promise<void>;
}

const query = () => new URLSearchParams({ workspace }).toString();
const connectArgs = () => [BLITZ_BIN, 'connect', '--workspace', workspace];
const connectEnv = () => ({ PATH: process.env.PATH!, HOME: home, BLITZ_HOME: home });

async function legacyClient(via: 'http' | 'connect', heard: Heard): Promise<EraClient> {
  const client = new Client({ name: 'era-matrix-2025', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    heard.metas.push(request.params._meta);
    heard.hear(`asked: ${request.params.message}`);
    return { action: 'accept', content: { answer: 'Ada' } };
  });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => heard.hear('tools changed'));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => heard.hear(`updated ${n.params.uri}`));
  await client.connect(
    via === 'http'
      ? new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${daemon.state.port}/mcp?${query()}`), {
          requestInit: { headers: { authorization: `Bearer ${daemon.state.token}` } },
        })
      : new StdioClientTransport({ command: process.execPath, args: connectArgs(), env: connectEnv(), stderr: 'pipe' }),
  );
  expect(client.getServerVersion()?.name).toBe('blitz');
  return {
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    listToolNames: async () => (await client.listTools()).tools.map((t) => t.name),
    subscribe: async (uris) => {
      for (const uri of uris) await client.subscribeResource({ uri });
    },
    close: () => client.close(),
  };
}

async function modernClient(via: 'http' | 'connect', heard: Heard): Promise<EraClient> {
  const client = new ModernClient(
    { name: 'era-matrix-2026', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', (request) => {
    heard.hear(`asked: ${(request.params as { message: string }).message}`);
    return { action: 'accept', content: { answer: 'Ada' } };
  });
  client.setNotificationHandler('notifications/tools/list_changed', () => heard.hear('tools changed'));
  client.setNotificationHandler('notifications/resources/updated', (n) => heard.hear(`updated ${n.params.uri}`));
  await client.connect(
    via === 'http'
      ? new ModernHttpTransport(new URL(`http://127.0.0.1:${daemon.state.port}/mcp?${query()}`), {
          requestInit: { headers: { authorization: `Bearer ${daemon.state.token}` } },
        })
      : new ModernStdioTransport({ command: process.execPath, args: connectArgs(), env: connectEnv(), stderr: 'pipe' }),
  );
  expect(client.getServerVersion()?.name).toBe('blitz');
  const subscriptions: Array<{ close(): Promise<void> }> = [];
  return {
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    listToolNames: async () => (await client.listTools()).tools.map((t) => t.name),
    subscribe: async (uris) => {
      subscriptions.push(await client.listen({ toolsListChanged: true, resourceSubscriptions: uris }));
    },
    close: async () => {
      for (const subscription of subscriptions) await subscription.close();
      await client.close();
    },
  };
}

describe.each([
  ['/mcp (streamable HTTP)', 'http'],
  ['blitz connect (stdio)', 'connect'],
] as const)('through %s', (_path, via) => {
  describe.each([
    ['2025-11-25', legacyClient],
    ['2026-07-28', modernClient],
  ] as const)('a %s client', (clientEra, open) => {
    it('calls, is asked mid-call, hears its subscribed resources and each list change — of a server of either era', async () => {
      const heard = new Heard();
      const client = await open(via, heard);
      try {
        const tag = `${via}-${clientEra.slice(0, 4)}`;

        await client.subscribe(SERVERS.map((s) => s.uri));
        for (const { era, prefix, uri } of SERVERS) {
          expect(textOf(await client.callTool(`${prefix}__echo`, { text: `hi ${era}` }))).toBe(`hi ${era}`);

          const question = `your name, ${tag} to ${era}?`;

          const asked = heard.next(`asked: ${question}`);
          expect(textOf(await client.callTool(`${prefix}__ask`, { question }))).toBe('answer: Ada');
          await asked;

          const updated = heard.next(`updated ${uri}`);
          await client.callTool(`${prefix}__touch`, { uri });
          await updated;

          const added = `added_${tag.replace('-', '_')}`;
          const changed = heard.next('tools changed');
          await client.callTool(`${prefix}__add_tool`, { name: added });
          await changed;
          await expect.poll(() => client.listToolNames()).toContain(`${prefix}__${added}`);
        }
        // Its region marked x-mcp-header: a 2026-07-28 client on /mcp sends it as Mcp-Param-Region too, which the hub checks.
        expect(textOf(await client.callTool('m__regional_echo', { region: 'Zürich', text: 'hi' }))).toBe('Zürich: hi');
        // A 2025 client is asked in its own words: the key a modern server gave its question is not among them.
        if (clientEra === '2025-11-25') expect(heard.metas).toHaveLength(SERVERS.length);
        for (const meta of heard.metas) expect(meta ?? {}).not.toHaveProperty(['blitz/inputKey']);
      } finally {
        await client.close();
      }
    });
  });
});

describe('a 2025-11-25 client that cannot be asked (no elicitation)', () => {
  it('the 2026-07-28 server is told so and refuses the question itself (-32021); the 2025 server hears it declined', async () => {
    const client = new Client({ name: 'era-matrix-mute', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${daemon.state.port}/mcp?${query()}`), {
        requestInit: { headers: { authorization: `Bearer ${daemon.state.token}` } },
      }),
    );
    try {
      await expect(client.callTool({ name: 'm__ask', arguments: { question: 'anyone?' } })).rejects.toThrow(
        /-32021.*elicitation\/create.*do not declare the required capability/,
      );
      expect(textOf(await client.callTool({ name: 'l__ask', arguments: { question: 'anyone?' } }))).toBe('no answer (decline)');
    } finally {
      await client.close();
    }
  });
});
