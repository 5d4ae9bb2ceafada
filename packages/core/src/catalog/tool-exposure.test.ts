import { describe, expect, it } from 'vitest';
import { exposureOverride, toolExposure, unusedOverrides } from './tool-exposure.js';

describe('toolExposure', () => {
  const overrides = {
    'issue_*': 'deferred',
    search_code: 'direct',
    '*_code': 'hidden',
    'issue_get*': 'direct',
    'issue_ge*': 'hidden',
  } as const;

  it('takes the exact name first', () => {
    expect(toolExposure('search_code', 'hidden', overrides)).toBe('direct');
  });

  it('then the longest pattern that matches', () => {
    expect(toolExposure('issue_get', undefined, overrides)).toBe('direct');
    expect(toolExposure('issue_list', undefined, overrides)).toBe('deferred');
    expect(toolExposure('push_code', 'direct', overrides)).toBe('hidden');
  });

  it('breaks a tie between equally long patterns by name', () => {
    expect(exposureOverride('ab', { 'a*': 'direct', '*b': 'hidden' })).toBe('*b');
  });

  it("falls back to the server's exposure, and unset is default", () => {
    expect(toolExposure('other', 'deferred', overrides)).toBe('deferred');
    expect(toolExposure('other', undefined, overrides)).toBe('default');
  });

  it('treats pattern characters other than * literally', () => {
    expect(toolExposure('issueXget', undefined, { 'issue.get': 'hidden' })).toBe('default');
  });
});

describe('unusedOverrides', () => {
  it('names the keys that match no tool, not the ones a longer key outranks', () => {
    expect(
      unusedOverrides(['issue_get', 'issue_list'], { 'issue_*': 'deferred', issue_get: 'direct', 'pr_*': 'hidden', gone: 'direct' }),
    ).toEqual(['pr_*', 'gone']);
  });
});
