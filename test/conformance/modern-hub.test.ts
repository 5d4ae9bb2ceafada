import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { tempDir } from '../support/blitz-cli.js';
import { explainChecks, readServerChecks, runConformance, scenarioPassed, type Check } from '../support/conformance-runner.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { startTokenProxy, type TokenProxy } from '../support/token-proxy.js';

// Issue 28 point 1: the conformance runner's 2026-07-28 server requirements (0.2.0-alpha.12, on its
// own Node 22) through the hub's /mcp, fronting test/fixtures/modern.mjs (the SDK v2 fixture) over
// stdio. The hub speaks 2025-11-25 to its servers for now, so what needs a server's input_required
// to reach the client (MRTR bridging, issue 28 point 3) is not passed through yet (NOT_YET); every
// other requirement is, and must stay so. test/conformance/modern-server.test.ts runs it directly.
const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The required scenarios (requirements/2026-07-28.yaml) the hub passes today. */
const THROUGH_THE_HUB = [
  'completion-complete',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-error',
  'tools-call-with-progress',
  'server-sse-multiple-streams',
  'resources-list',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'sep-2164-resource-not-found',
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
  'dns-rebinding-protection',
  'caching',
  'input-required-result-unsupported-methods',
  'input-required-result-ignore-extra-params',
];
/** The rest of the 37: a server's input_required reaching the client (MRTR bridging, issue 28 point 3); server-stateless also asks a list change on a listen stream within 800 ms of its trigger, which the hub's re-list and debounce can miss under load. */
const NOT_YET = [
  'server-stateless',
  'input-required-result-basic-elicitation',
  'input-required-result-basic-sampling',
  'input-required-result-basic-list-roots',
  'input-required-result-request-state',
  'input-required-result-multiple-input-requests',
  'input-required-result-multi-round',
  'input-required-result-missing-input-response',
  'input-required-result-non-tool-request',
  'input-required-result-result-type',
  'input-required-result-tampered-state',
  'input-required-result-capability-check',
  'input-required-result-validate-input',
];

let home: string;
let workspace: string;
let daemon: RunningDaemon;
let proxy: TokenProxy;
let checks: Map<string, Check[]>;

beforeAll(async () => {
  home = tempDir('blitz-modern-hub-');
  workspace = tempDir('blitz-modern-hub-ws-');
  const { command, args } = fixtureCommand('modern');
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "modern"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\nauto_approve = true\nsampling = true\n`,
  );
  daemon = await startDaemonProcess(home);
  proxy = await startTokenProxy(daemon.state);
  const outDir = path.join(home, 'results');
  const url = `${proxy.origin}/mcp?${new URLSearchParams({ workspace })}`;
  await runConformance(['server', '--url', url, '--requirements', '2026-07-28', '-o', outDir], { cwd: HERE, timeoutMs: 150_000 });
  checks = readServerChecks(outDir, [...THROUGH_THE_HUB, ...NOT_YET]);
  if (checks.size === 0) throw new Error('the conformance runner gave no results');
}, 180_000);

afterAll(async () => {
  if (checks) {
    // The CI log's score.
    const passed = [...THROUGH_THE_HUB, ...NOT_YET].filter((s) => scenarioPassed(checks.get(s)));
    console.log(
      `conformance 2026-07-28 server requirements through the hub (test/fixtures/modern.mjs over stdio): ${passed.length}/37 scenarios`,
    );
  }
  await proxy?.close();
  await daemon?.stop();
  await assertNoOrphans();
  for (const dir of [home, workspace]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('conformance 2026-07-28 server requirements (0.2.0-alpha.12) through the hub', () => {
  it('runs all 37 required scenarios', () => {
    expect([...checks.keys()].sort()).toEqual([...THROUGH_THE_HUB, ...NOT_YET].sort());
  });
  it.each(THROUGH_THE_HUB)('%s', (scenario) => {
    expect(scenarioPassed(checks.get(scenario)), explainChecks(checks.get(scenario))).toBe(true);
  });
});
