import path from 'node:path';
import { stronglyConnected } from './strongly-connected.js';

/** A test imports what it tests and the helpers beside it: it is on no folder's side of a cycle. */
const TEST = /\.(test|spec)\.[cm]?tsx?$/;

const fileCycles = new WeakMap();
const folderCycles = new WeakMap();

/** The graph's files that are on an import cycle: file → its component's number. */
export function fileCyclesOf(graph) {
  return kept(fileCycles, graph, () => stronglyConnected([...graph.files], (f) => graph.importsOf(f)));
}

/**
 * The folders that import each other, at any depth: a file in folder A importing one in B is
 * an edge between the two sibling folders under their common parent that hold them (A and B
 * themselves if they sit side by side). A folder importing from its own parent or a subfolder
 * is no edge: the parent holds it. Tests are left out.
 */
export function folderCyclesOf(graph) {
  return kept(folderCycles, graph, () => {
    const edges = new Map();
    const examples = new Map();
    for (const from of graph.files) {
      if (TEST.test(from)) continue;
      for (const to of graph.importsOf(from)) {
        const pair = folderPair(from, to);
        if (pair === undefined) continue;
        const [a, b] = pair;
        if (!edges.has(a)) edges.set(a, new Set());
        edges.get(a).add(b);
        if (!examples.has(`${a}\0${b}`)) examples.set(`${a}\0${b}`, [from, to]);
      }
    }
    const edgesOf = (folder) => [...(edges.get(folder) ?? [])];
    return { component: stronglyConnected([...edges.keys()], edgesOf), edgesOf, example: (a, b) => examples.get(`${a}\0${b}`) };
  });
}

/** The two sibling folders an import crosses between, or undefined when one holds the other. */
export function folderPair(from, to) {
  const a = path.dirname(from).split(path.sep);
  const b = path.dirname(to).split(path.sep);
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  if (common === a.length || common === b.length) return undefined;
  return [a.slice(0, common + 1).join(path.sep), b.slice(0, common + 1).join(path.sep)];
}

export function isTest(file) {
  return TEST.test(file);
}

function kept(cache, graph, derive) {
  const held = cache.get(graph);
  if (held && held.version === graph.version) return held.value;
  const value = derive();
  cache.set(graph, { version: graph.version, value });
  return value;
}
