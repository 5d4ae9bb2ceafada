// A small stdio MCP server for the scale benchmark: `TOOLS` tools (default 20) with
// descriptions and schemas of a real server's size, and `echo`. JSON-RPC lines, no SDK: its
// own cost (time and memory) stays small beside the hub's.
import readline from 'node:readline';

const count = Number(process.env.TOOLS ?? 20);
const name = process.env.SERVER_NAME ?? 'tools';
const VERBS = ['list', 'get', 'create', 'update', 'delete', 'search', 'move', 'archive', 'share', 'export'];
const NOUNS = ['issue', 'file', 'message', 'ticket', 'record', 'event', 'invoice', 'page', 'branch', 'contact'];

const tools = [
  {
    name: 'echo',
    description: 'Returns the text it is given.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  ...Array.from({ length: count - 1 }, (_, i) => {
    const verb = VERBS[i % VERBS.length];
    const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length];
    return {
      name: `${verb}_${noun}_${i}`,
      description: `${verb[0].toUpperCase()}${verb.slice(1)} a ${noun} in the ${name} service. Give the ${noun}'s id, or a query for several; the answer lists each ${noun} with its title, owner and last change.`,
      inputSchema: {
        type: 'object',
        properties: {
          id: { type: 'string', description: `The ${noun}'s id` },
          query: { type: 'string', description: `Words to find ${noun}s by` },
          limit: { type: 'integer', minimum: 1, maximum: 100, description: 'How many at most' },
        },
      },
    };
  }),
];

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  const answer = (result) => send({ jsonrpc: '2.0', id: message.id, result });
  switch (message.method) {
    case 'initialize':
      return answer({ protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name, version: '1' } });
    case 'tools/list':
      return answer({ tools });
    case 'tools/call':
      return answer({ content: [{ type: 'text', text: String(message.params.arguments?.text ?? message.params.name) }] });
    case 'ping':
      return answer({});
    default:
      return send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `no method ${message.method}` } });
  }
});
