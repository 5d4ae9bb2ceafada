import type { FieldProblem, McpServerConfig } from '@blitz/client/api-types';
import type { PastedServer } from './pasted-server.js';

export type Transport = 'stdio' | 'http';

/** What the Add / Edit form holds (MCP-46), one string per text field as the user typed it. */
export interface FormValues {
  name: string;
  /** Chosen first: only its own fields are shown and saved. */
  transport: Transport;
  command: string;
  /** One argument a line. */
  args: string;
  /** `NAME=value` lines; a masked value (`***`) is kept by the daemon unless replaced. */
  env: string;
  sandbox: boolean;
  url: string;
  /** `Name: value` lines. */
  headers: string;
  /** Its tools are offered as `PREFIX__tool`; empty: by their own names. */
  prefix: string;
  autoApprove: boolean;
  /** Seconds for one call; empty: the default. */
  timeout: string;
  /** Comma-separated agent names; empty: `main` only. */
  agents: string;
  /** The tool allow-list, one original name a line; empty: every tool. */
  tools: string;
  /** Fields the form does not show (cwd, oauth, disabled, …): saved back unchanged. */
  rest: Record<string, unknown>;
}

/** The form's own fields: everything else of an entry rides along in `rest`. */
const SHOWN = [
  'name',
  'command',
  'args',
  'env',
  'sandbox',
  'url',
  'headers',
  'prefix',
  'auto_approve',
  'timeout_seconds',
  'tool_timeout_sec',
  'agents',
  'tools',
  'enabled_tools',
];
/** Fields of the other transport the form does not show: left behind when the transport changes. */
const ONLY_FOR: Record<Transport, string[]> = { stdio: ['cwd', 'sandbox_write', 'roots'], http: ['oauth'] };

/** The form's controls in the order they are shown: the summary of problems follows it. */
export const CONTROL_ORDER: Array<keyof FormValues> = [
  'name',
  'transport',
  'command',
  'args',
  'env',
  'sandbox',
  'url',
  'headers',
  'prefix',
  'autoApprove',
  'timeout',
  'agents',
  'tools',
];

export function emptyForm(): FormValues {
  return {
    name: '',
    transport: 'stdio',
    command: '',
    args: '',
    env: '',
    sandbox: true,
    url: '',
    headers: '',
    prefix: '',
    autoApprove: false,
    timeout: '',
    agents: '',
    tools: '',
    rest: {},
  };
}

/** The form filled from a server pasted as JSON; what the form already says of its tools is kept. */
export function formFromPasted(form: FormValues, pasted: PastedServer): FormValues {
  return {
    ...form,
    name: pasted.name ?? form.name,
    transport: pasted.transport,
    command: pasted.command ?? '',
    args: (pasted.args ?? []).join('\n'),
    env: Object.entries(pasted.env ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
    url: pasted.url ?? '',
    headers: Object.entries(pasted.headers ?? {})
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
  };
}

/** The form filled from a server as the daemon gives it (secret values already masked). */
export function formFromConfig(config: McpServerConfig): FormValues {
  const rest = Object.fromEntries(Object.entries(config).filter(([key]) => !SHOWN.includes(key)));
  const timeout = config.timeout_seconds ?? config.tool_timeout_sec;
  return {
    name: config.name,
    transport: typeof config.url === 'string' ? 'http' : 'stdio',
    command: typeof config.command === 'string' ? config.command : '',
    args: strings(config.args).join('\n'),
    env: Object.entries(table(config.env))
      .map(([k, v]) => `${k}=${String(v)}`)
      .join('\n'),
    sandbox: config.sandbox !== false,
    url: typeof config.url === 'string' ? config.url : '',
    headers: Object.entries(table(config.headers))
      .map(([k, v]) => `${k}: ${String(v)}`)
      .join('\n'),
    prefix: typeof config.prefix === 'string' ? config.prefix : '',
    autoApprove: config.auto_approve === true,
    timeout: timeout === undefined ? '' : String(timeout),
    agents: strings(config.agents).join(', '),
    tools: strings(config.tools ?? config.enabled_tools).join('\n'),
    rest,
  };
}

/**
 * The `[[mcp.servers]]` entry the form says, and the lines it could not read. Whatever else
 * is wrong (both a command and a URL, a taken name, a bad timeout) is the daemon's to say:
 * its validation is the one the CLI uses. The sandbox is written only when switched off.
 */
export function formToEntry(form: FormValues): { entry: McpServerConfig; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const other: Transport = form.transport === 'stdio' ? 'http' : 'stdio';
  const rest = Object.fromEntries(Object.entries(form.rest).filter(([key]) => !ONLY_FOR[other].includes(key)));
  const entry: McpServerConfig = { ...rest, name: form.name.trim() };
  if (form.transport === 'stdio') {
    // The command is sent even when empty, so the daemon says it must not be.
    entry.command = form.command.trim();
    const args = lines(form.args);
    if (args.length > 0) entry.args = args;
    const env = pairs(form.env, '=', 'env', 'NAME=value', problems);
    if (Object.keys(env).length > 0) entry.env = env;
    if (!form.sandbox) entry.sandbox = false;
  } else {
    entry.url = form.url.trim();
    const headers = pairs(form.headers, ':', 'headers', 'Name: value', problems);
    if (Object.keys(headers).length > 0) entry.headers = headers;
  }
  const prefix = form.prefix.trim();
  if (prefix !== '') entry.prefix = prefix;
  if (form.autoApprove) entry.auto_approve = true;
  const timeout = form.timeout.trim();
  // Not a number: sent as typed, so the daemon names the problem as it does for the file.
  if (timeout !== '') entry.timeout_seconds = /^\d+(\.\d+)?$/.test(timeout) ? Number(timeout) : timeout;
  const agents = form.agents.split(/[\s,]+/).filter(Boolean);
  if (agents.length > 0) entry.agents = agents;
  const tools = lines(form.tools);
  if (tools.length > 0) entry.tools = tools;
  return { entry, problems };
}

/** The form control a problem of the daemon belongs under; undefined: the form as a whole. */
export function controlFor(field: string | undefined): keyof FormValues | undefined {
  switch (field) {
    case 'name':
    case 'command':
    case 'args':
    case 'env':
    case 'url':
    case 'headers':
    case 'agents':
    case 'tools':
    case 'sandbox':
    case 'prefix':
      return field;
    case 'enabled_tools':
      return 'tools';
    case 'auto_approve':
      return 'autoApprove';
    case 'timeout_seconds':
    case 'tool_timeout_sec':
      return 'timeout';
    default:
      return undefined;
  }
}

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

function pairs(text: string, separator: string, field: string, shape: string, problems: FieldProblem[]): Record<string, string> {
  const out: Record<string, string> = {};
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    const at = line.indexOf(separator);
    const key = at > 0 ? line.slice(0, at).trim() : '';
    if (key === '') {
      // The line may be a secret typed without its name: it is not repeated back.
      const message = `line ${i + 1} is not ${shape}`;
      problems.push({ field, message, text: `${field}: ${message}` });
      return;
    }
    out[key] = line.slice(at + 1).trim();
  });
  return out;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function table(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
