import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InitializeRequestSchema, type InitializeRequest, type InitializeResult } from '@modelcontextprotocol/sdk/types.js';

/** The SDK server's own initialize answer, which its constructor registers and no public method exposes. */
type Initializer = (request: InitializeRequest) => Promise<InitializeResult>;

/**
 * Adds a paragraph, second, to the server's `instructions` that depends on the client, known only from
 * its initialize request (`clientInfo.name`). The SDK answers initialize itself and sets
 * instructions once, in its constructor: the answer is wrapped here, everything else in it kept.
 */
export function addInstructions(server: Server, paragraph: (clientName: string) => string | undefined): void {
  const own = (server as unknown as { _oninitialize?: Initializer })._oninitialize;
  if (typeof own !== 'function') return;
  const answer = own.bind(server);
  server.setRequestHandler(InitializeRequestSchema, async (request) => {
    const result = await answer(request);
    const extra = paragraph(request.params.clientInfo.name);
    if (extra === undefined) return result;
    if (result.instructions === undefined) return { ...result, instructions: extra };
    // Second, before the servers' own words (up to 8 KB each): Claude Code keeps only the first 2,048 characters of a server's instructions.
    const [first, ...rest] = result.instructions.split('\n\n');
    return { ...result, instructions: [first, extra, ...rest].join('\n\n') };
  });
}
