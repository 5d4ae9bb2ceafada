import { bestScores } from './best-scores.js';
import { dotProduct } from './dot-product.js';
import type { WordVectors } from './word-vectors.js';
import { splitWords, STOP_WORDS } from './words.js';

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** One tool's text as the meaning score reads it. */
export interface DenseDoc {
  id: string;
  text: string;
}

/**
 * Tools ranked by meaning (issue 16, paraphrased queries): a tool is the mean of its text's
 * word vectors, a query the mean of its own, and the nearer by cosine ranks first — with the
 * vectors of a sentence encoder's word table (dist-static/sentence-vectors.bin), so "capture
 * an image of the page" comes near "take a screenshot" though no word is shared. Every vector
 * is first taken relative to the catalog's own centre (the mean of the vectors of the words
 * its tools use): a word table's vectors share a common direction, and what tells two tools
 * of one catalog apart is how each differs from the catalog's usual words.
 */
export class DenseRanking {
  readonly #vectors: WordVectors;
  readonly #centre: Float32Array;
  readonly #ids: string[] = [];
  /** Each tool's place in the ids' order: equal cosines rank by it. */
  readonly #idOrder: Int32Array;
  readonly #matrix: Float32Array;
  /** One ranking's cosines and the tools `allowed` took, kept between rankings: a ranking allocates nothing per tool. */
  readonly #cosines: Float64Array;
  readonly #kept: Int32Array;
  /** The catalog's words' vectors relative to the centre, made once (a query's other words are made each time). */
  readonly #cache = new Map<string, Float32Array | null>();

  constructor(vectors: WordVectors, docs: readonly DenseDoc[], catalogWords: Iterable<string>) {
    this.#vectors = vectors;
    const dims = vectors.dimensions;
    this.#centre = new Float32Array(dims);
    let found = 0;
    for (const word of new Set(catalogWords)) {
      const v = STOP_WORDS.has(word) ? undefined : vectors.vector(word);
      if (v === undefined) continue;
      found++;
      for (let d = 0; d < dims; d++) this.#centre[d] = this.#centre[d]! + v[d]!;
    }
    for (let d = 0; d < dims; d++) this.#centre[d] = this.#centre[d]! / Math.max(found, 1);
    this.#matrix = new Float32Array(docs.length * dims);
    docs.forEach((doc, i) => {
      this.#ids.push(doc.id);
      this.#matrix.set(this.#mean(doc.text, true) ?? new Float32Array(dims), i * dims);
    });
    this.#idOrder = new Int32Array(docs.length);
    [...this.#ids.keys()].sort((a, b) => byId(this.#ids[a]!, this.#ids[b]!)).forEach((i, place) => (this.#idOrder[i] = place));
    this.#cosines = new Float64Array(docs.length);
    this.#kept = new Int32Array(docs.length);
  }

  get size(): number {
    return this.#ids.length;
  }

  /** The `count` tools `allowed` accepts nearest `query` in meaning, nearest first (ties by id); none when the table knows none of its words. */
  rank(query: string, count: number, allowed: (id: string) => boolean = () => true): string[] {
    const q = this.#mean(query);
    if (q === undefined || count <= 0) return [];
    const dims = q.length;
    const ids = this.#ids;
    const cosines = this.#cosines;
    const kept = this.#kept;
    let length = 0;
    for (let i = 0; i < ids.length; i++) {
      if (!allowed(ids[i]!)) continue;
      cosines[i] = dotProduct(q, this.#matrix, i * dims);
      kept[length++] = i;
    }
    return bestScores(cosines, kept, length, count, this.#idOrder).map((i) => ids[i]!);
  }

  /** The unit mean of `text`'s word vectors (each relative to the centre), undefined when the table knows none of its words. */
  #mean(text: string, keep = false): Float32Array | undefined {
    const dims = this.#vectors.dimensions;
    const sum = new Float32Array(dims);
    let found = 0;
    for (const word of splitWords(text)) {
      if (STOP_WORDS.has(word)) continue;
      const v = this.#relative(word, keep);
      if (v === undefined) continue;
      found++;
      for (let d = 0; d < dims; d++) sum[d] = sum[d]! + v[d]!;
    }
    if (found === 0) return undefined;
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += sum[d]! * sum[d]!;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < dims; d++) sum[d] = sum[d]! / norm;
    return sum;
  }

  /** `word`'s vector minus the catalog's centre, as a unit vector; undefined for a word the table lacks. */
  #relative(word: string, keep: boolean): Float32Array | undefined {
    let v = this.#cache.get(word);
    if (v === undefined) {
      const raw = this.#vectors.vector(word);
      if (raw === undefined) v = null;
      else {
        let norm = 0;
        for (let d = 0; d < raw.length; d++) {
          raw[d] = raw[d]! - this.#centre[d]!;
          norm += raw[d]! * raw[d]!;
        }
        norm = Math.sqrt(norm) || 1;
        for (let d = 0; d < raw.length; d++) raw[d] = raw[d]! / norm;
        v = raw;
      }
      if (keep) this.#cache.set(word, v);
    }
    return v ?? undefined;
  }
}
