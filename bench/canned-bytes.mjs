// A plain node:http server in a process of its own that answers each GET with bytes given
// to it ahead of time, with the control API's headers: what an answer of that size costs on
// this machine before the daemon does anything. Reads {"/path": "body", …} as one JSON line
// on stdin, prints {"port": N} once listening, and exits when stdin ends.
import http from 'node:http';

const HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  input += chunk;
  const end = input.indexOf('\n');
  if (end < 0 || server.listening) return;
  const bodies = new Map(Object.entries(JSON.parse(input.slice(0, end))).map(([p, text]) => [p, Buffer.from(text)]));
  server.on('request', (req, res) => {
    const bytes = bodies.get(req.url);
    if (!bytes) return res.writeHead(404).end();
    res.writeHead(200, { ...HEADERS, 'content-length': bytes.length });
    res.end(bytes);
  });
  server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
});
process.stdin.on('end', () => process.exit(0));
const server = http.createServer();
