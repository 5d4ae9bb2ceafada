// Issue 16, large catalogs: the large real catalog of test/fixtures/large-catalog (17 published
// MCP servers, dummy credentials, ~350 tools) listed through the daemon. Measured in one run:
//   - the bytes of tools/list (and tokens, estimated as bytes / 4) with [hub] deferred = "never"
//     and "always": target, the deferred list at most 5 % of the direct one;
//   - search quality on the query set (queries.json): recall@1 and recall@5 of plain BM25
//     (no stemming, no synonyms), BM25 + stemming, and Blitz's ranking (stemming + English
//     synonyms), each over the tools as listed; targets, recall@5 ≥ 0.9 on `queries` and on the
//     paraphrased queries ≥ 1.6 × plain BM25's; and the hub's own search_tools on the same queries;
//   - search latency p50/p99 over 1,000 tools (the catalog three times, renamed): target p99 < 5 ms.
//
//   npm run build && node bench/search.mjs
import fs from 'node:fs';

import { BlitzClient } from '../packages/client/dist/index.js';
import { ToolIndex } from '../packages/core/dist/index.js';
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
    const search = async (query) => (await client.callTool({ name: 'search_tools', arguments: { query, limit: 5 } })).structuredContent.tools.map((t) => t.name);
    return { tools: listed.tools, bytes, serverOf, search, close: () => client.close() };
  } finally {
    if (mode === 'never') await daemon.stop();
    else listWith.stop = daemon.stop;
  }
}

const direct = await listWith('never');
const catalog = direct.tools.filter((t) => direct.serverOf.has(t.name)).map((tool) => ({ exposedName: tool.name, originalName: tool.name, server: direct.serverOf.get(tool.name), tool }));
await direct.close();
const deferred = await listWith('always');

console.log(`large catalog: ${catalog.length} tools of ${new Set(catalog.map((t) => t.server)).size} servers (${loadNote()})`);
const share = deferred.bytes / direct.bytes;
console.log(`\ntools/list, deferred = "never":  ${direct.tools.length} tools, ${kb(direct.bytes)} ≈ ${Math.round(direct.bytes / 4)} tokens`);
console.log(`tools/list, deferred = "always": ${deferred.tools.length} tools, ${kb(deferred.bytes)} ≈ ${Math.round(deferred.bytes / 4)} tokens`);
console.log(`  deferred / direct: ${(share * 100).toFixed(2)} %   verdict (≤ 5 %): ${verdict(share <= 0.05)}`);

/** recall@1 and @5 of `search` (query → names, best first) on `queries`. */
async function recall(queries, search) {
  let at1 = 0;
  let at5 = 0;
  for (const q of queries) {
    const top = await search(q.query);
    if (q.expect.includes(top[0])) at1++;
    if (top.slice(0, 5).some((n) => q.expect.includes(n))) at5++;
  }
  return { at1: at1 / queries.length, at5: at5 / queries.length };
}

const variants = {
  'plain BM25': new ToolIndex(catalog, { stemming: false, synonyms: false }),
  'BM25 + stemming': new ToolIndex(catalog, { synonyms: false }),
  'Blitz (stemming + synonyms)': new ToolIndex(catalog),
};
const results = {};
for (const [set, queries] of Object.entries(QUERY_SET).filter(([k]) => k !== 'about')) {
  console.log(`\nsearch quality, ${set} (${queries.length} queries):`);
  for (const [name, index] of Object.entries(variants)) {
    const r = await recall(queries, async (q) => index.search(q, { limit: 5 }).map((m) => m.exposedName));
    results[`${set}/${name}`] = r;
    console.log(`  ${name.padEnd(28)} recall@1 ${r.at1.toFixed(2)}  recall@5 ${r.at5.toFixed(2)}`);
  }
  const hub = await recall(queries, deferred.search);
  console.log(`  ${'hub search_tools'.padEnd(28)} recall@1 ${hub.at1.toFixed(2)}  recall@5 ${hub.at5.toFixed(2)}`);
}
const full = results['queries/Blitz (stemming + synonyms)'].at5;
console.log(`\n  recall@5 on queries: ${full.toFixed(2)}   verdict (≥ 0.9): ${verdict(full >= 0.9)}`);
const plain = results['paraphrased/plain BM25'].at5;
const ours = results['paraphrased/Blitz (stemming + synonyms)'].at5;
const ratio = plain === 0 ? Infinity : ours / plain;
console.log(`  paraphrased recall@5: ${ours.toFixed(2)} vs plain BM25 ${plain.toFixed(2)} = ${ratio.toFixed(2)}×   verdict (≥ 1.6×): ${verdict(ratio >= 1.6)}`);
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
const all = [...QUERY_SET.queries, ...QUERY_SET.paraphrased].map((q) => q.query);
for (const q of all) big.search(q, { limit: 8 }); // warm (and the synonym table built)
const times = [];
for (let round = 0; round < 30; round++) {
  for (const q of all) {
    const s = performance.now();
    big.search(q, { limit: 8 });
    times.push(performance.now() - s);
  }
}
times.sort((a, b) => a - b);
const p = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
console.log(`\nsearch latency at ${big.size} tools (${times.length} searches; index built in ${buildMs.toFixed(0)} ms): p50 ${p(0.5).toFixed(3)} ms, p99 ${p(0.99).toFixed(3)} ms`);
console.log(`  verdict (p99 < 5 ms): ${verdict(p(0.99) < 5)}`);

const left = endLeftovers();
if (left) console.log(`(ended ${left} leftover processes)`);
for (const dir of [workspace, files]) fs.rmSync(dir, { recursive: true, force: true });
