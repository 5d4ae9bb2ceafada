import type { Settings } from '@blitz/core';
import type { Workspace } from '../workspaces/workspace.js';

/** Whom a session serves, and the settings in force: what its deferred tools read of it. */
export interface SessionScope {
  readonly workspace: Workspace;
  readonly agent: string;
  readonly readOnly: boolean;
  /** The settings in force now: permissions and limits follow live edits. */
  settings(): Settings;
}
