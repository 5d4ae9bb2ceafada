import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { serverConfig } from '../testing/server-config.js';
import { CatalogCache, erasIn, type StartListing } from './catalog-cache.js';
import { catalogCacheKey } from './catalog-cache-key.js';

let dir: string;
let file: string;
let warnings: string[];
let clock: FakeClock;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-catalog-cache-'));
  file = path.join(dir, 'state', 'catalog-cache.json');
  warnings = [];
  clock = new FakeClock();
});
/** Every cache a test opened: their writes are waited for before the folder goes, or a late one makes it again. */
const opened: CatalogCache[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((c) => c.flush()));
  fs.rmSync(dir, { recursive: true, force: true });
});

function open(maxEntries?: number): CatalogCache {
  const cache = new CatalogCache({ file, clock, warn: (m) => warnings.push(m), ...(maxEntries === undefined ? {} : { maxEntries }) });
  opened.push(cache);
  return cache;
}

function listing(server: string, ...tools: string[]): StartListing {
  return {
    server,
    tools: tools.map((name) => ({ name, inputSchema: { type: 'object' as const } })),
    capabilities: { tools: { listChanged: true } },
    instructions: `${server} says hi`,
    serverInfo: { name: server, version: '1.0.0' },
  };
}

describe('CatalogCache', () => {
  it('keeps what a server listed across daemon starts, in a 0600 file written atomically', async () => {
    const cache = open();
    cache.put('k1', listing('alpha', 'echo', 'add'));
    cache.putList('k1', 'prompts', [{ name: 'greet' }]);
    await cache.flush();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['catalog-cache.json']);

    const again = open();
    expect(again.get('k1')).toEqual({ ...listing('alpha', 'echo', 'add'), prompts: [{ name: 'greet' }], savedAt: clock.now() });
    expect(again.get('k2')).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it('writes nothing when a start lists what is cached already (fields in another order), and keeps the lists clients asked for', async () => {
    const cache = open();
    cache.put('k1', listing('alpha', 'echo'));
    cache.putList('k1', 'resources', [{ uri: 'file:///a', name: 'a' }]);
    await cache.flush();
    fs.rmSync(file);
    const same = listing('alpha', 'echo');
    cache.put('k1', {
      serverInfo: same.serverInfo!,
      instructions: same.instructions!,
      capabilities: same.capabilities,
      tools: [{ inputSchema: { type: 'object' }, name: 'echo' }],
      server: 'alpha',
    });
    cache.putList('k1', 'resources', [{ name: 'a', uri: 'file:///a' }]);
    await cache.flush();
    expect(fs.existsSync(file)).toBe(false);

    clock.advance(1000);
    const at = clock.now();
    cache.put('k1', listing('alpha', 'echo', 'added'));
    await cache.flush();
    expect(open().get('k1')).toMatchObject({
      tools: [{ name: 'echo' }, { name: 'added' }],
      resources: [{ uri: 'file:///a' }],
      savedAt: at,
    });
  });

  it('writes nothing when a start lists, as the SDK parses them, the tools read back from the file: a field the SDK leaves undefined is no change', async () => {
    const cache = open();
    cache.put('k1', listing('alpha', 'echo'));
    await cache.flush();
    const again = open();
    fs.rmSync(file);
    const parsed = listing('alpha', 'echo');
    again.put('k1', { ...parsed, tools: [{ ...parsed.tools[0]!, title: undefined, description: undefined, annotations: undefined }] });
    await again.flush();
    expect(fs.existsSync(file)).toBe(false);
  });

  it('keeps a list only beside tools already cached', async () => {
    const cache = open();
    cache.putList('k1', 'prompts', [{ name: 'greet' }]);
    await cache.flush();
    expect(cache.get('k1')).toBeUndefined();
    expect(fs.existsSync(file)).toBe(false);
  });

  it('ignores a file it cannot parse with a log line naming it, sets it aside rather than writing over it, and starts empty', async () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"version": 1, "entries": {"k1": {"server": "alpha", "tools": [');
    const cache = open();
    expect(cache.get('k1')).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`catalog cache ${file} ignored: not JSON`);
    expect(warnings[0]).toContain(`set aside as ${file}.corrupt`);
    expect(fs.readFileSync(`${file}.corrupt`, 'utf8')).toBe('{"version": 1, "entries": {"k1": {"server": "alpha", "tools": [');

    cache.put('k1', listing('alpha', 'echo'));
    await cache.flush();
    expect(
      open()
        .get('k1')
        ?.tools.map((t) => t.name),
    ).toEqual(['echo']);
  });

  it('ignores a file of another version or with an entry that is not a cached catalog', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ version: 2, entries: {} }));
    expect(open().get('k1')).toBeUndefined();
    fs.writeFileSync(
      file,
      JSON.stringify({ version: 1, entries: { k1: { ...listing('alpha', 'echo'), savedAt: 0 }, k2: { server: 'beta', tools: 'echo' } } }),
    );
    expect(open().get('k1')).toBeUndefined();
    expect(warnings.map((w) => w.replaceAll(file, 'F'))).toEqual([
      'catalog cache F ignored: not a version 1 catalog cache; set aside as F.corrupt, every server is listed afresh',
      'catalog cache F ignored: entry k2 is not a cached catalog; set aside as F.corrupt, every server is listed afresh',
    ]);
  });

  it('forgets a server by name (a sign-in it needs, or one that changed)', async () => {
    const cache = open();
    cache.put('k1', listing('alpha', 'echo'));
    cache.put('k2', listing('beta', 'echo'));
    cache.put('k3', listing('alpha', 'other'));
    cache.forget('alpha');
    await cache.flush();
    const again = open();
    expect([again.get('k1'), again.get('k2')?.server, again.get('k3')]).toEqual([undefined, 'beta', undefined]);
  });

  it('keeps at most maxEntries, dropping the entries changed longest ago', async () => {
    const cache = open(2);
    cache.put('k1', listing('a', 'x'));
    clock.advance(10);
    cache.put('k2', listing('b', 'x'));
    clock.advance(10);
    cache.put('k1', listing('a', 'y'));
    clock.advance(10);
    cache.put('k3', listing('c', 'x'));
    await cache.flush();
    const again = open(2);
    expect(['k1', 'k2', 'k3'].map((k) => again.get(k)?.server)).toEqual(['a', undefined, 'c']);
  });

  it('keeps the era each server was found to speak across daemon starts, by the server’s launch settings and workspace', async () => {
    const cache = open();
    const eras = erasIn(() => cache);
    const modern = serverConfig('modern');
    eras.remember(modern, '/ws', 'modern');
    eras.remember(serverConfig('old'), '/ws', 'legacy');
    await cache.flush();
    const again = erasIn(() => open());
    expect(again.recall(modern, '/ws')).toBe('modern');
    expect(again.recall(serverConfig('old'), '/ws')).toBe('legacy');
    // Another workspace, or a changed launch, is another server: asked afresh.
    expect(again.recall(modern, '/other')).toBeUndefined();
    expect(
      again.recall(serverConfig('modern', { transport: { kind: 'stdio', command: 'modern', args: ['--v2'], env: {} } }), '/ws'),
    ).toBeUndefined();
    // Without a cache (`[hub] catalog_cache = false`) nothing is kept.
    const none = erasIn(() => undefined);
    none.remember(modern, '/ws', 'legacy');
    expect(none.recall(modern, '/ws')).toBeUndefined();
  });

  it('refuses a file whose eras are not modern or legacy, as any entry it cannot read', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ version: 1, entries: {}, eras: { k: 'ancient' } }));
    expect(open().era('k')).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/ignored: the era of k is neither modern nor legacy; set aside as /)]);
  });

  it('keeps at most twice maxEntries eras, dropping the oldest verdicts', () => {
    const cache = open(1);
    for (const key of ['a', 'b', 'c']) cache.setEra(key, 'legacy');
    expect(['a', 'b', 'c'].map((k) => cache.era(k))).toEqual([undefined, 'legacy', 'legacy']);
  });

  it('logs a write that fails and keeps serving from memory', async () => {
    fs.writeFileSync(path.join(dir, 'state'), 'a file where the folder should be');
    const cache = open();
    cache.put('k1', listing('alpha', 'echo'));
    await cache.flush();
    expect(cache.get('k1')?.server).toBe('alpha');
    expect(warnings.filter((w) => w.startsWith(`catalog cache ${file} not written`))).toHaveLength(1);
  });
});

describe('catalogCacheKey', () => {
  const secretEnv = serverConfig('alpha', {
    transport: { kind: 'stdio', command: 'node', args: ['server.js'], env: { API_TOKEN: 'sk-very-secret-1' } },
  });
  const secretHeader = serverConfig('web', {
    transport: { kind: 'http', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer hdr-secret-2' } },
  });

  it('changes with anything that decides what the server lists', () => {
    const base = catalogCacheKey(secretEnv, '/ws');
    const variants = [
      catalogCacheKey(
        { ...secretEnv, transport: { kind: 'stdio', command: 'node', args: ['server.js'], env: { API_TOKEN: 'sk-very-secret-X' } } },
        '/ws',
      ),
      catalogCacheKey(
        {
          ...secretEnv,
          transport: { kind: 'stdio', command: 'node', args: ['server.js', '--more'], env: { API_TOKEN: 'sk-very-secret-1' } },
        },
        '/ws',
      ),
      catalogCacheKey(
        {
          ...secretEnv,
          transport: { kind: 'stdio', command: 'node', args: ['server.js'], env: { API_TOKEN: 'sk-very-secret-1' }, cwd: '/elsewhere' },
        },
        '/ws',
      ),
      catalogCacheKey(secretEnv, '/other-ws'),
      catalogCacheKey({ ...secretEnv, sampling: true }, '/ws'),
      catalogCacheKey({ ...secretEnv, roots: false }, '/ws'),
      catalogCacheKey({ ...secretEnv, name: 'renamed' }, '/ws'),
      catalogCacheKey(secretHeader, '/ws'),
      catalogCacheKey(
        { ...secretHeader, transport: { kind: 'http', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer other' } } },
        '/ws',
      ),
    ];
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
  });

  it('does not change with how the tools are shown (prefix, allow-list, exposure, approval, timeouts)', () => {
    const base = catalogCacheKey(secretEnv, '/ws');
    expect(
      catalogCacheKey({ ...secretEnv, prefix: 'p', tools: ['echo'], exposure: 'deferred', autoApprove: true, timeoutSeconds: 5 }, '/ws'),
    ).toBe(base);
  });

  it('puts no env or header value in the file, only hashes', async () => {
    const cache = open();
    cache.put(catalogCacheKey(secretEnv, '/ws'), listing('alpha', 'echo'));
    cache.put(catalogCacheKey(secretHeader, '/ws'), listing('web', 'fetch'));
    await cache.flush();
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain('sk-very-secret-1');
    expect(text).not.toContain('hdr-secret-2');
    expect(text).not.toContain('API_TOKEN');
    expect(text).not.toContain('Authorization');
    expect(Object.keys(JSON.parse(text).entries)).toEqual([catalogCacheKey(secretEnv, '/ws'), catalogCacheKey(secretHeader, '/ws')]);
  });
});
