import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The control API's token, kept across restarts in `state/token` so clients configured by URL keep working. */
export function loadOrCreateToken(file: string): string {
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // First start: make one.
  }
  const token = crypto.randomBytes(32).toString('base64url');
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}
