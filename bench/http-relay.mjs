// A streamable HTTP endpoint in front of a stdio server that does nothing but relay: each POST's
// body goes to the server as a line, and the line answering it comes back as the POST's JSON
// answer (parsed only to find its id). In a process of its own: what any HTTP hub in front of
// that server costs a client before it does any work of its own. Prints {"port": N} once
// listening. Usage: node http-relay.mjs [--answer=SHAPE] <command> [args…] (the server;
// SHAPE: bench/http-answers.mjs).
// It also times the server alone, from each request's write to its stdin to the answer's line
// read back: a line `times` on our stdin prints {"serverP50Ms": …, "calls": N} for the calls
// since the last one — what even a hub costing nothing would add to the canned floor.
import { spawn } from 'node:child_process';
import { serve, shapeFrom } from './http-answers.mjs';

const argv = process.argv.slice(2);
const shape = shapeFrom(argv);
const [command, ...args] = argv;
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
/** POSTs waiting for their answer, by request id: how to answer, and when the request went to the server. */
const waiting = new Map();
/** The server's time for each request answered since the last `times`, in ms. */
let serverMs = [];
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
    const post = waiting.get(message.id);
    if (!post) continue;
    waiting.delete(message.id);
    serverMs.push(performance.now() - post.sent);
    post.reply(line);
  }
});

serve(shape, { sessionId: 'relay' }, (body, message, reply) => {
  if (message.id !== undefined) waiting.set(message.id, { reply, sent: performance.now() });
  child.stdin.write(`${body}\n`);
});

let asked = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text) => {
  asked += text;
  for (let at = asked.indexOf('\n'); at >= 0; at = asked.indexOf('\n')) {
    if (asked.slice(0, at) === 'times') {
      const sorted = serverMs.sort((a, b) => a - b);
      console.log(JSON.stringify({ serverP50Ms: sorted[Math.floor(sorted.length / 2)] ?? null, calls: sorted.length }));
      serverMs = [];
    }
    asked = asked.slice(at + 1);
  }
});
process.stdin.on('end', () => {
  child.kill();
  process.exit(0);
});
