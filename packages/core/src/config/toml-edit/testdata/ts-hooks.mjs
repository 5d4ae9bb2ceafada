// Module hooks that let a plain `node` child import this package's TypeScript sources:
// `./x.js` imports resolve to `./x.ts`, which TypeScript transpiles on load. With
// BLITZ_TS_CACHE set, transpiled files are kept there, so that many children started at
// once after a warm-up do not each load the compiler (seconds on a two-core machine).
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

const cacheDir = process.env.BLITZ_TS_CACHE;

export async function resolve(specifier, context, nextResolve) {
  if (/^\.\.?\//.test(specifier) && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
    const url = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL);
    if (existsSync(url)) return { url: url.href, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.endsWith('.ts')) return nextLoad(url, context);
  const file = new URL(url);
  const { mtimeMs, size } = await stat(file);
  const cached = cacheDir && path.join(cacheDir, `${createHash('sha1').update(`${url} ${mtimeMs} ${size}`).digest('hex')}.js`);
  if (cached && existsSync(cached)) return { format: 'module', source: await readFile(cached, 'utf8'), shortCircuit: true };
  const { default: ts } = await import('typescript');
  const { outputText } = ts.transpileModule(await readFile(file, 'utf8'), {
    fileName: url,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  if (cached) {
    await mkdir(cacheDir, { recursive: true });
    await writeFile(cached, outputText);
  }
  return { format: 'module', source: outputText, shortCircuit: true };
}
