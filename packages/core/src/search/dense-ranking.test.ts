import { describe, expect, it } from 'vitest';
import { DenseRanking } from './dense-ranking.js';
import { wordTable } from '../testing/word-table.js';

// Three directions of meaning (files, pictures, money) under a large direction every word
// shares, as the words of a real table do.
const words = ['file', 'folder', 'directory', 'image', 'picture', 'screenshot', 'invoice', 'bill'];
const table = wordTable(words, [
  [1, 0, 0, 3],
  [0.9, 0.1, 0, 3],
  [0.95, 0, 0.05, 3],
  [0, 1, 0, 3],
  [0.1, 0.9, 0, 3],
  [0, 0.95, 0.05, 3],
  [0, 0, 1, 3],
  [0.05, 0, 0.95, 3],
]);
const docs = [
  { id: 'make_directory', text: 'make_directory make_directory Create a directory.' },
  { id: 'take_screenshot', text: 'take_screenshot take_screenshot Take a screenshot.' },
  { id: 'create_invoice', text: 'create_invoice create_invoice Create an invoice.' },
  { id: 'describe', text: 'nothing the table knows' },
];
const catalogWords = docs.flatMap((d) => d.text.toLowerCase().split(/[^a-z]+/));

describe('DenseRanking', () => {
  const ranking = new DenseRanking(table, docs, catalogWords);

  it('ranks tools by how near their words are to the query in meaning, nearest first', () => {
    expect(ranking.rank('a new folder', 1)).toEqual(['make_directory']);
    expect(ranking.rank('picture', 1)).toEqual(['take_screenshot']);
    expect(ranking.rank('bill', 1)).toEqual(['create_invoice']);
  });

  it("takes vectors relative to the catalog's centre: the direction all words share does not decide", () => {
    // Raw, every word is ~0.9 near every other and "picture" (a little file-like) nearest the
    // directory tool after the screenshot one; relative to the centre it is far from both others.
    const [first, second] = ranking.rank('picture', 2);
    expect(first).toBe('take_screenshot');
    expect(second).not.toBe('make_directory');
  });

  it('answers at most `count`, only what `allowed` accepts, ties by id', () => {
    expect(ranking.rank('picture', 2, (id) => id !== 'take_screenshot')).toHaveLength(2);
    expect(ranking.rank('picture', 5, (id) => id !== 'take_screenshot')).not.toContain('take_screenshot');
    expect(ranking.rank('picture', 0)).toEqual([]);
    // "describe" knows no word of the table: still ranked (its vector is zero), never first.
    expect(ranking.size).toBe(4);
    expect(ranking.rank('picture', 4)).toContain('describe');
  });

  it('has nothing for a query none of whose words the table knows', () => {
    expect(ranking.rank('zyzzyva quux', 5)).toEqual([]);
    expect(ranking.rank('the of and', 5)).toEqual([]);
  });
});
