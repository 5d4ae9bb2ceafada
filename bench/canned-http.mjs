// A streamable HTTP endpoint that answers initialize and tools/call echo at once, as JSON, in
// a process of its own: what any HTTP endpoint costs a client before it does any work.
// Prints {"port": N} once listening.
import http from 'node:http';

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    if (req.method !== 'POST') return res.writeHead(405).end();
    const message = JSON.parse(body);
    if (message.id === undefined) return res.writeHead(202).end();
    const result =
      message.method === 'initialize'
        ? { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'canned', version: '0' } }
        : { content: [{ type: 'text', text: `Echo: ${message.params.arguments.message}` }] };
    res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'canned' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  });
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
