import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';

// The MCP conformance suite's client auth scenarios (@modelcontextprotocol/conformance 0.1.13,
// `--suite auth`: the 15 below), each run against blitz mcp login + blitz connect through
// blitz-auth-client.mjs. The suite starts the scenario's servers on localhost and runs the
// driver with their URL.
const HERE = path.dirname(fileURLToPath(import.meta.url));
const CONFORMANCE = path.join(HERE, '..', '..', 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
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
  'auth/resource-mismatch',
  'auth/pre-registration',
];

const results: Array<{ scenario: string; passed: boolean; line: string }> = [];

function runScenario(scenario: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [CONFORMANCE, 'client', '--command', `${process.execPath} ${DRIVER}`, '--scenario', scenario, '--timeout', '60000'],
      {
        cwd: HERE,
        env: { PATH: process.env.PATH, HOME: process.env.HOME },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('close', (code) => resolve({ code, output }));
  });
}

afterAll(() => {
  const passed = results.filter((r) => r.passed).length;
  // The CI log's score.
  console.log(
    `conformance client auth: ${passed}/${results.length} scenarios passed\n${results.map((r) => `  ${r.passed ? 'pass' : 'FAIL'}  ${r.scenario}  ${r.line}`).join('\n')}`,
  );
});

describe('MCP conformance: client auth scenarios (0.1.13)', () => {
  it.each(SCENARIOS)(
    '%s',
    async (scenario) => {
      const { code, output } = await runScenario(scenario);
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
      await assertNoOrphans();
    },
    120_000,
  );
});
