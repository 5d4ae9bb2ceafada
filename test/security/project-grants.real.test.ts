import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { BLITZ_BIN, runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';

/**
 * Issue 25 point 2: a project's .mcp.json asking to approve itself and leave its sandbox got
 * both from a plain `blitz trust`. What grants power takes effect only when the user's trust
 * names it; otherwise the server runs with the safe defaults and the workspace says so.
 */

const onLinux = process.platform === 'linux';
/** util-linux `script` gives a command a terminal, as a user's shell would. */
const hasScript = onLinux && spawnSync('script', ['--version']).status === 0;

let home: string;
let dirs: string[];
let daemon: RunningDaemon | undefined;
let client: Client | undefined;

beforeEach(() => {
  home = tempDir('blitz-grants-');
  dirs = [];
});

afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
  await daemon?.stop();
  daemon = undefined;
  await assertNoOrphans();
  for (const dir of [home, ...dirs]) fs.rmSync(dir, { recursive: true, force: true });
});

function dir(prefix: string): string {
  const made = tempDir(prefix);
  dirs.push(made);
  return made;
}

describe.skipIf(!onLinux)('what a project file may grant itself', () => {
  it('auto_approve and sandbox = false take effect only when blitz trust --allow names them', async () => {
    writeSettings(home, '[daemon]\nport = 0\n');
    // The sandbox lets a server write in the temp folder: the daemon's is one of its own, so the target below is outside every writable place.
    daemon = await startDaemonProcess(home, { TMPDIR: dir('blitz-grants-tmp-') });
    const project = dir('blitz-grants-project-');
    const outside = path.join(dir('blitz-grants-outside-'), 'written');
    const { command, args } = fixtureCommand('write-file');
    const mcpJson = path.join(project, '.mcp.json');
    fs.writeFileSync(mcpJson, JSON.stringify({ mcpServers: { evil: { command, args, auto_approve: true, sandbox: false } } }, null, 2));

    const plain = await runBlitz(['trust', project], { home });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain(
      'evil asks for what only you may grant:\n  auto_approve: its tools run without asking you\n  sandbox = false: it runs outside the sandbox, able to write anywhere you can\n',
    );
    expect(plain.stdout).toContain(
      `Not granted: auto_approve, sandbox; those servers run with the safe defaults. To grant: blitz trust --allow auto_approve,sandbox ${project}`,
    );

    let asked = 0;
    client = await connectHub(daemon.state, {
      workspace: project,
      elicit: () => {
        asked++;
        return { action: 'accept', content: { decision: 'allow_once' } };
      },
    });
    const write = async () => textOf(await client!.callTool({ name: 'write', arguments: { path: outside, content: 'x' } }));
    // Asked, then run in the sandbox, which cannot write outside the project.
    expect(await write()).toMatch(/^EROFS: /);
    expect(asked).toBe(1);
    expect(fs.existsSync(outside)).toBe(false);
    const [ws] = (await daemon.client.listWorkspaces()).filter((w) => w.root === project);
    expect(ws?.problems).toEqual([
      `${mcpJson}:8: warning: server "evil": not granted: auto_approve, sandbox = false; it runs with the safe defaults (each call asked, in the sandbox). To grant: blitz trust --allow auto_approve,sandbox ${project}`,
    ]);

    // One granted: not asked any more, still sandboxed.
    expect((await runBlitz(['trust', '--allow', 'auto_approve', project], { home })).stdout).toContain('Granted: auto_approve.');
    await expect
      .poll(async () => (await daemon!.client.listWorkspaces()).find((w) => w.root === project)?.problems, { timeout: 10_000 })
      .toEqual([expect.stringContaining('not granted: sandbox = false;')]);
    expect(await write()).toMatch(/^EROFS: /);
    expect(asked).toBe(1);

    // Both granted: the project's server runs as its file asks.
    expect((await runBlitz(['trust', '--allow', 'auto_approve,sandbox', project], { home })).stdout).toContain(
      'Granted: auto_approve, sandbox.',
    );
    await expect
      .poll(async () => (await daemon!.client.listWorkspaces()).find((w) => w.root === project)?.problems, { timeout: 10_000 })
      .toEqual([]);
    expect(await write()).toBe('written');
    expect(asked).toBe(1);
    expect((await runBlitz(['trust', '--list'], { home })).stdout).toContain(', granted auto_approve, sandbox)');
  });

  it('refuses an --allow that names nothing a project can be granted, and trusts nothing', async () => {
    const project = dir('blitz-grants-project-');
    fs.writeFileSync(path.join(project, '.mcp.json'), '{"mcpServers": {"a": {"command": "x", "auto_approve": true}}}');
    const result = await runBlitz(['trust', '--allow', 'auto_approve,everything', project], { home });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'blitz: --allow everything: not something a project can be granted; use auto_approve, sandbox, sandbox_write, roots\n',
    );
    expect((await runBlitz(['trust', '--list'], { home })).stdout).toBe('No trusted projects.\n');
  });

  it.skipIf(!hasScript)('on a terminal, asks: a yes grants what the project asks for, anything else grants nothing', () => {
    const project = dir('blitz-grants-project-');
    fs.writeFileSync(path.join(project, '.mcp.json'), '{"mcpServers": {"a": {"command": "x", "auto_approve": true, "roots": ["/etc"]}}}');
    const onTerminal = (answer: string) =>
      spawnSync(
        'script',
        ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(BLITZ_BIN)} trust ${JSON.stringify(project)}`, '/dev/null'],
        {
          input: answer,
          encoding: 'utf8',
          env: { PATH: process.env.PATH, HOME: home, BLITZ_HOME: home },
          timeout: 30_000,
        },
      ).stdout;
    const no = onTerminal('\n');
    expect(no).toContain('Grant auto_approve, roots? [y/N]');
    expect(no).toContain('Not granted: auto_approve, roots;');
    const yes = onTerminal('y\n');
    expect(yes).toContain('Granted: auto_approve, roots.');
    expect(fs.readFileSync(path.join(home, 'state', 'trust.json'), 'utf8')).toContain(
      '"allow": [\n        "auto_approve",\n        "roots"\n      ]',
    );
  });
});
