// Issue 30.1, search quality on tasks phrased as people phrase them: the tools of real MCP
// servers as they listed them (bench/search-record.mjs, run first when nothing is recorded) in
// one catalog, named as the hub names them (buildCatalog, each server's prefix), searched by
// core's ToolIndex as the hub's search_tools does. Two task sets:
//   - tuned (search-eval/tuned.json): tasks on the large catalog's servers; the ranking may be
//     tuned on them; and tuned-unnamed.json, tasks over the whole catalog that name no service;
//   - held out (search-eval/held-out.json): tasks on servers recorded for this evaluation alone,
//     written before any ranking was tuned and never tuned on; judged: recall@5 ≥ 0.7 and
//     recall@1 ≥ 0.4, over the whole catalog and over the held-out servers' catalog alone;
//   - held out, no service named (search-eval/held-out-unnamed.json): tasks over the whole catalog
//     that do not name the service, written after tuning and committed before their first run.
// Each is run by plain BM25, by each part of the ranking alone, and by Blitz's ranking (all of
// them). Then search latency p50/p99 over 1,000 tools (the catalog's tools, renamed copies past
// its end; CPU time judged, wall printed: see bench/search.mjs), target p99 < 10 ms, and the
// size of search_tools' answer for 8 results.
//
//   npm run build && node bench/search-quality.mjs [--misses=Blitz]
import fs from 'node:fs';
import path from 'node:path';
import { buildCatalog, searchSummaries, ToolIndex } from '../packages/core/dist/index.js';
import { EVAL_DIR, EVAL_SERVERS, RECORDED, recordAll } from './search-record.mjs';

// --misses=VARIANT prints the tuned tasks VARIANT misses (never the held-out ones: they are not to be tuned on).
const showMisses = process.argv.find((a) => a.startsWith('--misses='))?.slice('--misses='.length);
const verdict = (ok) => (ok ? 'ok' : 'MISSED');
const read = (file) => JSON.parse(fs.readFileSync(path.join(EVAL_DIR, file), 'utf8'));

if (!fs.existsSync(RECORDED)) {
  console.log(`recording the servers' tools into ${path.relative(process.cwd(), RECORDED)}:`);
  await recordAll();
}
const recorded = read('recorded.json').servers;
const heldOut = read('held-out.json');
const tuned = read('tuned.json');
const heldOutServers = new Set(heldOut.servers);
const unnamed = read('held-out-unnamed.json');
const tunedUnnamed = read('tuned-unnamed.json');

/** The hub's catalog of `names`' recorded tools, in settings order, as ToolIndex takes it. */
function catalogOf(names) {
  const servers = EVAL_SERVERS.filter((s) => names.has(s.name) && recorded[s.name]);
  const { entries } = buildCatalog(
    servers.map((s) => ({ server: s.name, ...(s.prefix ? { prefix: s.prefix } : {}), tools: recorded[s.name].tools })),
    ['search_tools', 'call_tool', 'list_mcp_resources', 'read_mcp_resource'],
  );
  return entries.map((e) => ({
    ...e,
    ...(recorded[e.server].instructions ? { serverInstructions: recorded[e.server].instructions } : {}),
  }));
}
const everyServer = new Set(Object.keys(recorded));
const whole = catalogOf(everyServer);
const heldOutOnly = catalogOf(heldOutServers);
const missing = EVAL_SERVERS.filter((s) => !recorded[s.name]).map((s) => s.name);
console.log(
  `catalog: ${whole.length} tools of ${everyServer.size} servers recorded (${[...everyServer].filter((s) => heldOutServers.has(s)).length} held out, ${heldOutOnly.length} tools)${missing.length ? `; not recorded: ${missing.join(', ')}` : ''}`,
);

/** Ranking variants: plain BM25, each part alone on BM25, and all of them (Blitz). */
const OFF = { stemming: false, synonyms: false, wordVectors: false, sentenceVectors: false, services: false, fields: false, terms: false };
const VARIANTS = {
  'plain BM25': OFF,
  'BM25 + stemming': { ...OFF, stemming: true },
  'BM25 + synonyms': { ...OFF, synonyms: true },
  'BM25 + word vectors': { ...OFF, wordVectors: true },
  'BM25 + sentence vectors': { ...OFF, sentenceVectors: true },
  'BM25 + services named': { ...OFF, services: true },
  'BM25 + field weights': { ...OFF, fields: true },
  'BM25 + developer terms': { ...OFF, terms: true },
  'Blitz, terms off': { terms: false },
  'Blitz, services off': { services: false },
  'Blitz, fields off': { fields: false },
  'Blitz, sentence vectors off': { sentenceVectors: false },
  Blitz: {},
};

function recall(index, tasks) {
  let at1 = 0;
  let at5 = 0;
  const misses = [];
  for (const t of tasks) {
    const top = index.search(t.query, { limit: 5 }).map((m) => m.exposedName);
    if (t.expect.includes(top[0])) at1++;
    if (top.some((n) => t.expect.includes(n))) at5++;
    else misses.push(`${JSON.stringify(t.query)} → ${top.slice(0, 3).join(', ')} (want ${t.expect.join(' | ')})`);
  }
  const n = tasks.length;
  return { at1: at1 / n, at5: at5 / n, misses, n };
}

/** The tasks whose tools `catalog` has (a task for a server not recorded is left out, and counted). */
function runnable(tasks, catalog) {
  const names = new Set(catalog.map((e) => e.exposedName));
  const kept = tasks.filter((t) => t.expect.some((n) => names.has(n)));
  return { kept, dropped: tasks.length - kept.length };
}

// --tuned-only: while tuning, the held-out figures are not even looked at.
const tunedOnly = process.argv.includes('--tuned-only');
const SETS = [
  { name: 'tuned, whole catalog', tasks: tuned.tasks, catalog: whole },
  { name: 'tuned, no service named, whole catalog', tasks: tunedUnnamed.tasks, catalog: whole },
  { name: 'held out, whole catalog', tasks: heldOut.tasks, catalog: whole, judged: true },
  { name: 'held out, its servers alone', tasks: heldOut.tasks, catalog: heldOutOnly, judged: true },
  { name: 'held out, no service named, whole catalog', tasks: unnamed.tasks, catalog: whole, judged: true },
];
const figures = {};
for (const set of SETS) {
  if (tunedOnly && set.judged) continue;
  const { kept, dropped } = runnable(set.tasks, set.catalog);
  if (kept.length === 0) {
    console.log(
      `\n${set.name}: no task's server recorded (npm ci --prefix bench/search-eval --ignore-scripts, then rm ${path.relative(process.cwd(), RECORDED)})`,
    );
    continue;
  }
  console.log(
    `\n${set.name}: ${kept.length} tasks over ${set.catalog.length} tools${dropped ? ` (${dropped} left out: their server not recorded)` : ''}`,
  );
  for (const [name, options] of Object.entries(VARIANTS)) {
    const r = recall(new ToolIndex(set.catalog, options), kept);
    figures[`${set.name}/${name}`] = r;
    console.log(`  ${name.padEnd(28)} recall@1 ${r.at1.toFixed(2)}  recall@5 ${r.at5.toFixed(2)}`);
    if (showMisses === name && !set.judged) for (const m of r.misses) console.log(`      miss: ${m}`);
  }
  if (set.judged) {
    const r = figures[`${set.name}/Blitz`];
    const plain = figures[`${set.name}/plain BM25`];
    console.log(
      `  verdict (recall@5 ≥ 0.7, recall@1 ≥ 0.4): ${verdict(r.at5 >= 0.7 && r.at1 >= 0.4)}  (plain BM25 ${plain.at1.toFixed(2)} / ${plain.at5.toFixed(2)})`,
    );
  }
}

if (tunedOnly) process.exit(0);
// Latency over 1,000 tools: the whole catalog, then renamed copies of it on servers of other names.
const thousand = Array.from({ length: 1000 }, (_, i) => {
  const t = whole[i % whole.length];
  const copy = Math.floor(i / whole.length);
  return copy === 0 ? t : { ...t, exposedName: `${t.exposedName}_${copy}`, server: `${t.server}-${copy}` };
});
const big = new ToolIndex(thousand);
const queries = [...tuned.tasks, ...tunedUnnamed.tasks, ...heldOut.tasks, ...unnamed.tasks].map((t) => t.query);
for (const q of queries) big.search(q, { limit: 8 }); // warm-up: tables read, the index's vectors made
const wall = [];
const cpu = [];
for (let pass = 0; pass < 10; pass++) {
  for (const q of queries) {
    const c = process.cpuUsage();
    const s = performance.now();
    big.search(q, { limit: 8 });
    wall.push(performance.now() - s);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
  }
}
const percentile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const ms = (v) => `${v.toFixed(2)} ms`;
const load = fs.existsSync('/proc/loadavg') ? `load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}` : '';
console.log(`\nsearch latency at ${big.size} tools (${wall.length} searches, limit 8; ${load}):`);
console.log(`  CPU:  p50 ${ms(percentile(cpu, 0.5))}, p99 ${ms(percentile(cpu, 0.99))}`);
console.log(`  wall: p50 ${ms(percentile(wall, 0.5))}, p99 ${ms(percentile(wall, 0.99))}`);
console.log(`  verdict (CPU p99 < 10 ms): ${verdict(percentile(cpu, 0.99) < 10)}`);

// search_tools' answer for 8 results: the summaries against the whole tools (name, server, schema) it used to send.
const byName = new Map(whole.map((e) => [e.exposedName, e]));
let full = 0;
let short = 0;
const wholeIndex = new ToolIndex(whole);
for (const q of queries) {
  const found = wholeIndex.search(q, { limit: 8 }).map((m) => byName.get(m.exposedName));
  full += Buffer.byteLength(
    JSON.stringify(
      {
        tools: found.map((e) => ({
          name: e.exposedName,
          server: e.server,
          description: e.tool.description,
          inputSchema: e.tool.inputSchema,
        })),
      },
      null,
      1,
    ),
  );
  short += Buffer.byteLength(searchSummaries(found));
  if (q === queries[0]) console.log(`\nsearch_tools answer for ${JSON.stringify(q)}:\n${searchSummaries(found)}`);
}
console.log(
  `\nsearch_tools answer, 8 results: mean ${(short / queries.length / 1024).toFixed(1)} KB (whole tools with their schemas: ${(full / queries.length / 1024).toFixed(1)} KB)`,
);
