// The client under test for the MCP conformance suite's client auth scenarios
// (`conformance client --command "node blitz-auth-client.mjs" --scenario auth/…`, which
// appends the scenario server's URL). It does what a user does: a Blitz home with one server
// at that URL, `blitz mcp login conf --no-browser` with this script playing the browser, then
// a tool listed and called through `blitz connect`; a "needs more access" or "needs sign-in"
// answer (a step-up; an authorization server that changed), from the call or, when no tool is
// listed, from `blitz mcp list`, is one more login and one more try (at most two). The daemon that connect started is stopped at the end.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

// The `blitz` under test: the suite's (BLITZ_BIN), else the clone's own launcher.
const BLITZ =
  process.env.BLITZ_BIN ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'apps', 'cli', 'bin', 'blitz.js');
/** The client ID metadata document the basic-cimd scenario expects. */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';
const MAX_STEP_UPS = 2;
// The hub's first listing waits for the scenario's server however slow a loaded machine makes its start
// ([hub] list_wait_ms, 60 s here), so the one listing this driver takes has its tools.
// The suite hides a client's output: BLITZ_CONFORMANCE_LOG=file keeps it.
const note = (text) =>
  process.env.BLITZ_CONFORMANCE_LOG ? fs.appendFileSync(process.env.BLITZ_CONFORMANCE_LOG, text) : process.stderr.write(text);

const url = process.argv.at(-1);
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}');
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-conformance-'));
const env = {
  PATH: process.env.PATH,
  HOME: home,
  BLITZ_HOME: home,
  ...(context.client_secret ? { CONF_CLIENT_SECRET: context.client_secret } : {}),
};
const oauth = context.client_id
  ? `\n[mcp.servers.oauth]\nclient_id = "${context.client_id}"\n${context.client_secret ? 'client_secret = "${CONF_CLIENT_SECRET}"\n' : ''}`
  : '';
fs.writeFileSync(
  path.join(home, 'settings.toml'),
  `[oauth]\nclient_metadata_url = "${CIMD_URL}"\n\n[daemon]\nport = 0\n\n[hub]\nlist_wait_ms = 60000\n\n[[mcp.servers]]\nname = "conf"\nurl = "${url}"\nauto_approve = true\n${oauth}`,
);

function blitz(args) {
  return spawn(process.execPath, [BLITZ, ...args], { cwd: home, env, stdio: ['pipe', 'pipe', 'pipe'] });
}

/** `blitz mcp login conf`, the browser played here: authorize, then the redirect to the callback. */
async function login() {
  const child = blitz(['mcp', 'login', 'conf', '--no-browser']);
  let output = '';
  let browsed = false;
  const exited = new Promise((resolve) => child.once('close', resolve));
  const onData = (d) => {
    output += d.toString();
    const found = /^\s+(http:\/\/\S+\?\S+)$/m.exec(output)?.[1];
    if (found && !browsed) {
      browsed = true;
      void (async () => {
        const approve = await fetch(found, { redirect: 'manual' });
        const location = approve.headers.get('location');
        if (location) await (await fetch(location)).text();
      })().catch((err) => note(`browser: ${err.message}\n`));
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const code = await exited;
  note(output);
  if (code !== 0) throw new Error(`blitz mcp login exited with ${code}`);
}

/** What `blitz mcp list` says of the server, as a user reads it: "needs sign-in: run blitz mcp login conf" when it does. */
async function serverState() {
  const child = blitz(['mcp', 'list']);
  let output = '';
  child.stdout.on('data', (d) => (output += d.toString()));
  child.stderr.on('data', (d) => (output += d.toString()));
  await new Promise((resolve) => child.once('close', resolve));
  note(output);
  return output;
}

async function callThroughConnect() {
  const client = new Client({ name: 'blitz-conformance', version: '0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BLITZ, 'connect', '--workspace', home],
      env,
      cwd: home,
      stderr: 'inherit',
    }),
  );
  try {
    for (let stepUps = 0; ; stepUps++) {
      const { tools } = await client.listTools();
      note(`tools: ${tools.map((t) => t.name).join(', ')}\n`);
      // The scenario's own tool, not the hub's resource tools.
      const tool = tools.find((t) => !/_mcp_resources?$/.test(t.name));
      // None listed: the server refused the hub's listing (its authorization server changed as the hub connected), as a user sees in blitz mcp list.
      const text = tool
        ? await client.callTool({ name: tool.name, arguments: {} }).then(
            (r) => (r.isError ? JSON.stringify(r.content) : ''),
            (err) => err.message,
          )
        : await serverState();
      if (!/needs more access|needs sign-in/.test(text)) return text === '' ? undefined : text;
      if (stepUps >= MAX_STEP_UPS) throw new Error(`still refused after ${stepUps} step-ups: ${text}`);
      await login();
    }
  } finally {
    await client.close();
  }
}

let failed = false;
try {
  await login();
  const error = await callThroughConnect();
  if (error) note(`tool call answered an error: ${error}\n`);
} catch (err) {
  failed = true;
  note(`${err.message}\n`);
} finally {
  await new Promise((resolve) => blitz(['daemon', 'stop']).once('close', resolve));
  fs.rmSync(home, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
