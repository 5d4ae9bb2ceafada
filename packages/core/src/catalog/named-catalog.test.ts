import { describe, expect, it } from 'vitest';
import { buildNamedCatalog } from './named-catalog.js';

// Tools and prompts are covered by their own tables; this checks the generic part alone.
describe('buildNamedCatalog', () => {
  it('works for any named item, keeps its other fields and names warnings with the noun', () => {
    const items = [
      { name: 'a', weight: 1 },
      { name: 'a', weight: 2 },
    ];
    const { entries, warnings } = buildNamedCatalog([{ server: 's', prefix: 'p', items }], { noun: 'widget', reserved: [] });
    expect(entries).toEqual([{ exposedName: 'p__a', server: 's', originalName: 'a', item: { name: 'p__a', weight: 1 } }]);
    expect(warnings).toEqual(new Map([['s', ['widget "a" is offered twice; the first is kept']]]));
    expect(items[0]?.name).toBe('a');
  });
});
