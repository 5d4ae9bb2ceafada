import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { BLITZ_BIN, REPO_ROOT, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { startScriptedAnthropic, type ScriptedAnthropic } from '../support/scripted-anthropic.js';

/**
 * Deferred tools as Claude Code meets them (issue 16): `claude -p` through `blitz connect`,
 * its model a scripted stand-in for the Anthropic API on 127.0.0.1 that searches, then calls
 * what it found by name in the very next turn — as a model does when the found tool is in the
 * tool list it was given.
 */
const BIN = path.join(REPO_ROOT, 'node_modules', '.bin');
const hasClaude = fs.existsSync(path.join(BIN, 'claude'));
/** server-everything: its own instructions are long (over 2 KB), as many servers' are. */
const EVERYTHING = path.join(
  path.dirname(
    createRequire(path.join(REPO_ROOT, 'packages', 'core', 'package.json')).resolve('@modelcontextprotocol/server-everything/package.json'),
  ),
  'dist',
  'index.js',
);
const PATH = `${BIN}:${path.dirname(process.execPath)}:/usr/bin:/bin`;

let root: string;
let blitzHome: string;
let home: string;
let project: string;
let daemon: RunningDaemon;
let model: ScriptedAnthropic;

function claude(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    // MCP_CONNECTION_NONBLOCKING=0: the first turn waits for blitz to connect (by default it may
    // go without it on a loaded machine); ENABLE_TOOL_SEARCH=false: MCP tools reach the model as
    // listed, not behind Claude Code's own tool search, so the turn shows what Blitz listed.
    const base = {
      PATH,
      HOME: home,
      NO_COLOR: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      MCP_CONNECTION_NONBLOCKING: '0',
      ENABLE_TOOL_SEARCH: 'false',
    };
    const child = execFile(
      path.join(BIN, 'claude'),
      args,
      { cwd: project, env: { ...base, ...env }, timeout: 120_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: stdout + stderr });
      },
    );
    child.stdin?.end();
  });
}

beforeAll(async () => {
  if (!hasClaude) return;
  root = tempDir('blitz-deferred-claude-');
  blitzHome = path.join(root, 'blitz');
  home = path.join(root, 'home');
  project = path.join(home, 'app');
  fs.mkdirSync(project, { recursive: true });
  fs.mkdirSync(blitzHome);
  writeSettings(
    blitzHome,
    `[daemon]\nport = 0\n\n[hub]\ndeferred = "always"\n\n[[mcp.servers]]\nname = "everything"\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify([EVERYTHING, 'stdio'])}\nsandbox = false\nauto_approve = true\n`,
  );
  daemon = await startDaemonProcess(blitzHome);
  model = await startScriptedAnthropic([
    { tool: 'mcp__blitz__search_tools', input: { query: 'get-sum', limit: 1 } },
    { tool: 'mcp__blitz__get-sum', input: { a: 2, b: 40 } },
  ]);
  const added = await claude([
    'mcp',
    'add',
    '--scope',
    'user',
    'blitz',
    '-e',
    `BLITZ_HOME=${blitzHome}`,
    '--',
    process.execPath,
    BLITZ_BIN,
    'connect',
  ]);
  expect(added.out).toContain('Added stdio MCP server blitz');
}, 120_000);

afterAll(async () => {
  await model?.close();
  await daemon?.stop();
  await assertNoOrphans();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

describe('Claude Code with deferred tools', () => {
  it.skipIf(!hasClaude)(
    `the model is told tools are deferred, and a tool found by search_tools is in the very next turn's tool list: calling it by name runs it${hasClaude ? '' : ' — skipped: @anthropic-ai/claude-code is not installed (node_modules/.bin/claude missing)'}`,
    async () => {
      const run = await claude(['-p', 'show the environment', '--allowedTools', 'mcp__blitz', '--output-format', 'json'], {
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: 'sk-ant-test',
      });
      expect(run.code, run.out).toBe(0);
      if (process.env.SHOW_CLIENT_OUTPUT) console.log(run.out, JSON.stringify(model.turns.map((t) => t.tools)));
      const [searched, found, ended] = model.turns;
      const blitzTools = (turn: typeof searched) => turn!.tools.filter((t) => t.startsWith('mcp__blitz__')).sort();
      expect(blitzTools(searched)).toEqual([
        'mcp__blitz__call_tool',
        'mcp__blitz__list_mcp_resources',
        'mcp__blitz__read_mcp_resource',
        'mcp__blitz__search_tools',
      ]);
      // The turn right after the search's answer: the found tool is offered to the model.
      expect(blitzTools(found)).toContain('mcp__blitz__get-sum');
      const result = ended!.messages.flat().find((b) => b.type === 'tool_result' && b.tool_use_id === 'toolu_2');
      expect(result?.is_error, JSON.stringify(result)).toBeFalsy();
      expect(JSON.stringify(result?.content)).toContain('The sum of 2 and 40 is 42.');
      // Told that tools are deferred: Claude Code passes the model only the first 2,048 characters of a server's instructions.
      expect(searched!.context).toMatch(
        /Blitz: the MCP servers of [^\n]*\n\nDeferred tools: 0 of the \d+ tools of these MCP servers are in the tool list; \d+ more are deferred \(this hub defers every tool not marked direct\)\. Use search_tools/,
      );
    },
    180_000,
  );
});
