import { BlitzError } from '../errors/blitz-error.js';
import { loadSettings } from './load-settings.js';
import { formatProblem, hasErrors, type Problem } from './problem.js';
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

/** One thing wrong with a server entry, by field (`undefined`: the entry as a whole). */
export interface EntryProblem {
  field?: string;
  message: string;
  /** `MCP_SERVER_EXISTS` for a name another server has. */
  reason?: string;
}

/** `timeout_seconds: must be a number`, as the CLI and the control API say it. */
export function formatEntryProblem(p: EntryProblem): string {
  return `${p.field === undefined ? '' : `${p.field}: `}${p.message}`;
}

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

  /**
   * Every problem saving `entry` would meet, field by field (MCP-46's form): its own, and a
   * name another server of the file already has. `replacing` is the server being edited.
   */
  problemsOf(entry: unknown, replacing?: string): EntryProblem[] {
    const problems = entryProblems(entry, this.file);
    const name = (entry as { name?: unknown } | undefined)?.name;
    const current = loadSettings(this.file);
    if (typeof name === 'string' && name !== replacing && !hasErrors(current.problems) && current.settings.servers.some((s) => s.name === name)) {
      problems.push({ field: 'name', message: `an MCP server named "${name}" already exists in ${this.file}`, reason: 'MCP_SERVER_EXISTS' });
    }
    return problems;
  }

  #validateEntry(entry: ServerEntry): void {
    const problems = entryProblems(entry, this.file).map(formatEntryProblem);
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

function entryProblems(entry: unknown, file: string): EntryProblem[] {
  const problems: EntryProblem[] = [];
  parseServerEntry(entry, { kind: 'global', file }, (field, message, severity = 'error') => {
    if (severity === 'error') problems.push(field === undefined ? { message } : { field, message });
  });
  return problems;
}

function errorsOf(text: string, file: string): Problem[] {
  return parseSettings(text, file).problems.filter((p) => p.severity === 'error');
}
