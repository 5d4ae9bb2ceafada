import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { RpcError } from './rpc-error.js';

describe('RpcError', () => {
  it('passes an SDK error on with its code and data, and its message said once', () => {
    const passed = RpcError.passOn(new McpError(ErrorCode.InvalidParams, 'unknown tool x', { hint: 1 }));
    expect(passed).toBeInstanceOf(RpcError);
    expect(passed).toMatchObject({ code: -32602, message: 'unknown tool x', data: { hint: 1 } });
    // What the receiving SDK makes of it.
    expect(new McpError((passed as RpcError).code, (passed as RpcError).message).message).toBe('MCP error -32602: unknown tool x');
  });

  it('leaves any other error as it is', () => {
    const other = new Error('boom');
    expect(RpcError.passOn(other)).toBe(other);
  });
});
