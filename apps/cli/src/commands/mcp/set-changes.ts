import type { FieldChanges, TomlValue } from '@blitz/core';
import { CliError } from '../../context.js';
import { parseList, parseSeconds } from './add-entry.js';

export interface SetOptions {
  prefix?: string;
  agents?: string;
  tools?: string;
  timeout?: string;
  startupTimeout?: string;
  idleTimeout?: string;
  /** `--roots PATH` (repeatable), or false for `--no-roots` */
  roots?: string[] | false;
  /** `--sandbox` (back to the default) or `--no-sandbox` */
  sandbox?: boolean;
  sandboxWrite?: string[];
  share?: boolean;
  sampling?: boolean;
  exposure?: string;
  unset?: string[];
}

/** `--unset` takes a field by its option's name or as settings.toml spells it. */
const UNSETTABLE: Readonly<Record<string, string>> = {
  prefix: 'prefix',
  agents: 'agents',
  tools: 'tools',
  timeout: 'timeout_seconds',
  timeout_seconds: 'timeout_seconds',
  'startup-timeout': 'startup_timeout_seconds',
  startup_timeout_seconds: 'startup_timeout_seconds',
  'idle-timeout': 'idle_timeout_seconds',
  idle_timeout_seconds: 'idle_timeout_seconds',
  roots: 'roots',
  sandbox: 'sandbox',
  'sandbox-write': 'sandbox_write',
  sandbox_write: 'sandbox_write',
  share: 'share',
  sampling: 'sampling',
  exposure: 'exposure',
};

/**
 * Turns `blitz mcp set` options into field changes of the entry (undefined removes a field).
 * A default is written by removing the field (`--sandbox`, `--no-share`), so the entry says
 * only what differs; settings validation runs after, as for `add`.
 */
export function buildSetChanges(opts: SetOptions): FieldChanges {
  const changes: Record<string, TomlValue | undefined> = {};
  const set = (field: string, value: TomlValue | undefined) => {
    if (field in changes) throw new CliError(`${field} is both set and unset; give one of them`);
    changes[field] = value;
  };
  if (opts.prefix !== undefined) set('prefix', opts.prefix);
  if (opts.agents !== undefined) set('agents', parseList(opts.agents));
  if (opts.tools !== undefined) set('tools', parseList(opts.tools));
  if (opts.timeout !== undefined) set('timeout_seconds', parseSeconds('--timeout', opts.timeout));
  if (opts.startupTimeout !== undefined) set('startup_timeout_seconds', parseSeconds('--startup-timeout', opts.startupTimeout));
  if (opts.idleTimeout !== undefined) set('idle_timeout_seconds', parseIdleSeconds(opts.idleTimeout));
  if (opts.roots === false) set('roots', false);
  else if (opts.roots?.length) set('roots', [...opts.roots]);
  if (opts.sandbox !== undefined) set('sandbox', opts.sandbox ? undefined : false);
  if (opts.sandboxWrite?.length) set('sandbox_write', [...opts.sandboxWrite]);
  if (opts.share !== undefined) set('share', opts.share ? true : undefined);
  if (opts.sampling !== undefined) set('sampling', opts.sampling ? true : undefined);
  if (opts.exposure !== undefined) set('exposure', opts.exposure);
  for (const name of opts.unset ?? []) {
    const field = UNSETTABLE[name];
    if (field === undefined)
      throw new CliError(
        `--unset ${JSON.stringify(name)}: not a field blitz mcp set changes; use one of ${Object.keys(UNSETTABLE)
          .filter((k) => !k.includes('_'))
          .join(', ')}`,
      );
    set(field, undefined);
  }
  if (Object.keys(changes).length === 0)
    throw new CliError('give at least one setting to change, e.g. blitz mcp set NAME --prefix P (blitz mcp set --help lists them)');
  return changes;
}

/** `--idle-timeout`: seconds unused before the server is stopped; `0` never stops it. */
function parseIdleSeconds(value: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds < 0)
    throw new CliError(`--idle-timeout must be a number of seconds (0 never stops the server), not ${JSON.stringify(value)}`);
  return seconds;
}

/** `prefix = "gh", timeout_seconds = 60; removed agents`: what the edit did, as settings.toml spells it. */
export function describeChanges(changes: FieldChanges): string {
  const entries = Object.entries(changes);
  const set = entries.filter(([, v]) => v !== undefined).map(([k, v]) => `${k} = ${JSON.stringify(v)}`);
  const removed = entries.filter(([, v]) => v === undefined).map(([k]) => k);
  return [set.length ? `set ${set.join(', ')}` : '', removed.length ? `removed ${removed.join(', ')}` : ''].filter(Boolean).join('; ');
}
