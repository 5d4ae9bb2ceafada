import type { Exposure } from '../config/server-config.js';

/**
 * A tool's exposure: a server's `exposure` (or its `tool_exposure` override), or `default`
 * when neither is set — listed while the session's list is small enough, deferred when the
 * hub defers.
 */
export type ToolExposure = Exposure | 'default';

/** Compiled `*` patterns: a catalog is built again at every change, with the same patterns. */
const compiled = new Map<string, RegExp>();

function matches(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  let regex = compiled.get(pattern);
  if (!regex) {
    const source = pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    regex = new RegExp(`^${source}$`);
    compiled.set(pattern, regex);
  }
  return regex.test(name);
}

/**
 * The override of `overrides` that decides `name`: the exact name wins, then the longest
 * matching pattern, equal lengths by the pattern that sorts first; undefined when none match.
 */
export function exposureOverride(name: string, overrides: Readonly<Record<string, Exposure>>): string | undefined {
  if (Object.hasOwn(overrides, name)) return name;
  let best: string | undefined;
  for (const pattern of Object.keys(overrides)) {
    if (!pattern.includes('*') || !matches(pattern, name)) continue;
    if (best === undefined || pattern.length > best.length || (pattern.length === best.length && pattern < best)) best = pattern;
  }
  return best;
}

/** A tool's exposure from its server's `exposure` and `tool_exposure` settings. */
export function toolExposure(name: string, server: Exposure | undefined, overrides: Readonly<Record<string, Exposure>> = {}): ToolExposure {
  const key = exposureOverride(name, overrides);
  return key === undefined ? (server ?? 'default') : overrides[key]!;
}

/** The `tool_exposure` keys that match none of `names`: each is worth a warning. */
export function unusedOverrides(names: readonly string[], overrides: Readonly<Record<string, Exposure>>): string[] {
  return Object.keys(overrides).filter((k) => !names.some((n) => matches(k, n)));
}
