import type { CauseCode as SharedCauseCode } from '@blitz/server-state';

/**
 * Why a server is not working, as facts rather than a sentence (issue 29.2): the connection
 * sets one on the error it makes where it knows them (an exit and its crash line, the host
 * that refused), `causeOf` derives the rest from error codes, and `explainCause` turns it into
 * the words every surface shows — the page, the tray, notifications, `mcp list`, `doctor`.
 */
export type ServerCause =
  /** A command that is not on PATH, or a path that is no executable file. */
  | { code: 'COMMAND_NOT_FOUND'; command: string }
  | { code: 'SANDBOX_UNAVAILABLE' }
  /** It died on a write the sandbox refused, outside the folders it may write. */
  | { code: 'SANDBOX_DENIED'; folder: string }
  /** Its settings cannot start it (a variable not set, a url that does not expand to one). */
  | { code: 'CANNOT_START'; detail: string }
  /** `how`: "exited with code 1" or "exited on signal SIGSEGV"; `line`: its stderr's line that says why. */
  | { code: 'EXITED'; how: string; line?: string }
  /** It did not finish starting in time: `phase` is spawn or initialize, `after` like "30s". */
  | { code: 'START_TIMEOUT'; phase: string; after: string }
  | { code: 'CALL_TIMEOUT'; after: string }
  /** `where`: host:port. */
  | { code: 'CONNECTION_REFUSED'; where: string }
  | { code: 'HOST_NOT_FOUND'; host: string }
  /** It answered with an HTTP error status at `where` (origin and path). */
  | { code: 'HTTP_STATUS'; status: number; where: string }
  | { code: 'CONNECTION_CLOSED' }
  | { code: 'NEEDS_SIGN_IN' }
  | { code: 'NEEDS_MORE_ACCESS'; scope?: string }
  /** Nothing finer is known: the error's own message says it. */
  | { code: 'OTHER'; message: string };

export type CauseCode = ServerCause['code'];

/** The codes here and those the API declares (`@blitz/server-state`) are the same set. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _sameCodes: Same<CauseCode, SharedCauseCode> = true;

/** What `causeOf` reads of a coded error (a `BlitzError`; causes/ does not import errors/, which imports it). */
export interface CodedError extends Error {
  readonly code: string;
  readonly reason?: string | undefined;
  readonly serverCause?: ServerCause | undefined;
}

/** The facts of a coded error: those it carries, else what its code and its causes say. */
export function causeOf(error: CodedError): ServerCause {
  if (error.serverCause) return error.serverCause;
  switch (error.code) {
    case 'NEEDS_SIGN_IN':
      return { code: 'NEEDS_SIGN_IN' };
    case 'NEEDS_MORE_ACCESS': {
      const scope = (error as { scope?: unknown }).scope;
      return typeof scope === 'string' && scope !== '' ? { code: 'NEEDS_MORE_ACCESS', scope } : { code: 'NEEDS_MORE_ACCESS' };
    }
    default:
      break;
  }
  if (error.reason === 'SANDBOX_UNAVAILABLE') return { code: 'SANDBOX_UNAVAILABLE' };
  return systemCause(error) ?? { code: 'OTHER', message: error.message };
}

/** A Node system error somewhere in the causes (a spawn's ENOENT, a fetch's ECONNREFUSED) as facts. */
export function systemCause(error: unknown): ServerCause | undefined {
  const found = systemError(error, 0);
  if (!found) return undefined;
  switch (found.code) {
    case 'ENOENT':
    case 'EACCES':
      return typeof found.syscall === 'string' && found.syscall.startsWith('spawn') && typeof found.path === 'string'
        ? { code: 'COMMAND_NOT_FOUND', command: found.path }
        : undefined;
    case 'ECONNREFUSED':
      return {
        code: 'CONNECTION_REFUSED',
        where:
          typeof found.address === 'string'
            ? `${found.address.includes(':') ? `[${found.address}]` : found.address}${found.port === undefined ? '' : `:${String(found.port)}`}`
            : 'its address',
      };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { code: 'HOST_NOT_FOUND', host: typeof found.hostname === 'string' ? found.hostname : 'its host' };
    default:
      return undefined;
  }
}

interface SystemError {
  code: string;
  syscall?: unknown;
  path?: unknown;
  address?: unknown;
  port?: unknown;
  hostname?: unknown;
}

const SYSTEM_CODES = new Set(['ENOENT', 'EACCES', 'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** The first system error in `error`, its `cause` chain and an AggregateError's errors (fetch tries each address). */
function systemError(error: unknown, depth: number): SystemError | undefined {
  if (depth > 6 || typeof error !== 'object' || error === null) return undefined;
  const e = error as { code?: unknown; cause?: unknown; errors?: unknown };
  // An AggregateError has the code of its errors but not their addresses: those first.
  if (Array.isArray(e.errors)) {
    for (const inner of e.errors) {
      const found = systemError(inner, depth + 1);
      if (found) return found;
    }
  }
  if (typeof e.code === 'string' && SYSTEM_CODES.has(e.code)) return e as SystemError;
  return systemError(e.cause, depth + 1);
}
