import { describe, expect, it } from 'vitest';
import type { CatalogEntry } from '@blitz/core';
import { deferredListing, type ListingInput } from './deferred-listing.js';

const entry = (name: string, exposure: CatalogEntry['exposure'] = 'default'): CatalogEntry => ({
  exposedName: name,
  server: 's',
  originalName: name,
  exposure,
  tool: { name, inputSchema: { type: 'object' } },
});

function split(input: Partial<ListingInput> & { entries: CatalogEntry[] }) {
  const listing = deferredListing({ mode: 'auto', maxTools: 100, builtIns: 2, activated: new Set(), ...input });
  return {
    listed: listing.listed.map((e) => e.exposedName),
    deferred: listing.deferred.map((e) => e.exposedName),
    deferring: listing.deferring,
    offersSearch: listing.offersSearch,
  };
}

describe('deferredListing', () => {
  const many = Array.from({ length: 5 }, (_, i) => entry(`t${i}`));

  it('never: lists every tool left to the hub, still defers tools marked deferred', () => {
    expect(split({ mode: 'never', maxTools: 1, entries: [...many, entry('d', 'deferred')] })).toEqual({
      listed: ['t0', 't1', 't2', 't3', 't4'],
      deferred: ['d'],
      deferring: false,
      offersSearch: true,
    });
  });

  it('always: lists only tools marked direct', () => {
    expect(split({ mode: 'always', entries: [entry('a', 'direct'), ...many.slice(0, 2)] })).toEqual({
      listed: ['a'],
      deferred: ['t0', 't1'],
      deferring: true,
      offersSearch: true,
    });
  });

  it('auto: lists all while the built-ins and tools fit the limit; past it keeps as many as fit, in server order, and defers the rest (no cliff, issue 26.7)', () => {
    expect(split({ maxTools: 7, entries: many }).deferring).toBe(false);
    expect(split({ maxTools: 6, entries: many })).toEqual({
      listed: ['t0', 't1', 't2', 't3'],
      deferred: ['t4'],
      deferring: true,
      offersSearch: true,
    });
    expect(split({ maxTools: 3, entries: many })).toEqual({
      listed: ['t0'],
      deferred: ['t1', 't2', 't3', 't4'],
      deferring: true,
      offersSearch: true,
    });
    expect(split({ maxTools: 2, entries: many }).listed).toEqual([]);
  });

  it('auto past the limit: the most used are kept, equal counts in server order; listed in catalog order; direct and activated tools first', () => {
    const uses = (e: CatalogEntry) => ({ t4: 3, t2: 3, t3: 1 })[e.exposedName] ?? 0;
    expect(split({ maxTools: 5, entries: many, uses })).toEqual({
      listed: ['t2', 't3', 't4'],
      deferred: ['t0', 't1'],
      deferring: true,
      offersSearch: true,
    });
    const listing = deferredListing({
      mode: 'auto',
      maxTools: 5,
      builtIns: 2,
      entries: [...many, entry('a', 'direct')],
      activated: new Set(['t0']),
      uses,
    });
    expect([listing.listed.map((e) => e.exposedName), listing.kept.map((e) => e.exposedName), listing.room]).toEqual([
      ['t0', 't2', 'a'],
      ['t2'],
      1,
    ]);
    // always defers what it defers: nothing is kept by use.
    expect(split({ mode: 'always', maxTools: 100, entries: many, uses }).listed).toEqual([]);
  });

  it('auto: tools marked deferred do not count against the limit, tools marked direct do', () => {
    expect(split({ maxTools: 7, entries: [...many, entry('d', 'deferred')] }).deferring).toBe(false);
    expect(split({ maxTools: 7, entries: [...many, entry('a', 'direct')] }).deferring).toBe(true);
  });

  it('lists activated tools, and keeps offering search once something was deferred', () => {
    expect(split({ mode: 'always', entries: many.slice(0, 2), activated: new Set(['t0', 't1', 'gone']) })).toEqual({
      listed: ['t0', 't1'],
      deferred: [],
      deferring: true,
      offersSearch: true,
    });
  });

  it('lists activated tools only while the list stays within the limit; room says how many more fit (issue 25.8)', () => {
    const input = { mode: 'always' as const, maxTools: 5, builtIns: 4, entries: [entry('a', 'direct'), ...many] };
    expect(deferredListing({ ...input, activated: new Set() }).room).toBe(0);
    expect(split({ ...input, activated: new Set(['t0', 't1']) })).toEqual({
      listed: ['a'],
      deferred: ['t0', 't1', 't2', 't3', 't4'],
      deferring: true,
      offersSearch: true,
    });
    // A limit of 7 has room for two: the first two activated in catalog order are listed, a third is not.
    const seven = deferredListing({ ...input, maxTools: 7, activated: new Set(['t3', 't1', 't4']) });
    expect([seven.listed.map((e) => e.exposedName), seven.room]).toEqual([['a', 't1', 't3'], 0]);
    expect(deferredListing({ ...input, maxTools: 100, activated: new Set(['t3']) }).room).toBe(100 - 4 - 2);
    // Listed tools past the limit (direct, or never) leave no room, never less than none.
    expect(
      deferredListing({ ...input, mode: 'never', maxTools: 1, entries: [...many, entry('d', 'deferred')], activated: new Set(['d']) }),
    ).toEqual(expect.objectContaining({ room: 0, deferred: [expect.objectContaining({ exposedName: 'd' })] }));
  });

  it('defersAny: the hub defers some tool, activated since or not', () => {
    const input = { mode: 'always' as const, maxTools: 100, builtIns: 2, entries: many.slice(0, 2) };
    expect(deferredListing({ ...input, activated: new Set(['t0', 't1']) }).defersAny).toBe(true);
    expect(deferredListing({ ...input, mode: 'auto', activated: new Set() }).defersAny).toBe(false);
    expect(deferredListing({ ...input, mode: 'never', entries: [entry('d', 'deferred')], activated: new Set(['d']) }).defersAny).toBe(true);
  });

  it('offers no search when nothing is deferred', () => {
    expect(split({ entries: many }).offersSearch).toBe(false);
    expect(split({ mode: 'always', entries: [] }).offersSearch).toBe(false);
  });
});
