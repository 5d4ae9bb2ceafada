import { runsBlitzConnect, type ServerEntry } from '@blitz/core';

/** `${env:X}` and `${X}` name the same variable. */
function normal(text: string): string {
  return text.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)/g, '${$1');
}

function sorted(table: unknown, lowerKeys = false): [string, string][] {
  if (typeof table !== 'object' || table === null) return [];
  return Object.entries(table as Record<string, string>)
    .map(([k, v]): [string, string] => [lowerKeys ? k.toLowerCase() : k, normal(String(v))])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * What makes two definitions the same server: the command line and its environment, or the
 * URL and its headers. Names, timeouts and tool lists do not.
 */
export function fingerprint(entry: ServerEntry): string {
  if (entry.url !== undefined) return JSON.stringify(['http', normal(entry.url), sorted(entry.headers, true)]);
  return JSON.stringify(['stdio', normal(entry.command ?? ''), (entry.args ?? []).map(normal), sorted(entry.env), entry.cwd ?? null]);
}

/** A client entry that runs `blitz connect`: the client already reaches its servers through Blitz. */
export function isBlitzEntry(entry: ServerEntry): boolean {
  return runsBlitzConnect(entry.command, entry.args);
}
