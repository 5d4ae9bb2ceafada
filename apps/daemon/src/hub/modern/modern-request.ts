import type { IncomingHttpHeaders } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import {
  decodeHeaderValue,
  HEADER_MISMATCH,
  INVALID_PARAMS,
  META_CAPABILITIES,
  META_CLIENT_INFO,
  META_LOG_LEVEL,
  META_VERSION,
  METHOD_NOT_FOUND,
  MODERN_VERSIONS,
  nameOf as nameIn,
  paramHeaderMismatch,
  REMOVED_METHODS,
  UNSUPPORTED_VERSION,
  type ParamHeader,
} from '@blitz/core';

/** Every revision the hub serves: the modern ones, then the legacy ones its sessions speak. */
export const ALL_VERSIONS: readonly string[] = [...MODERN_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS];

/** What a modern request says of its client, read from its `_meta`. */
export interface ModernMeta {
  version: string;
  clientInfo: { name: string; version: string } | undefined;
  capabilities: Record<string, unknown>;
  /** The level the client asked for on this request; without it, no log message reaches it. */
  logLevel: string | undefined;
}

export interface ModernRefusal {
  /** The HTTP status, for the streamable HTTP transport. */
  status: number;
  error: { code: number; message: string; data?: unknown };
}

/**
 * A modern request checked before anything runs, in the order the revision's conformance
 * suite reads it: `_meta` complete (-32602), then on HTTP the mirrored headers equal to the
 * body (-32020), then a revision the hub speaks (-32022), then a method the revision has
 * (-32601, HTTP 404). `headers` is undefined on stdio, which mirrors nothing.
 */
export function checkModernRequest(
  request: JSONRPCRequest,
  headers?: IncomingHttpHeaders,
): { meta: ModernMeta } | { refused: ModernRefusal } {
  const meta = request.params?._meta as Record<string, unknown> | undefined;
  const version = meta?.[META_VERSION];
  const capabilities = meta?.[META_CAPABILITIES];
  if (!isRecord(meta) || typeof version !== 'string' || !isRecord(capabilities)) {
    const missing = !isRecord(meta) ? '_meta' : typeof version !== 'string' ? `_meta["${META_VERSION}"]` : `_meta["${META_CAPABILITIES}"]`;
    return refused(
      400,
      INVALID_PARAMS,
      `Invalid params: ${missing} is missing; a 2026-07-28 request carries its protocol version and client capabilities in _meta (a 2025 client sends initialize first)`,
    );
  }
  if (headers) {
    const mismatch = headerMismatch(request, version, headers);
    if (mismatch !== undefined) return refused(400, HEADER_MISMATCH, `Header mismatch: ${mismatch}`);
  }
  if (!MODERN_VERSIONS.includes(version))
    return refused(400, UNSUPPORTED_VERSION, 'Unsupported protocol version', { supported: [...ALL_VERSIONS], requested: version });
  if (REMOVED_METHODS.has(request.method))
    return refused(404, METHOD_NOT_FOUND, `Method not found: ${request.method} is not part of MCP ${version}`);
  const info = meta[META_CLIENT_INFO];
  const level = meta[META_LOG_LEVEL];
  return {
    meta: {
      version,
      clientInfo: isRecord(info) && typeof info.name === 'string' ? { name: info.name, version: String(info.version ?? '') } : undefined,
      capabilities,
      logLevel: typeof level === 'string' ? level : undefined,
    },
  };
}

/**
 * A `tools/call` on HTTP whose `Mcp-Param-*` headers disagree with its arguments, by the marks
 * of the tool as the hub lists it (`declared`): -32020, HTTP 400, before the call runs.
 */
export function checkParamHeaders(
  request: JSONRPCRequest,
  headers: IncomingHttpHeaders,
  declared: (tool: string) => readonly ParamHeader[],
): ModernRefusal | undefined {
  const tool = request.method === 'tools/call' ? request.params?.name : undefined;
  if (typeof tool !== 'string') return undefined;
  const mismatch = paramHeaderMismatch(declared(tool), request.params?.arguments, (name) => {
    const value = headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  });
  return mismatch === undefined ? undefined : refused(400, HEADER_MISMATCH, `Header mismatch: ${mismatch}`).refused;
}

/**
 * Whether a POST outside a session is a modern request: one request (no batch) with a valid
 * id, other than a legacy `initialize` (which names its `protocolVersion` in params, where a
 * modern one, refused as removed, names it in `_meta`).
 */
export function isModernPost(body: unknown): body is JSONRPCRequest {
  if (!isRecord(body) || typeof body.method !== 'string' || !('id' in body)) return false;
  if (typeof body.id !== 'string' && typeof body.id !== 'number') return false;
  if (body.method !== 'initialize') return true;
  const params = body.params as Record<string, unknown> | undefined;
  return isRecord(params) && params.protocolVersion === undefined && isRecord(params._meta) && META_VERSION in params._meta;
}

/** What the mirrored headers say that the body does not, if anything. */
function headerMismatch(request: JSONRPCRequest, version: string, headers: IncomingHttpHeaders): string | undefined {
  const said = headers['mcp-protocol-version'];
  if (said === undefined) return 'the MCP-Protocol-Version header is missing';
  if (said !== version) return `MCP-Protocol-Version header value '${String(said)}' does not match the body's '${version}'`;
  const method = headers['mcp-method'];
  if (method === undefined) return 'the Mcp-Method header is missing';
  if (method !== request.method) return `Mcp-Method header value '${String(method)}' does not match the body's '${request.method}'`;
  const named = nameOf(request);
  if (named === undefined) return undefined;
  const name = headers['mcp-name'];
  if (typeof name !== 'string') return `the Mcp-Name header is missing (required for ${request.method})`;
  const decoded = decodeHeaderValue(name);
  if (decoded === undefined) return 'the Mcp-Name header is not valid base64 in its =?base64?…?= form';
  if (decoded !== named) return `Mcp-Name header value '${name}' does not match the body's '${named}'`;
  return undefined;
}

/** The body value `Mcp-Name` mirrors: a tool's or prompt's name, a resource's URI. */
export function nameOf(request: JSONRPCRequest): string | undefined {
  return nameIn(request.method, request.params);
}

function refused(status: number, code: number, message: string, data?: unknown): { refused: ModernRefusal } {
  return { refused: { status, error: { code, message, ...(data === undefined ? {} : { data }) } } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
