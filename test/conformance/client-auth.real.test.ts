import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { BLITZ_BIN } from '../support/blitz-cli.js';
import { runConformance } from '../support/conformance-runner.js';

// The MCP conformance suite's client auth scenarios, as the 2026-07-28 revision requires them
// (@modelcontextprotocol/conformance 0.2.0-alpha.12 on its own Node 22: the 25 `auth/` scenarios of
// `list --requirements 2026-07-28`, RFC 9207 iss and RFC 8414 issuer checks, SEP-2352 migration,
// SEP-2207 offline access, SEP-837 application_type), each run against blitz mcp login + blitz
// connect through blitz-auth-client.mjs. The suite starts the scenario's servers on localhost and
// runs the driver with their URL. Each runs at its own wire: those new in 2026-07-28 end with a
// call to a server that speaks only that revision (it answers initialize with HTTP 400), which
// Blitz finds by asking (server/discover) and speaks.
const HERE = path.dirname(fileURLToPath(import.meta.url));
const DRIVER = path.join(HERE, 'blitz-auth-client.mjs');

const SCENARIOS = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
];

const results: Array<{ scenario: string; passed: boolean; line: string }> = [];

function runScenario(scenario: string): Promise<{ code: number | null; output: string }> {
  // The driver runs on Blitz's Node (this one), the runner on its own.
  return runConformance(['client', '--command', `${process.execPath} ${DRIVER}`, '--scenario', scenario, '--timeout', '60000'], {
    cwd: HERE,
    timeoutMs: 110_000,
    env: { BLITZ_BIN },
  });
}

/**
 * Scenarios run two at a time: each is a handful of short-lived processes (the runner, the
 * driver, blitz mcp login, blitz connect and its daemon) mostly waiting on each other, with
 * servers on ports of their own; one at a time they took 150 s of a 2-core machine.
 */
const AT_ONCE = 2;
let running = 0;
const waiting: Array<() => void> = [];
async function inTurn<T>(run: () => Promise<T>): Promise<T> {
  if (running >= AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await run();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

afterAll(async () => {
  results.sort((a, b) => SCENARIOS.indexOf(a.scenario) - SCENARIOS.indexOf(b.scenario));
  const passed = results.filter((r) => r.passed).length;
  // The CI log's score.
  console.log(
    `conformance client auth: ${passed}/${results.length} scenarios passed\n${results.map((r) => `  ${r.passed ? 'pass' : 'FAIL'}  ${r.scenario}  ${r.line}`).join('\n')}`,
  );
  // Every scenario's processes are gone once all have run (while they run, the others' are not).
  await assertNoOrphans();
});

describe('MCP conformance: client auth scenarios required by 2026-07-28 (0.2.0-alpha.12)', () => {
  it.concurrent.each(SCENARIOS)(
    '%s',
    async (scenario) => {
      const { code, output } = await inTurn(() => runScenario(scenario));
      const line = /^Passed: .*$/m.exec(output)?.[0] ?? '(no result)';
      const passed = code === 0 && /OVERALL: PASSED/.test(output) && / 0 failed, 0 warnings/.test(line);
      results.push({ scenario, passed, line });
      expect(
        passed,
        output
          .split('\n')
          .filter((l) => /FAILURE|WARNING|Passed|OVERALL/.test(l))
          .join('\n'),
      ).toBe(true);
    },
    120_000,
  );
});
