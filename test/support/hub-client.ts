import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { DaemonState } from '@blitz/client';
import { JsonLinesTransport } from '@blitz/core/lines';
import { openDaemonSocket } from '../../apps/cli/src/commands/connect/daemon-stream.js';

/** The hub's two ways in: streamable HTTP, and `/mcp` upgraded to lines as `blitz connect` uses it. */
export type HubTransport = 'http' | 'lines';

export interface HubClientOptions {
  workspace: string;
  agent?: string;
  mode?: string;
  via?: HubTransport;
  /** The `clientInfo.name` it sends at initialize (default `hub-test`). */
  clientName?: string;
  /** Answers approval questions (and servers' elicitations); without it the client cannot be asked. */
  elicit?: (message: string) => ElicitResult | Promise<ElicitResult>;
  /** Answers servers' sampling requests; without it the client cannot sample. */
  sample?: (params: CreateMessageRequest['params']) => CreateMessageResult;
  /** Sets the client's handlers before it connects, so that nothing sent at once is missed. */
  prepare?: (client: Client) => void;
}

/** A real SDK client on the daemon's `/mcp`, over streamable HTTP unless `via` says lines. */
export async function connectHub(state: DaemonState, opts: HubClientOptions): Promise<Client> {
  const query = new URLSearchParams({ workspace: opts.workspace });
  if (opts.agent) query.set('agent', opts.agent);
  if (opts.mode) query.set('mode', opts.mode);
  const client = new Client(
    { name: opts.clientName ?? 'hub-test', version: '1.0.0' },
    { capabilities: { ...(opts.elicit ? { elicitation: {} } : {}), ...(opts.sample ? { sampling: {} } : {}) } },
  );
  if (opts.elicit) {
    const elicit = opts.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (request) => elicit(request.params.message));
  }
  if (opts.sample) {
    const sample = opts.sample;
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => sample(request.params));
  }
  opts.prepare?.(client);
  await client.connect(
    opts.via === 'lines'
      ? await openDaemonSocket(state, query).then(
          ({ socket, head }) => new JsonLinesTransport(socket, { maxMessageBytes: Number.POSITIVE_INFINITY, head }),
        )
      : new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${state.port}/mcp?${query}`), {
          requestInit: { headers: { authorization: `Bearer ${state.token}` } },
        }),
  );
  return client;
}

export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((c) => c.text ?? '').join('');
}
