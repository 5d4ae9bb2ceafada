import { BlitzError, MAIN_AGENT, type HubSettings } from '@blitz/core';
import type { ContextReceipt } from '@blitz/client';
import { clientContext, receiptClients } from '../hub/context-receipt.js';
import { tokenCounter, TOKENIZER } from '../hub/token-count.js';
import type { UseCounts } from '../hub/tool-use.js';
import type { Workspace } from '../workspaces/workspace.js';
import type { Router } from './router.js';

export interface ContextRouteDeps {
  /** The open workspace with this id; NOT_FOUND otherwise. */
  workspace(id: string): Workspace;
  /** `[hub]` as in force. */
  hub(): HubSettings;
  /** How often each tool was called: a session keeps its most used tools listed. */
  uses(): UseCounts | undefined;
}

/**
 * `GET /v1/workspaces/ID/context[?client=NAME][&agent=NAME]`: what each client's tool list
 * costs in that workspace (issue 30.4, `blitz context`), listed as its `tools/list` would be.
 */
export function contextRoutes(router: Router, deps: ContextRouteDeps): Router {
  return router.on('GET', '/v1/workspaces/:id/context', async ({ params, query }) => {
    const workspace = deps.workspace(params.id!);
    const agent = query.get('agent') ?? MAIN_AGENT;
    const hub = deps.hub();
    const only = query.get('client');
    if (only !== null && only.trim() === '')
      throw new BlitzError('INVALID_ARGUMENT', 'client must be the name a client sends at initialize (clientInfo.name)');
    const clients = only === null ? receiptClients(hub) : [only];
    const [entries, count] = await Promise.all([workspace.manager.listTools(agent, { waitMs: hub.listWaitMs }), tokenCounter()]);
    const uses = deps.uses();
    const receipt: ContextReceipt = {
      workspace: workspace.root,
      agent,
      tokenizer: TOKENIZER,
      clients: clients.map((client) => clientContext(entries, hub, client, count, uses)),
    };
    return { body: receipt };
  });
}
