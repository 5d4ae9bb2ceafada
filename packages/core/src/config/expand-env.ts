/**
 * `${VAR}`, `${VAR:-default}` and `${env:VAR}`; nothing else is special (no `$VAR`, no shell).
 * Groups: 1 the name, 2 the default. The redactor uses the same pattern to show references.
 */
export const ENV_REFERENCE = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface Expansion {
  value: string;
  /** Names of referenced variables that are unset and have no default. */
  missing: string[];
}

/**
 * Expands references once: a default or a variable's value is used as is, never expanded
 * again. A default applies only when the variable is unset; an empty variable stays empty.
 */
export function expandEnv(text: string, env: Readonly<Record<string, string | undefined>>): Expansion {
  const missing: string[] = [];
  const value = text.replace(new RegExp(ENV_REFERENCE.source, 'g'), (whole, name: string, fallback: string | undefined) => {
    const found = env[name];
    if (found !== undefined) return found;
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return whole;
  });
  return { value, missing };
}

/** The variable that names the workspace folder in a server's settings. */
export const WORKSPACE_VARIABLE = 'WORKSPACE';

/** The first reference to `${WORKSPACE}` in text (any form: `${env:WORKSPACE}`, with a default), or undefined. */
export function workspaceReference(text: string): string | undefined {
  for (const match of text.matchAll(new RegExp(ENV_REFERENCE.source, 'g'))) if (match[1] === WORKSPACE_VARIABLE) return match[0];
  return undefined;
}

export function hasEnvReference(text: string): boolean {
  return new RegExp(ENV_REFERENCE.source).test(text);
}
