import type { IncomingMessage } from 'node:http';
import { BlitzError, nestsDeeperThan } from '@blitz/core';
import { readBody } from './read-body.js';
import type { Caller } from './request-guard.js';

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

const MAX_BODY_BYTES = 1024 * 1024;
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

  async handle(req: IncomingMessage, url: URL, caller: Caller): Promise<RouteResult> {
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
      if (route.method !== req.method) continue;
      return route.handler({ params, caller, query: url.searchParams, body: () => readJson(req) });
    }
    if (pathMatched) throw new BlitzError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${url.pathname}`);
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

async function readJson(req: IncomingMessage): Promise<unknown> {
  const body = await readBody(req, MAX_BODY_BYTES);
  if ('tooLarge' in body) throw new BlitzError('PAYLOAD_TOO_LARGE', `request body of ${body.tooLarge} bytes is larger than 1 MB`);
  if (!body.text) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.text);
  } catch (err) {
    throw new BlitzError('INVALID_ARGUMENT', `request body is not JSON: ${(err as Error).message}`, { reason: 'NOT_JSON' });
  }
  if (nestsDeeperThan(parsed, MAX_BODY_DEPTH)) {
    throw new BlitzError('INVALID_ARGUMENT', `request body nests objects and arrays deeper than ${MAX_BODY_DEPTH} levels; nothing was changed`, { reason: 'BODY_TOO_DEEP' });
  }
  return parsed;
}
