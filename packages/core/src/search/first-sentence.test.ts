import { describe, expect, it } from 'vitest';
import { firstSentence } from './first-sentence.js';

describe('firstSentence', () => {
  it('ends at a full stop, a line break or the end', () => {
    expect(firstSentence('Get details of a merge request. Use this for a known resource.')).toBe('Get details of a merge request.');
    expect(firstSentence('  Lists files\nand more')).toBe('Lists files');
    expect(firstSentence('Notion | Retrieve a page')).toBe('Notion | Retrieve a page');
    expect(firstSentence('Read v1.2 of a file. Then stop.')).toBe('Read v1.2 of a file.');
  });

  it('cuts a long first sentence at a word, at most 200 characters', () => {
    const long = `${'word '.repeat(60)}end.`;
    const first = firstSentence(long);
    expect(first.length).toBeLessThanOrEqual(200);
    expect(long.startsWith(first)).toBe(true);
    expect(first.endsWith('word')).toBe(true);
  });
});
