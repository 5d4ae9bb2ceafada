import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultWordVectors, encodeWordVectors, WordVectors, wordVectorsFile } from './word-vectors.js';

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let d = 0; d < a.length; d++) {
    dot += a[d]! * b[d]!;
    na += a[d]! ** 2;
    nb += b[d]! ** 2;
  }
  return dot / Math.sqrt(na * nb);
};

/** Rows of a fixed pseudo-random sequence: the same table every run. */
function rows(count: number, dims: number): number[][] {
  let seed = 7;
  const next = (): number => ((seed = (seed * 48271) % 2147483647) / 2147483647) * 2 - 1;
  return Array.from({ length: count }, () => Array.from({ length: dims }, next));
}

describe('WordVectors', () => {
  const words = ['the', 'file', 'folder', 'directory'];
  const original = rows(words.length, 50);
  const table = WordVectors.decode(encodeWordVectors(words, original));

  it('looks a word up by its spelling: a unit vector pointing where the original did, and its rank by frequency', () => {
    expect([table.size, table.dimensions]).toEqual([4, 50]);
    words.forEach((word, i) => {
      const v = table.vector(word)!;
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
      expect(cosine(v, original[i]!)).toBeGreaterThan(0.999);
      expect(table.rank(word)).toBe(i);
    });
  });

  it('has nothing for a word it lacks', () => {
    expect(table.vector('foldr')).toBeUndefined();
    expect(table.rank('foldr')).toBeUndefined();
    expect(table.vector('File')).toBeUndefined();
  });

  it('quantised to one byte a dimension, a cosine between two words moves by less than 0.02', () => {
    const many = rows(200, 100);
    const names = many.map((_, i) => `w${i}`);
    const decoded = WordVectors.decode(encodeWordVectors(names, many));
    expect(encodeWordVectors(names, many).byteLength).toBeLessThan(16 + names.join('\n').length + 200 * 100 + 1);
    let worst = 0;
    for (let i = 0; i < 200; i += 7) {
      for (let j = i + 1; j < 200; j += 11) {
        worst = Math.max(worst, Math.abs(cosine(decoded.vector(`w${i}`)!, decoded.vector(`w${j}`)!) - cosine(many[i]!, many[j]!)));
      }
    }
    expect(worst).toBeLessThan(0.02);
  });

  it('refuses a file that is not a table, naming it', () => {
    expect(() => WordVectors.decode(new TextEncoder().encode('{"words": []}'), '/x/word-vectors.bin')).toThrow(
      '/x/word-vectors.bin: not a word-vector table (no BWV1 header)',
    );
    const bytes = encodeWordVectors(words, original);
    expect(() => WordVectors.decode(bytes.subarray(0, bytes.byteLength - 1), 'cut.bin')).toThrow(
      /cut\.bin: not a word-vector table \(\d+ bytes, expected \d+\)/,
    );
  });

  it('will not write a table whose words and vectors do not line up', () => {
    expect(() => encodeWordVectors(['a', 'b'], [[1, 0]])).toThrow('2 words but 1 vectors');
    expect(() => encodeWordVectors(['a', 'b'], [[1, 0], [1]])).toThrow('"b" has 1 dimensions, not 2');
    expect(() => encodeWordVectors(['a\nb'], [[1]])).toThrow('line break');
  });
});

describe('the built table (npm run build: scripts/word-vectors.mjs)', () => {
  const built = fs.existsSync(wordVectorsFile());

  it.skipIf(!built)('holds English words, most frequent first, near words near', () => {
    const table = defaultWordVectors()!;
    expect(table.size).toBe(30_000);
    expect(table.rank('the')).toBe(0);
    expect(table.rank('coordinates')).toBeGreaterThan(table.rank('city')!);
    expect(cosine(table.vector('coordinates')!, table.vector('latitude')!)).toBeGreaterThan(
      cosine(table.vector('coordinates')!, table.vector('banana')!) + 0.3,
    );
    expect(defaultWordVectors()).toBe(table);
  });
});
