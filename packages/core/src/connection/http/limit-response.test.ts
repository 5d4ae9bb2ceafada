import { describe, expect, it } from 'vitest';
import { limitResponseBytes } from './limit-response.js';

const json =
  (body: string, headers: Record<string, string> = {}) =>
  async () =>
    new Response(body, { headers: { 'content-type': 'application/json', ...headers } });

describe('limitResponseBytes', () => {
  it('passes a JSON answer within the limit unchanged', async () => {
    const fetch = limitResponseBytes(json('{"ok":true}'), 'remote', () => 100);
    expect(await (await fetch('http://x')).json()).toEqual({ ok: true });
  });

  it('refuses by Content-Length before reading the body', async () => {
    const fetch = limitResponseBytes(json('{}', { 'content-length': String(3 * 1024 * 1024) }), 'remote', () => 1024 * 1024);
    await expect(fetch('http://x')).rejects.toMatchObject({
      code: 'RESULT_TOO_LARGE',
      message: 'MCP server remote sent a message of 3.0 MB, more than the limit of 1.0 MB ([hub] max_result_mb); it was not passed on',
    });
  });

  it('cuts a body without a length as soon as it passes the limit', async () => {
    const fetch = limitResponseBytes(json('x'.repeat(5000)), 'remote', () => 1000);
    const response = await fetch('http://x');
    await expect(response.text()).rejects.toMatchObject({
      code: 'RESULT_TOO_LARGE',
      message: expect.stringContaining('a message larger than the limit'),
    });
  });

  it('lets an SSE stream carry many events, each within the limit', async () => {
    const events = Array.from({ length: 10 }, (_, i) => `event: message\ndata: ${'x'.repeat(500)}${i}\n\n`).join('');
    const fetch = limitResponseBytes(
      async () => new Response(events, { headers: { 'content-type': 'text/event-stream' } }),
      'remote',
      () => 1000,
    );
    expect(await (await fetch('http://x')).text()).toBe(events);
  });

  it('ends the SSE answer to a POST with an error answer to each of its requests when an event passes the limit', async () => {
    const source = `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\nevent: message\ndata: ${'x'.repeat(5000)}\n\n`;
    const sse = async () => new Response(source, { headers: { 'content-type': 'text/event-stream' } });
    const fetch = limitResponseBytes(sse, 'remote', () => 1000);
    const body = JSON.stringify([
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: {} },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
    const text = await (await fetch('http://x', { method: 'POST', body })).text();
    const events = text.split('\n\n').filter((e) => e.trim() !== '');
    expect(events[0]).toBe('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}');
    expect(events).toHaveLength(2);
    expect(JSON.parse(events[1]!.split('data: ')[1]!)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32603,
        message: 'MCP server remote sent a message larger than the limit of 0.0 MB ([hub] max_result_mb); it was not passed on',
        data: { code: 'RESULT_TOO_LARGE' },
      },
    });
  });

  it('holds each event until it is whole: no part of a cut event is passed on, however it was split', async () => {
    const small = 'id: 1\nevent: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\n';
    const big = `id: 2\nevent: message\ndata: {"jsonrpc":"2.0","id":7,"result":"${'x'.repeat(3000)}"}\n\n`;
    const bytes = new TextEncoder().encode(small + big);
    const chunks = [
      bytes.subarray(0, 30),
      bytes.subarray(30, small.length + 500),
      bytes.subarray(small.length + 500, small.length + 1500),
      bytes.subarray(small.length + 1500),
    ];
    const sse = async () =>
      new Response(new ReadableStream({ start: (c) => (chunks.forEach((chunk) => c.enqueue(chunk)), c.close()) }), {
        headers: { 'content-type': 'text/event-stream' },
      });
    const fetch = limitResponseBytes(sse, 'remote', () => 1000);
    const text = await (
      await fetch('http://x', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: {} }) })
    ).text();
    expect(text.startsWith(small)).toBe(true);
    expect(text).not.toContain('xxx');
    expect(text.slice(small.length)).toMatch(/^event: message\ndata: \{"jsonrpc":"2\.0","id":7,"error":/);
  });

  it('answers the SDK resuming a cut stream with 405 itself, so the cut is not replayed; other resumes go through', async () => {
    const calls: string[] = [];
    const base = async (_url: string | URL, init?: RequestInit) => {
      calls.push(`${init?.method} ${new Headers(init?.headers).get('last-event-id')}`);
      return init?.method === 'GET'
        ? new Response('', { headers: { 'content-type': 'text/event-stream' } })
        : new Response(`id: prime-1\ndata: \n\nid: e-2\ndata: ${'x'.repeat(5000)}\n\n`, {
            headers: { 'content-type': 'text/event-stream' },
          });
    };
    const fetch = limitResponseBytes(base, 'remote', () => 1000);
    await (await fetch('http://x', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call' }) })).text();
    expect((await fetch('http://x', { method: 'GET', headers: { 'last-event-id': 'prime-1' } })).status).toBe(405);
    expect((await fetch('http://x', { method: 'GET', headers: { 'last-event-id': 'prime-1' } })).status).toBe(200);
    expect(calls).toEqual(['POST null', 'GET prime-1']);
  });

  it('cuts a standalone SSE stream when one event passes the limit', async () => {
    const fetch = limitResponseBytes(
      async () => new Response(`data: small\n\ndata: ${'x'.repeat(5000)}\n\n`, { headers: { 'content-type': 'text/event-stream' } }),
      'remote',
      () => 1000,
    );
    await expect((await fetch('http://x')).text()).rejects.toMatchObject({ code: 'RESULT_TOO_LARGE' });
  });
});
