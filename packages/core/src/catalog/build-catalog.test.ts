import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { buildCatalog, type ServerTools } from './build-catalog.js';
import { unmatchedSettingWarning } from './unmatched-settings.js';

const tool = (name: string, description = `does ${name}`): Tool => ({ name, description, inputSchema: { type: 'object' } });
const server = (name: string, tools: string[], settings: Partial<Omit<ServerTools, 'server' | 'tools'>> = {}): ServerTools => ({
  server: name,
  tools: tools.map((t) => tool(t)),
  ...settings,
});

const BUILT_INS = ['list_mcp_resources', 'read_mcp_resource'];

/** The catalog as `server:original→exposed` lines and warnings (the unmatched settings' last, worded without a file) as a plain object, for short tables. */
function summary(servers: ServerTools[]): { entries: string[]; warnings: Record<string, string[]> } {
  const { entries, warnings, unmatched } = buildCatalog(servers, BUILT_INS);
  const all = new Map(warnings);
  for (const [name, found] of unmatched) all.set(name, [...(all.get(name) ?? []), ...found.map((u) => unmatchedSettingWarning(u))]);
  return {
    entries: entries.map((e) => `${e.server}:${e.originalName}→${e.exposedName}`),
    warnings: Object.fromEntries(all),
  };
}

describe('buildCatalog', () => {
  it.each<[string, ServerTools[], string[], Record<string, string[]>]>([
    ['no servers, no tools', [], [], {}],
    ['every tool without an allow-list', [server('a', ['x', 'y'])], ['a:x→x', 'a:y→y'], {}],
    ['the allow-list keeps only what it names, silently', [server('a', ['x', 'y', 'z'], { allow: ['z', 'x'] })], ['a:x→x', 'a:z→z'], {}],
    ['an empty allow-list keeps nothing', [server('a', ['x'], { allow: [] })], [], {}],
    [
      'an allow-list name the server does not offer is a warning',
      [server('a', ['x'], { allow: ['x', 'nope'] })],
      ['a:x→x'],
      { a: ['tools lists "nope", which the server does not offer'] },
    ],
    [
      'an allow-list name is matched against the original name, not the prefixed one',
      [server('a', ['x'], { prefix: 'p', allow: ['p__x'] })],
      [],
      { a: ['tools lists "p__x", which the server does not offer'] },
    ],
    [
      'a tool shadowing a built-in is skipped, with advice to use a prefix',
      [server('a', ['read_mcp_resource', 'x'])],
      ['a:x→x'],
      {
        a: [
          'tool "read_mcp_resource" is skipped: "read_mcp_resource" is a built-in tool; give server "a" a prefix to offer it: blitz mcp set a --prefix a',
        ],
      },
    ],
    [
      'a prefix avoids shadowing a built-in',
      [server('a', ['read_mcp_resource'], { prefix: 'a' })],
      ['a:read_mcp_resource→a__read_mcp_resource'],
      {},
    ],
    [
      'a name that shadows a built-in only once sanitized is skipped too',
      [server('a', ['read.mcp.resource'])],
      [],
      {
        a: [
          'tool "read.mcp.resource" is skipped: "read_mcp_resource" is a built-in tool; give server "a" a prefix to offer it: blitz mcp set a --prefix a',
        ],
      },
    ],
    [
      'the same name from two servers: the first in settings order wins',
      [server('a', ['search']), server('b', ['search', 'other'])],
      ['a:search→search', 'b:other→other'],
      {
        b: [
          'tool "search" is skipped: server "a" already offers "search"; give server "b" a prefix to offer it: blitz mcp set b --prefix b',
        ],
      },
    ],
    [
      "a project's server is told where its prefix goes, not a command that edits settings.toml",
      [server('a', ['search']), server('my.proj', ['search'], { project: true })],
      ['a:search→search'],
      {
        'my.proj': [
          'tool "search" is skipped: server "a" already offers "search"; give server "my.proj" a prefix in its .mcp.json to offer it',
        ],
      },
    ],
    [
      'the advice gives a prefix the server name makes, with only the characters a prefix may use',
      [server('a', ['search']), server('my.srv', ['search'])],
      ['a:search→search'],
      {
        'my.srv': [
          'tool "search" is skipped: server "a" already offers "search"; give server "my.srv" a prefix to offer it: blitz mcp set my.srv --prefix my_srv',
        ],
      },
    ],
    [
      'settings order decides, not names',
      [server('b', ['search']), server('a', ['search'])],
      ['b:search→search'],
      {
        a: [
          'tool "search" is skipped: server "b" already offers "search"; give server "a" a prefix to offer it: blitz mcp set a --prefix a',
        ],
      },
    ],
    [
      'a prefix on the later server avoids the clash',
      [server('a', ['search']), server('b', ['search'], { prefix: 'b' })],
      ['a:search→search', 'b:search→b__search'],
      {},
    ],
    [
      'a prefixed name can clash with another server’s plain name; no advice then',
      [server('a', ['gh__search']), server('b', ['search'], { prefix: 'gh' })],
      ['a:gh__search→gh__search'],
      { b: ['tool "search" is skipped: server "a" already offers "gh__search"'] },
    ],
    [
      'a tool offered twice by one server: the first is kept',
      [server('a', ['x', 'x'])],
      ['a:x→x'],
      { a: ['tool "x" is offered twice; the first is kept'] },
    ],
    [
      'two tools of one server that sanitize alike: the first is kept',
      [server('a', ['a.b', 'a b'])],
      ['a:a.b→a_b'],
      { a: ['tool "a b" is skipped: its name "a_b" is already used by tool "a.b"'] },
    ],
    [
      'a duplicate of a skipped tool is reported as a duplicate, not skipped twice for the same reason',
      [server('a', ['read_mcp_resource', 'read_mcp_resource'])],
      [],
      {
        a: [
          'tool "read_mcp_resource" is skipped: "read_mcp_resource" is a built-in tool; give server "a" a prefix to offer it: blitz mcp set a --prefix a',
          'tool "read_mcp_resource" is offered twice; the first is kept',
        ],
      },
    ],
    ['a sanitized name is kept without a warning', [server('a', ['files.read'])], ['a:files.read→files_read'], {}],
    ['a tool with an empty name is skipped', [server('a', ['', 'x'])], ['a:x→x'], { a: ['a tool with an empty name is skipped'] }],
    [
      'warnings are grouped per server, servers in settings order',
      [server('c', ['x', 'x']), server('a', ['x'], { allow: ['x', 'gone'] }), server('b', ['ok'])],
      ['c:x→x', 'b:ok→ok'],
      {
        c: ['tool "x" is offered twice; the first is kept'],
        a: [
          'tool "x" is skipped: server "c" already offers "x"; give server "a" a prefix to offer it: blitz mcp set a --prefix a',
          'tools lists "gone", which the server does not offer',
        ],
      },
    ],
  ])('%s', (_title, servers, entries, warnings) => {
    const result = summary(servers);
    expect(result).toEqual({ entries, warnings });
    expect(Object.keys(result.warnings)).toEqual(Object.keys(warnings));
  });

  it('a shortened name is kept with a warning', () => {
    const long = 'x'.repeat(70);
    const { entries, warnings } = buildCatalog([server('a', [long])], BUILT_INS);
    const name = entries[0]?.exposedName ?? '';
    expect(name).toHaveLength(64);
    expect(warnings.get('a')).toEqual([`tool "${long}" is offered as "${name}": the full name is longer than 64 bytes`]);
  });

  it('an entry carries the server’s tool renamed, and leaves the server’s object alone', () => {
    const original: Tool = { ...tool('search'), title: 'Search', annotations: { readOnlyHint: true } };
    const { entries } = buildCatalog([{ server: 'gh', prefix: 'gh', tools: [original] }], []);
    expect(entries).toEqual([
      { exposedName: 'gh__search', server: 'gh', originalName: 'search', tool: { ...original, name: 'gh__search' }, exposure: 'default' },
    ]);
    expect(original.name).toBe('search');
  });

  it('returns a map with no entry for a server without warnings', () => {
    const { warnings } = buildCatalog([server('a', ['x'])], BUILT_INS);
    expect(warnings.size).toBe(0);
  });
});

describe('buildCatalog exposure (issue 16)', () => {
  const exposures = (servers: ServerTools[]): string[] =>
    buildCatalog(servers, BUILT_INS).entries.map((e) => `${e.exposedName}:${e.exposure}`);

  it('marks each tool by its server and its overrides, unset as default', () => {
    expect(
      exposures([
        server('a', ['x']),
        server('b', ['issue_get', 'issue_list', 'code'], { exposure: 'deferred', toolExposure: { 'issue_*': 'direct', code: 'direct' } }),
      ]),
    ).toEqual(['x:default', 'issue_get:direct', 'issue_list:direct', 'code:direct']);
  });

  it('leaves hidden tools out, and an override can expose one tool of a hidden server', () => {
    expect(
      exposures([
        server('a', ['x', 'y', 'z'], { exposure: 'hidden', toolExposure: { y: 'deferred' } }),
        server('b', ['w'], { toolExposure: { w: 'hidden' } }),
      ]),
    ).toEqual(['y:deferred']);
  });

  it('finds a tools entry and an override that match no tool, once the server has listed its tools; their warnings name where they are written when known', () => {
    const { warnings, unmatched } = buildCatalog(
      [
        server('a', ['x'], { allow: ['x', 'gone'], toolExposure: { 'pr_*': 'hidden', x: 'direct' } }),
        server('b', [], { allow: ['w'], toolExposure: { y: 'direct' } }),
      ],
      BUILT_INS,
    );
    const [gone, pr] = unmatched.get('a') ?? [];
    expect(Object.fromEntries(unmatched)).toEqual({
      a: [
        { kind: 'tools', name: 'gone' },
        { kind: 'tool_exposure', key: 'pr_*' },
      ],
    });
    expect(Object.fromEntries(warnings)).toEqual({});
    expect(unmatchedSettingWarning(pr!)).toBe('tool_exposure "pr_*" matches no tool the server offers');
    expect(unmatchedSettingWarning(pr!, '/home/u/.blitz/settings.toml', 11)).toBe(
      'tool_exposure "pr_*" matches no tool the server offers (/home/u/.blitz/settings.toml:11)',
    );
    expect(unmatchedSettingWarning(pr!, '/w/.mcp.json')).toBe('tool_exposure "pr_*" matches no tool the server offers (/w/.mcp.json)');
    expect(unmatchedSettingWarning(gone!)).toBe('tools lists "gone", which the server does not offer');
    expect(unmatchedSettingWarning(gone!, '/home/u/.blitz/settings.toml', 9)).toBe(
      'tools lists "gone", which the server does not offer (/home/u/.blitz/settings.toml:9)',
    );
    expect(unmatchedSettingWarning(gone!, '/w/.mcp.json')).toBe('tools lists "gone", which the server does not offer (/w/.mcp.json)');
  });
});
