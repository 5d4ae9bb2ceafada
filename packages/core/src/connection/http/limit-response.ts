import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { BlitzError } from '../../errors/blitz-error.js';

/**
 * Caps a JSON answer from a remote server at `maxBytes()` (`[hub] max_result_mb`): refused
 * by its Content-Length, or cut off as it streams in, never buffered whole. SSE streams
 * carry many messages over a long life and are left alone.
 */
export function limitResponseBytes(base: FetchLike, server: string, maxBytes: () => number): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body || !(response.headers.get('content-type') ?? '').includes('application/json')) return response;
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
    return new Response(limited, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** `bytes` when the whole size is known (Content-Length); otherwise the limit is all we know. */
function tooLarge(server: string, max: number, bytes?: number): BlitzError {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  const size = bytes === undefined ? 'a message larger than' : `a message of ${mb(bytes)}, more than`;
  return new BlitzError('RESULT_TOO_LARGE', `MCP server ${server} sent ${size} the limit of ${mb(max)} ([hub] max_result_mb); it was not passed on`);
}
