import { CompleteResultSchema, type CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

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
    completion: { ...result.completion, values: values.slice(0, MAX_COMPLETION_VALUES), total: Math.max(result.completion.total ?? 0, values.length), hasMore: true },
  };
}
