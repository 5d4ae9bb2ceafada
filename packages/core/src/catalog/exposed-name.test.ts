import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { exposedName, MAX_EXPOSED_NAME_BYTES, type ExposedName } from './exposed-name.js';

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');
const hash8 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex').slice(0, 8);
const plain = (name: string): ExposedName => ({ name, sanitized: false, shortened: false });

describe('exposedName', () => {
  it.each<[string, string, string | undefined, ExposedName]>([
    ['a plain name stays', 'search', undefined, plain('search')],
    ['dashes, underscores and digits stay', 'get-issue_2', undefined, plain('get-issue_2')],
    ['a prefix joins with a double underscore', 'search', 'gh', plain('gh__search')],
    ['an empty prefix is no prefix', 'search', '', plain('search')],
    ['dots become _', 'files.read', undefined, { name: 'files_read', sanitized: true, shortened: false }],
    ['spaces become _', 'read file', undefined, { name: 'read_file', sanitized: true, shortened: false }],
    ['slashes and colons become _', 'a/b:c', undefined, { name: 'a_b_c', sanitized: true, shortened: false }],
    ['accented letters become one _ each', 'café', undefined, { name: 'caf_', sanitized: true, shortened: false }],
    ['an emoji (two UTF-16 units) becomes one _', 'go🚀', undefined, { name: 'go_', sanitized: true, shortened: false }],
    ['the prefix is sanitized too', 'search', 'my.gh', { name: 'my_gh__search', sanitized: true, shortened: false }],
  ])('%s', (_title, original, prefix, expected) => {
    expect(exposedName(original, prefix)).toEqual(expected);
  });

  it.each<[string, string, string | undefined]>([
    ['exactly 64 bytes', 'a'.repeat(64), undefined],
    ['exactly 64 bytes with a prefix', 'a'.repeat(60), 'gh'],
    ['64 two-byte characters, 64 bytes once sanitized', 'é'.repeat(64), undefined],
  ])('%s is not shortened', (_title, original, prefix) => {
    const result = exposedName(original, prefix);
    expect(result.shortened).toBe(false);
    expect(bytes(result.name)).toBe(64);
  });

  it.each<[string, string, string | undefined]>([
    ['65 bytes', 'a'.repeat(65), undefined],
    ['65 bytes with a prefix', 'a'.repeat(61), 'gh'],
    ['200 bytes', 'x'.repeat(200), undefined],
    ['a long name with dots', 'name.space.'.repeat(10), undefined],
  ])('%s is shortened to 55 characters, _ and 8 hex digits of the full name', (_title, original, prefix) => {
    const full = prefix ? `${prefix}__${original}` : original;
    const result = exposedName(original, prefix);
    expect(result.shortened).toBe(true);
    expect(bytes(result.name)).toBeLessThanOrEqual(MAX_EXPOSED_NAME_BYTES);
    expect(result.name).toMatch(/^[A-Za-z0-9_-]{55}_[0-9a-f]{8}$/);
    expect(result.name.slice(0, 55)).toBe(full.replace(/[^A-Za-z0-9_-]/gu, '_').slice(0, 55));
    expect(result.name.slice(-8)).toBe(hash8(full));
  });

  it('counts the sanitized name in bytes: 64 letters and an emoji are 65 bytes, so shortened', () => {
    const result = exposedName(`${'a'.repeat(64)}🚀`);
    expect(result).toMatchObject({ sanitized: true, shortened: true });
    expect(bytes(result.name)).toBe(64);
  });

  it('is stable: the same input gives the same name', () => {
    const long = `${'tool'.repeat(20)}.end`;
    expect(exposedName(long, 'srv')).toEqual(exposedName(long, 'srv'));
  });

  it.each<[string, string, string]>([
    ['differing only at the end', `${'a'.repeat(80)}1`, `${'a'.repeat(80)}2`],
    ['differing only in a character that sanitizes alike', `${'a'.repeat(80)}.`, `${'a'.repeat(80)} `],
  ])('two long names %s do not collide', (_title, first, second) => {
    const a = exposedName(first);
    const b = exposedName(second);
    expect(a.name.slice(0, 55)).toBe(b.name.slice(0, 55));
    expect(a.name).not.toBe(b.name);
  });

  it('the same long tool under two prefixes gets two names', () => {
    const long = 'x'.repeat(100);
    expect(exposedName(long, 'one').name).not.toBe(exposedName(long, 'two').name);
  });
});
