import type { ServerEntry, TomlValue } from '@blitz/core';
import { CliError } from '../../context.js';

export interface AddOptions {
  env?: string[];
  header?: string[];
  prefix?: string;
  agents?: string;
  timeout?: string;
  autoApprove?: boolean;
  /** commander's `--no-sandbox` */
  sandbox?: boolean;
  sandboxWrite?: string[];
  /** `--roots PATH` (repeatable), or false for `--no-roots` */
  roots?: string[] | false;
  share?: boolean;
  disabled?: boolean;
}

/** Turns `blitz mcp add` arguments into a `[[mcp.servers]]` entry; settings validation runs after. */
export function buildAddEntry(name: string, target: readonly string[], opts: AddOptions): ServerEntry {
  const [first, ...rest] = target;
  if (first === undefined)
    throw new CliError('give a command (blitz mcp add <name> <command> [args...]) or a URL (blitz mcp add <name> <url>)');
  const entry: Record<string, TomlValue> & { name: string } = { name };
  const isUrl = /^https?:\/\//i.test(first);
  if (isUrl) {
    if (rest.length > 0) throw new CliError(`a URL server takes no arguments; got ${rest.map((a) => JSON.stringify(a)).join(' ')}`);
    if (opts.env?.length) throw new CliError('--env is only for command (stdio) servers');
    if (opts.sandbox === false) throw new CliError('--no-sandbox is only for command (stdio) servers');
    if (opts.sandboxWrite?.length) throw new CliError('--sandbox-write is only for command (stdio) servers');
    entry.url = first;
    const headers = parsePairs(opts.header ?? [], ':', '--header', "'Name: value'");
    if (Object.keys(headers).length) entry.headers = headers;
  } else {
    if (opts.header?.length) throw new CliError('--header is only for URL (streamable HTTP) servers');
    entry.command = first;
    if (rest.length) entry.args = [...rest];
    const env = parsePairs(opts.env ?? [], '=', '--env', 'KEY=value');
    if (Object.keys(env).length) entry.env = env;
    if (opts.sandbox === false) entry.sandbox = false;
    if (opts.sandboxWrite?.length) entry.sandbox_write = [...opts.sandboxWrite];
  }
  if (opts.roots === false) entry.roots = false;
  else if (opts.roots?.length) entry.roots = [...opts.roots];
  if (opts.prefix !== undefined) entry.prefix = opts.prefix;
  if (opts.agents !== undefined) entry.agents = parseList(opts.agents);
  if (opts.timeout !== undefined) entry.timeout_seconds = parseSeconds('--timeout', opts.timeout);
  if (opts.autoApprove) entry.auto_approve = true;
  if (opts.share) entry.share = true;
  if (opts.disabled) entry.disabled = true;
  return entry;
}

/** `--timeout 60`: a number of seconds, at least 1. */
export function parseSeconds(flag: string, value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 1)
    throw new CliError(`${flag} must be a number of seconds (at least 1), not ${JSON.stringify(value)}`);
  return seconds;
}

/** `--agents main, rev`: the comma-separated names, trimmed. */
export function parseList(value: string): string[] {
  return value
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
}

function parsePairs(items: readonly string[], separator: string, flag: string, shape: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf(separator);
    const key = at < 0 ? '' : item.slice(0, at).trim();
    // The text may be a secret value typed in the wrong shape: never echo it.
    if (!key) throw new CliError(`${flag} needs ${shape}`);
    if (key in out) throw new CliError(`${flag} ${key} is given twice`);
    out[key] = item.slice(at + 1).trim();
  }
  return out;
}
