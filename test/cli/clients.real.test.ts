import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { BLITZ_BIN, REPO_ROOT, runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';

/**
 * The real clients, installed from npm as devDependencies of this workspace, against a
 * temporary HOME: after `blitz clients connect` each one sees the blitz entry, and those
 * that connect to their servers when listing them (Claude Code, Gemini CLI) reach Blitz.
 */
const BIN = path.join(REPO_ROOT, 'node_modules', '.bin');
const has = (program: string) => fs.existsSync(path.join(BIN, program));
const PATH = `${BIN}:${path.dirname(process.execPath)}:/usr/bin:/bin`;
/** Why a client's test is skipped: its package did not install here (npm registry unreachable, or no build for this platform). */
const missing = (program: string, pkg: string) =>
  has(program) ? '' : ` — skipped: ${pkg} is not installed (node_modules/.bin/${program} missing)`;
/** The `blitz` every client's entry must name: the one that wrote it, as a pattern. */
const BLITZ = BLITZ_BIN.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let root: string;
let blitzHome: string;
let home: string;
let project: string;
let daemon: RunningDaemon;

function run(program: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      path.join(BIN, program),
      args,
      { cwd: project, env: { PATH, HOME: home, NO_COLOR: '1', ...env }, timeout: 120_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: stdout + stderr });
      },
    );
  });
}

beforeAll(async () => {
  root = tempDir('blitz-real-clients-');
  blitzHome = path.join(root, 'blitz');
  home = path.join(root, 'home');
  project = path.join(home, 'code', 'app');
  fs.mkdirSync(project, { recursive: true });
  fs.mkdirSync(blitzHome);
  const echo = fixtureCommand('env-dump');
  writeSettings(
    blitzHome,
    `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "echo"\ncommand = ${JSON.stringify(echo.command)}\nargs = ${JSON.stringify(echo.args)}\nsandbox = false\n`,
  );
  // Each client has a server of its own that Blitz already runs: connect takes it out.
  fs.mkdirSync(path.join(home, '.gemini'));
  fs.mkdirSync(path.join(home, '.codex'));
  fs.writeFileSync(
    path.join(home, '.claude.json'),
    `${JSON.stringify({ numStartups: 1, mcpServers: { echo: { type: 'stdio', command: echo.command, args: echo.args } } }, null, 2)}\n`,
  );
  fs.writeFileSync(
    path.join(home, '.gemini', 'settings.json'),
    `{\n  // mine\n  "mcpServers": { "echo": ${JSON.stringify({ command: echo.command, args: echo.args })} }\n}\n`,
  );
  fs.writeFileSync(path.join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }));
  fs.writeFileSync(
    path.join(home, '.codex', 'config.toml'),
    `model = "o3"\n\n[mcp_servers.echo]\ncommand = ${JSON.stringify(echo.command)}\nargs = ${JSON.stringify(echo.args)}\n`,
  );
  daemon = await startDaemonProcess(blitzHome);
}, 120_000);

afterAll(async () => {
  await daemon?.stop();
  await assertNoOrphans();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('real clients after blitz clients connect', () => {
  it('connects them, through their own commands where they keep their file in memory', async () => {
    const ids = ['claude-code', 'gemini', 'codex'].filter((id) => has(id === 'claude-code' ? 'claude' : id));
    const result = await runBlitz(['clients', 'connect', ...ids], { home: blitzHome, cwd: project, env: { HOME: home, PATH } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    if (has('claude'))
      expect(result.stdout).toContain(
        'claude-code: connected ~/.claude.json: added the blitz entry; took out 1 server Blitz now runs (echo) (through claude mcp).',
      );
    if (has('codex'))
      expect(fs.readFileSync(path.join(home, '.codex', 'config.toml'), 'utf8')).toMatch(
        new RegExp(
          `^model = "o3"\n\n\\[mcp_servers\\.blitz\\]\ncommand = ".*node"\nargs = \\["${BLITZ}", "connect"\\]\nenv = \\{ BLITZ_HOME = ".*" \\}\n$`,
        ),
      );
  }, 300_000);

  it.skipIf(!has('claude'))(
    `claude mcp list reports blitz connected (@anthropic-ai/claude-code)${missing('claude', '@anthropic-ai/claude-code')}`,
    async () => {
      const list = await run('claude', ['mcp', 'list']);
      if (process.env.SHOW_CLIENT_OUTPUT) console.log(list.out);
      expect(list.out).toMatch(new RegExp(`blitz: .*${BLITZ} connect - ✔ Connected`));
      expect(list.out).not.toMatch(/^echo:/m);
    },
    180_000,
  );

  it.skipIf(!has('gemini'))(
    `gemini mcp list reports blitz connected (@google/gemini-cli, folder trusted)${missing('gemini', '@google/gemini-cli')}`,
    async () => {
      const list = await run('gemini', ['mcp', 'list']);
      if (process.env.SHOW_CLIENT_OUTPUT) console.log(list.out);
      expect(list.out).toMatch(new RegExp(`blitz: .*${BLITZ} connect \\(stdio\\) - Connected`));
      expect(list.out).not.toMatch(/echo:/);
      expect(fs.readFileSync(path.join(home, '.gemini', 'settings.json'), 'utf8')).toContain('// mine');
    },
    180_000,
  );

  it.skipIf(!has('claude') && !has('gemini'))(
    'each client that connected is offered the tools as Blitz knows it by the name its initialize sent, and blitz clients says how (issue 30.3)',
    async () => {
      const initialized = fs
        .readFileSync(path.join(blitzHome, 'logs', 'blitz.log'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((e) => e.msg === 'client initialized');
      const clients = JSON.parse(
        (await runBlitz(['clients', '--json'], { home: blitzHome, cwd: project, env: { HOME: home } })).stdout,
      ) as Array<{
        id: string;
        clientInfoName: string;
        surface: { deferred: string; maxTools: number; because: string };
      }>;
      const expected = [
        ...(has('claude')
          ? [{ id: 'claude-code', surface: { deferred: 'never', maxTools: 100, because: 'Claude Code defers large tool sets itself' } }]
          : []),
        ...(has('gemini') ? [{ id: 'gemini', surface: { deferred: 'auto', maxTools: 100, because: 'settings: [hub]' } }] : []),
      ];
      for (const { id, surface } of expected) {
        const row = clients.find((c) => c.id === id)!;
        expect(row.surface, id).toEqual(surface);
        // `gemini mcp list` connects as "mcp-test-client" (its chat sessions as gemini-cli-mcp-client): only Claude Code's list shows its own name.
        if (id === 'claude-code')
          expect(initialized, id).toContainEqual(expect.objectContaining({ client: row.clientInfoName, ...surface }));
      }
      const table = (await runBlitz(['clients'], { home: blitzHome, cwd: project, env: { HOME: home } })).stdout;
      expect(table).toMatch(/^CLIENT .* TOOLS\n/);
      if (has('claude')) expect(table).toMatch(/^claude-code .* all listed\n/m);
      if (has('gemini')) expect(table).toMatch(/^gemini .* 100, then search\n/m);
    },
    60_000,
  );

  it.skipIf(!has('codex'))(
    `codex mcp list shows the entry (@openai/codex does not connect when listing)${missing('codex', '@openai/codex')}`,
    async () => {
      const list = await run('codex', ['mcp', 'list'], { CODEX_HOME: path.join(home, '.codex') });
      if (process.env.SHOW_CLIENT_OUTPUT) console.log(list.out);
      expect(list.code).toBe(0);
      expect(list.out).toMatch(new RegExp(`blitz +\\S*node +${BLITZ} connect +BLITZ_HOME=\\*+`));
      expect(list.out).not.toMatch(/^echo /m);
    },
    180_000,
  );

  it('disconnect gives the clients their servers back', async () => {
    const result = await runBlitz(['clients', 'disconnect'], { home: blitzHome, cwd: project, env: { HOME: home, PATH } });
    expect(result.code).toBe(0);
    if (has('claude')) {
      const list = await run('claude', ['mcp', 'list']);
      expect(list.out).toMatch(/echo: .* - ✔ Connected/);
      expect(list.out).not.toMatch(/blitz:/);
    }
  }, 300_000);
});
