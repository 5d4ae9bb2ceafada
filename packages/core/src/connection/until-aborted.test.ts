import { describe, expect, it } from 'vitest';
import { untilAborted } from './until-aborted.js';

const cancelled = () => new Error('cancelled');

describe('untilAborted', () => {
  it('settles with the work while the signal stays quiet', async () => {
    const signal = new AbortController().signal;
    await expect(untilAborted(Promise.resolve(7), signal, cancelled)).resolves.toBe(7);
    await expect(untilAborted(Promise.reject(new Error('failed')), signal, cancelled)).rejects.toThrow('failed');
  });

  it('rejects with onAbort() when the signal aborts first, or at once when it had', async () => {
    const controller = new AbortController();
    const waiting = untilAborted(new Promise<never>(() => {}), controller.signal, cancelled);
    controller.abort();
    await expect(waiting).rejects.toThrow('cancelled');
    await expect(untilAborted(Promise.resolve(7), controller.signal, cancelled)).rejects.toThrow('cancelled');
  });
});
