import { CompleteResultSchema, ErrorCode, McpError, type CompleteRequest, type CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ServerConnection } from '../connection/server-connection.js';

/** The most values one completion carries (the MCP spec's bound). */
export const MAX_COMPLETION_VALUES = 100;

/** What a server that offers no completions answers through the hub: nothing to suggest, not an error. */
export const NO_COMPLETION: CompleteResult = { completion: { values: [], hasMore: false } };

/** A completion as a server may send it: the SDK's own schema refuses more than 100 values, where the hub cuts them. */
export const UNBOUNDED_COMPLETE_RESULT = CompleteResultSchema.extend({
  completion: CompleteResultSchema.shape.completion.extend({ values: z.array(z.string()) }),
});

/** A server's completion cut to the spec's bound; `total` and `hasMore` say what was left out. */
export function boundCompletion(result: CompleteResult): CompleteResult {
  const { values } = result.completion;
  if (values.length <= MAX_COMPLETION_VALUES) return result;
  return {
    ...result,
    completion: {
      ...result.completion,
      values: values.slice(0, MAX_COMPLETION_VALUES),
      total: Math.max(result.completion.total ?? 0, values.length),
      hasMore: true,
    },
  };
}

/**
 * Asks the owning server for a completion (its original names in `params`), bounded by its
 * call timeout: a server that offers no completions, or turns out not to serve them, suggests
 * none; the answer is cut to 100 values.
 */
export async function askCompletion(
  connection: ServerConnection,
  params: CompleteRequest['params'],
  signal?: AbortSignal,
): Promise<CompleteResult> {
  if (!connection.serverCapabilities()?.completions) return NO_COMPLETION;
  const timeout = connection.config.timeoutSeconds * 1000;
  try {
    const result = await connection.request(`MCP server ${connection.name} completion/complete`, timeout, signal, (c, s) =>
      c.request({ method: 'completion/complete', params }, UNBOUNDED_COMPLETE_RESULT, { timeout, ...(s ? { signal: s } : {}) }),
    );
    return boundCompletion(result);
  } catch (err) {
    if (err instanceof McpError && err.code === ErrorCode.MethodNotFound) return NO_COMPLETION;
    throw err;
  }
}
