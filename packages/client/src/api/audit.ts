/** `logs/audit.jsonl`: one line for every tool call, resource read and prompt get through the hub (issue 31). */

/** What decided whether a call ran (issue 31): the rule, or the question and its answer. */
export type AuditRule =
  /** The server is `auto_approve`. */
  | { by: 'auto_approve' }
  /** A `[permissions] allow` or `deny` rule: the pattern. */
  | { by: 'allow' | 'deny'; rule: string }
  /** Allowed earlier in this session ("allow for this session"). */
  | { by: 'session' }
  /** The client was asked (`rule`: the `[permissions] ask` pattern that asked, if one; `review`: the tool is in review). */
  | { by: 'asked'; answer: AskAnswer; rule?: string; review?: true }
  /** Refused before any rule: read-only mode, a tool held for review, a paused server. */
  | { by: 'refused'; why: 'read_only' | 'in_review' | 'paused' }
  /** Nothing approves it: a resource read, a prompt, a listing across servers; or the call never reached a server. */
  | { by: 'none' };

export type AskAnswer = 'allow_once' | 'allow_session' | 'deny' | 'declined' | 'cancelled' | 'timed_out' | 'not_askable' | 'failed';

/** How a call ended: its result, a tool error it returned, an error (with its code), a timeout, a cancellation, or refused before it ran. */
export type AuditOutcome =
  | { outcome: 'result' }
  | { outcome: 'tool_error' }
  | { outcome: 'error'; code: string }
  | { outcome: 'timed_out' }
  | { outcome: 'cancelled' }
  | { outcome: 'refused' };

/** `GET /v1/audit/calls?server=NAME[&limit=N]`: a server's latest calls, newest first, without argument values. */
export interface LatestCalls {
  server: string;
  calls: AuditEntry[];
}

/** One line of `logs/audit.jsonl`. */
export type AuditEntry = {
  /** ISO 8601, when the call came. */
  time: string;
  kind: 'tool' | 'resource' | 'prompt';
  /** The client's `clientInfo.name`, and the agent it connected as. */
  client: string | null;
  agent: string;
  workspace: string;
  /** The server it went to; null when none was found. */
  server: string | null;
  /** The tool or prompt as the server knows it, or the resource URI; as the client named it when no server was found. */
  name: string;
  rule: AuditRule;
  durationMs: number;
  /** SHA-256 of the arguments' canonical JSON: the same arguments, the same hash; never their values. */
  argsHash: string;
  /** With `[hub] audit_arguments = true` only: the arguments, redacted. */
  args?: unknown;
} & AuditOutcome;
