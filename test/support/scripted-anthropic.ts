import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One turn of the scripted model: the tool it calls (with these arguments), or none to end. */
export interface ScriptedTurn {
  tool: string;
  input: Record<string, unknown>;
}

/** What a client sent the model in one request: the tools it offered and its messages' content. */
export interface ModelRequest {
  tools: string[];
  /** Each message's content blocks (a string content as one text block). */
  messages: Array<Array<Record<string, unknown>>>;
  /** The text the model reads besides the tools: the system prompt and the messages' text blocks. */
  context: string;
}

export interface ScriptedAnthropic {
  /** `ANTHROPIC_BASE_URL` for the client. */
  url: string;
  /** The requests that offered tools (a turn of the conversation), in order. */
  turns: ModelRequest[];
  close(): Promise<void>;
}

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * A stand-in for the Anthropic Messages API on 127.0.0.1, for driving a real client (Claude
 * Code's `claude -p`) offline: each request that offers tools is a turn, answered with the
 * script's next tool call as a stream, then with a text that ends the conversation. Records
 * what each turn offered, so a test sees the tool list as the client gave it to its model.
 */
export async function startScriptedAnthropic(script: readonly ScriptedTurn[]): Promise<ScriptedAnthropic> {
  const turns: ModelRequest[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (!req.url?.startsWith('/v1/messages') || req.method !== 'POST') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      const request = JSON.parse(body) as {
        model?: string;
        system?: string | Array<{ text?: string }>;
        tools?: Array<{ name: string }>;
        messages?: Array<{ content: unknown }>;
      };
      if (req.url.includes('count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":1}');
        return;
      }
      // A request without tools is the client's own side task (a title, a summary): not a turn.
      const step = request.tools?.length ? script[turns.length] : undefined;
      if (request.tools?.length) {
        const messages = (request.messages ?? []).map((m) =>
          typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as Array<Record<string, unknown>>),
        );
        const system = typeof request.system === 'string' ? request.system : (request.system ?? []).map((b) => b.text ?? '').join('\n');
        const texts = messages.flat().flatMap((b) => (typeof b.text === 'string' ? [b.text] : []));
        turns.push({ tools: request.tools.map((t) => t.name), messages, context: [system, ...texts].join('\n') });
      }
      const id = `msg_${turns.length}`;
      const block = step ? { type: 'tool_use', id: `toolu_${turns.length}`, name: step.tool, input: {} } : { type: 'text', text: '' };
      const delta = step ? { type: 'input_json_delta', partial_json: JSON.stringify(step.input) } : { type: 'text_delta', text: 'done' };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        sse('message_start', {
          type: 'message_start',
          message: {
            id,
            type: 'message',
            role: 'assistant',
            model: request.model,
            content: [],
            stop_reason: null,
            usage: { input_tokens: 1, output_tokens: 1 },
          },
        }),
      );
      res.write(sse('content_block_start', { type: 'content_block_start', index: 0, content_block: block }));
      res.write(sse('content_block_delta', { type: 'content_block_delta', index: 0, delta }));
      res.write(sse('content_block_stop', { type: 'content_block_stop', index: 0 }));
      res.write(
        sse('message_delta', {
          type: 'message_delta',
          delta: { stop_reason: step ? 'tool_use' : 'end_turn' },
          usage: { output_tokens: 1 },
        }),
      );
      res.end(sse('message_stop', { type: 'message_stop' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    turns,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
