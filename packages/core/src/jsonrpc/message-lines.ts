import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { looksLikeMessage } from './jsonrpc-shape.js';
import { BoundedLines, type OversizeLine } from './bounded-lines.js';

/** What one line of MCP's stdio framing holds. */
export type MessageLine =
  { message: JSONRPCMessage } | { oversize: OversizeLine } | { invalid: 'not JSON' | 'not JSON-RPC'; detail: string };

/**
 * Splits a byte stream into JSON-RPC messages, one per line, blank lines skipped. Messages
 * are checked by shape only: the SDK peer that handles one validates it fully.
 */
export class MessageLines {
  readonly #lines: BoundedLines;

  constructor(maxBytes: () => number) {
    this.#lines = new BoundedLines(maxBytes);
  }

  push(chunk: Buffer): MessageLine[] {
    const items: MessageLine[] = [];
    for (const item of this.#lines.push(chunk)) {
      if ('oversize' in item) items.push(item);
      else if (item.line.trim() !== '') items.push(parseLine(item.line));
    }
    return items;
  }

  clear(): void {
    this.#lines.clear();
  }
}

/** One line, not blank, as the message it holds, or why it holds none. */
export function parseLine(line: string): MessageLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return {
      invalid: 'not JSON',
      detail: String((err as Error).message)
        .split('\n')[0]!
        .slice(0, 200),
    };
  }
  return looksLikeMessage(value) ? { message: value } : { invalid: 'not JSON-RPC', detail: 'valid JSON, but not a JSON-RPC 2.0 message' };
}
