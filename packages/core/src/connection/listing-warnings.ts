import type { ServerCapabilities, Tool } from '@modelcontextprotocol/sdk/types.js';

/** What a server that says it has tools, then lists none, is shown with: a warning, not an error (it answered). */
export const NO_TOOLS_WARNING = 'lists no tools, though it offers the tools capability (tools/list answered an empty list)';

/**
 * The warnings a server's tool listing earns, shown with its status: the listing cut short by
 * a limit (`truncated`), or empty from a server that offers the tools capability.
 */
export function listingWarnings(
  tools: readonly Tool[],
  capabilities: ServerCapabilities | undefined,
  truncated: string | undefined,
): string[] {
  const warnings = truncated ? [truncated] : [];
  if (tools.length === 0 && capabilities?.tools) warnings.push(NO_TOOLS_WARNING);
  return warnings;
}
