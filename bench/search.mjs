// Issue 16, large catalogs: the large real catalog of test/fixtures/large-catalog (17 published
// MCP servers, dummy credentials, ~350 tools) listed through the daemon. Measured in one run:
//   - the bytes of tools/list (and tokens, estimated as bytes / 4) with [hub] deferred = "never"
//     and "always": target, the deferred list at most 5 % of the direct one;
//   - search quality on the query set (queries.json): recall@1 and recall@5 of plain BM25
//     (no stemming, no synonyms, no word vectors), then each step added in turn — stemming,
//     English synonyms, GloVe word vectors, sentence vectors (the meaning ranking: Blitz's
//     ranking) — each over the tools as listed; targets,
//     recall@5 ≥ 0.9 on `queries` and on the paraphrased queries ≥ 1.6 × plain BM25's (also
//     printed for `held_out`, queries no setting was chosen on); and the hub's own search_tools
//     on the same queries; and what the first search costs (reading the word-vector table);
//   - search latency p50/p99 over 1,000 tools (the catalog three times, renamed): target p99 < 5 ms,
//     judged on each search's CPU time (wall time printed beside it: see below). The 101 queries are
//     searched over and over, and the index keeps no answer nor any query word's work between
//     searches (only scratch arrays): each search is measured as a query seen for the first time.
//
//   npm run build && node bench/search.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { BlitzClient } from '../packages/client/dist/index.js';
import { defaultSentenceVectors, defaultWordVectors, ToolIndex } from '../packages/core/dist/index.js';
import { LARGE_CATALOG_SERVERS, largeCatalogSettings, QUERY_SET } from '../test/fixtures/large-catalog/catalog.mjs';
import { endLeftovers, loadNote, mcpClient, startDaemon, tempDir } from './harness.mjs';

const workspace = tempDir('blitz-bench-search-ws-');
const files = tempDir('blitz-bench-search-files-');
const verdict = (ok) => (ok ? 'ok' : 'MISSED');
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** tools/list through a daemon run with `[hub] deferred = mode`, and (for the direct list) each tool's server. */
async function listWith(mode) {
  const home = tempDir(`blitz-bench-search-${mode}-`);
  const daemon = await startDaemon(home, `[hub]\ndeferred = "${mode}"\nlist_wait_ms = 120000\n\n${largeCatalogSettings(files)}`);
  try {
    const client = await mcpClient(daemon.state, workspace);
    const listed = await client.listTools();
    const bytes = Buffer.byteLength(JSON.stringify(listed));
    const control = new BlitzClient(daemon.state);
    const [ws] = await control.listWorkspaces();
    // The control API names a server's tools by their original names; the prefix makes the exposed one.
    const prefixes = new Map(LARGE_CATALOG_SERVERS.map((s) => [s.name, s.prefix]));
    const exposed = (server, tool) => (prefixes.get(server) ? `${prefixes.get(server)}__${tool}` : tool);
    const serverOf = new Map((await control.listWorkspaceServers(ws.id)).flatMap((s) => s.tools.map((t) => [exposed(s.name, t), s.name])));
    const search = async (query) =>
      (await client.callTool({ name: 'search_tools', arguments: { query, limit: 5 } })).structuredContent.tools.map((t) => t.name);
    return { tools: listed.tools, bytes, serverOf, search, close: () => client.close() };
  } finally {
    if (mode === 'never') await daemon.stop();
    else listWith.stop = daemon.stop;
  }
}

const direct = await listWith('never');
const catalog = direct.tools
  .filter((t) => direct.serverOf.has(t.name))
  .map((tool) => ({ exposedName: tool.name, originalName: tool.name, server: direct.serverOf.get(tool.name), tool }));
await direct.close();
const deferred = await listWith('always');

console.log(`large catalog: ${catalog.length} tools of ${new Set(catalog.map((t) => t.server)).size} servers (${loadNote()})`);
const share = deferred.bytes / direct.bytes;
console.log(
  `\ntools/list, deferred = "never":  ${direct.tools.length} tools, ${kb(direct.bytes)} ≈ ${Math.round(direct.bytes / 4)} tokens`,
);
console.log(
  `tools/list, deferred = "always": ${deferred.tools.length} tools, ${kb(deferred.bytes)} ≈ ${Math.round(deferred.bytes / 4)} tokens`,
);
console.log(`  deferred / direct: ${(share * 100).toFixed(2)} %   verdict (≤ 5 %): ${verdict(share <= 0.05)}`);

/** recall@1 and @5 of `search` (query → names, best first) on `queries`; `found5`: whether each query's top 5 held an expected tool. */
async function recall(queries, search) {
  let at1 = 0;
  const found5 = [];
  for (const q of queries) {
    const top = await search(q.query);
    if (q.expect.includes(top[0])) at1++;
    found5.push(top.slice(0, 5).some((n) => q.expect.includes(n)));
  }
  return { at1: at1 / queries.length, at5: found5.filter(Boolean).length / queries.length, found5 };
}

// The table is read once a process, at the first search with a word no tool uses.
/** `run`'s wall and CPU time (this process's, every thread), in ms. */
function timed(run) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = run();
  const used = process.cpuUsage(cpu);
  return { value, wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
}
const { value: table, ...tableMs } = timed(defaultWordVectors);
const both = (t) => `${t.cpu.toFixed(1)} ms CPU (${t.wall.toFixed(1)} ms wall)`;
console.log(
  `\nword-vector table: ${table ? `${table.size} words × ${table.dimensions}, read in ${both(tableMs)} (once, at the first search that needs it)` : 'NOT BUILT (npm run build makes it): Blitz ranks without it'}`,
);
const { value: sentences, ...sentencesMs } = timed(defaultSentenceVectors);
console.log(
  `sentence-vector table: ${sentences ? `${sentences.size} words × ${sentences.dimensions}, read in ${both(sentencesMs)} (once, at the first search)` : 'NOT BUILT (npm run build makes it): Blitz ranks without it'}`,
);
const BLITZ = 'Blitz (+ sentence vectors)';
const variants = {
  'plain BM25': new ToolIndex(catalog, { stemming: false, synonyms: false, wordVectors: false, sentenceVectors: false }),
  'BM25 + stemming': new ToolIndex(catalog, { synonyms: false, wordVectors: false, sentenceVectors: false }),
  '+ synonyms': new ToolIndex(catalog, { wordVectors: false, sentenceVectors: false }),
  '+ word vectors (GloVe)': new ToolIndex(catalog, { sentenceVectors: false }),
  '+ synonyms, sentence vectors': new ToolIndex(catalog, { wordVectors: false }),
  [BLITZ]: new ToolIndex(catalog),
};
const results = {};
for (const [set, queries] of Object.entries(QUERY_SET).filter(([k]) => k !== 'about')) {
  console.log(`\nsearch quality, ${set} (${queries.length} queries):`);
  for (const [name, index] of Object.entries(variants)) {
    const r = await recall(queries, async (q) => index.search(q, { limit: 5 }).map((m) => m.exposedName));
    results[`${set}/${name}`] = r;
    // Two halves (even and odd places): whoever tunes the ranking on one reports the other, held out. From the searches above, not run again.
    const half = (parity) => {
      const mine = r.found5.filter((_, i) => i % 2 === parity);
      return (mine.filter(Boolean).length / mine.length).toFixed(2);
    };
    console.log(`  ${name.padEnd(28)} recall@1 ${r.at1.toFixed(2)}  recall@5 ${r.at5.toFixed(2)}  (halves ${half(0)} / ${half(1)})`);
  }
  const hub = await recall(queries, deferred.search);
  console.log(`  ${'hub search_tools'.padEnd(28)} recall@1 ${hub.at1.toFixed(2)}  recall@5 ${hub.at5.toFixed(2)}`);
}
const full = results[`queries/${BLITZ}`].at5;
console.log(`\n  recall@5 on queries: ${full.toFixed(2)}   verdict (≥ 0.9): ${verdict(full >= 0.9)}`);
for (const set of ['paraphrased', 'held_out']) {
  const plain = results[`${set}/plain BM25`].at5;
  const ours = results[`${set}/${BLITZ}`].at5;
  const ratio = plain === 0 ? Infinity : ours / plain;
  const judged = set === 'paraphrased' ? `verdict (≥ 1.6×): ${verdict(ratio >= 1.6)}` : '(held out: reported, not judged)';
  console.log(`  ${set} recall@5: ${ours.toFixed(2)} vs plain BM25 ${plain.toFixed(2)} = ${ratio.toFixed(2)}×   ${judged}`);
}
await deferred.close();
await listWith.stop();

// 1,000 tools: the catalog three times under other names, and the rest of a fourth.
const thousand = Array.from({ length: 1000 }, (_, i) => {
  const t = catalog[i % catalog.length];
  const copy = Math.floor(i / catalog.length);
  return copy === 0 ? t : { ...t, exposedName: `${t.exposedName}_${copy}`, server: `${t.server}-${copy}` };
});
const t0 = performance.now();
const big = new ToolIndex(thousand);
const buildMs = performance.now() - t0;
const all = [...QUERY_SET.queries, ...QUERY_SET.paraphrased, ...QUERY_SET.held_out].map((q) => q.query);
// The index's first search with a word no tool uses also turns the index's terms into vectors.
const firstMs = timed(() => big.search('which specs fail intermittently', { limit: 8 }));
for (const q of all) big.search(q, { limit: 8 }); // warm-up, not counted (and the synonym table built)
// Each search timed twice: wall time (what a caller waits, including time this process waited
// for a core: on 2 shared cores at load ~20 that is a 10–100 ms tail whatever the search does)
// and this process's CPU time (the search's own cost, GC included, on every thread). The target
// is judged on the CPU p99; the wall figures are printed beside it, each round's too.
const ROUNDS = 5;
const wall = [];
const cpu = [];
const perQuery = new Map(all.map((q) => [q, []]));
const roundP99 = [];
for (let round = 0; round < ROUNDS; round++) {
  const roundWall = [];
  for (let pass = 0; pass < 10; pass++) {
    for (const q of all) {
      const c = process.cpuUsage();
      const s = performance.now();
      big.search(q, { limit: 8 });
      const ms = performance.now() - s;
      const used = process.cpuUsage(c);
      wall.push(ms);
      roundWall.push(ms);
      cpu.push((used.user + used.system) / 1000);
      perQuery.get(q).push(ms);
    }
  }
  roundP99.push(percentile(roundWall, 0.99));
}
function percentile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
const ms = (v) => `${v.toFixed(3)} ms`;
const slowest = [...perQuery].map(([q, t]) => [percentile(t, 0.5), q]).sort((a, b) => b[0] - a[0])[0];
console.log(
  `\nsearch latency at ${big.size} tools (${wall.length} searches in ${ROUNDS} rounds after a warm-up pass; index built in ${buildMs.toFixed(0)} ms; ${loadNote()}):`,
);
console.log(
  `  wall: p50 ${ms(percentile(wall, 0.5))}, p99 ${ms(percentile(wall, 0.99))}; p99 of each round ${roundP99.map((v) => v.toFixed(2)).join(' / ')} ms`,
);
console.log(`  CPU:  p50 ${ms(percentile(cpu, 0.5))}, p99 ${ms(percentile(cpu, 0.99))}, max ${ms(Math.max(...cpu))}`);
// What a daemon's first search_tools pays, in a process of its own: the synonym dictionary and
// the word-vector table read, the catalog's terms made vectors (the index itself built before).
const catalogFile = path.join(files, 'catalog.json');
fs.writeFileSync(catalogFile, JSON.stringify(catalog));
const coldFirst = (options) =>
  JSON.parse(
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `
      import fs from 'node:fs';
      import { ToolIndex } from ${JSON.stringify(new URL('../packages/core/dist/index.js', import.meta.url).href)};
      const index = new ToolIndex(JSON.parse(fs.readFileSync(${JSON.stringify(catalogFile)}, 'utf8')), ${JSON.stringify(options)});
      const cpu = process.cpuUsage();
      const start = performance.now();
      index.search('which specs fail intermittently', { limit: 8 });
      const used = process.cpuUsage(cpu);
      process.stdout.write(JSON.stringify({ wall: performance.now() - start, cpu: (used.user + used.system) / 1000 }));`,
      ],
      { encoding: 'utf8' },
    ),
  );
console.log(
  `  first search in a new process, ${catalog.length} tools: ${both(coldFirst({}))}; without sentence vectors ${both(coldFirst({ sentenceVectors: false }))}; without either table ${both(coldFirst({ wordVectors: false, sentenceVectors: false }))} (the synonym dictionary read in all)`,
);
console.log(
  `  first search of a new index with a word no tool uses (its terms and tools made vectors): ${both(firstMs)}; the tables read once a process: ${both(tableMs)} and ${both(sentencesMs)}`,
);
console.log(`  slowest query by its own median: ${ms(slowest[0])} (${JSON.stringify(slowest[1])})`);
console.log(
  `  verdict (CPU p99 < 5 ms): ${verdict(percentile(cpu, 0.99) < 5)}   (wall p99 < 5 ms: ${verdict(percentile(wall, 0.99) < 5)})`,
);

const left = endLeftovers();
if (left) console.log(`(ended ${left} leftover processes)`);
for (const dir of [workspace, files]) fs.rmSync(dir, { recursive: true, force: true });
