import { TomlError } from 'smol-toml';
import { parseToml } from './toml-edit/parse-toml-text.js';
import { FieldReader, isTable } from './field-reader.js';
import { fieldSpellings, parseServerEntry } from './server-entry.js';
import type { Problem } from './problem.js';
import type { ServerConfig } from './server-config.js';
import { TomlLocator } from './toml-locator.js';
import { clientMetadataUrlProblem } from './url-rules.js';

export const DEFAULT_DAEMON_PORT = 47823;
export const DEFAULT_WORKSPACE_IDLE_MINUTES = 10;
/**
 * Below the 10 MB the MCP TypeScript SDK's stdio client holds of one message (its
 * `ReadBuffer`, used by Claude Code, the inspector and most Node clients): a larger answer
 * through `blitz connect` closes that client's session instead of failing one call.
 */
export const DEFAULT_MAX_RESULT_MB = 8;
/** How long a client's listing waits for servers still starting ([hub] list_wait_ms). */
export const DEFAULT_LIST_WAIT_MS = 5_000;
/** What the SDK's stdio clients read at most, less a chunk of slack: above it their sessions die. */
export const SDK_STDIO_SAFE_RESULT_MB = 9.9;

/** `[hub] max_tools`: the tools a session lists before the hub defers the rest (issue 16). */
export const DEFAULT_MAX_TOOLS = 100;
export const DEFERRED_MODES = ['auto', 'always', 'never'] as const;
/** `[hub] deferred`: `auto` defers past the session's limit, `always` defers every tool not marked direct, `never` lists them all. */
export type DeferredMode = (typeof DEFERRED_MODES)[number];

/** `[hub] pin_review`: a tool in review is not offered (`hide`), or offered with every call asked (`ask`) (issue 31). */
export const PIN_REVIEW_MODES = ['hide', 'ask'] as const;
export type PinReviewMode = (typeof PIN_REVIEW_MODES)[number];
/** `[hub] idle_timeout_seconds`: a server unused this long is stopped to save memory (issue 32.1). */
export const DEFAULT_IDLE_TIMEOUT_SECONDS = 600;
/** `[hub] audit_max_mb`: the audit log's size before it is rotated. */
export const DEFAULT_AUDIT_MAX_MB = 10;

export interface HubSettings {
  maxResultMb: number;
  /** `pin_review`: what becomes of a tool whose definition changed since it was pinned. */
  pinReview: PinReviewMode;
  /** `audit_arguments`: the audit log keeps each call's arguments, redacted (otherwise their hash only). */
  auditArguments: boolean;
  /** `audit_max_mb`: `logs/audit.jsonl` is rotated past this size. */
  auditMaxMb: number;
  /** `list_wait_ms`: how long a client's listing waits for servers still starting. */
  listWaitMs: number;
  /** `idle_timeout_seconds`: a server with no call, subscription or stream this long is stopped; `0` never. A server's own setting wins. */
  idleTimeoutSeconds: number;
  /** `catalog_cache`: answer a cold start from each server's last listing while it starts (issue 18). */
  catalogCache: boolean;
  deferred: DeferredMode;
  maxTools: number;
  /** `[hub.clients."<clientInfo.name>"]`, by the name a client sends at initialize: see `clientSurface`. */
  clients: Record<string, { maxTools?: number; deferred?: DeferredMode }>;
}

export interface Permissions {
  allow: string[];
  ask: string[];
  deny: string[];
}

export interface Settings {
  servers: ServerConfig[];
  permissions: Permissions;
  daemon: { port: number; workspaceIdleMinutes: number };
  hub: HubSettings;
  /** `[oauth]`: Blitz-wide sign-in defaults. */
  oauth: { clientMetadataUrl?: string };
}

export interface ParsedSettings {
  settings: Settings;
  /** Every problem found; any error means the settings must not be used. */
  problems: Problem[];
  /**
   * The line of a server's entry in the file, or of one of its fields (the entry's line when
   * the field is not written there), by the server's name: for what is found once the server
   * runs (a `tool_exposure` key matching none of its tools). Undefined for a name not in the file.
   */
  serverLine(name: string, field?: string): number | undefined;
}

/** `serverLine` of settings whose text was never parsed. */
export const NO_SERVER_LINES: ParsedSettings['serverLine'] = () => undefined;

export function emptySettings(): Settings {
  return {
    servers: [],
    permissions: { allow: [], ask: [], deny: [] },
    daemon: { port: DEFAULT_DAEMON_PORT, workspaceIdleMinutes: DEFAULT_WORKSPACE_IDLE_MINUTES },
    hub: {
      maxResultMb: DEFAULT_MAX_RESULT_MB,
      deferred: 'auto',
      maxTools: DEFAULT_MAX_TOOLS,
      clients: {},
      listWaitMs: DEFAULT_LIST_WAIT_MS,
      catalogCache: true,
      idleTimeoutSeconds: DEFAULT_IDLE_TIMEOUT_SECONDS,
      pinReview: 'hide',
      auditArguments: false,
      auditMaxMb: DEFAULT_AUDIT_MAX_MB,
    },
    oauth: {},
  };
}

/** `mcp:<server>:<tool>`, `*` matching any run of characters in either part. */
/** `mcp:<server>`, `mcp:<server>:<tool>`, or `mcp:<server>:prompt:<prompt>` (issue 25.3). */
const PERMISSION_PATTERN = /^mcp:[A-Za-z0-9._*-]+(:(prompt:)?[A-Za-z0-9._*-]+)?$/;

/** Parses and validates settings.toml text, collecting every problem (MCP-01). */
export function parseSettings(text: string, file: string): ParsedSettings {
  const settings = emptySettings();
  const problems: Problem[] = [];
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text);
  } catch (err) {
    const line = err instanceof TomlError ? err.line : undefined;
    const message = err instanceof Error ? err.message.split('\n')[0]! : String(err);
    problems.push({ severity: 'error', file, ...(line === undefined ? {} : { line }), message: `not valid TOML: ${message}` });
    return { settings, problems, serverLine: NO_SERVER_LINES };
  }
  const at = new TomlLocator(text);
  const top = new FieldReader(doc, (field, message) => problems.push({ severity: 'error', file, line: at.table(field), field, message }));

  const mcp = top.table('mcp') ?? {};
  const rawServers = mcp.servers;
  if (rawServers !== undefined && !Array.isArray(rawServers)) {
    problems.push({
      severity: 'error',
      file,
      line: at.table('mcp', 'servers'),
      field: 'mcp.servers',
      message: 'must be an array of tables: write each server as [[mcp.servers]]',
    });
  }
  const names = new Map<string, number>();
  (Array.isArray(rawServers) ? rawServers : []).forEach((raw, index) => {
    const name = isTable(raw) && typeof raw.name === 'string' ? raw.name : undefined;
    const report = (field: string | undefined, message: string, severity: 'error' | 'warning' = 'error') =>
      problems.push({
        severity,
        file,
        line: at.server(index, field),
        server: name ?? `#${index + 1}`,
        ...(field === undefined ? {} : { field }),
        message,
      });
    const config = parseServerEntry(raw, { kind: 'global', file }, report);
    if (name !== undefined) {
      const first = names.get(name);
      if (first !== undefined) report('name', `is used twice; the first is at line ${at.server(first) ?? '?'}`);
      else names.set(name, index);
    }
    if (config) settings.servers.push(config);
  });
  for (const key of Object.keys(mcp)) {
    if (key !== 'servers')
      problems.push({
        severity: 'warning',
        file,
        line: at.table('mcp', key),
        field: `mcp.${key}`,
        message: 'is not a known setting and is ignored',
      });
  }

  const perms = top.table('permissions');
  if (perms) {
    const r = new FieldReader(perms, (field, message) =>
      problems.push({ severity: 'error', file, line: at.table('permissions', field), field: `permissions.${field}`, message }),
    );
    for (const kind of ['allow', 'ask', 'deny'] as const) {
      const patterns = r.strings(kind) ?? [];
      for (const pattern of patterns) {
        if (!PERMISSION_PATTERN.test(pattern)) {
          problems.push({
            severity: 'error',
            file,
            line: at.table('permissions', kind),
            field: `permissions.${kind}`,
            message: `${JSON.stringify(pattern)} is not a pattern of the form mcp:<server>:<tool> or mcp:<server>:prompt:<prompt> (* matches anything)`,
          });
        }
      }
      settings.permissions[kind] = patterns;
    }
    warnUnread(r, 'permissions', at, file, problems);
  }

  const daemon = top.table('daemon');
  if (daemon) {
    const r = new FieldReader(daemon, (field, message) =>
      problems.push({ severity: 'error', file, line: at.table('daemon', field), field: `daemon.${field}`, message }),
    );
    settings.daemon.port = r.number('port', { min: 0, max: 65535, integer: true }) ?? settings.daemon.port;
    settings.daemon.workspaceIdleMinutes = r.number('workspace_idle_minutes', { min: 0 }) ?? settings.daemon.workspaceIdleMinutes;
    warnUnread(r, 'daemon', at, file, problems);
  }

  const hub = top.table('hub');
  if (hub) {
    const r = new FieldReader(hub, (field, message) =>
      problems.push({ severity: 'error', file, line: at.table('hub', field), field: `hub.${field}`, message }),
    );
    const mb = r.number('max_result_mb', { min: 0 });
    if (mb === 0)
      problems.push({
        severity: 'error',
        file,
        line: at.table('hub', 'max_result_mb'),
        field: 'hub.max_result_mb',
        message: 'must be more than 0',
      });
    else settings.hub.maxResultMb = mb ?? settings.hub.maxResultMb;
    if (mb !== undefined && mb > SDK_STDIO_SAFE_RESULT_MB) {
      problems.push({
        severity: 'warning',
        file,
        line: at.table('hub', 'max_result_mb'),
        field: 'hub.max_result_mb',
        message: `is above 9.9: a result that large closes the session of a client built on the MCP TypeScript SDK's stdio transport (10 MB a message), through blitz connect`,
      });
    }
    const deferred = r.string('deferred');
    if (deferred !== undefined && !(DEFERRED_MODES as readonly string[]).includes(deferred)) {
      problems.push({
        severity: 'error',
        file,
        line: at.table('hub', 'deferred'),
        field: 'hub.deferred',
        message: `${JSON.stringify(deferred)} is not a mode: use "auto", "always" or "never"`,
      });
    } else if (deferred !== undefined) settings.hub.deferred = deferred as DeferredMode;
    settings.hub.maxTools = r.number('max_tools', { min: 1, integer: true }) ?? settings.hub.maxTools;
    const clients = r.table('clients');
    for (const [name, raw] of Object.entries(clients ?? {})) {
      const table = `hub.clients.${name}`;
      const c = new FieldReader(isTable(raw) ? raw : {}, (field, message) =>
        problems.push({ severity: 'error', file, line: at.table(table, field), field: `hub.clients."${name}".${field}`, message }),
      );
      if (!isTable(raw)) {
        problems.push({
          severity: 'error',
          file,
          line: at.table(table),
          field: `hub.clients."${name}"`,
          message: 'must be a table: write it as [hub.clients."<clientInfo.name>"]',
        });
        continue;
      }
      const maxTools = c.number('max_tools', { min: 1, integer: true });
      const clientDeferred = c.string('deferred');
      if (clientDeferred !== undefined && !(DEFERRED_MODES as readonly string[]).includes(clientDeferred)) {
        problems.push({
          severity: 'error',
          file,
          line: at.table(table, 'deferred'),
          field: `hub.clients."${name}".deferred`,
          message: `${JSON.stringify(clientDeferred)} is not a mode: use "auto", "always" or "never"`,
        });
      }
      settings.hub.clients[name] = {
        ...(maxTools === undefined ? {} : { maxTools }),
        ...(clientDeferred === undefined || !(DEFERRED_MODES as readonly string[]).includes(clientDeferred)
          ? {}
          : { deferred: clientDeferred as DeferredMode }),
      };
      for (const key of c.unread()) {
        problems.push({
          severity: 'warning',
          file,
          line: at.table(table, key),
          field: `hub.clients."${name}".${key}`,
          message: 'is not a known setting and is ignored',
        });
      }
    }
    settings.hub.listWaitMs = r.number('list_wait_ms', { min: 0, max: 600_000, integer: true }) ?? settings.hub.listWaitMs;
    settings.hub.catalogCache = r.boolean('catalog_cache') ?? settings.hub.catalogCache;
    settings.hub.idleTimeoutSeconds = r.number('idle_timeout_seconds', { min: 0 }) ?? settings.hub.idleTimeoutSeconds;
    const pinReview = r.string('pin_review');
    if (pinReview !== undefined && !(PIN_REVIEW_MODES as readonly string[]).includes(pinReview)) {
      problems.push({
        severity: 'error',
        file,
        line: at.table('hub', 'pin_review'),
        field: 'hub.pin_review',
        message: `${JSON.stringify(pinReview)} is not a mode: use "hide" or "ask"`,
      });
    } else if (pinReview !== undefined) settings.hub.pinReview = pinReview as PinReviewMode;
    settings.hub.auditArguments = r.boolean('audit_arguments') ?? settings.hub.auditArguments;
    settings.hub.auditMaxMb = r.number('audit_max_mb', { min: 0.001 }) ?? settings.hub.auditMaxMb;
    warnUnread(r, 'hub', at, file, problems);
  }

  const oauth = top.table('oauth');
  if (oauth) {
    const r = new FieldReader(oauth, (field, message) =>
      problems.push({ severity: 'error', file, line: at.table('oauth', field), field: `oauth.${field}`, message }),
    );
    const url = r.string('client_metadata_url');
    const problem = url === undefined ? undefined : clientMetadataUrlProblem(url);
    if (problem)
      problems.push({
        severity: 'error',
        file,
        line: at.table('oauth', 'client_metadata_url'),
        field: 'oauth.client_metadata_url',
        message: problem,
      });
    else if (url !== undefined) settings.oauth.clientMetadataUrl = url;
    warnUnread(r, 'oauth', at, file, problems);
  }

  for (const key of top.unread()) {
    problems.push({ severity: 'warning', file, line: at.table(key), field: key, message: 'is not a known setting and is ignored' });
  }
  const serverLine = (name: string, field?: string) => {
    const index = names.get(name);
    if (index === undefined) return undefined;
    // A field written under its alias (Codex's `enabled_tools` for `tools`) is found there, not at the entry's header.
    for (const spelling of field === undefined ? [] : fieldSpellings(field)) {
      const line = at.serverField(index, spelling);
      if (line !== undefined) return line;
    }
    return at.server(index);
  };
  return { settings, problems, serverLine };
}

function warnUnread(r: FieldReader, table: string, at: TomlLocator, file: string, problems: Problem[]): void {
  for (const key of r.unread()) {
    problems.push({
      severity: 'warning',
      file,
      line: at.table(table, key),
      field: `${table}.${key}`,
      message: 'is not a known setting and is ignored',
    });
  }
}
