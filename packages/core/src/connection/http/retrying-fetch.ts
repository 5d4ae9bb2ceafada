import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Clock } from '@blitz/clock';

/**
 * Requests that are safe to send twice: the handshake and the listings change nothing on
 * the server. Everything else (`tools/call` above all) may have had an effect, so it is
 * never replayed.
 */
export const RETRYABLE_METHODS: ReadonlySet<string> = new Set([
  'server/discover',
  'initialize',
  'notifications/initialized',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
]);

export const RETRY_POLICY = {
  maxRetries: 2,
  /** Backoff before retry n (0-based) is `baseDelayMs * factor^n`, at most `maxDelayMs`: 250 ms, 1 s. */
  baseDelayMs: 250,
  factor: 4,
  maxDelayMs: 5_000,
  /** A server asking for a longer pause than this is not worth waiting for inside a handshake. */
  maxRetryAfterMs: 10_000,
} as const;

/** Responses that say "try again later" rather than "no". */
function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

export interface RetryEvent {
  method: string;
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  /** `HTTP 503` or the network error's message. */
  reason: string;
}

export interface RetryingFetchOptions {
  clock: Clock;
  /** Sees each retry before its wait, for the log. */
  onRetry?: (event: RetryEvent) => void;
}

/**
 * Wraps the transport's fetch so a flaky network or a briefly overloaded server does not
 * fail the handshake or a listing: network errors and 408/429/5xx get up to two retries
 * with backoff, honouring `Retry-After`. Only POSTs whose JSON-RPC methods are all in
 * `RETRYABLE_METHODS` qualify; the SSE GET and the session DELETE go through untouched.
 */
export function retryingFetch(base: FetchLike, options: RetryingFetchOptions): FetchLike {
  const { clock, onRetry } = options;
  return async (url, init) => {
    const method = retryableMethod(init);
    if (method === undefined) return base(url, init);
    const signal = init?.signal ?? undefined;
    for (let attempt = 0; ; attempt++) {
      let delayMs: number;
      let reason: string;
      try {
        const response = await base(url, init);
        if (!isRetryableStatus(response.status) || attempt >= RETRY_POLICY.maxRetries) return response;
        delayMs = retryAfterMs(response.headers.get('retry-after'), clock.now()) ?? backoffMs(attempt);
        reason = `HTTP ${response.status}`;
        // Free the connection for the retry.
        await response.body?.cancel().catch(() => {});
      } catch (err) {
        // An abort is the caller giving up, not the network failing.
        if (signal?.aborted || attempt >= RETRY_POLICY.maxRetries) throw err;
        delayMs = backoffMs(attempt);
        reason = describeNetworkError(err);
      }
      onRetry?.({ method, attempt: attempt + 1, delayMs, reason });
      await sleep(clock, delayMs, signal);
    }
  };
}

/** The method to retry under, or undefined when the request must not be replayed. */
export function retryableMethod(init: RequestInit | undefined): string | undefined {
  if ((init?.method ?? 'GET').toUpperCase() !== 'POST' || typeof init?.body !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(init.body);
  } catch {
    return undefined;
  }
  // A batch is replayed only if every message in it could be.
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  const methods = messages.map((m: unknown) => (typeof m === 'object' && m !== null && 'method' in m ? m.method : undefined));
  if (methods.length === 0 || !methods.every((m) => typeof m === 'string' && RETRYABLE_METHODS.has(m))) return undefined;
  return methods.join(',');
}

export function backoffMs(attempt: number): number {
  return Math.min(RETRY_POLICY.maxDelayMs, RETRY_POLICY.baseDelayMs * RETRY_POLICY.factor ** attempt);
}

/** `Retry-After` as delta-seconds or an HTTP date, capped; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  let ms: number;
  if (/^\d+$/.test(value)) {
    ms = Number(value) * 1000;
  } else {
    const at = Date.parse(value);
    if (Number.isNaN(at)) return undefined;
    ms = Math.max(0, at - now);
  }
  return Math.min(ms, RETRY_POLICY.maxRetryAfterMs);
}

function describeNetworkError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // undici says only "fetch failed"; the reason (ECONNREFUSED, …) is in the cause.
  const cause = err.cause as { code?: unknown; message?: unknown } | undefined;
  const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : undefined;
  return detail ? `${err.message} (${detail})` : err.message;
}

function sleep(clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      timer.cancel();
      reject(signal?.reason);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
