import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';

/** A server cannot make us hold unbounded lists: pages, items and bytes are capped. */
export const LIST_LIMITS = { pages: 50, items: 2000, bytes: 8 * 1024 * 1024 };

type Page<T> = { items: T[]; nextCursor?: string | undefined };

export interface Listed<T> {
  items: T[];
  /** Set when a limit cut the listing short. */
  truncated?: string;
}

async function listPages<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>, what: string): Promise<Listed<T>> {
  const items: T[] = [];
  let bytes = 0;
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (let page = 1; ; page++) {
    const result = await fetchPage(cursor);
    for (const item of result.items) {
      bytes += JSON.stringify(item).length;
      if (items.length >= LIST_LIMITS.items || bytes > LIST_LIMITS.bytes) {
        return {
          items,
          truncated: `${what} cut at ${items.length} items (limits: ${LIST_LIMITS.items} items, ${LIST_LIMITS.bytes / 1024 / 1024} MB)`,
        };
      }
      items.push(item);
    }
    cursor = result.nextCursor;
    if (!cursor) return { items };
    // A server repeating a cursor would page forever.
    if (seen.has(cursor) || page >= LIST_LIMITS.pages) return { items, truncated: `${what} cut after ${page} pages` };
    seen.add(cursor);
  }
}

export interface ListOptions {
  timeout: number;
  signal?: AbortSignal;
}

export function listAllTools(client: Client, opts: ListOptions): Promise<Listed<Tool>> {
  return listPages(async (cursor) => {
    const r = await client.listTools(cursor ? { cursor } : {}, opts);
    return { items: r.tools, nextCursor: r.nextCursor };
  }, 'tools/list');
}

export function listAllPrompts(client: Client, opts: ListOptions): Promise<Listed<Prompt>> {
  return listPages(async (cursor) => {
    const r = await client.listPrompts(cursor ? { cursor } : {}, opts);
    return { items: r.prompts, nextCursor: r.nextCursor };
  }, 'prompts/list');
}

export function listAllResources(client: Client, opts: ListOptions): Promise<Listed<Resource>> {
  return listPages(async (cursor) => {
    const r = await client.listResources(cursor ? { cursor } : {}, opts);
    return { items: r.resources, nextCursor: r.nextCursor };
  }, 'resources/list');
}

export function listAllResourceTemplates(client: Client, opts: ListOptions): Promise<Listed<ResourceTemplate>> {
  return listPages(async (cursor) => {
    const r = await client.listResourceTemplates(cursor ? { cursor } : {}, opts);
    return { items: r.resourceTemplates, nextCursor: r.nextCursor };
  }, 'resources/templates/list');
}
