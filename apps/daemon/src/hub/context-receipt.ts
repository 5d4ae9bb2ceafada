import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { clientSurface, describeSurface, KNOWN_CLIENTS, type CatalogEntry, type HubSettings } from '@blitz/core';
import type { ClientContext, ContextCost, ServerContext } from '@blitz/client';
import { listedTools, surfaceListing, usesOfEntries } from './deferred-tools.js';
import type { UseCounts } from './tool-use.js';

/** Tokens in a text, by a real tokenizer (token-count.ts). */
export type CountTokens = (text: string) => number;

/** The name the hub's own tools (resource tools, `search_tools`, `call_tool`) are counted under. */
export const HUB_TOOLS = 'blitz';

/** The clients a receipt covers: those Blitz knows, those `[hub.clients]` names, then any other (undefined). */
export function receiptClients(hub: HubSettings): Array<string | undefined> {
  return [...new Set([...Object.keys(KNOWN_CLIENTS), ...Object.keys(hub.clients)]), undefined];
}

/**
 * What a new session of `client` is listed from `entries` (its agent's catalog, in catalog
 * order: the order every listing keeps, so a client's prompt cache stays valid) and what that
 * costs it, by server; against the same answer with every tool listed.
 */
export function clientContext(
  entries: readonly CatalogEntry[],
  hub: HubSettings,
  client: string | undefined,
  count: CountTokens,
  uses?: UseCounts,
): ClientContext {
  const surface = clientSurface(hub, client);
  const listing = surfaceListing(entries, surface, new Set(), uses === undefined ? undefined : usesOfEntries(uses));
  const tools = listedTools(listing);
  const every = listedTools(surfaceListing(entries, { ...surface, deferred: 'never' }));
  const listed = costOf(tools, count);
  const everyTool = costOf(every, count);
  return {
    ...(client === undefined ? {} : { client }),
    label: client === undefined ? 'any other client' : (KNOWN_CLIENTS[client]?.label ?? client),
    surface: describeSurface(surface),
    because: surface.because,
    listed,
    servers: byServer(entries, tools, listing.deferred, count),
    everyTool,
    saved: { bytes: everyTool.bytes - listed.bytes, tokens: everyTool.tokens - listed.tokens },
  };
}

/** The whole `tools/list` answer's cost: its result's JSON, as a client reads it. */
function costOf(tools: readonly Tool[], count: CountTokens): ContextCost {
  const json = JSON.stringify({ tools });
  return { tools: tools.length, bytes: Buffer.byteLength(json), tokens: count(json) };
}

/** Each server's listed tools' cost, the hub's own first, then the servers in catalog order (those wholly deferred too). */
function byServer(
  entries: readonly CatalogEntry[],
  tools: readonly Tool[],
  deferred: readonly CatalogEntry[],
  count: CountTokens,
): ServerContext[] {
  const serverOf = new Map<string, string>(entries.map((e) => [e.exposedName, e.server]));
  const rows = new Map<string, ServerContext>([[HUB_TOOLS, { server: HUB_TOOLS, tools: 0, bytes: 0, tokens: 0, deferred: 0 }]]);
  const row = (server: string) => {
    let found = rows.get(server);
    if (found === undefined) rows.set(server, (found = { server, tools: 0, bytes: 0, tokens: 0, deferred: 0 }));
    return found;
  };
  for (const entry of entries) row(entry.server);
  for (const tool of tools) {
    const json = JSON.stringify(tool);
    const r = row(serverOf.get(tool.name) ?? HUB_TOOLS);
    r.tools++;
    r.bytes += Buffer.byteLength(json);
    r.tokens += count(json);
  }
  for (const entry of deferred) row(entry.server).deferred++;
  return [...rows.values()];
}
