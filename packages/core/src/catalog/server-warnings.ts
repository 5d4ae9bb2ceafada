/**
 * Warnings from building a catalog, grouped by server name. Only servers with something to say
 * appear, in the order their first warning was raised — settings order, since servers are
 * processed in that order — so `/mcp` and the log can print them per server as they are.
 */
export type ServerWarnings = Map<string, string[]>;

export function addWarning(warnings: ServerWarnings, server: string, text: string): void {
  const list = warnings.get(server);
  if (list === undefined) warnings.set(server, [text]);
  else list.push(text);
}
