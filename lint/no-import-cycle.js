import path from 'node:path';
import { graphOf, importsOf } from './import-graph.js';
import { fileCyclesOf } from './import-cycles.js';
import { shortestPath } from './strongly-connected.js';

/** `import-x/no-cycle`'s job for one package at a time, from one graph read once per lint run. */
export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'A file imports nothing that imports it back, directly or through others (type-only imports too).' },
    schema: [],
    messages: {
      cycle: 'Import cycle: {{cycle}}. Move what both sides need into a file that imports neither.',
    },
  },
  create(context) {
    return {
      Program() {
        const file = context.physicalFilename;
        const graph = graphOf(file);
        const imports = importsOf(context.sourceCode.text);
        graph.update(file, imports);
        const component = fileCyclesOf(graph);
        const mine = component.get(file);
        if (mine === undefined) return;
        const told = new Set();
        for (const i of imports) {
          const target = graph.resolve(file, i.specifier);
          if (target === undefined || component.get(target) !== mine || told.has(target)) continue;
          told.add(target);
          const back = shortestPath(
            target,
            file,
            (f) => graph.importsOf(f),
            (f) => component.get(f) === mine,
          );
          const cycle = [file, ...back].map((f) => relative(graph.root, f)).join(' → ');
          context.report({ loc: locOf(context, i), messageId: 'cycle', data: { cycle } });
        }
      },
    };
  },
};

export function relative(root, file) {
  return path.relative(root, file).split(path.sep).join('/');
}

export function locOf(context, i) {
  return { start: context.sourceCode.getLocFromIndex(i.pos), end: context.sourceCode.getLocFromIndex(i.end) };
}
