import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json; charset=utf-8',
};

/** Set in the bundled package (scripts/stage-package.mjs): where its `static/` folder is, relative to the bundle. */
declare const __BLITZ_STATIC_DIR__: string | undefined;

/**
 * Where the built settings page is: the package's `static/settings/` when bundled, otherwise
 * `@blitz/settings`'s `dist-static/` (what `npm run build` made); undefined when neither is there.
 */
export function defaultPageDir(): string | undefined {
  if (typeof __BLITZ_STATIC_DIR__ === 'string') return fileURLToPath(new URL(`${__BLITZ_STATIC_DIR__}settings/`, import.meta.url));
  try {
    const manifest = createRequire(import.meta.url).resolve('@blitz/settings/package.json');
    return path.join(path.dirname(manifest), 'dist-static');
  } catch {
    return undefined;
  }
}

export type PageFile = { kind: 'file'; body: Buffer; type: string } | { kind: 'missing' } | { kind: 'notBuilt'; dir: string | undefined };

/**
 * One file of the page by its path under `/settings/`: only regular files inside the page's
 * folder, of the kinds the page is made of; `..`, hidden names and anything else are missing.
 */
export function readPageFile(dir: string | undefined, relative: string): PageFile {
  if (dir === undefined || !fs.existsSync(path.join(dir, 'index.html'))) return { kind: 'notBuilt', dir };
  const name = relative === '' ? 'index.html' : relative;
  const type = TYPES[path.extname(name)];
  if (type === undefined || name.split('/').some((part) => part === '' || part.startsWith('.'))) return { kind: 'missing' };
  const file = path.join(dir, name);
  if (path.relative(dir, file).startsWith('..')) return { kind: 'missing' };
  try {
    if (!fs.statSync(file).isFile()) return { kind: 'missing' };
    return { kind: 'file', body: fs.readFileSync(file), type };
  } catch {
    return { kind: 'missing' };
  }
}
