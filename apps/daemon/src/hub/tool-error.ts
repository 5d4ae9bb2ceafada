import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A tool call that did not run, told to the client (and its model) as the tool's result. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
