import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { BlitzError } from '../../errors/blitz-error.js';
import { eventField, EventSplitter } from './sse-events.js';

/**
 * Caps what a remote server sends at `maxBytes()` (`[hub] max_result_mb`), never buffering
 * more: a JSON answer is refused by its Content-Length or cut off as it streams in; an SSE
 * stream, which carries many messages over a long life, is cut off when one event passes it.
 */
export function limitResponseBytes(base: FetchLike, server: string, maxBytes: () => number): FetchLike {
  /** Where streams were cut: the SDK resumes a cut stream from its last event id, which would only replay the cut. */
  const cutAt = new Set<string>();
  return async (url, init) => {
    const resumeFrom = new Headers(init?.headers).get('last-event-id');
    if (init?.method === 'GET' && resumeFrom !== null && cutAt.delete(resumeFrom)) return new Response(null, { status: 405 });
    const response = await base(url, init);
    const type = response.headers.get('content-type') ?? '';
    if (!response.body) return response;
    if (type.includes('text/event-stream')) {
      const ids = requestIds(init?.body);
      const onCut = (lastEventId: string | undefined) => lastEventId !== undefined && ids.length > 0 && cutAt.add(lastEventId);
      return withBody(response, response.body.pipeThrough(limitEvents(server, maxBytes(), ids, onCut)));
    }
    if (!type.includes('application/json')) return response;
    const max = maxBytes();
    const length = Number(response.headers.get('content-length') ?? NaN);
    if (length > max) {
      await response.body.cancel().catch(() => undefined);
      throw tooLarge(server, max, length);
    }
    let seen = 0;
    const limited = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > max) controller.error(tooLarge(server, max));
          else controller.enqueue(chunk);
        },
      }),
    );
    return withBody(response, limited);
  };
}

function withBody(response: Response, body: ReadableStream<Uint8Array>): Response {
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * Passes an SSE stream on event by event, each held until it is whole (at most `max` bytes),
 * so a cut event never reaches the parser. Past the limit, the stream of a POST ends with an
 * error answer to each request it carried, so the caller hears why at once; the standalone
 * stream, answering no request, is cut.
 */
function limitEvents(
  server: string,
  max: number,
  ids: RequestId[],
  onCut: (lastEventId: string | undefined) => void,
): TransformStream<Uint8Array, Uint8Array> {
  const events = new EventSplitter();
  let lastEventId: string | undefined;
  const pass = (event: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>) => {
    controller.enqueue(event);
    // The id the SDK will resume from, should it: the last one an event carried.
    lastEventId = eventField(event, 'id') || lastEventId;
  };
  const cut = (controller: TransformStreamDefaultController<Uint8Array>) => {
    onCut(lastEventId);
    const error = tooLarge(server, max);
    if (ids.length === 0) return controller.error(error);
    for (const id of ids)
      controller.enqueue(
        new TextEncoder().encode(
          `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: error.message, data: { code: error.code } } })}\n\n`,
        ),
      );
    controller.terminate();
  };
  return new TransformStream({
    transform(chunk, controller) {
      for (const event of events.push(chunk)) {
        if (event.length > max) return cut(controller);
        pass(event, controller);
      }
      if (events.pendingBytes > max) cut(controller);
    },
    flush(controller) {
      const rest = events.end();
      if (rest) pass(rest, controller);
    },
  });
}

/** The ids of the requests in a POST body the SDK sent (a string of one message or a batch). */
export function requestIds(body: unknown): RequestId[] {
  if (typeof body !== 'string') return [];
  try {
    const parsed = JSON.parse(body) as unknown;
    return (Array.isArray(parsed) ? parsed : [parsed])
      .filter((m): m is { id: RequestId } => typeof m === 'object' && m !== null && 'method' in m && 'id' in m)
      .map((m) => m.id);
  } catch {
    return [];
  }
}

/** `bytes` when the whole size is known (Content-Length); otherwise the limit is all we know. */
function tooLarge(server: string, max: number, bytes?: number): BlitzError {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  const size = bytes === undefined ? 'a message larger than' : `a message of ${mb(bytes)}, more than`;
  return new BlitzError(
    'RESULT_TOO_LARGE',
    `MCP server ${server} sent ${size} the limit of ${mb(max)} ([hub] max_result_mb); it was not passed on`,
  );
}
