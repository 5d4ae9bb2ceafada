import { bestScores } from './best-scores.js';
import { dotProduct } from './dot-product.js';
import type { WordVectors } from './word-vectors.js';

/** A term of the index and how near a query word it is in meaning (cosine, at most 1). */
export interface NearTerm {
  term: string;
  cosine: number;
}

/**
 * The index's own terms as word vectors, to find those nearest a word no tool uses: each
 * (stemmed) term is the mean of its words' vectors ("rename", "renames", "renamed"), and a
 * term one of whose words is among the `common` most frequent English words ("you", "back",
 * "make") is left out — those are near everything and say nothing about a tool.
 */
export class NearestTerms {
  readonly #vectors: WordVectors;
  readonly #terms: string[] = [];
  readonly #matrix: Float32Array;
  /** One lookup's cosines and the terms near enough, kept between lookups: a lookup allocates nothing per term. */
  readonly #cosines: Float64Array;
  readonly #near: Int32Array;

  constructor(vectors: WordVectors, wordsOfTerm: ReadonlyMap<string, ReadonlySet<string>>, common: number) {
    this.#vectors = vectors;
    const dims = vectors.dimensions;
    const rows: Float32Array[] = [];
    for (const [term, words] of wordsOfTerm) {
      if ([...words].some((w) => (vectors.rank(w) ?? Infinity) < common)) continue;
      const sum = new Float32Array(dims);
      let found = 0;
      for (const word of words) {
        const v = vectors.vector(word);
        if (v === undefined) continue;
        found++;
        for (let d = 0; d < dims; d++) sum[d] = sum[d]! + v[d]!;
      }
      if (found === 0) continue;
      const norm = Math.hypot(...sum) || 1;
      for (let d = 0; d < dims; d++) sum[d] = sum[d]! / norm;
      this.#terms.push(term);
      rows.push(sum);
    }
    this.#matrix = new Float32Array(rows.length * dims);
    rows.forEach((row, i) => this.#matrix.set(row, i * dims));
    this.#cosines = new Float64Array(rows.length);
    this.#near = new Int32Array(rows.length);
  }

  get size(): number {
    return this.#terms.length;
  }

  /** The `count` terms nearest `word` with a cosine of at least `min`, nearest first; none for a word the table lacks. */
  nearest(word: string, count: number, min: number): NearTerm[] {
    const v = this.#vectors.vector(word);
    if (v === undefined || count <= 0) return [];
    const dims = v.length;
    const cosines = this.#cosines;
    let length = 0;
    for (let i = 0; i < this.#terms.length; i++) {
      const cosine = dotProduct(v, this.#matrix, i * dims);
      if (cosine < min) continue;
      cosines[i] = cosine;
      this.#near[length++] = i;
    }
    return bestScores(cosines, this.#near, length, count).map((i) => ({ term: this.#terms[i]!, cosine: cosines[i]! }));
  }
}
