import type { IncomingMessage } from 'node:http';

export type Body = { text: string } | { tooLarge: number };

/**
 * A request body as text, holding at most `maxBytes`; past that, only its size (the rest is
 * read to the end, not kept), so the answer can say how large it was.
 */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Body> {
  return (await bufferedBody(req, maxBytes)) ?? (await streamedBody(req, maxBytes));
}

/**
 * A body that came with its head (a small POST, as MCP clients send it) is in the request's
 * buffer a microtask after the request event: taken there at once, rather than over the ticks
 * of its `data` and `end` events (a third of the hub's time before a call reaches its server).
 * Anything else, or a body still on its way, is left to the events.
 */
async function bufferedBody(req: IncomingMessage, maxBytes: number): Promise<Body | undefined> {
  const declared = req.headers['content-length'];
  if (declared === undefined || req.headers['transfer-encoding'] !== undefined) return undefined;
  const length = Number(declared);
  if (!Number.isSafeInteger(length) || length <= 0 || length > maxBytes) return undefined;
  await null; // the parser hands the request its body once the request event has run
  if (req.readableLength !== length || req.readableFlowing !== null) return undefined;
  const bytes = req.read(length) as Buffer | null;
  if (bytes === null) return undefined;
  // The request still ends as ever ('end', then 'close'), with nothing left for it to read.
  req.resume();
  return { text: bytes.toString('utf8') };
}

function streamedBody(req: IncomingMessage, maxBytes: number): Promise<Body> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => resolve(size > maxBytes ? { tooLarge: size } : { text: Buffer.concat(chunks, size).toString('utf8') }));
  });
}
