import type { IncomingHttpHeaders } from 'node:http';
import { BlitzError, nestsDeeperThan } from '@blitz/core';
import type { Caller } from './request-guard.js';

/** A control-API request as plain data, not Node's request, so it can be answered in-process too. */
export interface ApiRequest {
  method: string;
  /** The path and query of the request line: `/v1/status?after=3`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The body's text; only its size when it was longer than the server reads (`MAX_BODY_BYTES`). */
  body?: string | { tooLarge: number } | undefined;
}

export interface RouteContext {
  params: Record<string, string>;
  /** Who asks: a holder of the bearer token, or the settings page by its session. */
  caller: Caller;
  query: URLSearchParams;
  body(): Promise<unknown>;
}

export interface RouteResult {
  status?: number;
  body: unknown;
  /** The answer is a credential meant for its caller (a one-time code): not masked like the rest. */
  credential?: true;
}

type Handler = (ctx: RouteContext) => RouteResult | Promise<RouteResult>;

interface Route {
  method: string;
  segments: string[];
  handler: Handler;
}

/** The longest body the control API reads. */
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * A server entry nests three levels (entry, `env`, value); this leaves room and keeps every
 * recursive step after parsing (validation, TOML formatting) far from the stack's end.
 */
const MAX_BODY_DEPTH = 16;

/** Method + path patterns (`/v1/workspaces/:id`) to handlers; nothing more is needed here. */
export class Router {
  readonly #routes: Route[] = [];

  on(method: string, pattern: string, handler: Handler): this {
    this.#routes.push({ method, segments: pattern.split('/').filter(Boolean), handler });
    return this;
  }

  async handle(request: ApiRequest, caller: Caller): Promise<RouteResult> {
    // Any base will do: only the path and the query are read.
    const url = new URL(request.path, 'http://127.0.0.1');
    let parts: string[];
    try {
      parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    } catch {
      throw new BlitzError('INVALID_ARGUMENT', `the path ${url.pathname} is not valid percent-encoding`, { reason: 'BAD_PATH' });
    }
    let pathMatched = false;
    for (const route of this.#routes) {
      const params = match(route.segments, parts);
      if (!params) continue;
      pathMatched = true;
      if (route.method !== request.method) continue;
      return route.handler({ params, caller, query: url.searchParams, body: async () => parseJson(request.body) });
    }
    if (pathMatched) throw new BlitzError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${url.pathname}`);
    throw new BlitzError('NOT_FOUND', `no such endpoint: ${url.pathname}`, { reason: 'ENDPOINT_NOT_FOUND' });
  }
}

function match(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    if (p.startsWith(':')) params[p.slice(1)] = parts[i]!;
    else if (p !== parts[i]) return undefined;
  }
  return params;
}

function parseJson(body: ApiRequest['body']): unknown {
  const size = typeof body === 'string' ? Buffer.byteLength(body) : (body?.tooLarge ?? 0);
  if (size > MAX_BODY_BYTES) throw new BlitzError('PAYLOAD_TOO_LARGE', `request body of ${size} bytes is larger than 1 MB`);
  if (typeof body !== 'string' || !body) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (err) {
    throw new BlitzError('INVALID_ARGUMENT', `request body is not JSON: ${(err as Error).message}`, { reason: 'NOT_JSON' });
  }
  if (nestsDeeperThan(parsed, MAX_BODY_DEPTH)) {
    throw new BlitzError(
      'INVALID_ARGUMENT',
      `request body nests objects and arrays deeper than ${MAX_BODY_DEPTH} levels; nothing was changed`,
      { reason: 'BODY_TOO_DEEP' },
    );
  }
  return parsed;
}
