import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { tempDir } from '../support/blitz-cli.js';
import {
  explainChecks,
  readServerChecks,
  REQUIRED_2026,
  runConformance,
  scenarioPassed,
  type Check,
} from '../support/conformance-runner.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { startTokenProxy, type TokenProxy } from '../support/token-proxy.js';

// Issue 28: the conformance runner's 2026-07-28 server requirements (0.2.0-alpha.12, on its own Node 22)
// through the hub's /mcp, fronting test/fixtures/modern.mjs (the SDK v2 fixture) over stdio. The hub
// speaks 2026-07-28 to it (ModernServerTransport): the fixture's input_required reaches the hub's
// session as elicitation/sampling/roots requests carrying the fixture's own keys, which the hub's
// input_required for the client keeps (modern-exchange.ts); answers a client sends with its first
// call, before anything was asked, go on to the server with it. Every requirement passes, and
// must stay so. test/conformance/modern-server.real.test.ts runs them directly.
const HERE = path.dirname(fileURLToPath(import.meta.url));

let home: string;
let workspace: string;
let daemon: RunningDaemon;
let proxy: TokenProxy;
let checks: Map<string, Check[]>;

beforeAll(async () => {
  home = tempDir('blitz-modern-hub-');
  workspace = tempDir('blitz-modern-hub-ws-');
  const { command, args } = fixtureCommand('modern');
  // pin = false: server-stateless adds tools while the server runs (test_trigger_tool_change) and expects a listen stream to hear of
  // them; pinned, each new tool would be held for review (docs/trust-and-audit.md), no client's list would change, and rightly none would hear.
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "modern"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\nauto_approve = true\nsampling = true\npin = false\n`,
  );
  daemon = await startDaemonProcess(home);
  proxy = await startTokenProxy(daemon.state);
  const outDir = path.join(home, 'results');
  const url = `${proxy.origin}/mcp?${new URLSearchParams({ workspace })}`;
  await runConformance(['server', '--url', url, '--requirements', '2026-07-28', '-o', outDir], { cwd: HERE, timeoutMs: 150_000 });
  checks = readServerChecks(outDir, REQUIRED_2026);
  if (checks.size === 0) throw new Error('the conformance runner gave no results');
}, 180_000);

afterAll(async () => {
  if (checks) {
    // The CI log's score.
    const passed = REQUIRED_2026.filter((s) => scenarioPassed(checks.get(s)));
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
    expect([...checks.keys()].sort()).toEqual([...REQUIRED_2026].sort());
  });
  it('server-stateless: a call needing sampling the client did not declare fails 400 -32021, naming it', () => {
    const wanted = ['sep-2575-server-rejects-undeclared-capability', 'sep-2575-missing-capability-http-400'];
    const found = (checks.get('server-stateless') ?? []).filter((c) => wanted.includes(c.id));
    expect(found.map((c) => [c.id, c.status]).sort(), explainChecks(found)).toEqual(wanted.map((id) => [id, 'SUCCESS']).sort());
  });
  it.each(REQUIRED_2026)('%s', (scenario) => {
    expect(scenarioPassed(checks.get(scenario)), explainChecks(checks.get(scenario))).toBe(true);
  });
});
