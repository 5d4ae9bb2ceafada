import { describe, expect, it } from 'vitest';
import { mostVerbose, passesLevel } from './logging-level.js';

describe('logging levels (RFC 5424 order)', () => {
  it('a message passes a threshold at or below its level; no threshold passes everything', () => {
    expect(passesLevel('error', 'error')).toBe(true);
    expect(passesLevel('emergency', 'error')).toBe(true);
    expect(passesLevel('info', 'error')).toBe(false);
    expect(passesLevel('debug', 'info')).toBe(false);
    expect(passesLevel('notice', 'info')).toBe(true);
    expect(passesLevel('debug', undefined)).toBe(true);
  });

  it('the most verbose of several levels is the least severe', () => {
    expect(mostVerbose(['error', 'info', 'warning'])).toBe('info');
    expect(mostVerbose(['alert'])).toBe('alert');
    expect(mostVerbose([])).toBeUndefined();
  });
});
