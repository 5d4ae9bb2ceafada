import { encodeWordVectors, WordVectors } from '../search/word-vectors.js';

/** A word-vector table of `words` and their `rows` (one each), as tests of search make them. */
export function wordTable(words: readonly string[], rows: readonly ArrayLike<number>[]): WordVectors {
  return WordVectors.decode(encodeWordVectors(words, rows));
}
