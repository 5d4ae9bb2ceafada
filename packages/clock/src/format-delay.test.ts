import { describe, expect, it } from 'vitest';
import { formatDelay } from './format-delay.js';

describe('formatDelay', () => {
  it.each([
    [0, '0s'],
    [200, '1s'],
    [1_000, '1s'],
    [15_000, '15s'],
    [59_001, '1m'],
    [60_000, '1m'],
    [150_000, '2m30s'],
    [300_000, '5m'],
    [3_600_000, '1h'],
    [3_720_000, '1h2m'],
    [3_725_000, '1h2m5s'],
    [-5, '0s'],
  ])('%i ms reads %s', (ms, text) => {
    expect(formatDelay(ms)).toBe(text);
  });
});
