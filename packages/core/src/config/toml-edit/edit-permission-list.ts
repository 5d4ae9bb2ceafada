import { BlitzError } from '../../errors/blitz-error.js';
import { formatValue } from './format-value.js';
import { DEFAULT_FILE_LABEL } from './locate-servers.js';
import { parseToml } from './parse-toml-text.js';
import { detectEol, scanLines, type TomlLine } from './scan-lines.js';

export type PermissionKind = 'allow' | 'ask' | 'deny';

export interface PatternChange {
  readonly add?: readonly string[];
  readonly remove?: readonly string[];
}

/** The list after the change: added patterns not yet there go last, removed ones leave. */
export function changedPatterns(current: readonly string[], change: PatternChange): string[] {
  const removed = new Set(change.remove ?? []);
  const kept = current.filter((p) => !removed.has(p));
  for (const p of change.add ?? []) if (!kept.includes(p)) kept.push(p);
  return kept;
}

/**
 * Adds and removes patterns of `[permissions] <kind>` in place. The list's value is written
 * again on its own line (a comment after it kept); a missing key goes after the table's last
 * key, a missing `[permissions]` table at the end of the file. Written any other way
 * (`permissions = { … }`, dotted keys), the file is refused, unchanged.
 */
export function editPermissionList(text: string, kind: PermissionKind, change: PatternChange, file: string = DEFAULT_FILE_LABEL): string {
  const parsed = parseToml(text);
  const current = permissionList(parsed, kind);
  const next = changedPatterns(current, change);
  if (next.length === current.length && next.every((p, i) => p === current[i])) return text;

  const lines = scanLines(text);
  const eol = detectEol(text);
  const header = lines.findIndex((l) => l.kind === 'table' && !l.array && l.path.length === 1 && l.path[0] === 'permissions');
  const value = formatValue(next, `permissions.${kind}`);
  if (header === -1) {
    if (parsed['permissions'] !== undefined) throw notEditable(file, 'it is not written as a [permissions] table');
    const gap = text === '' ? '' : text.endsWith('\n') ? eol : eol + eol;
    return `${text}${gap}[permissions]${eol}${kind} = ${value}${eol}`;
  }
  const end = lines.findIndex((l, i) => i > header && l.kind === 'table');
  const body = lines.slice(header + 1, end === -1 ? lines.length : end);
  const keys = body.filter((l): l is Extract<TomlLine, { kind: 'key-value' }> => l.kind === 'key-value');
  const existing = keys.find((l) => l.path.length === 1 && l.path[0] === kind);
  if (existing) return text.slice(0, existing.valueStart) + value + text.slice(existing.valueEnd);
  if (keys.some((l) => l.path[0] === kind)) throw notEditable(file, `[permissions] ${kind} is written as dotted keys`);
  const anchor = keys.at(-1) ?? lines[header]!;
  const indent = anchor.kind === 'key-value' ? anchor.indent : '';
  const newline = anchor.terminated ? '' : eol;
  return text.slice(0, anchor.end) + newline + `${indent}${kind} = ${value}${eol}` + text.slice(anchor.end);
}

/** Mirrors `editPermissionList` on parsed settings. */
export function withPermissionList(
  settings: Record<string, unknown>,
  kind: PermissionKind,
  change: PatternChange,
): Record<string, unknown> {
  const current = permissionList(settings, kind);
  const next = changedPatterns(current, change);
  if (next.length === current.length && next.every((p, i) => p === current[i])) return settings;
  const permissions = isTable(settings['permissions']) ? settings['permissions'] : {};
  return { ...settings, permissions: { ...permissions, [kind]: next } };
}

function permissionList(settings: Record<string, unknown>, kind: PermissionKind): string[] {
  const permissions = settings['permissions'];
  const list = isTable(permissions) ? permissions[kind] : undefined;
  return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [];
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function notEditable(file: string, why: string): BlitzError {
  return new BlitzError('FAILED_PRECONDITION', `cannot edit [permissions] in ${file}: ${why}; edit it by hand`, {
    reason: 'SETTINGS_NOT_EDITABLE',
  });
}
