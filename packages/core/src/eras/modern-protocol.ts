/**
 * The words of MCP 2026-07-28 that both sides of the hub use: the `_meta` keys a modern request
 * and result carry, the revision's error codes, and the methods it removed. The daemon's /mcp
 * serves modern clients with them (apps/daemon/src/hub/modern/), the connection speaks them to
 * modern servers (modern-server-transport.ts).
 */

/** The modern revisions (per-request `_meta`, no `initialize`), newest first. */
export const MODERN_VERSIONS: readonly string[] = ['2026-07-28'];
export const MODERN_VERSION = MODERN_VERSIONS[0]!;

export const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** The revision's error codes (basic/index "Error codes"). */
export const HEADER_MISMATCH = -32020;
export const MISSING_CAPABILITY = -32021;
export const UNSUPPORTED_VERSION = -32022;
export const INVALID_PARAMS = -32602;
export const METHOD_NOT_FOUND = -32601;

/** Methods of the legacy revisions that 2026-07-28 removed. */
export const REMOVED_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
]);

/** The requests whose result may be `input_required` (basic/utilities/mrtr). */
export const MULTI_ROUND: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/**
 * A `_meta` key of Blitz's own on a server's question as the hub passes it on: the key the
 * server gave it in its `input_required` result, so a modern client is asked under that key.
 */
export const META_INPUT_KEY = 'blitz/inputKey';

/**
 * A `_meta` key of Blitz's own on a 2026-07-28 client's first call as the hub's session sees it:
 * the `inputResponses` the client sent before anything was asked of it. They can only be for
 * the call's server, which is sent them with the call when it speaks 2026-07-28.
 */
export const META_INPUT_RESPONSES = 'blitz/inputResponses';

/**
 * A `_meta` key of Blitz's own on a call to a 2026-07-28 server: the capabilities of the client
 * whose call it is. The server is told the link's capabilities less what that client lacks
 * (modern-server-transport.ts), so it does not ask a question no one can answer.
 */
export const META_CALLER_CAPABILITIES = 'blitz/callerCapabilities';

/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28): a server may answer a
 * `tools/call` of a client that declares it with a task (`resultType: "task"`), which the client
 * then follows with these methods, each naming the task by `taskId`.
 */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
export const TASK_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** Whether these client capabilities declare the tasks extension. */
export function declaresTasks(capabilities: unknown): boolean {
  const extensions = (capabilities as { extensions?: unknown } | undefined)?.extensions;
  return typeof extensions === 'object' && extensions !== null && TASKS_EXTENSION in extensions;
}

/** The body value `Mcp-Name` mirrors: a tool's or prompt's name, a resource's URI, a task's id; undefined for other methods. */
export function nameOf(method: string, params: Record<string, unknown> | undefined): string | undefined {
  if (method === 'tools/call' || method === 'prompts/get') return typeof params?.name === 'string' ? params.name : '';
  if (method === 'resources/read') return typeof params?.uri === 'string' ? params.uri : '';
  if (TASK_METHODS.has(method)) return typeof params?.taskId === 'string' ? params.taskId : '';
  return undefined;
}

/**
 * A header value as the revision sends one: plain when it is printable ASCII without spaces at
 * its ends, else `=?base64?…?=` around its UTF-8 bytes — as is a value that has that form
 * itself, so that it is read back as itself.
 */
export function encodeHeaderValue(value: string): string {
  const plain = /^[\x20-\x7e]*$/.test(value) && value.trim() === value && !/^=\?base64\?.*\?=$/.test(value);
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** A header value as sent: plain, or `=?base64?…?=` around the UTF-8 bytes' base64; undefined when that form is broken. */
export function decodeHeaderValue(value: string): string | undefined {
  if (!value.startsWith('=?base64?') || !value.endsWith('?=')) return value;
  const inner = value.slice('=?base64?'.length, -2);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(inner)) return undefined;
  return Buffer.from(inner, 'base64').toString('utf8');
}
