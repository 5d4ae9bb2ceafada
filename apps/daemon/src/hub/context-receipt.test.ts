import { describe, expect, it } from 'vitest';
import { emptySettings, type CatalogEntry, type HubSettings } from '@blitz/core';
import { clientContext, receiptClients } from './context-receipt.js';

const entry = (server: string, name: string, description = 'does a thing'): CatalogEntry => ({
  exposedName: `${server}__${name}`,
  server,
  originalName: name,
  tool: { name: `${server}__${name}`, description, inputSchema: { type: 'object' } },
  exposure: 'default',
});
/** A stand-in tokenizer: one token a character, so the sums can be checked by hand. */
const chars = (text: string) => text.length;
const hub = (over: Partial<HubSettings> = {}): HubSettings => ({ ...emptySettings().hub, ...over });

describe('clientContext', () => {
  const entries = [entry('a', 'one'), entry('a', 'two'), entry('b', 'three'), entry('b', 'four'), entry('b', 'five')];

  it('counts a client listed every tool: nothing saved, every server listed whole', () => {
    const c = clientContext(entries, hub({ maxTools: 100 }), 'claude-code', chars);
    expect(c).toMatchObject({ client: 'claude-code', label: 'Claude Code', surface: 'every tool listed', saved: { bytes: 0, tokens: 0 } });
    expect(c.listed).toEqual(c.everyTool);
    expect(c.servers.map((s) => [s.server, s.tools, s.deferred])).toEqual([
      ['blitz', 2, 0],
      ['a', 2, 0],
      ['b', 3, 0],
    ]);
  });

  it('counts what a limit defers: the hub adds search_tools and call_tool, a server wholly deferred still has its row', () => {
    const c = clientContext(entries, hub({ maxTools: 6 }), undefined, chars);
    expect(c.label).toBe('any other client');
    expect(c.client).toBeUndefined();
    // 2 resource tools + search_tools + call_tool leave room for 2.
    expect(c.servers.map((s) => [s.server, s.tools, s.deferred])).toEqual([
      ['blitz', 4, 0],
      ['a', 2, 0],
      ['b', 0, 3],
    ]);
    expect(c.listed.tools).toBe(6);
    expect(c.everyTool.tools).toBe(7);
    expect(c.saved).toEqual({ bytes: c.everyTool.bytes - c.listed.bytes, tokens: c.everyTool.tokens - c.listed.tokens });
    // The whole answer is its tools' JSON and the wrapper around them.
    const sum = c.servers.reduce((n, s) => n + s.bytes, 0);
    expect(c.listed.bytes).toBe(sum + '{"tools":[]}'.length + (c.listed.tools - 1));
  });

  it('keeps listed the most used tools past the limit, as a new session would', () => {
    const uses = (server: string, tool: string) => (server === 'b' && tool === 'five' ? 9 : 0);
    const c = clientContext(entries, hub({ maxTools: 5 }), undefined, chars, uses);
    expect(c.servers.map((s) => [s.server, s.tools])).toEqual([
      ['blitz', 4],
      ['a', 0],
      ['b', 1],
    ]);
  });
});

it('covers the known clients, those [hub.clients] names, then any other client', () => {
  const names = receiptClients(hub({ clients: { 'my-agent': { maxTools: 10 }, 'claude-code': { deferred: 'always' } } }));
  expect(names.slice(-2)).toEqual(['my-agent', undefined]);
  expect(names.filter((n) => n === 'claude-code')).toHaveLength(1);
  expect(names).toContain('codex-mcp-client');
});
