import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { addServerEntry } from './add-server-entry.js';
import { firstDifference } from './first-difference.js';
import type { ServerEntry } from './format-server-entry.js';
import { withServerAdded, withServerFields, withServerRemoved, withServerReplaced } from './intended-settings.js';
import { removeServerEntry } from './remove-server-entry.js';
import { replaceServerEntry } from './replace-server-entry.js';
import { disabledChanges, setServerDisabled } from './set-server-disabled.js';

/**
 * Each edit of a richly commented settings file, checked byte for byte against a golden
 * file, in LF and in CRLF. `UPDATE_GOLDEN=1` rewrites the golden files (review the diff).
 */

const testdata = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testdata');
const read = (name: string) => readFileSync(path.join(testdata, name), 'utf8');

type Settings = Record<string, unknown>;
interface Case {
  name: string;
  input: string;
  edit: (text: string) => string;
  intended: (settings: Settings) => Settings;
  /** An empty input has no line ending to follow, so it has no CRLF variant. */
  lfOnly?: boolean;
}

const tricky: ServerEntry = {
  extra_field: 'kept, after the known fields',
  disabled: undefined,
  oauth: { client_id: 'id', scopes: ['read'], callback_port: 8123 },
  sampling: true,
  startup_timeout_seconds: 1.5,
  timeout_seconds: 30,
  agents: ['*'],
  prefix: 'w',
  sandbox: true,
  auto_approve: false,
  tools: ['search', 'read'],
  cwd: 'C:\\Users\\me',
  env: { API_KEY: '${API_KEY}', 'dotted.key': 'v', 'with space': 'x', '': 'empty key' },
  args: ['--msg', 'say "hi"\n\tand \\ leave', 'é ✓ 😀', '\u0000\u001f\u007f'],
  command: 'C:\\Program Files\\tool.exe',
  name: 'tricky',
};

const http: ServerEntry = { name: 'gh', url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer ${GH}' }, disabled: true };

const cases: Case[] = [
  { name: 'add-tricky', input: 'settings.toml', edit: (t) => addServerEntry(t, tricky), intended: (s) => withServerAdded(s, tricky) },
  { name: 'add-http', input: 'settings.toml', edit: (t) => addServerEntry(t, http), intended: (s) => withServerAdded(s, http) },
  {
    name: 'remove-github',
    input: 'settings.toml',
    edit: (t) => removeServerEntry(t, 'github'),
    intended: (s) => withServerRemoved(s, 'github'),
  },
  {
    name: 'remove-files',
    input: 'settings.toml',
    edit: (t) => removeServerEntry(t, 'files'),
    intended: (s) => withServerRemoved(s, 'files'),
  },
  {
    name: 'remove-remote',
    input: 'settings.toml',
    edit: (t) => removeServerEntry(t, 'remote'),
    intended: (s) => withServerRemoved(s, 'remote'),
  },
  { name: 'remove-last', input: 'settings.toml', edit: (t) => removeServerEntry(t, 'last'), intended: (s) => withServerRemoved(s, 'last') },
  {
    name: 'remove-all',
    input: 'settings.toml',
    edit: (t) => ['last', 'github', 'remote', 'files'].reduce((text, n) => removeServerEntry(text, n), t),
    intended: (s) => ['last', 'github', 'remote', 'files'].reduce((settings, n) => withServerRemoved(settings, n), s),
  },
  {
    name: 'disable-github',
    input: 'settings.toml',
    edit: (t) => setServerDisabled(t, 'github', true),
    intended: (s) => withServerFields(s, 'github', disabledChanges(read('settings.toml'), 'github', true)),
  },
  {
    name: 'disable-files',
    input: 'settings.toml',
    edit: (t) => setServerDisabled(t, 'files', true),
    intended: (s) => withServerFields(s, 'files', disabledChanges(read('settings.toml'), 'files', true)),
  },
  {
    name: 'enable-remote',
    input: 'settings.toml',
    edit: (t) => setServerDisabled(t, 'remote', false),
    intended: (s) => withServerFields(s, 'remote', disabledChanges(read('settings.toml'), 'remote', false)),
  },
  {
    name: 'disable-last',
    input: 'settings.toml',
    edit: (t) => setServerDisabled(t, 'last', true),
    intended: (s) => withServerFields(s, 'last', disabledChanges(read('settings.toml'), 'last', true)),
  },
  {
    name: 'replace-github',
    input: 'settings.toml',
    edit: (t) => replaceServerEntry(t, 'github', http),
    intended: (s) => withServerReplaced(s, 'github', http),
  },
  {
    name: 'replace-remote',
    input: 'settings.toml',
    edit: (t) => replaceServerEntry(t, 'remote', { name: 'remote', url: 'https://example.com/v2', oauth: { client_id: 'abc' } }),
    intended: (s) => withServerReplaced(s, 'remote', { name: 'remote', url: 'https://example.com/v2', oauth: { client_id: 'abc' } }),
  },
  { name: 'no-servers.add', input: 'no-servers.toml', edit: (t) => addServerEntry(t, http), intended: (s) => withServerAdded(s, http) },
  { name: 'empty.add', input: 'empty.toml', edit: (t) => addServerEntry(t, http), intended: (s) => withServerAdded(s, http), lfOnly: true },
];

const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');

describe.each([
  { eol: 'LF', convert: (text: string) => text },
  { eol: 'CRLF', convert: crlf },
])('golden edits ($eol)', ({ eol, convert }) => {
  it.each(cases.filter((c) => eol === 'LF' || c.lfOnly !== true))('$name', ({ name, input, edit, intended }) => {
    const before = convert(read(input));
    const after = edit(before);
    const goldenFile = path.join(testdata, `${name}.toml`);
    if (process.env['UPDATE_GOLDEN'] === '1' && eol === 'LF') writeFileSync(goldenFile, after);
    expect(after).toBe(convert(readFileSync(goldenFile, 'utf8')));
    expect(firstDifference(intended(parse(before)), parse(after))).toBeUndefined();
    if (eol === 'CRLF') expect(after.replace(/\r\n/g, '')).not.toContain('\n');
  });
});

describe('edits that change nothing', () => {
  const text = read('settings.toml');

  it('disabling an entry already disabled through enabled = false keeps the file', () => {
    expect(setServerDisabled(text, 'remote', true)).toBe(text);
  });

  it('enabling an entry with disabled = false keeps the file', () => {
    expect(setServerDisabled(text, 'github', false)).toBe(text);
  });

  it('enabling an entry without either key keeps the file', () => {
    expect(setServerDisabled(text, 'files', false)).toBe(text);
  });

  it('toggling twice gives back the file, comments included', () => {
    expect(setServerDisabled(setServerDisabled(text, 'github', true), 'github', false)).toBe(text);
  });
});
