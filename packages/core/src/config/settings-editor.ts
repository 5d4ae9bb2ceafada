import { BlitzError } from '../errors/blitz-error.js';
import { loadSettings } from './load-settings.js';
import { formatProblem, hasErrors, type Problem } from './problem.js';
import { parseServerEntry } from './server-entry.js';
import type { ServerConfig } from './server-config.js';
import { parseSettings, type ParsedSettings } from './settings.js';
import {
  addServerEntry,
  editSettingsFile,
  removeServerEntry,
  replaceServerEntry,
  editPermissionList,
  disabledChanges,
  setServerFields,
  setServerFlag,
  parseTomlText,
  withPermissionList,
  withServerAdded,
  withServerFields,
  withServerFlag,
  withServerRemoved,
  withServerReplaced,
  type FieldChanges,
  type PatternChange,
  type PermissionKind,
  type ServerEntry,
} from './toml-edit/index.js';

/** One thing wrong with a server entry, by field (`undefined`: the entry as a whole). */
export interface EntryProblem {
  field?: string;
  message: string;
  /** `MCP_SERVER_EXISTS` for a name another server has, `UNKNOWN_FIELD` for a field no server has. */
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
  readonly #beforeWrite: ((text: string) => void) | undefined;

  /** `beforeWrite`: told each text just before it is written (the daemon's watcher then knows the change for its own). */
  constructor(file: string, options: { beforeWrite?: (text: string) => void } = {}) {
    this.file = file;
    this.#beforeWrite = options.beforeWrite;
  }

  /** Adds `entry`; refused with every problem at once — its own, and its name already taken. */
  async add(entry: ServerEntry): Promise<void> {
    await this.#edit((found) => {
      this.#assertSavable(entry, found);
      return { edit: (text) => addServerEntry(text, entry, this.file), intended: (doc) => withServerAdded(doc, entry) };
    });
  }

  async remove(name: string): Promise<void> {
    await this.#edit(() => ({
      edit: (text) => removeServerEntry(text, name, this.file),
      intended: (doc) => withServerRemoved(doc, name, this.file),
    }));
  }

  async setEnabled(name: string, enabled: boolean): Promise<void> {
    await this.#edit((_found, text) => {
      const changes = disabledChanges(text, name, !enabled, this.file);
      return {
        edit: (t) => setServerFields(t, name, changes, this.file),
        intended: (doc) => withServerFields(doc, name, changes, this.file),
      };
    });
  }

  /** `auto_approve` of one server: every tool of it runs without asking (MCP-30). */
  async setAutoApprove(name: string, on: boolean): Promise<void> {
    await this.#edit(() => ({
      edit: (text) => setServerFlag(text, name, 'auto_approve', on, this.file),
      intended: (doc) => withServerFlag(doc, name, 'auto_approve', on, this.file),
    }));
  }

  /**
   * Sets and removes top-level fields of one server in place (`blitz mcp set`): the entry
   * they leave is judged as `add` judges a new one, and refused with every problem at once.
   */
  async setFields(name: string, changes: FieldChanges): Promise<void> {
    await this.#edit((found, text) => {
      const next = withServerFields(parseTomlText(text, this.file), name, changes, this.file);
      const entry = (next['mcp'] as { servers: Array<Record<string, unknown>> }).servers.find((s) => s['name'] === name) as ServerEntry;
      this.#assertSavable(entry, found, name);
      return {
        edit: (t) => setServerFields(t, name, changes, this.file),
        intended: (doc) => withServerFields(doc, name, changes, this.file),
      };
    });
  }

  /** Adds and removes `mcp:<server>:<tool>` patterns of `[permissions] <kind>`. */
  async editPermissions(kind: PermissionKind, change: PatternChange): Promise<void> {
    await this.#edit(() => ({
      edit: (text) => editPermissionList(text, kind, change, this.file),
      intended: (doc) => withPermissionList(doc, kind, change),
    }));
  }

  /**
   * Adds `entry`, or replaces the server named `name` with it — renaming it when the names
   * differ. `entry` may be made from the server it replaces, as the file holds it under the
   * lock (a form's masked secrets are filled from it); the file must then have no errors.
   */
  async save(entry: ServerEntry | ((current: ServerConfig) => ServerEntry), name?: string): Promise<void> {
    if (name === undefined) {
      if (typeof entry === 'function') throw new TypeError('an entry made from the current one needs the name it replaces');
      return this.add(entry);
    }
    await this.#edit((found) => {
      const next = typeof entry === 'function' ? entry(this.#current(found, name)) : entry;
      this.#assertSavable(next, found, name);
      return {
        edit: (text) => replaceServerEntry(text, name, next, this.file),
        intended: (doc) => withServerReplaced(doc, name, next, this.file),
      };
    });
  }

  /**
   * One edit under the file's lock: `plan` judges the file as it is then (parsed once) and
   * says the text edit and the settings it must leave.
   */
  async #edit(plan: (found: ParsedSettings, text: string) => PlannedEdit): Promise<void> {
    let planned: PlannedEdit | undefined;
    await editSettingsFile(
      this.file,
      (before) => {
        const found = parseSettings(before, this.file);
        planned = plan(found, before);
        const after = planned.edit(before);
        this.#assertNoNewErrors(found, after);
        return after;
      },
      (doc) => planned!.intended(doc),
      this.#beforeWrite ? { beforeWrite: this.#beforeWrite } : {},
    );
  }

  /**
   * Every problem saving `entry` would meet, field by field (MCP-46's form): its own, and a
   * name another server of the file already has. `replacing` is the server being edited.
   */
  problemsOf(entry: unknown, replacing?: string): EntryProblem[] {
    return problemsIn(entry, loadSettings(this.file), this.file, replacing);
  }

  /** Every problem at once — the entry's own and a name already taken — rather than the first one met. */
  #assertSavable(entry: ServerEntry, found: ParsedSettings, replacing?: string): void {
    const problems = problemsIn(entry, found, this.file, replacing);
    if (problems.length === 0) return;
    if (problems.every((p) => p.reason === 'MCP_SERVER_EXISTS')) {
      throw new BlitzError('ALREADY_EXISTS', problems[0]!.message, {
        reason: 'MCP_SERVER_EXISTS',
        problems: problems.map(formatEntryProblem),
      });
    }
    throw new BlitzError('INVALID_ARGUMENT', `MCP server "${entry.name}" is not valid`, {
      reason: 'INVALID_MCP_SERVER',
      problems: problems.map(formatEntryProblem),
    });
  }

  /** The server `name` as the file holds it; an edit must not start from settings that do not parse. */
  #current(found: ParsedSettings, name: string): ServerConfig {
    if (hasErrors(found.problems)) {
      throw new BlitzError('FAILED_PRECONDITION', `${this.file} has problems; fix them first`, {
        reason: 'SETTINGS_INVALID',
        problems: found.problems.filter((p) => p.severity === 'error').map(formatProblem),
      });
    }
    const current = found.settings.servers.find((s) => s.name === name);
    if (!current) throw new BlitzError('NOT_FOUND', `no MCP server named "${name}" in ${this.file}`, { reason: 'MCP_SERVER_NOT_FOUND' });
    return current;
  }

  /** Problems the file already had do not block an edit (it may be the fix); new ones do. */
  #assertNoNewErrors(before: ParsedSettings, after: string): void {
    const key = (p: Problem) => `${p.server ?? ''}\0${p.field ?? ''}\0${p.message.replace(/line \d+/g, '')}`;
    const old = new Set(before.problems.filter((p) => p.severity === 'error').map(key));
    const added = errorsOf(after, this.file).filter((p) => !old.has(key(p)));
    if (added.length > 0) {
      throw new BlitzError('INVALID_ARGUMENT', `the edit would make ${this.file} invalid; nothing was changed`, {
        reason: 'INVALID_SETTINGS',
        problems: added.map(formatProblem),
      });
    }
  }
}

/** A text edit and the settings it must leave (checked before anything is written). */
interface PlannedEdit {
  edit(text: string): string;
  intended(doc: Record<string, unknown>): Record<string, unknown>;
}

function problemsIn(entry: unknown, found: ParsedSettings, file: string, replacing?: string): EntryProblem[] {
  const problems = entryProblems(entry, file);
  const name = (entry as { name?: unknown } | undefined)?.name;
  if (typeof name === 'string' && name !== replacing && !hasErrors(found.problems) && found.settings.servers.some((s) => s.name === name)) {
    problems.push({ field: 'name', message: `an MCP server named "${name}" already exists in ${file}`, reason: 'MCP_SERVER_EXISTS' });
  }
  return problems;
}

/**
 * An entry's errors; a field no server has is one too (issue 25.12): settings.toml keeps it as
 * written and warns, but an edit made here never writes one (`__proto__` from a control-API body).
 */
function entryProblems(entry: unknown, file: string): EntryProblem[] {
  const problems: EntryProblem[] = [];
  parseServerEntry(
    entry,
    { kind: 'global', file },
    (field, message, severity = 'error') => {
      if (severity === 'error') problems.push(field === undefined ? { message } : { field, message });
    },
    (field) => problems.push({ field, message: 'is not a field of an MCP server', reason: 'UNKNOWN_FIELD' }),
  );
  return problems;
}

function errorsOf(text: string, file: string): Problem[] {
  return parseSettings(text, file).problems.filter((p) => p.severity === 'error');
}
