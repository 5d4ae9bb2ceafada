/** `${VAR}`, `${VAR:-default}` and `${env:VAR}`; nothing else is special (no `$VAR`, no shell). */
const REFERENCE = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

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
  const value = text.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
    const found = env[name];
    if (found !== undefined) return found;
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return whole;
  });
  return { value, missing };
}

export function hasEnvReference(text: string): boolean {
  REFERENCE.lastIndex = 0;
  return new RegExp(REFERENCE.source).test(text);
}
