// Builds the settings page into dist-static/: one script bundle (Preact included), the stylesheet
// and index.html. Nothing is fetched from elsewhere at run time; the daemon serves that folder.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
// dist-static/, not dist/: scripts/pack.mjs copies a workspace's dist-static/ into the package as is.
const dist = path.join(here, 'dist-static');
/** The bar for the framework runtime; the whole page stays under it. */
const MAX_GZIPPED_BYTES = 50 * 1024;

fs.rmSync(dist, { recursive: true, force: true });
fs.mkdirSync(dist, { recursive: true });
await esbuild.build({
  entryPoints: [path.join(here, 'src/main.tsx')],
  outfile: path.join(dist, 'app.js'),
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
});
for (const file of ['index.html', 'app.css', 'favicon.svg']) fs.copyFileSync(path.join(here, 'src', file), path.join(dist, file));

const script = fs.readFileSync(path.join(dist, 'app.js'));
const gzipped = zlib.gzipSync(script).length;
if (gzipped > MAX_GZIPPED_BYTES) {
  console.error(`settings page: app.js is ${gzipped} bytes gzipped, over the ${MAX_GZIPPED_BYTES} byte budget`);
  process.exit(1);
}
