import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The files the graph holds: TypeScript sources (a `.js` import names its `.ts`). */
const SOURCE = /\.[cm]?tsx?$/;
const DECLARATION = /\.d\.[cm]?ts$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'coverage']);

/** The package (nearest folder with a package.json) a file belongs to. */
export function packageRootOf(file) {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.dirname(file);
  }
}

/**
 * The relative imports of one file's text, each with where it stands in the text: static and
 * type-only imports, re-exports, `import()` and `require()` — all of them are dependencies.
 */
export function importsOf(text) {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles.filter((i) => i.fileName.startsWith('.')).map((i) => ({ specifier: i.fileName, pos: i.pos, end: i.end }));
}

/** The file a relative specifier names among `files`, or undefined (a JSON file, a path out of the package). */
export function resolveImport(from, specifier, files) {
  const base = path.resolve(path.dirname(from), specifier.replace(/[?#].*$/, ''));
  const stem = base.replace(/\.([cm]?)jsx?$/, '');
  const ext = /\.([cm]?)jsx?$/.exec(base);
  const candidates = ext
    ? [`${stem}.${ext[1]}ts`, `${stem}.${ext[1]}tsx`]
    : [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  return candidates.find((c) => files.has(c));
}

/** Every TypeScript source under a package's folder, dependencies and build output left out. */
export function sourcesUnder(root) {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) walk(full);
      } else if (SOURCE.test(entry.name) && !DECLARATION.test(entry.name)) found.push(full);
    }
  };
  walk(root);
  return found;
}

/**
 * One package's import graph, read from disk once per lint run: file → the files it imports.
 * `update` replaces one file's imports with those of the text being linted (an editor's
 * unsaved buffer), so a cycle made or broken there shows at once.
 */
export class ImportGraph {
  /** @type {Map<string, string[]>} */
  #edges = new Map();
  /** @type {Set<string>} */
  #files;
  #version = 0;

  constructor(root) {
    this.root = root;
    this.#files = new Set(sourcesUnder(root));
    for (const file of this.#files) this.#edges.set(file, this.#targets(file, importsOf(fs.readFileSync(file, 'utf8'))));
  }

  /** Goes up by one each time the graph changes: what is derived from it is kept per version. */
  get version() {
    return this.#version;
  }

  get files() {
    return this.#edges.keys();
  }

  importsOf(file) {
    return this.#edges.get(file) ?? [];
  }

  resolve(from, specifier) {
    return resolveImport(from, specifier, this.#files);
  }

  /** The file as it is being linted: its imports replace those read from disk, if they differ. */
  update(file, imports) {
    const targets = this.#targets(file, imports);
    const before = this.#edges.get(file);
    if (before && before.length === targets.length && before.every((t, i) => t === targets[i])) return;
    this.#files.add(file);
    this.#edges.set(file, targets);
    this.#version++;
  }

  #targets(file, imports) {
    const targets = new Set();
    for (const i of imports) {
      const target = this.resolve(file, i.specifier);
      if (target !== undefined && target !== file) targets.add(target);
    }
    return [...targets];
  }
}

const graphs = new Map();

/** The graph of the package `file` is in, built on first use and kept for the lint run. */
export function graphOf(file) {
  const root = packageRootOf(file);
  let graph = graphs.get(root);
  if (graph === undefined) graphs.set(root, (graph = new ImportGraph(root)));
  return graph;
}
