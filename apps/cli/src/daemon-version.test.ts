import { describe, expect, it } from 'vitest';
import { compareVersions, daemonVersionNote } from './daemon-version.js';

describe('compareVersions', () => {
  it.each([
    ['0.1.0', '0.1.0', 0],
    ['0.1.0', '0.2.0', -1],
    ['0.10.0', '0.9.0', 1],
    ['1.0.0', '1.0', 0],
    ['1.0.0-rc.1', '1.0.0', -1],
    ['1.0.0', '1.0.0-rc.1', 1],
    ['1.0.0-rc.1', '1.0.0-rc.2', -1],
  ])('%s against %s', (a, b, sign) => {
    expect(Math.sign(compareVersions(a, b))).toBe(sign);
  });
});

describe('daemonVersionNote', () => {
  it('says nothing when the versions match', () => {
    expect(daemonVersionNote('0.2.0', '0.2.0')).toBeUndefined();
  });

  it('names an older daemon and the restart that replaces it', () => {
    expect(daemonVersionNote('0.1.0', '0.2.0')).toBe(
      'the running daemon is Blitz 0.1.0, older than this blitz (0.2.0): restart it with `blitz daemon restart`',
    );
  });

  it('names a newer daemon too', () => {
    expect(daemonVersionNote('0.3.0', '0.2.0')).toContain('newer than this blitz (0.2.0)');
  });
});
