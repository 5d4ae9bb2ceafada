import type { DaemonState } from '@blitz/client';

export const MODERN_VERSION = '2026-07-28';

/** A 2026-07-28 request's `_meta`: the revision, this test's client info, and `capabilities`. */
export function modernMeta(capabilities: Record<string, unknown>, client = 'hub-test'): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientInfo': { name: client, version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
}

/** The last message of an answer (plain JSON, or SSE's last event). */
export interface ModernAnswer<R = Record<string, unknown>> {
  id?: unknown;
  method?: string;
  result?: R;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * One 2026-07-28 request on the hub's `/mcp`, session-less, with the headers the revision names
 * (`Mcp-Name`: the tool's name or the task's id); `headers` add to them or replace them. Gives
 * the HTTP status and the answer's last message.
 */
export async function postModern<R = Record<string, unknown>>(
  state: DaemonState,
  workspace: string,
  request: { id: unknown; method: string; params: Record<string, unknown> },
  headers: Record<string, string> = {},
): Promise<{ status: number; message: ModernAnswer<R> }> {
  const { id, method, params } = request;
  const named = params.name ?? params.taskId;
  const response = await fetch(`http://127.0.0.1:${state.port}/mcp?workspace=${encodeURIComponent(workspace)}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${state.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': method,
      ...(typeof named === 'string' ? { 'mcp-name': named } : {}),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  const text = await response.text();
  const messages: ModernAnswer<R>[] = (response.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)))
    : [JSON.parse(text)];
  return { status: response.status, message: messages.at(-1)! };
}
