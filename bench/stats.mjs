// Latency figures for the benchmarks: each run prints p50, p99 and calls/s, and a ratio
// against a baseline measured in the same process.

export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `call` `total` times with `concurrency` in flight; returns per-call ms and calls/s. */
export async function measure(call, { total, concurrency = 1, warmup = 20 }) {
  for (let i = 0; i < warmup; i++) await call(i);
  const times = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        await call(i);
        times.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), perSecond: total / seconds };
}

export function report(title, rows, baseline) {
  const width = Math.max(26, ...rows.map(([name]) => name.length));
  console.log(`\n${title}`);
  console.log(`  ${'variant'.padEnd(width)}   p50 ms   p99 ms   calls/s   p50 ratio  calls/s ratio`);
  for (const [name, r] of rows) {
    const base = rows.find(([n]) => n === baseline)[1];
    console.log(
      `  ${name.padEnd(width)} ${r.p50.toFixed(3).padStart(8)} ${r.p99.toFixed(3).padStart(8)} ${r.perSecond.toFixed(0).padStart(9)} ${(r.p50 / base.p50).toFixed(2).padStart(10)} ${(r.perSecond / base.perSecond).toFixed(2).padStart(14)}`,
    );
  }
}

/**
 * Measures each variant `rounds` times, interleaved so that neither always runs on a warmer or
 * busier machine, and keeps the median of each figure. The order rotates each round (round r
 * starts at variant r mod n: A B C, B C A, C A B, …), so no variant is always measured in the
 * same slot — with a fixed order and identical code, the variant measured second won 4 runs of 4.
 */
export async function compare(variants, { rounds = 5, cpu, sleeps, ...opts }) {
  const runs = new Map(variants.map(([name]) => [name, []]));
  /** With `cpu` (a snapshot of CPU µs by process), each variant's CPU per call by process, over its rounds. */
  const used = new Map(variants.map(([name]) => [name, new Map()]));
  /** With `sleeps` (how often this process has waited so far), each variant's waits, over its rounds. */
  const slept = new Map(variants.map(([name]) => [name, 0]));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < variants.length; k++) {
      const [name, call] = variants[(r + k) % variants.length];
      const before = cpu?.();
      const sleptBefore = sleeps?.();
      runs.get(name).push(await measure(call, opts));
      if (before) for (const [who, us] of cpu()) used.get(name).set(who, (used.get(name).get(who) ?? 0) + us - (before.get(who) ?? us));
      if (sleptBefore !== undefined) slept.set(name, slept.get(name) + sleeps() - sleptBefore);
    }
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const calls = rounds * (opts.total + (opts.warmup ?? 20));
  return variants.map(([name]) => {
    const rs = runs.get(name);
    const cpuPerCall = cpu ? new Map([...used.get(name)].map(([who, us]) => [who, us / calls]).filter(([, us]) => us >= 1)) : undefined;
    const sleepsPerCall = sleeps ? slept.get(name) / calls : undefined;
    return [
      name,
      {
        p50: median(rs.map((r) => r.p50)),
        p99: median(rs.map((r) => r.p99)),
        perSecond: median(rs.map((r) => r.perSecond)),
        ...(cpuPerCall ? { cpuPerCall } : {}),
        ...(sleepsPerCall === undefined ? {} : { sleepsPerCall }),
      },
    ];
  });
}

/**
 * Each variant's CPU per call by process (from `compare` with `cpu`), a line each; with
 * `sleeps`, also how often the client waited for an answer a call (its voluntary context
 * switches): a client woken for every answer pays for the wake-up and for its caches gone cold.
 */
export function reportCpu(rows) {
  const width = Math.max(26, ...rows.map(([name]) => name.length));
  console.log(`  CPU µs per call, by process (user + system, over all rounds):`);
  for (const [name, r] of rows) {
    if (!r.cpuPerCall) continue;
    const total = [...r.cpuPerCall.values()].reduce((a, b) => a + b, 0);
    const waits = r.sleepsPerCall === undefined ? '' : `   (client slept ${r.sleepsPerCall.toFixed(2)}× a call)`;
    console.log(
      `  ${name.padEnd(width)} ${String(Math.round(total)).padStart(6)}  = ${[...r.cpuPerCall]
        .sort((a, b) => b[1] - a[1])
        .map(([who, us]) => `${who} ${Math.round(us)}`)
        .join(' + ')}${waits}`,
    );
  }
}
