import { describe, expect, it } from 'vitest';
import { serverTitle, shortError } from './server-title.js';

describe('server titles', () => {
  it('says what needs attention, nothing else', () => {
    const now = 1_000_000;
    const base = { name: 'github', enabled: true, transport: 'stdio' as const };
    expect(serverTitle({ ...base, state: 'connected' }, now)).toBe('github');
    expect(serverTitle({ ...base, state: 'paused', retryAt: new Date(now + 90_500).toISOString() }, now)).toBe('github — paused, retrying in 1m31s');
    expect(serverTitle({ ...base, state: 'paused' }, now)).toBe('github — paused, retrying later');
    expect(serverTitle({ ...base, state: 'failed' }, now)).toBe('github — failed');
    expect(serverTitle({ ...base, state: 'needsSignIn' }, now)).toBe('github — needs sign-in');
  });

  it('keeps an error to its first non-empty line, squeezed and cut', () => {
    expect(shortError('\n  spawn   npx ENOENT \nstack')).toBe('spawn npx ENOENT');
    expect(shortError('x'.repeat(100), 10)).toBe('xxxxxxxxx…');
  });
});
