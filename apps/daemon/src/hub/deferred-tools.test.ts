import { describe, expect, it } from 'vitest';
import { Catalog, emptySettings, type CatalogEntry } from '@blitz/core';
import { deferralText, DeferredTools } from './deferred-tools.js';
import type { SessionScope } from './session-scope.js';

const entries = (n: number): CatalogEntry[] =>
  Array.from({ length: n }, (_, i) => ({
    exposedName: `t${i}`,
    server: 's',
    originalName: `t${i}`,
    exposure: 'default',
    tool: { name: `t${i}`, inputSchema: { type: 'object' } },
  }));
const listing = (listed: number, deferred: number, deferring = deferred > 0) => ({
  listed: entries(listed),
  deferred: entries(deferred),
  deferring,
});

describe('deferralText (the instructions and notices about deferred tools)', () => {
  it('says how many tools are listed and deferred, why, and how to reach them', () => {
    expect(deferralText(listing(2, 410), 'auto', 100)).toBe(
      'Deferred tools: 2 of the 412 tools of these MCP servers are in the tool list; 410 more are deferred (this hub lists at most 100 tools to this client, the most used first, then in server order). ' +
        'Use search_tools to find them by task or name (the matches join the tool list), and call_tool to call one if your tool list does not update.',
    );
    expect(deferralText(listing(1, 1), 'always', 100)).toMatch(
      /^Deferred tools: 1 of the 2 tools of these MCP servers is in the tool list; 1 more is deferred \(this hub defers every tool not marked direct\)\. Use search_tools/,
    );
    expect(deferralText(listing(0, 3, false), 'never', 100)).toMatch(
      /^Deferred tools: 0 of the 3 tools .* 3 more are deferred \(their servers' settings mark them deferred\)\./,
    );
    expect(deferralText(listing(5, 3, false), 'auto', 100)).toContain("(their servers' settings mark them deferred)");
  });

  it('with nothing deferred says so, and under auto what happens past the limit', () => {
    expect(deferralText(listing(90, 0), 'auto', 128)).toBe(
      "Deferred tools: none now; all 90 tools of these MCP servers are in the tool list. Should they pass 128, this client's limit, the hub defers the rest and offers search_tools to find them.",
    );
    expect(deferralText(listing(1, 0), 'never', 100)).toBe(
      'Deferred tools: none now; the one tool of these MCP servers is in the tool list.',
    );
    expect(deferralText(listing(0, 0), 'always', 100)).toBe('Deferred tools: none now; these MCP servers offer no tools yet.');
  });
});

describe('DeferredTools: one split of the catalog serves the list and the notice', () => {
  it('toolsOf of a listing answers as tools of the same entries; told says what the listing holds, for the client asked', () => {
    const settings = emptySettings();
    settings.hub.maxTools = 6;
    settings.hub.clients = { big: { maxTools: 100 } };
    // The workspace is not looked at to split a catalog.
    const scope = { workspace: undefined, agent: 'main', readOnly: false, settings: () => settings } as unknown as SessionScope;
    const deferred = new DeferredTools(scope, () => 'client');
    for (const n of [2, 40]) {
      const split = deferred.listing(entries(n));
      expect(deferred.toolsOf(split)).toEqual(deferred.tools(entries(n)));
      expect(deferred.told(split)).toEqual({ defers: n === 40, text: deferralText(split, 'auto', 6) });
    }
    // Another client's listing and limit: at initialize, before the session knows its client.
    const big = deferred.listing(entries(40), 'big');
    expect(deferred.told(big)).toEqual({ defers: false, text: deferralText(big, 'auto', 100) });
    expect(new DeferredTools({ ...scope, readOnly: true }, () => 'client').told(deferred.listing(entries(40)))).toEqual({
      defers: false,
      text: undefined,
    });
  });
});

describe('DeferredTools: the tools a search activated', () => {
  it('leave the session when any listing sees the catalog without them, not only at a catalog change: back, they are deferred again', () => {
    const settings = emptySettings();
    settings.hub.deferred = 'always';
    // The search asks the workspace only for its servers' instructions: it has none.
    const scope = {
      workspace: { manager: { routing: { introduced: () => [] } } },
      agent: 'main',
      readOnly: false,
      settings: () => settings,
    } as unknown as SessionScope;
    const deferred = new DeferredTools(scope, () => 'client');
    const all = entries(3);
    const listed = (e: readonly CatalogEntry[]) => deferred.listing(e).listed.map((x) => x.exposedName);
    expect(deferred.search(new Catalog(all), { query: 't1' }).activated).toBe(true);
    expect(listed(all)).toEqual(['t1']);
    // Its server switched off, and on again before the catalog change reached the session: a list saw it gone.
    expect(listed(all.filter((e) => e.exposedName !== 't1'))).toEqual([]);
    expect(listed(all)).toEqual([]);
  });
});

describe('DeferredTools: a search never grows the list past max_tools (issue 25.8)', () => {
  it('fourteen searches leave a client limited to 5 with at most 5 tools; each match is still answered, to be called with call_tool', () => {
    const settings = emptySettings();
    settings.hub.clients = { adv: { maxTools: 5 } };
    const scope = {
      workspace: { manager: { routing: { introduced: () => [] } } },
      agent: 'main',
      readOnly: false,
      settings: () => settings,
    } as unknown as SessionScope;
    const deferred = new DeferredTools(scope, () => 'adv');
    const all = entries(40);
    const catalog = new Catalog(all);
    const grew: boolean[] = [];
    // The hub's four tools leave room for one tool, t0 by server order (issue 26.7) until a search finds another.
    expect(deferred.tools(all).map((t) => t.name)).toEqual(['list_mcp_resources', 'read_mcp_resource', 'search_tools', 'call_tool', 't0']);
    for (let i = 1; i <= 14; i++) {
      const { result, activated } = deferred.search(catalog, { query: `t${i}` });
      grew.push(activated);
      expect((result.structuredContent as { tools: Array<{ name: string }> }).tools[0]?.name).toBe(`t${i}`);
      expect(deferred.tools(all).length).toBeLessThanOrEqual(5);
    }
    // The first search's tool takes the one place; the others stay out.
    expect(grew).toEqual([true, ...Array<boolean>(13).fill(false)]);
    expect(deferred.tools(all).map((t) => t.name)).toEqual(['list_mcp_resources', 'read_mcp_resource', 'search_tools', 'call_tool', 't1']);
  });
});

describe('DeferredTools: past max_tools, the most used tools stay listed (issue 26.7)', () => {
  it('keeps as many as the limit has room for, by the use counts the session began with, then in server order', () => {
    const settings = emptySettings();
    settings.hub.maxTools = 8;
    const scope = {
      workspace: { manager: { routing: { introduced: () => [] } } },
      agent: 'main',
      readOnly: false,
      settings: () => settings,
    } as unknown as SessionScope;
    const uses = new Map([
      ['t7', 5],
      ['t3', 2],
    ]);
    const deferred = new DeferredTools(
      scope,
      () => 'client',
      (_server, tool) => uses.get(tool) ?? 0,
    );
    const all = entries(10);
    const split = deferred.listing(all);
    // Four hub tools and four of the ten: t7 and t3 by use, then t0 and t1; listed in catalog order.
    expect(split.listed.map((e) => e.exposedName)).toEqual(['t0', 't1', 't3', 't7']);
    expect(split.deferred).toHaveLength(6);
    expect(deferred.toolsOf(split)).toHaveLength(8);
    expect(deferred.told(split).text).toMatch(
      /^Deferred tools: 4 of the 10 tools of these MCP servers are in the tool list; 6 more are deferred \(this hub lists at most 8 tools to this client, the most used first, then in server order\)\./,
    );
    // A search's match takes the place of the least used kept tool: still eight.
    expect(deferred.search(new Catalog(all), { query: 't9' }).activated).toBe(true);
    expect(deferred.listing(all).listed.map((e) => e.exposedName)).toEqual(['t0', 't3', 't7', 't9']);
  });
});

describe('DeferredTools: what a search answers (issue 30)', () => {
  it('a summary per match (name, server, first sentence, parameters); the whole input schema only for a tool asked for by its exact name', () => {
    const settings = emptySettings();
    settings.hub.deferred = 'always';
    const scope = {
      workspace: { manager: { routing: { introduced: () => [] } } },
      agent: 'main',
      readOnly: false,
      settings: () => settings,
    } as unknown as SessionScope;
    const inputSchema = {
      type: 'object' as const,
      properties: {
        path: { type: 'string', description: 'A long description of the path that the answer leaves out' },
        depth: { type: 'integer' },
      },
      required: ['path'],
    };
    const tool = (name: string, description: string): CatalogEntry => ({
      exposedName: name,
      server: 'fs',
      originalName: name,
      exposure: 'default',
      tool: { name, description, inputSchema },
    });
    const catalog = new Catalog([
      tool('list_tree', 'List a folder as a tree. Use depth to stop early.'),
      tool('list_files', 'List the files of a folder.'),
    ]);
    const deferred = new DeferredTools(scope, () => 'client');
    const found = deferred.search(catalog, { query: 'list a folder' }).result;
    const tools = (found.structuredContent as { tools: unknown[] }).tools;
    expect(tools).toEqual([
      { name: 'list_tree', server: 'fs', description: 'List a folder as a tree.', parameters: 'path: string, depth?: integer' },
      { name: 'list_files', server: 'fs', description: 'List the files of a folder.', parameters: 'path: string, depth?: integer' },
    ]);
    const text = (found.content[0] as { text: string }).text;
    expect(text).toBe(
      'list_tree (fs): List a folder as a tree.\n  (path: string, depth?: integer)\nlist_files (fs): List the files of a folder.\n  (path: string, depth?: integer)',
    );
    const byName = deferred.search(catalog, { query: 'list_files' }).result;
    expect((byName.structuredContent as { tools: unknown[] }).tools[0]).toEqual(
      expect.objectContaining({ name: 'list_files', inputSchema }),
    );
    expect((byName.content[0] as { text: string }).text).toContain(`input schema: ${JSON.stringify(inputSchema)}`);
  });
});
