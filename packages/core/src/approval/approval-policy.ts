import type { Permissions } from '../config/settings.js';
import { BlitzError } from '../errors/blitz-error.js';

/** What to do with one call (MCP-30/43). */
export type Verdict =
  /** `rule`: the `[permissions] allow` pattern that allows it; absent, the server is auto_approve. */
  | { kind: 'allow'; why: string; rule?: string }
  | { kind: 'deny'; why: string; rule: string }
  /** `rule`: the `[permissions] ask` pattern that asks, which neither an allow rule nor auto_approve passes. */
  | { kind: 'ask'; rule?: string };

/** The permission key of a call: `mcp:<server>:<tool>` (MCP-30). */
export function permissionKey(server: string, tool: string): string {
  return `mcp:${server}:${tool}`;
}

/**
 * The permission key of reading a server's resources, by `resources/read`, `resources/subscribe`
 * or a completion of a resource template: that of its `read_mcp_resource` tool (MCP-35/43).
 */
export function resourcePermissionKey(server: string): string {
  return permissionKey(server, 'read_mcp_resource');
}

/** The permission key of a server's prompt (`prompts/get`, its completions): `mcp:<server>:prompt:<name>`, by its own name. */
export function promptPermissionKey(server: string, prompt: string): string {
  return permissionKey(server, `prompt:${prompt}`);
}

/** The `[permissions] deny` rule that covers `key`, if any. */
export function denyingRule(permissions: Permissions, key: string): string | undefined {
  return permissions.deny.find((p) => patternMatches(p, key));
}

/**
 * Refuses a request a deny rule covers before its server is asked (issue 25.3): a rule applies
 * to every request that reaches a server, not only to tool calls. `what` names the request.
 */
export function refuseIfDenied(permissions: Permissions | undefined, key: string, what: string): void {
  const rule = permissions && denyingRule(permissions, key);
  if (rule !== undefined)
    throw new BlitzError('PERMISSION_DENIED', `${what} was refused: denied by the rule "${rule}" in [permissions] deny`, {
      reason: 'DENIED_BY_RULE',
    });
}

/** `*` matches any run of characters; `mcp:github` alone covers every tool of the server. */
export function patternMatches(pattern: string, key: string): boolean {
  const full = pattern.split(':').length === 2 ? `${pattern}:*` : pattern;
  const regex = new RegExp(`^${full.split('*').map(escapeRegExp).join('.*')}$`);
  return regex.test(key);
}

/**
 * The decision before any question: a deny rule refuses; an ask rule asks even an
 * auto-approved server (auto_approve skips the question, never a rule: MCP-43); an allow
 * rule or `auto_approve` runs; anything else is asked.
 */
export function decide(permissions: Permissions, key: string, autoApprove: boolean): Verdict {
  const deny = denyingRule(permissions, key);
  if (deny) return { kind: 'deny', why: `denied by the rule "${deny}" in [permissions] deny`, rule: deny };
  const ask = permissions.ask.find((p) => patternMatches(p, key));
  if (ask) return { kind: 'ask', rule: ask };
  const allow = permissions.allow.find((p) => patternMatches(p, key));
  if (allow) return { kind: 'allow', why: `allowed by the rule "${allow}"`, rule: allow };
  if (autoApprove) return { kind: 'allow', why: 'the server is auto_approve' };
  return { kind: 'ask' };
}

/** The most characters of one argument's value a question shows; the rest is cut, with its length said. */
export const MAX_DETAIL_VALUE_CHARS = 200;
/** The most arguments a question lists; the others are counted. */
export const MAX_DETAIL_ARGS = 20;

/**
 * The question's text: `<tool> (MCP server "<server>")` and the arguments as sorted key=value
 * lines (MCP-30). What a caller or server wrote is shown as one line each, never as lines of
 * the question (issue 25.12): line breaks, other control characters and bidirectional
 * overrides are escaped (`\n`, `\u{202e}`), so an argument cannot plant a line such as a
 * fake "Run echo …"; a value is cut at 200 characters and the list at 20 arguments, each cut
 * saying how much was left out.
 */
export function approvalDetail(tool: string, server: string, args: Record<string, unknown>): string {
  const keys = Object.keys(args).sort();
  const lines = keys.slice(0, MAX_DETAIL_ARGS).map((k) => {
    const value = args[k];
    return `${shown(k, MAX_DETAIL_VALUE_CHARS)}=${shown(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)), MAX_DETAIL_VALUE_CHARS)}`;
  });
  if (keys.length > MAX_DETAIL_ARGS) lines.push(`… and ${keys.length - MAX_DETAIL_ARGS} more arguments`);
  return [`${shown(tool, MAX_DETAIL_VALUE_CHARS)} (MCP server "${shown(server, MAX_DETAIL_VALUE_CHARS)}")`, ...lines].join('\n');
}

/** Control characters, line and paragraph separators, and bidirectional controls: shown escaped. */
const UNSHOWN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One line of at most `max` characters of `text` (then its length), what cannot be shown escaped. */
function shown(text: string, max: number): string {
  let cut = text.length > max ? text.slice(0, max) : text;
  // Not half a character: a surrogate pair stays whole or goes.
  if (cut.length < text.length && /[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  const line = cut.replace(UNSHOWN, (c) => ESCAPES[c] ?? `\\u{${c.charCodeAt(0).toString(16)}}`);
  return cut.length < text.length ? `${line}… (${text.length.toLocaleString('en-US')} characters)` : line;
}

/**
 * How to stop being asked, for a refusal's message. A call an `[permissions] ask` rule asks
 * about is asked whatever allow and auto_approve say: `blitz mcp approve` would change nothing.
 */
export function howToAllow(server: string, tool: string, askRule?: string, inSettings = true): string {
  if (askRule !== undefined) {
    return `it is asked about by the rule "${askRule}" in [permissions] ask, which blitz mcp approve and auto_approve do not override; to run it without asking, remove that rule from [permissions] ask in settings.toml, or call it from a client that can be asked`;
  }
  const word = (w: string) => (/^[A-Za-z0-9._-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);
  const one = `to allow it, run: blitz mcp approve ${word(server)} ${word(tool)} (adds "${permissionKey(server, tool)}" to [permissions] allow in settings.toml)`;
  // A project's server has no entry in settings.toml to set auto_approve on: a pattern covers it.
  const all = inSettings
    ? `blitz mcp approve ${word(server)} for every tool of the server (auto_approve = true)`
    : `blitz mcp approve ${word(server)} '*' for every tool of the server (adds "${permissionKey(server, '*')}")`;
  return `${one}, or ${all}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
