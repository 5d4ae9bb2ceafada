import { FieldReader, isTable } from './field-reader.js';
import { hasEnvReference, workspaceReference } from './expand-env.js';
import { absolutePathProblem } from './home-path.js';
import { runsBlitzConnect } from './runs-blitz.js';
import { clientMetadataUrlProblem, urlProblem } from './url-rules.js';
import {
  DEFAULT_STARTUP_TIMEOUT_SECONDS,
  DEFAULT_TIMEOUT_SECONDS,
  type OAuthConfig,
  type ServerConfig,
  EXPOSURES,
  TOOL_EXPOSURE_KEY,
  type Exposure,
  type ServerSource,
} from './server-config.js';

export const SERVER_NAME = /^[A-Za-z0-9._-]+$/;
export const PREFIX = /^[A-Za-z0-9_-]+$/;

const OAUTH_FIELDS = ['client_id', 'client_secret', 'scopes', 'callback_port', 'authorization_server', 'client_metadata_url'];

export type ReportFn = (field: string | undefined, message: string, severity?: 'error' | 'warning') => void;

/** What a caller does with a field no server has (`oauth.` fields by their path): by default, a warning that it is ignored. */
export type UnknownFieldFn = (field: string) => void;

/**
 * Validates one raw `[[mcp.servers]]` table. Every problem goes to `report`; a config is
 * returned only when the entry has no errors.
 */
export function parseServerEntry(
  raw: unknown,
  source: ServerSource,
  report: ReportFn,
  unknown: UnknownFieldFn = (field) => report(field, 'is not a known field and is ignored', 'warning'),
): ServerConfig | undefined {
  if (!isTable(raw)) {
    report(undefined, 'each [[mcp.servers]] entry must be a table');
    return undefined;
  }
  let errors = 0;
  const error = (field: string | undefined, message: string) => {
    errors++;
    report(field, message);
  };
  const r = new FieldReader(raw, error);

  const name = r.string('name');
  if (!r.has('name') || name?.trim() === '') error('name', 'is required');
  else if (name !== undefined && !SERVER_NAME.test(name))
    error('name', `${JSON.stringify(name)} may use only letters, digits, ".", "-" and "_"`);
  // As a path segment of the control API (/v1/config/mcp-servers/NAME) these name no server.
  else if (name === '.' || name === '..') error('name', `${JSON.stringify(name)} is not a name: use a letter, digit, "-" or "_" too`);

  const command = r.string('command');
  const args = r.strings('args');
  const env = r.stringMap('env');
  const cwd = r.string('cwd');
  const url = r.string('url');
  const headers = r.stringMap('headers');
  if (r.has('command') && r.has('url'))
    error(undefined, 'has both command and url; a server is either a command (stdio) or a url (streamable HTTP)');
  if (!r.has('command') && !r.has('url')) error(undefined, 'needs a command (stdio) or a url (streamable HTTP)');
  if (command !== undefined && command.trim() === '') error('command', 'must not be empty');
  // A client's way to Blitz: run by Blitz, it would be a second Blitz inside the first.
  if (command !== undefined && runsBlitzConnect(command, args)) {
    error(
      'command',
      source.kind === 'project'
        ? 'runs Blitz itself (blitz connect), the entry for the clients that read this file; Blitz offers the other servers here'
        : 'runs Blitz itself (blitz connect): that is how a client reaches Blitz, not a server Blitz can run',
    );
  }
  if (r.has('url')) {
    for (const field of ['args', 'env', 'cwd'] as const) if (r.has(field)) error(field, 'is only for command (stdio) servers');
  }
  if (r.has('command') && r.has('headers')) error('headers', 'is only for url (streamable HTTP) servers');
  if (url !== undefined && !hasEnvReference(url)) {
    const problem = urlProblem(url);
    if (problem) error('url', problem);
  }

  const tools = exclusive(r, 'tools', error, (k) => r.strings(k));
  const timeoutSeconds = exclusive(r, 'timeout_seconds', error, (k) => r.number(k, { min: 1 }));
  const startupTimeoutSeconds = exclusive(r, 'startup_timeout_seconds', error, (k) => r.number(k, { min: 1 }));
  const idleTimeoutSeconds = r.number('idle_timeout_seconds', { min: 0 });
  const disabled = r.boolean('disabled');
  const enabled = r.boolean('enabled');
  if (disabled !== undefined && enabled !== undefined && disabled === enabled) {
    error('enabled', `contradicts disabled = ${disabled}; keep one of them`);
  }
  const prefix = r.string('prefix');
  if (prefix !== undefined && !PREFIX.test(prefix)) error('prefix', `${JSON.stringify(prefix)} may use only letters, digits, "-" and "_"`);
  const exposure = parseExposure(r.string('exposure'), 'exposure', error);
  const toolExposure = parseToolExposure(r.stringMap('tool_exposure'), error);
  const agents = r.strings('agents');
  const autoApprove = r.boolean('auto_approve');
  const sandbox = r.boolean('sandbox');
  const sampling = r.boolean('sampling');
  const roots = parseRoots(r, error);
  const sandboxWrite = parsePaths(r, 'sandbox_write', error);
  if (r.has('url') && sandboxWrite !== undefined) error('sandbox_write', 'is only for command (stdio) servers');
  if (sandbox === false && sandboxWrite !== undefined) error('sandbox_write', 'has no effect with sandbox = false; keep one of them');
  let share = r.boolean('share');
  if (share && source.kind === 'project') {
    report('share', "is only for servers in settings.toml: a project's server runs for its project alone; it is not shared", 'warning');
    share = false;
  }
  if (share) {
    for (const [field, value] of workspaceDependentFields(command, args, env, cwd, url, headers)) {
      error(
        field,
        `uses ${value}, which differs by workspace, so the server cannot be shared (share = true runs one copy for every workspace); remove share or the reference`,
      );
    }
  }
  const pin = r.boolean('pin');
  const oauth = parseOAuth(r.table('oauth'), error, unknown);
  if (oauth && headers && Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) {
    error('headers', 'a static Authorization header cannot be combined with oauth; remove one of them');
  }

  for (const key of r.unread()) unknown(key);
  if (errors > 0 || name === undefined) return undefined;

  const config: ServerConfig = {
    name,
    transport:
      command !== undefined
        ? { kind: 'stdio', command, args: args ?? [], env: env ?? {}, ...(cwd === undefined ? {} : { cwd }) }
        : { kind: 'http', url: url!, headers: headers ?? {} },
    autoApprove: autoApprove ?? false,
    sandbox: sandbox ?? true,
    agents: agents ?? [],
    timeoutSeconds: timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
    startupTimeoutSeconds: startupTimeoutSeconds ?? DEFAULT_STARTUP_TIMEOUT_SECONDS,
    disabled: disabled ?? (enabled === undefined ? false : !enabled),
    sampling: sampling ?? false,
    share: share ?? false,
    source,
  };
  if (tools !== undefined) config.tools = tools;
  if (prefix !== undefined) config.prefix = prefix;
  if (exposure !== undefined) config.exposure = exposure;
  if (toolExposure !== undefined) config.toolExposure = toolExposure;
  if (oauth !== undefined) config.oauth = oauth;
  if (roots !== undefined) config.roots = roots;
  if (sandboxWrite !== undefined) config.sandboxWrite = sandboxWrite;
  if (pin === false) config.pin = false;
  if (idleTimeoutSeconds !== undefined) config.idleTimeoutSeconds = idleTimeoutSeconds;
  return config;
}

function parseExposure(value: string | undefined, field: string, error: (f: string, m: string) => void): Exposure | undefined {
  if (value === undefined || (EXPOSURES as readonly string[]).includes(value)) return value as Exposure | undefined;
  error(field, `${JSON.stringify(value)} is not an exposure: use "direct", "deferred" or "hidden"`);
  return undefined;
}

/** `tool_exposure = { "issue_*" = "deferred", … }`: keys are original tool names or `*` patterns. */
function parseToolExposure(
  table: Record<string, string> | undefined,
  error: (f: string, m: string) => void,
): Record<string, Exposure> | undefined {
  if (table === undefined) return undefined;
  const result: Record<string, Exposure> = {};
  let ok = true;
  for (const [key, value] of Object.entries(table)) {
    const field = `tool_exposure.${key}`;
    if (!TOOL_EXPOSURE_KEY.test(key)) {
      error(
        field,
        `${JSON.stringify(key)} is not a tool name or pattern: use letters, digits, ".", "-", "_" and * for any run of characters`,
      );
      ok = false;
    }
    const exposure = parseExposure(value, field, error);
    if (exposure === undefined) ok = false;
    else result[key] = exposure;
  }
  return ok ? result : undefined;
}

/** `roots`: absent = the workspace, `false` = not offered, or a list of absolute paths. */
function parseRoots(r: FieldReader, error: (f: string, m: string) => void): string[] | false | undefined {
  if (!r.has('roots')) return undefined;
  if (r.peek('roots') === true) {
    error('roots', 'must be false (roots are not offered to the server) or an array of paths; leave it out for the workspace');
    return undefined;
  }
  if (typeof r.peek('roots') === 'boolean') return r.boolean('roots') as false;
  return parsePaths(r, 'roots', error);
}

/** An array of paths, each absolute once `~` is expanded. */
function parsePaths(r: FieldReader, field: string, error: (f: string, m: string) => void): string[] | undefined {
  const paths = r.strings(field);
  if (paths === undefined) return undefined;
  const problems = paths.map(absolutePathProblem).filter((p) => p !== undefined);
  for (const problem of problems) error(field, problem);
  return problems.length > 0 ? undefined : paths;
}

/**
 * The fields of a stdio or HTTP server that name the workspace (`${WORKSPACE}`), with the
 * reference found. Blitz expands references from the daemon's environment; a workspace
 * reference is the one thing a shared server could not honour for every workspace at once.
 */
function workspaceDependentFields(
  command: string | undefined,
  args: readonly string[] | undefined,
  env: Readonly<Record<string, string>> | undefined,
  cwd: string | undefined,
  url: string | undefined,
  headers: Readonly<Record<string, string>> | undefined,
): [string, string][] {
  const values: [string, string | undefined][] = [
    ['command', command],
    ...(args ?? []).map((a): [string, string] => ['args', a]),
    ...Object.entries(env ?? {}).map(([k, v]): [string, string] => [`env.${k}`, v]),
    ['cwd', cwd],
    ['url', url],
    ...Object.entries(headers ?? {}).map(([k, v]): [string, string] => [`headers.${k}`, v]),
  ];
  const found = new Map<string, string>();
  for (const [field, value] of values) {
    const reference = value === undefined ? undefined : workspaceReference(value);
    if (reference !== undefined && !found.has(field)) found.set(field, reference);
  }
  return [...found];
}

/** A server field's other spelling, as Codex writes it: either may be written, not both. */
const FIELD_ALIASES = {
  tools: 'enabled_tools',
  timeout_seconds: 'tool_timeout_sec',
  startup_timeout_seconds: 'startup_timeout_sec',
} as const;

/**
 * How a server field (`tools`, `tool_exposure.pr_*`) may be written in its entry: as itself,
 * and, for one with an alias, as that (`enabled_tools`) — where to look for its line.
 */
export function fieldSpellings(field: string): string[] {
  const alias = (FIELD_ALIASES as Record<string, string>)[field];
  return alias === undefined ? [field] : [field, alias];
}

function exclusive<T>(
  r: FieldReader,
  field: keyof typeof FIELD_ALIASES,
  error: (f: string, m: string) => void,
  read: (k: string) => T | undefined,
): T | undefined {
  const alias = FIELD_ALIASES[field];
  if (r.has(field) && r.has(alias)) {
    error(alias, `is an alias of ${field}; use only one of them`);
    return undefined;
  }
  return read(r.has(alias) ? alias : field);
}

function parseOAuth(
  raw: Record<string, unknown> | undefined,
  error: (f: string, m: string) => void,
  unknown: UnknownFieldFn,
): OAuthConfig | undefined {
  if (raw === undefined) return undefined;
  const r = new FieldReader(raw, (field, message) => error(`oauth.${field}`, message));
  const oauth: OAuthConfig = {};
  const clientId = r.string('client_id');
  const clientSecret = r.string('client_secret');
  const scopes = r.strings('scopes');
  const callbackPort = r.number('callback_port', { min: 1, max: 65535, integer: true });
  const authorizationServer = r.string('authorization_server');
  const clientMetadataUrl = r.string('client_metadata_url');
  const metadataProblem = clientMetadataUrl === undefined ? undefined : clientMetadataUrlProblem(clientMetadataUrl);
  if (metadataProblem) error('oauth.client_metadata_url', metadataProblem);
  if (clientSecret !== undefined && !hasEnvReference(clientSecret)) {
    error('oauth.client_secret', 'must be an environment reference such as "${MY_CLIENT_SECRET}", never the secret itself');
  }
  if (authorizationServer !== undefined && !hasEnvReference(authorizationServer)) {
    const problem = urlProblem(authorizationServer);
    if (problem) error('oauth.authorization_server', problem);
  }
  for (const key of r.unread()) {
    if (!OAUTH_FIELDS.includes(key)) unknown(`oauth.${key}`);
  }
  if (clientId !== undefined) oauth.clientId = clientId;
  if (clientSecret !== undefined) oauth.clientSecret = clientSecret;
  if (scopes !== undefined) oauth.scopes = scopes;
  if (callbackPort !== undefined) oauth.callbackPort = callbackPort;
  if (authorizationServer !== undefined) oauth.authorizationServer = authorizationServer;
  if (clientMetadataUrl !== undefined && !metadataProblem) oauth.clientMetadataUrl = clientMetadataUrl;
  return oauth;
}
