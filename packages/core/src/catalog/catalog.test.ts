import { describe, expect, it } from 'vitest';
import { Catalog } from './catalog.js';

const entry = (exposedName: string, server: string) => ({ exposedName, server, originalName: exposedName.split('__').pop() });

describe('Catalog', () => {
  const entries = [entry('gh__search', 'github'), entry('read', 'files'), entry('gh__issue', 'github')];
  const catalog = new Catalog(entries);

  it('lists entries in catalog order', () => {
    expect(catalog.list()).toEqual(entries);
  });

  it.each<[string, string | undefined]>([
    ['gh__search', 'github'],
    ['read', 'files'],
    ['search', undefined],
    ['', undefined],
  ])('byExposedName(%j) finds server %j', (name, server) => {
    expect(catalog.byExposedName(name)?.server).toBe(server);
  });

  it('keeps the original name for routing', () => {
    expect(catalog.byExposedName('gh__issue')).toMatchObject({ server: 'github', originalName: 'issue' });
  });

  it.each<[string, string[]]>([
    ['github', ['gh__search', 'gh__issue']],
    ['files', ['read']],
    ['unknown', []],
  ])('forServer(%j) gives its entries in order', (server, names) => {
    expect(catalog.forServer(server).map((e) => e.exposedName)).toEqual(names);
  });

  it('finds the first of two entries with one name', () => {
    const twice = new Catalog([entry('x', 'first'), entry('x', 'second')]);
    expect(twice.byExposedName('x')?.server).toBe('first');
  });

  it('is not changed by changes to the array it was built from', () => {
    const source = [entry('a', 's')];
    const copy = new Catalog(source);
    source.push(entry('b', 's'));
    expect(copy.list()).toHaveLength(1);
  });
});
