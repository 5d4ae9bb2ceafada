import { noFolderCycle } from './no-folder-cycle.js';
import { noImportCycle } from './no-import-cycle.js';

/** Blitz's own lint rules (eslint.config.js turns them on). */
export const blitzPlugin = {
  meta: { name: 'blitz' },
  rules: { 'no-import-cycle': noImportCycle, 'no-folder-cycle': noFolderCycle },
};
