/** The agent a server with no `agents` setting is offered to. */
export const MAIN_AGENT = 'main';

/** The `agents` entry that offers a server to every agent. */
export const EVERY_AGENT = '*';

/**
 * Whether `agent` may use a server's tools, given the server's `agents` setting: empty means
 * `main` only (a new server does not leak into sub-agents unasked), `"*"` means every agent,
 * anything else is a list of agent names.
 */
export function agentMayUse(agents: readonly string[], agent: string): boolean {
  if (agents.length === 0) return agent === MAIN_AGENT;
  return agents.includes(EVERY_AGENT) || agents.includes(agent);
}
