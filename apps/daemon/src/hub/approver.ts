import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { approvalDetail, decide, howToAllow, permissionKey, type CallSignal, type Permissions } from '@blitz/core';
import type { AskAnswer, AuditRule } from '@blitz/client';

/** How long a question may wait for its answer. */
export const APPROVAL_TIMEOUT_MS = 2 * 60_000;

const CHOICES = ['allow_once', 'allow_session', 'deny'] as const;

/** `rule`: what decided, for the audit log. */
export type Approval = { ok: true; rule: AuditRule } | { ok: false; message: string; rule: AuditRule };

/**
 * Decides one call (MCP-30/43): a deny rule refuses, an allow rule or `auto_approve` runs,
 * otherwise the calling client is asked through elicitation. A client that cannot be asked,
 * no answer in time, or a decline: refused, saying how to allow it — never a silent allow.
 */
export class Approver {
  /** Keys allowed "for this session". */
  readonly #allowed = new Set<string>();
  readonly #client: Server;

  constructor(client: Server) {
    this.#client = client;
  }

  /** `requestId`: the client's call being decided, so the question travels on its stream. */
  /** `inSettings`: the server is an entry of settings.toml (not a project's), so `blitz mcp approve NAME` can set its auto_approve. */
  /** `inReview`: the tool's definition is not the one pinned (`[hub] pin_review = "ask"`): every call is asked, whatever allows it, until the review is accepted. */
  async approve(opts: {
    server: string;
    tool: string;
    args: Record<string, unknown>;
    autoApprove: boolean;
    inSettings: boolean;
    permissions: Permissions;
    requestId: RequestId;
    signal?: CallSignal;
    inReview?: boolean;
  }): Promise<Approval> {
    const key = permissionKey(opts.server, opts.tool);
    const verdict = decide(opts.permissions, key, opts.autoApprove);
    if (opts.inReview && verdict.kind !== 'deny') return this.#ask(key, opts, verdict.kind === 'ask' ? verdict.rule : undefined);
    switch (verdict.kind) {
      case 'allow':
        return { ok: true, rule: verdict.rule === undefined ? { by: 'auto_approve' } : { by: 'allow', rule: verdict.rule } };
      case 'deny':
        return {
          ok: false,
          message: `${opts.tool} (MCP server "${opts.server}") was refused: ${verdict.why}`,
          rule: { by: 'deny', rule: verdict.rule },
        };
      case 'ask':
        if (this.#allowed.has(key)) return { ok: true, rule: { by: 'session' } };
        return this.#ask(key, opts, verdict.rule);
      default: {
        const _exhaustive: never = verdict;
        return _exhaustive;
      }
    }
  }

  async #ask(
    key: string,
    opts: {
      server: string;
      tool: string;
      args: Record<string, unknown>;
      inSettings: boolean;
      requestId: RequestId;
      signal?: CallSignal;
      inReview?: boolean;
    },
    askRule: string | undefined,
  ): Promise<Approval> {
    const howTo = opts.inReview
      ? `its definition changed since it was pinned: see blitz mcp review ${opts.server}, and accept it with --accept`
      : howToAllow(opts.server, opts.tool, askRule, opts.inSettings);
    const asked = (answer: AskAnswer): AuditRule => ({
      by: 'asked',
      answer,
      ...(askRule === undefined ? {} : { rule: askRule }),
      ...(opts.inReview ? { review: true as const } : {}),
    });
    const refused = (why: string, answer: AskAnswer): Approval => ({
      ok: false,
      message: `${opts.tool} (MCP server "${opts.server}") was not run: ${why}; ${howTo}`,
      rule: asked(answer),
    });
    if (!this.#client.getClientCapabilities()?.elicitation)
      return refused('it needs approval and this client cannot be asked (no elicitation support)', 'not_askable');
    let answer;
    try {
      answer = await this.#client.elicitInput(
        {
          message: `${opts.inReview ? `The definition of this tool changed since it was pinned (blitz mcp review ${opts.server}). ` : ''}Run ${approvalDetail(opts.tool, opts.server, opts.args)}`,
          requestedSchema: {
            type: 'object',
            properties: {
              decision: {
                type: 'string',
                title: 'Run this tool?',
                enum: [...CHOICES],
                enumNames: ['Allow once', 'Allow for this session', 'Deny'],
              },
            },
            required: ['decision'],
          },
        },
        { timeout: APPROVAL_TIMEOUT_MS, relatedRequestId: opts.requestId, ...(opts.signal ? { signal: opts.signal.toAbortSignal() } : {}) },
      );
    } catch (err) {
      if (opts.signal?.aborted) return refused('the call was cancelled while waiting for approval', 'cancelled');
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout)
        return refused('no answer to the approval question within 2 minutes', 'timed_out');
      return refused(`the approval question failed (${(err as Error).message})`, 'failed');
    }
    const decision = answer.action === 'accept' ? answer.content?.decision : undefined;
    // A tool in review is asked at every call: "for this session" is not remembered for it.
    if (decision === 'allow_session' && !opts.inReview) this.#allowed.add(key);
    if (decision === 'allow_once' || decision === 'allow_session') return { ok: true, rule: asked(decision) };
    if (answer.action === 'accept') return refused('denied', 'deny');
    return refused(
      `the question was ${answer.action === 'decline' ? 'declined' : 'cancelled'}`,
      answer.action === 'decline' ? 'declined' : 'cancelled',
    );
  }
}
