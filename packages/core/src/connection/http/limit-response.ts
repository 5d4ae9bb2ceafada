import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { BlitzError } from '../../errors/blitz-error.js';

/**
 * Caps what a remote server sends at `maxBytes()` (`[hub] max_result_mb`), never buffering
 * more: a JSON answer is refused by its Content-Length or cut off as it streams in; an SSE
 * stream, which carries many messages over a long life, is cut off when one event passes it.
 */
export function limitResponseBytes(base: FetchLike, server: string, maxBytes: () => number): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    const type = response.headers.get('content-type') ?? '';
    if (!response.body) return response;
    if (type.includes('text/event-stream')) return withBody(response, response.body.pipeThrough(limitEvents(server, maxBytes())));
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

/** Counts the bytes of the SSE event being received (events end at a blank line). */
function limitEvents(server: string, max: number): TransformStream<Uint8Array, Uint8Array> {
  let inEvent = 0;
  let last = 0;
  return new TransformStream({
    transform(chunk, controller) {
      for (const byte of chunk) {
        // A blank line (LF LF, CR/LF pairs included) ends an event.
        if (byte === 0x0a && last === 0x0a) inEvent = 0;
        else if (++inEvent > max) {
          controller.error(tooLarge(server, max));
          return;
        }
        if (byte !== 0x0d) last = byte;
      }
      controller.enqueue(chunk);
    },
  });
}

/** `bytes` when the whole size is known (Content-Length); otherwise the limit is all we know. */
function tooLarge(server: string, max: number, bytes?: number): BlitzError {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  const size = bytes === undefined ? 'a message larger than' : `a message of ${mb(bytes)}, more than`;
  return new BlitzError('RESULT_TOO_LARGE', `MCP server ${server} sent ${size} the limit of ${mb(max)} ([hub] max_result_mb); it was not passed on`);
}
