import type { IncomingMessage } from 'node:http';

/**
 * A request body as text, holding at most `maxBytes`; past that, only its size (the rest is
 * read to the end, not kept), so the answer can say how large it was.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<{ text: string } | { tooLarge: number }> {
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
