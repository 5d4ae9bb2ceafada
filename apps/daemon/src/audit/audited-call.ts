import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isBlitzError } from '@blitz/core';
import type { Clock } from '@blitz/clock';
import type { AuditEntry, AuditOutcome, AuditRule } from '@blitz/client';
import { argumentsHash } from './arguments-hash.js';
import type { AuditLog } from './audit-log.js';

/** Who a session's calls are audited as. */
export interface SessionAudit {
  /** Absent: nothing is written (a hub made without the daemon's log, in tests). */
  log?: AuditLog;
  clock: Clock;
  agent: string;
  workspace: string;
  /** The client's `clientInfo.name`, known once it initialized. */
  client(): string | undefined;
}

/**
 * One call through the hub as the audit log records it: begun when it comes, filled in as it
 * is routed and decided (server, name, rule), written once when it ends. What ended it is
 * said where it is known (`failed`, `refused`), or read from its result.
 */
export class AuditedCall {
  server: string | null = null;
  name: string;
  rule: AuditRule = { by: 'none' };
  /** Hashed; kept (redacted) only when `[hub] audit_arguments` asks. `call_tool` replaces its own by the inner call's. */
  args: unknown;
  readonly #audit: SessionAudit;
  readonly #kind: AuditEntry['kind'];
  readonly #start: number;
  #outcome: AuditOutcome | undefined;
  #written = false;

  constructor(audit: SessionAudit, kind: AuditEntry['kind'], name: string, args: unknown) {
    this.#audit = audit;
    this.#kind = kind;
    this.name = name;
    this.args = args;
    this.#start = audit.clock.now();
  }

  /** It was refused before it reached its server (by a rule, a question, read-only mode, review, a bound). */
  refused(rule?: AuditRule): void {
    if (rule) this.rule = rule;
    this.#outcome = { outcome: 'refused' };
  }

  /** It failed with this error (a BlitzError's code, a JSON-RPC error's, a timeout, a cancellation). */
  failed(err: unknown, signal?: { aborted: boolean }): void {
    this.#outcome = failure(err, signal);
  }

  /** It answered: a result, or a tool error the server returned; cancelled when its signal says so. */
  answered(result: Pick<CallToolResult, 'isError'> | undefined, signal?: { aborted: boolean }): void {
    this.#write(
      signal?.aborted ? { outcome: 'cancelled' } : (this.#outcome ?? (result?.isError ? { outcome: 'tool_error' } : { outcome: 'result' })),
    );
  }

  /** It threw: the error goes on to the client as it was. */
  threw(err: unknown, signal?: { aborted: boolean }): void {
    this.#write(this.#outcome ?? failure(err, signal));
  }

  #write(outcome: AuditOutcome): void {
    if (this.#written || !this.#audit.log) return;
    this.#written = true;
    const { log, clock, agent, workspace } = this.#audit;
    const entry: AuditEntry = {
      time: new Date(this.#start).toISOString(),
      kind: this.#kind,
      client: this.#audit.client() ?? null,
      agent,
      workspace,
      server: this.server,
      name: this.name,
      rule: this.rule,
      ...outcome,
      durationMs: clock.now() - this.#start,
      argsHash: argumentsHash(this.args),
      // Dropped by the log unless [hub] audit_arguments asks for them, and then redacted.
      ...(this.args === undefined ? {} : { args: this.args }),
    };
    log?.write(entry);
  }
}

/** Runs a resource read or prompt get as an audited call: the server that answered, and how it ended. */
export async function audited<T>(
  audit: AuditedCall,
  signal: { aborted: boolean },
  run: () => Promise<{ result: T; server: string }>,
): Promise<T> {
  try {
    const { result, server } = await run();
    audit.server = server;
    audit.answered(undefined, signal);
    return result;
  } catch (err) {
    audit.threw(err, signal);
    throw err;
  }
}

function failure(err: unknown, signal?: { aborted: boolean }): AuditOutcome {
  if (signal?.aborted || isBlitzError(err, 'CANCELLED')) return { outcome: 'cancelled' };
  if (isBlitzError(err, 'TIMEOUT') || (err instanceof McpError && err.code === ErrorCode.RequestTimeout)) return { outcome: 'timed_out' };
  if (isBlitzError(err)) return { outcome: 'error', code: err.reason ?? err.code };
  const code = (err as { code?: unknown }).code;
  return { outcome: 'error', code: typeof code === 'number' || typeof code === 'string' ? String(code) : 'INTERNAL' };
}
