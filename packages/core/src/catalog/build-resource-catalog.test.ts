import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { buildResourceCatalog, type ServerResources } from './build-resource-catalog.js';

const resource = (uri: string): Resource => ({ uri, name: uri.split('/').pop() ?? uri });
const server = (name: string, uris: string[]): ServerResources => ({ server: name, resources: uris.map(resource) });

describe('buildResourceCatalog', () => {
  it.each<[string, ServerResources[], string[], Record<string, string[]>]>([
    ['no servers', [], [], {}],
    [
      'resources keep their URIs, in settings order',
      [server('a', ['file:///x', 'file:///y']), server('b', ['db://t'])],
      ['a:file:///x', 'a:file:///y', 'b:db://t'],
      {},
    ],
    [
      'a URI two servers offer: the first wins',
      [server('a', ['file:///x']), server('b', ['file:///x', 'file:///z'])],
      ['a:file:///x', 'b:file:///z'],
      { b: ['resource "file:///x" is skipped: server "a" already offers it'] },
    ],
    [
      'a URI offered twice by one server: the first is kept',
      [server('a', ['file:///x', 'file:///x'])],
      ['a:file:///x'],
      { a: ['resource "file:///x" is offered twice; the first is kept'] },
    ],
    ['URIs are compared exactly', [server('a', ['file:///X']), server('b', ['file:///x'])], ['a:file:///X', 'b:file:///x'], {}],
  ])('%s', (_title, servers, entries, warnings) => {
    const result = buildResourceCatalog(servers);
    expect(result.entries.map((e) => `${e.server}:${e.uri}`)).toEqual(entries);
    expect(Object.fromEntries(result.warnings)).toEqual(warnings);
  });

  it('an entry carries the server’s resource unchanged', () => {
    const r: Resource = { uri: 'file:///x', name: 'x', mimeType: 'text/plain' };
    expect(buildResourceCatalog([{ server: 'a', resources: [r] }]).entries).toEqual([{ uri: 'file:///x', server: 'a', resource: r }]);
  });
});
