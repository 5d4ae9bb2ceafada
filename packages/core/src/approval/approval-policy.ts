import type { Permissions } from '../config/settings.js';

/** What to do with one call (MCP-30/43). */
export type Verdict =
  | { kind: 'allow'; why: string }
  | { kind: 'deny'; why: string }
  /** `rule`: the `[permissions] ask` pattern that asks, which neither an allow rule nor auto_approve passes. */
  | { kind: 'ask'; rule?: string };

/** The permission key of a call: `mcp:<server>:<tool>` (MCP-30). */
export function permissionKey(server: string, tool: string): string {
  return `mcp:${server}:${tool}`;
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
  const deny = permissions.deny.find((p) => patternMatches(p, key));
  if (deny) return { kind: 'deny', why: `denied by the rule "${deny}" in [permissions] deny` };
  const ask = permissions.ask.find((p) => patternMatches(p, key));
  if (ask) return { kind: 'ask', rule: ask };
  const allow = permissions.allow.find((p) => patternMatches(p, key));
  if (allow) return { kind: 'allow', why: `allowed by the rule "${allow}"` };
  if (autoApprove) return { kind: 'allow', why: 'the server is auto_approve' };
  return { kind: 'ask' };
}

/** The question's text: `<tool> (MCP server "<server>")` and the arguments as sorted key=value lines (MCP-30). */
export function approvalDetail(tool: string, server: string, args: Record<string, unknown>): string {
  const lines = Object.keys(args)
    .sort()
    .map((k) => `${k}=${typeof args[k] === 'string' ? (args[k] as string) : JSON.stringify(args[k])}`);
  return [`${tool} (MCP server "${server}")`, ...lines].join('\n');
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
