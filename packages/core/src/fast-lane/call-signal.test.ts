import { describe, expect, it } from 'vitest';
import { CallCancellation, callSignalOf } from './call-signal.js';

describe('CallCancellation', () => {
  it('runs each callback once on abort, with the reason kept; a second abort changes nothing', () => {
    const cancel = new CallCancellation();
    const heard: unknown[] = [];
    cancel.onAbort(() => heard.push(['first', cancel.reason]));
    cancel.onAbort(() => heard.push(['second', cancel.reason]));
    expect(cancel.aborted).toBe(false);
    cancel.abort('gave up');
    cancel.abort('again');
    expect(cancel.aborted).toBe(true);
    expect(cancel.reason).toBe('gave up');
    expect(heard).toEqual([
      ['first', 'gave up'],
      ['second', 'gave up'],
    ]);
  });

  it('a forgotten callback is not run; one added after the abort never is', () => {
    const cancel = new CallCancellation();
    const heard: string[] = [];
    const forget = cancel.onAbort(() => heard.push('forgotten'));
    cancel.onAbort(() => heard.push('kept'));
    forget();
    cancel.abort();
    cancel.onAbort(() => heard.push('late'));
    expect(heard).toEqual(['kept']);
  });

  it('without a reason, the reason is an AbortError, as AbortController gives', () => {
    const cancel = new CallCancellation();
    cancel.abort();
    const controller = new AbortController();
    controller.abort();
    expect(cancel.reason).toBeInstanceOf(DOMException);
    expect((cancel.reason as DOMException).name).toBe((controller.signal.reason as DOMException).name);
  });

  it('its AbortSignal aborts with it, and is aborted already when asked for after', () => {
    const cancel = new CallCancellation();
    const signal = cancel.toAbortSignal();
    expect(cancel.toAbortSignal()).toBe(signal);
    const heard: unknown[] = [];
    signal.addEventListener('abort', () => heard.push(signal.reason));
    cancel.abort('gave up');
    expect(heard).toEqual(['gave up']);
    const late = new CallCancellation();
    late.abort('before');
    expect(late.toAbortSignal().aborted).toBe(true);
    expect(late.toAbortSignal().reason).toBe('before');
  });
});

describe('callSignalOf', () => {
  it('an AbortSignal seen as a CallSignal: its state, its reason, its callbacks, itself', () => {
    const controller = new AbortController();
    const signal = callSignalOf(controller.signal);
    const heard: string[] = [];
    const forget = signal.onAbort(() => heard.push('forgotten'));
    signal.onAbort(() => heard.push('kept'));
    forget();
    expect(signal.aborted).toBe(false);
    controller.abort('gave up');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('gave up');
    expect(heard).toEqual(['kept']);
    expect(signal.toAbortSignal()).toBe(controller.signal);
  });
});
