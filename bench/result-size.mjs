// Issue 18: the cost of `[hub] max_result_mb`'s check per tools/call result, measured in one run:
// serialising the result to count its bytes (the earlier check) against the bounding walk
// (apps/daemon/src/hub/json-size.ts), on an echo-sized result and on a 100 KB one.
import { surelyWithin } from '../apps/daemon/dist/hub/json-size.js';

const LIMIT = 10 * 1024 * 1024;
const N = Number(process.env.BENCH_CALLS ?? 200_000);
const results = {
  'echo result': { content: [{ type: 'text', text: 'Echo: m12345' }] },
  '100 KB text result': {
    content: [
      { type: 'text', text: 'x'.repeat(100_000) },
      { type: 'text', text: 'done' },
    ],
    structuredContent: { ok: true, n: 3 },
  },
};
const checks = {
  'stringify + byteLength': (r) => Buffer.byteLength(JSON.stringify(r)) <= LIMIT,
  'bounding walk': (r) => surelyWithin(r, LIMIT),
};

for (const [label, result] of Object.entries(results)) {
  const rounds = { 'stringify + byteLength': [], 'bounding walk': [] };
  const n = label === 'echo result' ? N : Math.floor(N / 100);
  for (let round = 0; round < 5; round++) {
    for (const [name, check] of Object.entries(checks)) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < n; i++) if (!check(result)) throw new Error('over the limit');
      rounds[name].push(Number(process.hrtime.bigint() - start) / n);
    }
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const before = median(rounds['stringify + byteLength']);
  const after = median(rounds['bounding walk']);
  console.log(
    `${label}: stringify + byteLength ${(before / 1000).toFixed(3)} µs, bounding walk ${(after / 1000).toFixed(3)} µs, ratio ${(after / before).toFixed(3)}× (median of 5 interleaved rounds)`,
  );
}
