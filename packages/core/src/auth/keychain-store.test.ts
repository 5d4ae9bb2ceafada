import { describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { BlitzError } from '../errors/blitz-error.js';
import { keychainCall } from './keychain-store.js';

describe('keychainCall', () => {
  it('gives up on a call that never answers when the clock reaches its timeout, aborting it', async () => {
    const clock = new FakeClock();
    let signal: AbortSignal | undefined;
    const call = keychainCall('read', { timeoutMs: 5_000, clock }, (s) => {
      signal = s;
      return new Promise<string>(() => undefined);
    }).catch((e: unknown) => e);
    await Promise.resolve();
    clock.advance(4_999);
    expect(signal?.aborted).toBe(false);
    clock.advance(1);
    const err = (await call) as BlitzError;
    expect(err).toBeInstanceOf(BlitzError);
    expect({ code: err.code, message: err.message }).toEqual({
      code: 'TIMEOUT',
      message: 'the OS keychain did not answer a read within 5s (is it locked?)',
    });
    expect(signal?.aborted).toBe(true);
  });

  it('answers what the call answers and leaves no timer behind; a refusal is SERVER_UNAVAILABLE', async () => {
    const clock = new FakeClock();
    expect(await keychainCall('read', { timeoutMs: 5_000, clock }, async () => 'value')).toBe('value');
    expect(clock.pendingTimers()).toBe(0);
    const err = (await keychainCall('write', { timeoutMs: 5_000, clock }, () => Promise.reject(new Error('no such collection'))).catch(
      (e: unknown) => e,
    )) as BlitzError;
    expect({ code: err.code, message: err.message }).toEqual({
      code: 'SERVER_UNAVAILABLE',
      message: 'the OS keychain refused a write: no such collection',
    });
    expect(clock.pendingTimers()).toBe(0);
  });
});
