import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../../packages/core/src/testing/fixture-servers.js';
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

// test/fixtures/modern.mjs, our server on the SDK v2, against what the conformance runner
// (0.2.0-alpha.12, on its own Node 22) requires of a 2026-07-28 server: the 37 scenarios of
// `server --requirements 2026-07-28`, over streamable HTTP, directly. And its 2025 side over stdio,
// as a 2025 client (Blitz's own SDK v1) meets it: an elicitation mid-call, a list change, a subscription.
const HERE = path.dirname(fileURLToPath(import.meta.url));

let home: string;
let fixture: ChildProcess;
let exitCode: number | null;
let checks: Map<string, Check[]>;

beforeAll(async () => {
  home = tempDir('blitz-modern-conformance-');
  fixture = spawn(process.execPath, [fixturePath('modern'), 'http'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await firstLinePort(fixture);
  const outDir = path.join(home, 'results');
  const run = await runConformance(['server', '--url', `http://localhost:${port}/mcp`, '--requirements', '2026-07-28', '-o', outDir], {
    cwd: HERE,
    timeoutMs: 150_000,
  });
  exitCode = run.code;
  await stopFixture();
  checks = readServerChecks(outDir, REQUIRED_2026);
  if (checks.size === 0) throw new Error(`the conformance runner gave no results:\n${run.output}`);
}, 180_000);

afterAll(async () => {
  if (checks) {
    const passed = REQUIRED_2026.filter((s) => scenarioPassed(checks.get(s))).length;
    // The CI log's score.
    console.log(
      `conformance 2026-07-28 server requirements, test/fixtures/modern.mjs directly: ${passed}/${REQUIRED_2026.length} scenarios`,
    );
  }
  await stopFixture();
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('conformance 2026-07-28 server requirements (0.2.0-alpha.12): the SDK v2 fixture, directly', () => {
  it('the runner finds every required scenario passed', () => {
    expect(exitCode).toBe(0);
  });
  it.each(REQUIRED_2026)('%s', (scenario) => {
    expect(scenarioPassed(checks.get(scenario)), explainChecks(checks.get(scenario))).toBe(true);
  });
});

describe('the SDK v2 fixture over stdio, to a 2025-11-25 client', () => {
  it('elicits mid-call, announces an added tool, and tells a subscriber its resource changed', async () => {
    const client = new Client({ name: 'legacy-client', version: '0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { answer: 'blue' } };
    });
    const listChanged = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    const updated = new Promise<string>((resolve) =>
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)),
    );
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [fixturePath('modern')], stderr: 'ignore' }));
    try {
      expect(client.getServerVersion()?.name).toBe('modern-fixture');
      expect(await client.callTool({ name: 'ask', arguments: { question: 'Which colour?' } })).toEqual({
        content: [{ type: 'text', text: 'answer: blue' }],
      });
      expect(asked).toEqual(['Which colour?']);

      await client.callTool({ name: 'add_tool', arguments: { name: 'added_echo' } });
      await listChanged;
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('added_echo');

      await client.subscribeResource({ uri: 'test://watched-resource' });
      await client.callTool({ name: 'touch', arguments: { uri: 'test://watched-resource' } });
      expect(await updated).toBe('test://watched-resource');
    } finally {
      await client.close();
    }
    await assertNoOrphans();
  });
});

async function stopFixture(): Promise<void> {
  if (fixture?.exitCode !== null || fixture.signalCode !== null) return;
  const exited = new Promise((resolve) => fixture.once('exit', resolve));
  fixture.kill('SIGTERM');
  await exited;
}

/** The port an HTTP fixture prints as its first line. */
function firstLinePort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve((JSON.parse(out.split('\n')[0]!) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`the fixture exited with ${code}`)));
  });
}
