import type { ServerConfig } from '../config/server-config.js';
import { maskArgs } from './mask-server-secrets.js';
import { maskUrl } from './url-secrets.js';

/** `npx -y pkg` or the URL: how a server is reached, in one line, secrets masked as `maskServerSecrets` masks them. */
export function describeTransport(config: ServerConfig): string {
  const t = config.transport;
  return t.kind === 'stdio' ? [t.command, ...(maskArgs(t.args) as string[])].map(shellQuote).join(' ') : maskUrl(t.url);
}

function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./${}-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
