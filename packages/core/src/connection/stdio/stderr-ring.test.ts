import { describe, expect, it } from 'vitest';
import { StderrRing, lastLines } from './stderr-ring.js';

describe('StderrRing', () => {
  it('keeps everything below its limit', () => {
    const ring = new StderrRing(16);
    ring.append('abc');
    ring.append(Buffer.from('def'));
    expect(ring.text()).toBe('abcdef');
    expect(ring.size).toBe(6);
  });

  it('drops the oldest bytes past its limit, across chunk boundaries', () => {
    const ring = new StderrRing(8);
    ring.append('0123');
    ring.append('4567');
    ring.append('89');
    expect(ring.text()).toBe('23456789');
    ring.append('abcde');
    expect(ring.text()).toBe('789abcde');
    expect(ring.size).toBe(8);
  });

  it('keeps the tail of one chunk larger than the limit', () => {
    const ring = new StderrRing(4);
    ring.append('ab');
    ring.append('0123456789');
    expect(ring.text()).toBe('6789');
  });

  it('keeps the last 64 KB of a flood by default', () => {
    const ring = new StderrRing();
    for (let i = 0; i < 1000; i += 1) ring.append(`line ${String(i).padStart(4, '0')} ${'x'.repeat(1000)}\n`);
    expect(ring.size).toBe(64 * 1024);
    expect(ring.lastLines(1)).toEqual([`line 0999 ${'x'.repeat(1000)}`]);
  });
});

describe('lastLines', () => {
  it('gives the last lines, oldest first, skipping blank ones', () => {
    expect(lastLines('a\nb\r\n\nc\n', 2)).toEqual(['b', 'c']);
    expect(lastLines('a\nb', 5)).toEqual(['a', 'b']);
    expect(lastLines('', 3)).toEqual([]);
    expect(lastLines('a\nb', 0)).toEqual([]);
  });
});
