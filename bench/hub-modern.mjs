// Issue 28 point 1: what a 2026-07-28 request costs on the hub's /mcp against a 2025-11-25
// session's, in one run: `tools/call echo` on server-everything, sequential, the SDK v1 client in
// a session against plain fetch POSTs carrying the revision's _meta and headers (each served by a
// hub session of its own, modern-http.ts), and fetch POSTs into the same legacy session as a
// same-client baseline. The variants run interleaved (stats.mjs compare).
import { mcpClient } from './harness.mjs';
import { startEverythingDaemon } from './everything-daemon.mjs';
import { compare, report } from './stats.mjs';

const TOTAL = Number(process.env.BENCH_CALLS ?? 500);
const { workspace, state, stop } = await startEverythingDaemon();
const url = `http://127.0.0.1:${state.port}/mcp?workspace=${encodeURIComponent(workspace)}`;
const sdk = await mcpClient(state, workspace);
await sdk.listTools();

const base = { authorization: `Bearer ${state.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const post = async (headers, body) => {
  const response = await fetch(url, { method: 'POST', headers: { ...base, ...headers }, body: JSON.stringify(body) });
  const answer = await response.json();
  if (!answer.result) throw new Error(`no result: ${JSON.stringify(answer)}`);
};
// A session of its own for the fetch baseline, initialized by hand.
const init = await fetch(url, {
  method: 'POST',
  headers: base,
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  }),
});
const session = init.headers.get('mcp-session-id');
await init.text();
await post(
  { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
).catch(() => undefined);

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const modern = (i) =>
  post(
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
    { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo', arguments: { message: `m${i}` }, _meta: META } },
  );
const legacyFetch = (i) =>
  post(
    { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo', arguments: { message: `m${i}` } } },
  );
const rows = await compare(
  [
    ['2025-11-25 session, fetch', legacyFetch],
    ['2026-07-28 stateless, fetch', modern],
    ['2025-11-25 session, SDK v1 client', (i) => sdk.callTool({ name: 'echo', arguments: { message: `m${i}` } })],
  ],
  { total: TOTAL, concurrency: 1 },
);
report(
  `tools/call echo on server-everything through /mcp, ${TOTAL} calls, 1 in flight, median of 5 interleaved rounds`,
  rows,
  '2025-11-25 session, fetch',
);
await sdk.close();
await stop();
