// The `blitz` package's folder, as npm installs it, staged from the built workspaces' `dist/`:
// what `npm run pack` (scripts/pack.mjs) tars, and what the cross-process tests run
// (test/global-setup.ts), so that they run the code users get.
//
// The CLI and the workspaces it uses are bundled with esbuild, into one folder of ES modules
// split by use: the CLI's entry (`dist/main.js`), the daemon's own entry (`dist/blitzd.js`, what
// `blitz daemon start` runs), and shared chunks. Every file sits directly in `dist/`, beside
// `../package.json` and `../bin/`, as each app's own `dist/` does in the clone, so `VERSION` and
// `blitzCommand()` read the same relative paths in both. What cannot be bundled (native or
// binary files), or is too big to load at every start, stays a real dependency: EXTERNAL below.
// One bundled module graph is what makes a start cheap: Node 20 loads the clone's ES modules one
// by one (the figures: docs/testing.md).
//
// Static assets: a workspace with a `dist-static/` folder after its build (the settings page,
// apps/settings) is copied to `static/<workspace folder name>/` in the package. Bundled code
// finds that folder through the build-time constant `__BLITZ_STATIC_DIR__` (a path relative to
// the bundle's files, "../static/"); unbundled code, where it is undefined, uses its workspace's
// own `dist-static/`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The package's name on npm: `blitz` is taken there, so a scoped name (a placeholder until published). */
export const PACKAGE_NAME = '@blitz-mcp/blitz';

/** Dependencies kept out of the bundle, by the workspace whose package.json pins them. */
const EXTERNAL = {
  // A native addon, loaded with require() on first use of the keychain.
  '@napi-rs/keyring': 'packages/core',
  // A 700 KB dictionary, loaded with require() on the first tool search, not at every start.
  synonyms: 'packages/core',
  // Ships the tray's helper binaries, found beside its own files.
  systray2: 'apps/tray',
  // Ships notifier binaries (macOS, Windows) in its vendor/ folder.
  'node-notifier': 'apps/tray',
};

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

async function bundle(stage, minify) {
  for (const entry of ['apps/cli/dist/main.js', 'apps/daemon/dist/main.js']) {
    if (!fs.existsSync(path.join(ROOT, entry))) throw new Error(`${entry} is missing: run npm run build first`);
  }
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: { main: 'apps/cli/dist/main.js', blitzd: 'apps/daemon/dist/main.js' },
    outdir: path.join(stage, 'dist'),
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    // ESM builds first: a UMD main (jsonc-parser's) hides its require() calls from the bundler.
    mainFields: ['module', 'main'],
    target: 'node20.18',
    external: Object.keys(EXTERNAL),
    define: { __BLITZ_DAEMON_ENTRY__: JSON.stringify('./blitzd.js'), __BLITZ_STATIC_DIR__: JSON.stringify('../static/') },
    // Bundled CommonJS (undici, ajv, …) calls require() for Node's own modules.
    banner: {
      js: "import { createRequire as __blitzCreateRequire } from 'node:module';\nconst require = __blitzCreateRequire(import.meta.url);",
    },
    minify,
    legalComments: 'external',
    logLevel: 'warning',
  });
}

function manifest() {
  const root = readJson(path.join(ROOT, 'package.json'));
  const cli = readJson(path.join(ROOT, 'apps/cli/package.json'));
  const dependencies = {};
  for (const [name, workspace] of Object.entries(EXTERNAL)) {
    const range = readJson(path.join(ROOT, workspace, 'package.json')).dependencies?.[name];
    if (!range) throw new Error(`${workspace}/package.json does not depend on ${name}`);
    dependencies[name] = range;
  }
  return {
    name: PACKAGE_NAME,
    version: cli.version,
    description: root.description,
    type: 'module',
    bin: { blitz: 'bin/blitz.cjs' },
    engines: cli.engines,
    dependencies,
    files: ['bin', 'dist', 'static', 'README.md'],
  };
}

function copyStatic(stage) {
  for (const dir of ['apps', 'packages']) {
    for (const name of fs.readdirSync(path.join(ROOT, dir))) {
      const assets = path.join(ROOT, dir, name, 'dist-static');
      if (fs.existsSync(assets)) fs.cpSync(assets, path.join(stage, 'static', name), { recursive: true });
    }
  }
}

/**
 * Fills the empty folder `stage` with the package: `package.json`, `bin/`, `dist/`, `static/`
 * and the README; its dependencies (EXTERNAL) are not installed there. `minify: false` keeps
 * names and lines readable in a test's stack trace.
 */
export async function stagePackage(stage, { minify = true } = {}) {
  fs.mkdirSync(path.join(stage, 'bin'), { recursive: true });
  await bundle(stage, minify);
  fs.writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest(), null, 2)}\n`);
  for (const file of ['blitz.cjs', 'node-version.cjs'])
    fs.copyFileSync(path.join(ROOT, 'apps/cli/bin', file), path.join(stage, 'bin', file));
  fs.chmodSync(path.join(stage, 'bin', 'blitz.cjs'), 0o755);
  fs.copyFileSync(path.join(ROOT, 'README.md'), path.join(stage, 'README.md'));
  copyStatic(stage);
}
