import fs from 'node:fs';
import { CliError } from './context.js';

export type FolderProblem = 'does not exist' | 'is not a folder';

/**
 * `dir` when it is a folder; otherwise a CliError in the caller's words (`said`), so a typo in
 * a path is not taken for a folder without MCP config.
 */
export function requireFolder(dir: string, said: (problem: FolderProblem) => string): string {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch {
    throw new CliError(said('does not exist'));
  }
  if (!stat.isDirectory()) throw new CliError(said('is not a folder'));
  return dir;
}
