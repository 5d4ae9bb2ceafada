import fs from 'node:fs';
import type { AuditEntry } from '@blitz/client';

/** How many rotated files the daemon keeps (`audit.jsonl.1` newest … `.3` oldest), as its log does. */
const ROTATED = 3;

/** The audit log's entries, oldest first (rotated files first), and each line that is not one, with its file and number. */
export function readAuditLines(file: string): { entries: AuditEntry[]; problems: string[] } {
  const entries: AuditEntry[] = [];
  const problems: string[] = [];
  const files = [...Array.from({ length: ROTATED }, (_, i) => `${file}.${ROTATED - i}`), file];
  for (const path of files) {
    let text: string;
    try {
      text = fs.readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`${path}: not read (${(err as Error).message})`);
      continue;
    }
    text.split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        const entry: unknown = JSON.parse(line);
        if (isEntry(entry)) entries.push(entry);
        else problems.push(`${path}:${i + 1}: not an audit entry (it needs time, kind, server, name, rule and outcome)`);
      } catch (err) {
        problems.push(`${path}:${i + 1}: not JSON (${(err as Error).message})`);
      }
    });
  }
  return { entries, problems };
}

function isEntry(value: unknown): value is AuditEntry {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  return (
    typeof e.time === 'string' &&
    !Number.isNaN(Date.parse(e.time)) &&
    typeof e.kind === 'string' &&
    (e.server === null || typeof e.server === 'string') &&
    typeof e.name === 'string' &&
    typeof e.rule === 'object' &&
    e.rule !== null &&
    typeof e.outcome === 'string'
  );
}
