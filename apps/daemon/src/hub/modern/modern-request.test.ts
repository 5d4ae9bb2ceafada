import type { JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { checkModernRequest, isModernPost } from './modern-request.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
};
const call = (meta: unknown = META): JSONRPCRequest => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', _meta: meta } as never,
});
const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
const codeOf = (checked: ReturnType<typeof checkModernRequest>) =>
  'refused' in checked ? [checked.refused.status, checked.refused.error.code] : 'ok';

describe('checkModernRequest', () => {
  it.each([
    ['complete, headers mirrored', call(), headers, 'ok'],
    ['complete, on stdio (no headers)', call(), undefined, 'ok'],
    ['no _meta', call(null), headers, [400, -32602]],
    ['no protocol version', call({ 'io.modelcontextprotocol/clientCapabilities': {} }), headers, [400, -32602]],
    ['no client capabilities', call({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28' }), headers, [400, -32602]],
    ['header version differs', call(), { ...headers, 'mcp-protocol-version': '2025-11-25' }, [400, -32020]],
    ['Mcp-Name differs', call(), { ...headers, 'mcp-name': 'other' }, [400, -32020]],
    ['Mcp-Name missing', call(), { ...headers, 'mcp-name': undefined }, [400, -32020]],
    ['Mcp-Name in base64', call(), { ...headers, 'mcp-name': '=?base64?ZWNobw==?=' }, 'ok'],
    ['unsupported version', call({ ...META, 'io.modelcontextprotocol/protocolVersion': '1900-01-01' }), undefined, [400, -32022]],
  ])('%s', (_, request, given, expected) => {
    expect(codeOf(checkModernRequest(request, given))).toEqual(expected);
  });

  it('answers a removed method 404 -32601 and reads what the client said of itself', () => {
    expect(codeOf(checkModernRequest({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: META } }))).toEqual([404, -32601]);
    expect(checkModernRequest(call())).toEqual({
      meta: { version: '2026-07-28', clientInfo: { name: 'c', version: '1' }, capabilities: { elicitation: {} }, logLevel: undefined },
    });
  });

  it('names the supported and requested versions when it refuses one', () => {
    const checked = checkModernRequest(call({ ...META, 'io.modelcontextprotocol/protocolVersion': 'v9' }));
    expect(checked).toMatchObject({
      refused: { error: { data: { requested: 'v9', supported: expect.arrayContaining(['2026-07-28', '2025-11-25']) } } },
    });
  });
});

describe('isModernPost', () => {
  it.each([
    [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, true],
    [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } }, false],
    [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: { _meta: META } }, true],
    [{ jsonrpc: '2.0', method: 'notifications/initialized' }, false],
    [[{ jsonrpc: '2.0', id: 1, method: 'tools/list' }], false],
    [{ jsonrpc: '2.0', id: null, method: 'tools/list' }, false],
  ])('%j → %s', (body, expected) => expect(isModernPost(body)).toBe(expected));
});
