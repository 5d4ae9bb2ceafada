import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { tempDir } from '../support/blitz-cli.js';
import { connectLines } from '../support/connect-lines.js';
import { modernMeta, postModern } from '../support/modern-post.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf, type HubTransport } from '../support/hub-client.js';

// Issue 28 point 3: a 2025 server's elicitation during a 2026-07-28 client's call becomes that
// call's input_required; the retry with requestState answers the waiting server request. And an
// `ask` approval is put the same way. Both hub paths: /mcp and blitz connect. A real daemon, the
// conformance fixture (SDK v1, a 2025-only server) and the SDK v2 fixture over stdio.
let home: string;
let workspace: string;
let daemon: RunningDaemon;

const metaWith = (capabilities: Record<string, unknown>) => modernMeta(capabilities, 'modern-input-test');
const ASKS = metaWith({ elicitation: {} });

interface Message {
  id?: unknown;
  method?: string;
  result?: Record<string, unknown> & {
    inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
    requestState?: string;
  };
  error?: { code: number; message: string };
}

const ACCEPTED = { action: 'accept', content: { username: 'alice', email: 'a@example.com' } };

beforeAll(async () => {
  home = tempDir('blitz-modern-input-');
  workspace = tempDir('blitz-modern-input-ws-');
  const fx = fixtureCommand('conformance');
  const gated = fixtureCommand('modern');
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "fx"\ncommand = ${JSON.stringify(fx.command)}\nargs = ${JSON.stringify(fx.args)}\nsandbox = false\nauto_approve = true\n\n` +
      `[[mcp.servers]]\nname = "gated"\ncommand = ${JSON.stringify(gated.command)}\nargs = ${JSON.stringify(gated.args)}\nsandbox = false\n`,
  );
  daemon = await startDaemonProcess(home);
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await assertNoOrphans();
  for (const dir of [home, workspace]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function post(id: unknown, method: string, params: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Message> {
  return (await posted(id, method, params, headers)).message;
}

/** A request's last message, and the HTTP status it came with. */
function posted(id: unknown, method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
  return postModern<Message['result']>(daemon.state, workspace, { id, method, params }, headers);
}

const call = (name: string, args: Record<string, unknown>, meta: object, extra: Record<string, unknown> = {}) => ({
  name,
  arguments: args,
  _meta: meta,
  ...extra,
});

/** The one question of an input_required result: its key, and the state to retry with. */
function question(message: Message): { key: string; method: string; params: Record<string, unknown>; state: string } {
  expect(message.result).toMatchObject({ resultType: 'input_required', requestState: expect.any(String) });
  const entries = Object.entries(message.result!.inputRequests!);
  expect(entries).toHaveLength(1);
  const [key, asked] = entries[0]!;
  return { key, method: asked.method, params: asked.params, state: message.result!.requestState! };
}

describe('/mcp at 2026-07-28: a 2025 server asks during the call', () => {
  it('answers the call input_required; the retry carries the answer to the waiting server request', async () => {
    const first = await post(1, 'tools/call', call('test_elicitation', { message: 'Who are you?' }, ASKS));
    expect(first.id).toBe(1);
    const asked = question(first);
    expect(asked).toMatchObject({ method: 'elicitation/create', params: { message: 'Who are you?' } });

    const done = await post(
      2,
      'tools/call',
      call('test_elicitation', { message: 'Who are you?' }, ASKS, {
        inputResponses: { [asked.key]: ACCEPTED, unasked: { action: 'decline' } },
        requestState: asked.state,
      }),
    );
    expect(done.id).toBe(2);
    expect(done.result).toMatchObject({ resultType: 'complete' });
    expect(textOf(done.result)).toBe(`User response: action=accept, content=${JSON.stringify(ACCEPTED.content)}`);
    // The call is over: its state resumes nothing.
    const again = await post(3, 'tools/call', call('test_elicitation', {}, ASKS, { inputResponses: {}, requestState: asked.state }));
    expect(again.error).toMatchObject({ code: -32602, message: expect.stringContaining('no longer waiting') });
  });

  it('refuses a tampered state, a state sent with another tool and an answer of the wrong shape, and keeps the call waiting', async () => {
    const asked = question(await post(1, 'tools/call', call('test_elicitation', { message: 'Sure?' }, ASKS)));
    const retry = (id: number, name: string, extra: Record<string, unknown>) => post(id, 'tools/call', call(name, {}, ASKS, extra));
    expect(
      (await retry(2, 'test_elicitation', { inputResponses: { [asked.key]: ACCEPTED }, requestState: `${asked.state}-TAMPERED` })).error,
    ).toMatchObject({
      code: -32602,
      message: expect.stringContaining('integrity'),
    });
    expect(
      (await retry(3, 'test_simple_text', { inputResponses: { [asked.key]: ACCEPTED }, requestState: asked.state })).error,
    ).toMatchObject({
      code: -32602,
    });
    expect(
      (await retry(4, 'test_elicitation', { inputResponses: { [asked.key]: { content: {} } }, requestState: asked.state })).error,
    ).toMatchObject({
      code: -32602,
      message: expect.stringContaining('elicitation/create'),
    });
    expect((await retry(5, 'test_elicitation', { inputResponses: null })).error).toMatchObject({ code: -32602 });
    // A retry without the answer is asked again, under a new state; the old one is spent.
    const reasked = question(await retry(6, 'test_elicitation', { inputResponses: {}, requestState: asked.state }));
    expect(reasked.key).toBe(asked.key);
    expect(reasked.state).not.toBe(asked.state);
    const done = await retry(7, 'test_elicitation', {
      inputResponses: { [asked.key]: { action: 'decline' } },
      requestState: reasked.state,
    });
    expect(textOf(done.result)).toBe('User response: action=decline, content={}');
  });

  it('puts an ask approval to the client as input_required, and refuses it to a client that cannot be asked', async () => {
    const listed = await post(1, 'tools/list', { _meta: ASKS });
    const echo = (listed.result!.tools as Array<{ name: string }>).map((t) => t.name).find((n) => n.endsWith('echo'))!;
    const asked = question(await post(2, 'tools/call', call(echo, { text: 'hi' }, ASKS)));
    expect(asked.method).toBe('elicitation/create');
    expect(asked.params).toMatchObject({ requestedSchema: { properties: { decision: expect.any(Object) } } });
    const done = await post(
      3,
      'tools/call',
      call(echo, { text: 'hi' }, ASKS, {
        inputResponses: { [asked.key]: { action: 'accept', content: { decision: 'allow_once' } } },
        requestState: asked.state,
      }),
    );
    expect(done.result).toMatchObject({ resultType: 'complete' });
    expect(textOf(done.result)).toBe('hi');

    const refused = await post(4, 'tools/call', call(echo, { text: 'hi' }, metaWith({})));
    expect(refused.result).toMatchObject({ resultType: 'complete', isError: true });
    expect(textOf(refused.result)).toContain('cannot be asked');
  });
});

describe('/mcp at 2026-07-28: Mcp-Param headers', () => {
  it("checks a call's Mcp-Param headers against its tool's x-mcp-header marks, on the first request and on the retry: missing, different or broken is -32020 with HTTP 400", async () => {
    const listed = await post(1, 'tools/list', { _meta: ASKS });
    const regional = (listed.result!.tools as Array<{ name: string }>).map((t) => t.name).find((n) => n.endsWith('regional_echo'))!;
    const args = { region: 'Zürich', text: 'hi' };
    const refusedWith = async (headers: Record<string, string>, extra: Record<string, unknown> = {}) => {
      const { status, message } = await posted(2, 'tools/call', call(regional, args, ASKS, extra), headers);
      expect(status).toBe(400);
      expect(message.error?.code).toBe(-32020);
      return message.error!.message;
    };
    expect(await refusedWith({})).toMatch(/region = "Zürich" but the Mcp-Param-Region header is missing/);
    expect(await refusedWith({ 'mcp-param-region': 'Zurich' })).toMatch(/header says "Zurich" but the body carries region = "Zürich"/);
    expect(await refusedWith({ 'mcp-param-region': '=?base64?not base64?=' })).toMatch(/not valid base64/);

    // Right (the value is not ASCII, so base64): the call runs, and its approval is asked.
    const right = { 'mcp-param-region': `=?base64?${Buffer.from('Zürich').toString('base64')}?=` };
    const asked = question(await post(3, 'tools/call', call(regional, args, ASKS), right));
    expect(asked.method).toBe('elicitation/create');
    const answer = {
      inputResponses: { [asked.key]: { action: 'accept', content: { decision: 'allow_once' } } },
      requestState: asked.state,
    };
    expect(await refusedWith({ 'mcp-param-region': 'Bern' }, answer)).toMatch(/header says "Bern"/);
    // The refused retry left the call waiting: the right one finishes it.
    const done = await post(4, 'tools/call', call(regional, args, ASKS, answer), right);
    expect(done.result).toMatchObject({ resultType: 'complete' });
    expect(textOf(done.result)).toBe('Zürich: hi');
  });
});

// Core's calls in flight hold a prompt's get and a resource's read with their caller, as a tool call's: a server's question during one is that request's.
describe('a server asks during prompts/get', () => {
  const PROMPT = 'test_input_required_result_prompt';
  const CONTEXT = { action: 'accept', content: { context: 'from the client' } } as const;

  it('a 2026-07-28 client on /mcp gets input_required, and its retry gets the prompt', async () => {
    const get = (id: number, extra: Record<string, unknown> = {}) => post(id, 'prompts/get', { name: PROMPT, _meta: ASKS, ...extra });
    const asked = question(await get(1));
    expect(asked).toMatchObject({ method: 'elicitation/create', params: { message: 'What context should the prompt use?' } });
    const done = await get(2, { inputResponses: { [asked.key]: CONTEXT }, requestState: asked.state });
    expect(done.result).toMatchObject({
      resultType: 'complete',
      messages: [{ content: { text: 'Use the following context: from the client' } }],
    });
  });

  it.each<HubTransport>(['http', 'lines'])('a 2025 client (%s) is asked by elicitation/create, and gets the prompt', async (via) => {
    const questions: string[] = [];
    const client = await connectHub(daemon.state, {
      workspace,
      via,
      elicit: (message) => {
        questions.push(message);
        return CONTEXT;
      },
    });
    try {
      const prompt = await client.getPrompt({ name: PROMPT });
      expect(questions).toEqual(['What context should the prompt use?']);
      expect(prompt.messages[0]!.content).toEqual({ type: 'text', text: 'Use the following context: from the client' });
    } finally {
      await client.close();
    }
  });
});

describe('blitz connect at 2026-07-28: a 2025 server asks during the call', () => {
  it('answers input_required on the connection, and the retry there finishes the call', async () => {
    const lines = connectLines(home, workspace);
    const { received, answerTo } = lines;
    const send = (id: unknown, method: string, params: Record<string, unknown>) => lines.request(id, method, params);
    try {
      send('d', 'server/discover', { _meta: ASKS });
      await answerTo('d');
      send('a', 'tools/call', call('test_elicitation', { message: 'Name?' }, ASKS));
      const asked = question(await answerTo('a'));
      expect(asked.params).toMatchObject({ message: 'Name?' });
      // Nothing but the answer: a 2026-07-28 client is never sent a server request.
      expect(received.filter((m) => m.method !== undefined && m.id !== undefined)).toEqual([]);
      send(
        't',
        'tools/call',
        call('test_elicitation', {}, ASKS, { inputResponses: { [asked.key]: ACCEPTED }, requestState: `x${asked.state}` }),
      );
      expect((await answerTo('t')).error).toMatchObject({ code: -32602 });
      send('b', 'tools/call', call('test_elicitation', {}, ASKS, { inputResponses: { [asked.key]: ACCEPTED }, requestState: asked.state }));
      const done = await answerTo('b');
      expect(done.result).toMatchObject({ resultType: 'complete' });
      expect(textOf(done.result)).toBe(`User response: action=accept, content=${JSON.stringify(ACCEPTED.content)}`);
    } finally {
      await lines.close();
    }
  });
});
