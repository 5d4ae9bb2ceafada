import { spawn } from 'node:child_process';
import { expect } from 'vitest';
import { REAL_WAIT } from '../../packages/core/src/testing/real-wait.js';
import { BLITZ_BIN } from './blitz-cli.js';

/** A message as `blitz connect` printed it. */
export interface LineMessage {
  id?: unknown;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** `blitz connect` in a child process, spoken to in JSON lines as a client over stdio speaks to it. */
export interface LinesClient {
  /** Every message it printed, in order. */
  readonly received: LineMessage[];
  /** Sends a request (no params when they are undefined). */
  request(id: unknown, method: string, params?: Record<string, unknown>): void;
  /** The answer to request `id`, once it came (a request of the hub's own with that id is no answer). */
  answerTo(id: unknown): Promise<LineMessage>;
  /** Ends its input, and resolves with its exit code once it exited. */
  close(): Promise<number | null>;
}

export function connectLines(home: string, workspace: string): LinesClient {
  const child = spawn(process.execPath, [BLITZ_BIN, 'connect', '--workspace', workspace], {
    env: { PATH: process.env.PATH, HOME: home, BLITZ_HOME: home },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const received: LineMessage[] = [];
  let rest = '';
  child.stdout!.on('data', (d: Buffer) => {
    const lines = (rest + d.toString()).split('\n');
    rest = lines.pop()!;
    for (const line of lines) received.push(JSON.parse(line));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const answered = (id: unknown) => received.find((m) => m.id === id && m.method === undefined);
  return {
    received,
    request: (id, method, params) =>
      child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) })}\n`),
    answerTo: async (id) => {
      await expect.poll(() => answered(id) !== undefined, REAL_WAIT).toBe(true);
      return answered(id)!;
    },
    close: () => {
      child.stdin!.end();
      return exited;
    },
  };
}
