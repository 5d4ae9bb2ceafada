// A streamable HTTP endpoint in front of a stdio server that does nothing but relay: each POST's
// body goes to the server as a line, and the line answering it comes back as the POST's JSON
// answer (parsed only to find its id). In a process of its own: what any HTTP hub in front of
// that server costs a client before it does any work of its own. Prints {"port": N} once
// listening. Usage: node http-relay.mjs <command> [args…] (the server).
import { spawn } from 'node:child_process';
import http from 'node:http';

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
/** POSTs waiting for their answer, by request id. */
const waiting = new Map();
let rest = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (text) => {
  const lines = (rest + text).split('\n');
  rest = lines.pop();
  for (const line of lines) {
    if (!line.trim()) continue;
    const message = JSON.parse(line);
    // The server's own notifications and requests have nowhere to go: no GET stream here.
    if (message.method !== undefined) continue;
    const res = waiting.get(message.id);
    waiting.delete(message.id);
    res?.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'relay', 'content-length': Buffer.byteLength(line) }).end(line);
  }
});

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (d) => chunks.push(d));
  req.on('end', () => {
    if (req.method !== 'POST') return res.writeHead(405).end();
    const body = Buffer.concat(chunks).toString();
    const { id } = JSON.parse(body);
    if (id === undefined) res.writeHead(202, { 'mcp-session-id': 'relay' }).end();
    else waiting.set(id, res);
    child.stdin.write(`${body}\n`);
  });
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
process.stdin.on('end', () => {
  child.kill();
  process.exit(0);
});
process.stdin.resume();
