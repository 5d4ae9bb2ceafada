import { graphOf, importsOf } from './import-graph.js';
import { folderCyclesOf, folderPair, isTest } from './import-cycles.js';
import { locOf, relative } from './no-import-cycle.js';
import { shortestPath } from './strongly-connected.js';

/** Folders of one package import each other in one direction only (tests aside). */
export const noFolderCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Sibling folders of a package do not import each other, directly or through others.' },
    schema: [],
    messages: {
      cycle: 'Folder cycle: {{cycle}} ({{back}}). Move what both need into a folder neither imports from, or join them.',
    },
  },
  create(context) {
    return {
      Program() {
        const file = context.physicalFilename;
        const graph = graphOf(file);
        const imports = importsOf(context.sourceCode.text);
        graph.update(file, imports);
        if (isTest(file)) return;
        const { component, edgesOf, example } = folderCyclesOf(graph);
        const told = new Set();
        for (const i of imports) {
          const target = graph.resolve(file, i.specifier);
          const pair = target === undefined ? undefined : folderPair(file, target);
          if (pair === undefined) continue;
          const [from, to] = pair;
          const mine = component.get(from);
          if (mine === undefined || component.get(to) !== mine || told.has(to)) continue;
          told.add(to);
          const back = shortestPath(to, from, edgesOf, (f) => component.get(f) === mine);
          const cycle = [from, ...back].map((f) => `${relative(graph.root, f)}/`).join(' → ');
          const steps = back.slice(1).map((f, n) =>
            example(back[n], f)
              .map((e) => relative(graph.root, e))
              .join(' imports '),
          );
          context.report({ loc: locOf(context, i), messageId: 'cycle', data: { cycle, back: steps.join('; ') } });
        }
      },
    };
  },
};
