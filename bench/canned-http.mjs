// A streamable HTTP endpoint that answers initialize and tools/call echo at once, as JSON, in
// a process of its own: what any HTTP endpoint costs a client before it does any work.
// Prints {"port": N} once listening. `--answer=SHAPE` answers in another shape
// (bench/http-answers.mjs; bench/mcp-floors.mjs compares them).
import { serve, shapeFrom } from './http-answers.mjs';

const shape = shapeFrom(process.argv.slice(2));
serve(shape, { sessionId: 'canned', chunked: true }, (_body, message, reply) => {
  if (message.id === undefined) return; // a notification: answered 202 already
  const result =
    message.method === 'initialize'
      ? { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'canned', version: '0' } }
      : { content: [{ type: 'text', text: `Echo: ${message.params.arguments.message}` }] };
  reply(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
