// Records the tools of real MCP servers for the search evaluation (issue 30): each server of
// test/fixtures/large-catalog/servers.json and bench/search-eval/servers.json is started with
// its dummy credentials (no network), listed once, and stopped; what each listed (its tools and
// instructions, its package's version) goes to bench/search-eval/recorded.json. That file is not
// committed (the servers' own text stays in their packages): bench/search-quality.mjs runs this
// first when it is missing. The extra servers are installed apart from the workspace:
//
//   npm ci --prefix bench/search-eval --ignore-scripts
//   npm ci --prefix test/fixtures/large-catalog/node22-servers
//   node bench/search-record.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = path.resolve(import.meta.dirname, '..');
const tempDir = (prefix) => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));

export const EVAL_DIR = path.join(root, 'bench', 'search-eval');
export const RECORDED = path.join(EVAL_DIR, 'recorded.json');

const readServers = (file) => JSON.parse(fs.readFileSync(file, 'utf8')).servers;
/** Every server recorded: the large catalog's, then the evaluation's own. */
export const EVAL_SERVERS = [
  ...readServers(path.join(root, 'test', 'fixtures', 'large-catalog', 'servers.json')),
  ...readServers(path.join(EVAL_DIR, 'servers.json')),
];

const PACKAGE_ROOTS = [root, path.join(root, 'test'), path.join(root, 'test', 'fixtures', 'large-catalog', 'node22-servers'), EVAL_DIR];
function packageDir(name) {
  return PACKAGE_ROOTS.map((r) => path.join(r, 'node_modules', name)).find((d) => fs.existsSync(path.join(d, 'package.json')));
}

/** One server's listing: its tools and instructions, or why it could not be listed. */
async function record(server, files) {
  const dir = packageDir(server.package);
  if (dir === undefined) return { error: `${server.package} is not installed` };
  const version = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
  const fill = (v) => v.replaceAll('{files}', files);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: files,
    ...Object.fromEntries(Object.entries(server.env ?? {}).map(([k, v]) => [k, fill(v)])),
  };
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(dir, server.script), ...(server.args ?? []).map(fill)],
    env,
    cwd: files,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'blitz-search-record', version: '1' }, { capabilities: { roots: {} } });
  const timer = setTimeout(() => void transport.close(), 60_000);
  try {
    await client.connect(transport);
    // Some servers add tools once the client is known (server-everything): the list after that.
    await new Promise((r) => setTimeout(r, 300));
    const tools = [];
    let cursor;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    const instructions = client.getInstructions();
    return { version, tools, ...(instructions ? { instructions } : {}) };
  } catch (err) {
    return { error: `${server.name}: ${err.message}` };
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => undefined);
  }
}

/** Records every server (each in turn: 2 shared cores) and writes RECORDED; returns it. */
export async function recordAll(log = console.log) {
  const files = tempDir('blitz-search-record-');
  const servers = {};
  try {
    for (const s of EVAL_SERVERS) {
      const r = await record(s, files);
      if (r.error) log(`  not recorded: ${r.error}`);
      else {
        servers[s.name] = { package: s.package, ...(s.prefix ? { prefix: s.prefix } : {}), ...r };
        log(`  ${s.name}: ${r.tools.length} tools (${s.package}@${r.version})`);
      }
    }
  } finally {
    fs.rmSync(files, { recursive: true, force: true });
  }
  fs.writeFileSync(RECORDED, `${JSON.stringify({ recordedAt: new Date().toISOString(), servers }, null, 1)}\n`);
  return { servers };
}

if (import.meta.url === `file://${process.argv[1]}`) await recordAll();
