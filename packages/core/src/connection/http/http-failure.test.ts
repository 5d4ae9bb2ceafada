import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { BlitzError } from '../../errors/blitz-error.js';
import { connectFailure, isUnauthorized } from './http-failure.js';

const fail = (err: unknown) => connectFailure('notes', 'https://mcp.example.com/v1/mcp?key=secret', 30_000, err);

describe('connectFailure', () => {
  it('asks for sign-in on a 401, with or without an auth provider', () => {
    for (const err of [new StreamableHTTPError(401, 'Unauthorized'), new UnauthorizedError()]) {
      expect(isUnauthorized(err)).toBe(true);
      expect(fail(err)).toMatchObject({ code: 'NEEDS_SIGN_IN', message: 'MCP server notes needs sign-in: run blitz mcp login notes' });
    }
  });

  it('names the phase when the SDK timed the request out', () => {
    expect(fail(new McpError(ErrorCode.RequestTimeout, 'Request timed out'))).toMatchObject({
      code: 'TIMEOUT',
      message: 'MCP server notes did not answer initialize within 30s',
    });
  });

  it('gives the status, not the body, and drops the query', () => {
    const err = fail(new StreamableHTTPError(502, 'Error POSTing to endpoint: <html>upstream secret</html>'));
    expect(err).toMatchObject({
      code: 'SERVER_UNAVAILABLE',
      message: 'MCP server notes at https://mcp.example.com/v1/mcp refused initialize: HTTP 502',
    });
  });

  it('keeps coded errors as they are', () => {
    const cancelled = new BlitzError('CANCELLED', 'stop');
    expect(fail(cancelled)).toBe(cancelled);
  });
});
