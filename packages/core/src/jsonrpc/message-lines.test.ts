import { describe, expect, it } from 'vitest';
import { MessageLines } from './message-lines.js';

describe('MessageLines', () => {
  it('gives each line as a message, a reason it is not one, or its size when too long', () => {
    const lines = new MessageLines(() => 60);
    const items = lines.push(
      Buffer.from(
        `{"jsonrpc":"2.0","id":1,"result":{}}\n\n  \r\nhello\n[1]\n{"jsonrpc":"2.0","id":2,"result":{"t":"${'x'.repeat(80)}"}}\n{"jsonrpc":"2.0",`,
      ),
    );
    expect(items).toEqual([
      { message: { jsonrpc: '2.0', id: 1, result: {} } },
      { invalid: 'not JSON', detail: expect.stringContaining('Unexpected token') },
      { invalid: 'not JSON-RPC', detail: 'valid JSON, but not a JSON-RPC 2.0 message' },
      { oversize: expect.objectContaining({ bytes: 122 }) },
    ]);
    expect(lines.push(Buffer.from('"method":"ping","id":3}\n'))).toEqual([{ message: { jsonrpc: '2.0', method: 'ping', id: 3 } }]);
  });
});
