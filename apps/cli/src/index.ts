export { createProgram } from './program.js';
export type { CliContext } from './context.js';
