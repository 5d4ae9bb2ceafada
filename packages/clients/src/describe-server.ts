import { isTable, maskArgs, Redactor, type ServerEntry } from '@blitz/core';

/** Every literal env and header value of these entries, to mask wherever it shows up. */
export function redactorFor(entries: readonly ServerEntry[]): Redactor {
  const secrets: string[] = [];
  for (const e of entries)
    for (const table of [e.env, e.headers]) if (isTable(table)) secrets.push(...Object.values(table as Record<string, string>));
  return new Redactor(secrets);
}

/**
 * `npx -y pkg (env: TOKEN)` or `https://… (headers: Authorization)`: names of secrets, never values.
 * Each argument is masked on its own, as `blitz mcp get` masks them (`--token=***`): a rule
 * that runs to the end of a line (`Authorization: …`) then takes only its own argument.
 */
export function describeEntry(entry: ServerEntry, redactor: Redactor): string {
  const words = [entry.command ?? '', ...(maskArgs(entry.args ?? []) as string[])];
  const what = entry.url !== undefined ? redactor.redact(entry.url) : words.map((w) => quote(redactor.redact(w))).join(' ');
  const names = (label: string, table: unknown) =>
    isTable(table) && Object.keys(table).length > 0 ? ` (${label}: ${Object.keys(table).join(', ')})` : '';
  return what + names('env', entry.env) + names('headers', entry.headers);
}

function quote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./${}-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
