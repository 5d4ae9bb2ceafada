import { isTable, Redactor, type ServerEntry } from '@blitz/core';

/** Every literal env and header value of these entries, to mask wherever it shows up. */
export function redactorFor(entries: readonly ServerEntry[]): Redactor {
  const secrets: string[] = [];
  for (const e of entries) for (const table of [e.env, e.headers]) if (isTable(table)) secrets.push(...Object.values(table as Record<string, string>));
  return new Redactor(secrets);
}

/** `npx -y pkg (env: TOKEN)` or `https://… (headers: Authorization)`: names of secrets, never values. */
export function describeEntry(entry: ServerEntry, redactor: Redactor): string {
  const what = entry.url !== undefined ? entry.url : [entry.command ?? '', ...(entry.args ?? [])].map(quote).join(' ');
  const names = (label: string, table: unknown) => (isTable(table) && Object.keys(table).length > 0 ? ` (${label}: ${Object.keys(table).join(', ')})` : '');
  return redactor.redact(what) + names('env', entry.env) + names('headers', entry.headers);
}

function quote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./${}-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
