import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InitializeRequestSchema, type InitializeRequest, type InitializeResult } from '@modelcontextprotocol/sdk/types.js';

/** The SDK server's own initialize answer, which its constructor registers and no public method exposes. */
type Initializer = (request: InitializeRequest) => Promise<InitializeResult>;

/**
 * Answers initialize with `instructions` chosen by the client, known only from its initialize
 * request (`clientInfo.name`); undefined keeps the server's own. The SDK answers initialize
 * itself and sets instructions once, in its constructor: the answer is wrapped here,
 * everything else in it kept.
 */
export function addInstructions(server: Server, instructions: (clientName: string) => string | undefined): void {
  const own = (server as unknown as { _oninitialize?: Initializer })._oninitialize;
  if (typeof own !== 'function') return;
  const answer = own.bind(server);
  server.setRequestHandler(InitializeRequestSchema, async (request) => {
    const result = await answer(request);
    const chosen = instructions(request.params.clientInfo.name);
    return chosen === undefined ? result : { ...result, instructions: chosen };
  });
}
