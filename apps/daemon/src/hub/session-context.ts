import type { Settings } from '@blitz/core';
import type { Workspace } from '../workspaces/workspace.js';
import type { Approver } from './approver.js';

/**
 * What a session's request handlers share (one `registerX(server, ctx)` per concern, beside
 * this file): whom the session serves, the settings in force, and its approver.
 */
export interface SessionContext {
  readonly workspace: Workspace;
  readonly agent: string;
  readonly readOnly: boolean;
  /** The settings in force now: permissions and limits follow live edits. */
  settings(): Settings;
  readonly approver: Approver;
  /** The client was just sent the tools: later changes are told against what it saw. */
  toolsShown(): void;
}
