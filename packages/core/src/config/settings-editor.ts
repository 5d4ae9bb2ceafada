import { BlitzError } from '../errors/blitz-error.js';
import { formatProblem, type Problem } from './problem.js';
import { parseServerEntry } from './server-entry.js';
import { parseSettings } from './settings.js';
import {
  addServerEntry,
  editSettingsFile,
  removeServerEntry,
  replaceServerEntry,
  editPermissionList,
  setServerDisabled,
  setServerFlag,
  withPermissionList,
  withServerAdded,
  withServerDisabled,
  withServerFlag,
  withServerRemoved,
  withServerReplaced,
  type PatternChange,
  type PermissionKind,
  type ServerEntry,
} from './toml-edit/index.js';

/**
 * The edits `blitz mcp` and the control API make to settings.toml (MCP-03, MCP-47). Each
 * changes only its own entry, and is refused — writing nothing — when the entry is invalid,
 * the name is taken or unknown, or the edit would add a problem to the file.
 */
export class SettingsEditor {
  readonly file: string;

  constructor(file: string) {
    this.file = file;
  }

  async add(entry: ServerEntry): Promise<void> {
    this.#validateEntry(entry);
    await this.#edit(
      (text) => addServerEntry(text, entry, this.file),
      (doc) => withServerAdded(doc, entry),
    );
  }

  async remove(name: string): Promise<void> {
    await this.#edit(
      (text) => removeServerEntry(text, name, this.file),
      (doc) => withServerRemoved(doc, name, this.file),
    );
  }

  async setEnabled(name: string, enabled: boolean): Promise<void> {
    await this.#edit(
      (text) => setServerDisabled(text, name, !enabled, this.file),
      (doc) => withServerDisabled(doc, name, !enabled, this.file),
    );
  }

  /** `auto_approve` of one server: every tool of it runs without asking (MCP-30). */
  async setAutoApprove(name: string, on: boolean): Promise<void> {
    await this.#edit(
      (text) => setServerFlag(text, name, 'auto_approve', on, this.file),
      (doc) => withServerFlag(doc, name, 'auto_approve', on, this.file),
    );
  }

  /** Adds and removes `mcp:<server>:<tool>` patterns of `[permissions] <kind>`. */
  async editPermissions(kind: PermissionKind, change: PatternChange): Promise<void> {
    await this.#edit(
      (text) => editPermissionList(text, kind, change, this.file),
      (doc) => withPermissionList(doc, kind, change),
    );
  }

  /** Adds `entry`, or replaces the server named `name` with it — renaming it when the names differ. */
  async save(entry: ServerEntry, name?: string): Promise<void> {
    if (name === undefined) return this.add(entry);
    this.#validateEntry(entry);
    await this.#edit(
      (text) => replaceServerEntry(text, name, entry, this.file),
      (doc) => withServerReplaced(doc, name, entry, this.file),
    );
  }

  async #edit(edit: (text: string) => string, intended: (doc: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
    await editSettingsFile(
      this.file,
      (before) => {
        const after = edit(before);
        this.#assertNoNewErrors(before, after);
        return after;
      },
      intended,
    );
  }

  #validateEntry(entry: ServerEntry): void {
    const problems: string[] = [];
    parseServerEntry(entry, { kind: 'global', file: this.file }, (field, message, severity = 'error') => {
      if (severity === 'error') problems.push(`${field === undefined ? '' : `${field}: `}${message}`);
    });
    if (problems.length > 0) {
      throw new BlitzError('INVALID_ARGUMENT', `MCP server "${entry.name}" is not valid`, { reason: 'INVALID_MCP_SERVER', problems });
    }
  }

  /** Problems the file already had do not block an edit (it may be the fix); new ones do. */
  #assertNoNewErrors(before: string, after: string): void {
    const key = (p: Problem) => `${p.server ?? ''}\0${p.field ?? ''}\0${p.message.replace(/line \d+/g, '')}`;
    const old = new Set(errorsOf(before, this.file).map(key));
    const added = errorsOf(after, this.file).filter((p) => !old.has(key(p)));
    if (added.length > 0) {
      throw new BlitzError('INVALID_ARGUMENT', `the edit would make ${this.file} invalid; nothing was changed`, {
        reason: 'INVALID_SETTINGS',
        problems: added.map(formatProblem),
      });
    }
  }
}

function errorsOf(text: string, file: string): Problem[] {
  return parseSettings(text, file).problems.filter((p) => p.severity === 'error');
}
