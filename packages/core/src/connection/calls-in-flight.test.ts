import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { describe, expect, it } from 'vitest';
import { CallsInFlight } from './calls-in-flight.js';

const session = () => new Server({ name: 'hub', version: '1' }, { capabilities: {} });

describe('CallsInFlight', () => {
  it('no call in flight: no one to ask', () => {
    expect(new CallsInFlight().ownerOf(undefined)).toEqual({ kind: 'none' });
  });

  it('the call the transport names is the owner, whatever else is in flight', () => {
    const calls = new CallsInFlight();
    const a = { session: session(), requestId: 1 };
    const b = { session: session(), requestId: 7 };
    const first = calls.enter({ caller: a });
    calls.enter({ caller: b });
    expect(calls.ownerOf(first.key)).toEqual({ kind: 'caller', caller: a });
    // A key of a call that has ended names no one: the others decide.
    first.leave();
    expect(calls.ownerOf(first.key)).toEqual({ kind: 'caller', caller: b });
  });

  it('unnamed: the one session calling is asked (its latest call); several sessions cannot be told apart', () => {
    const calls = new CallsInFlight();
    const s = session();
    calls.enter({ caller: { session: s, requestId: 1 } });
    calls.enter({ caller: { session: s, requestId: 2 } });
    expect(calls.ownerOf(undefined)).toEqual({ kind: 'caller', caller: { session: s, requestId: 2 } });
    const other = calls.enter({ caller: { session: session(), requestId: 1 } });
    expect(calls.ownerOf(undefined)).toEqual({ kind: 'unknown', sessions: 2 });
    other.leave();
    expect(calls.ownerOf(undefined)).toMatchObject({ kind: 'caller' });
  });

  it('every request is registered once: a tool call and a read are both under way, only the call can own a server request', () => {
    let changes = 0;
    const calls = new CallsInFlight(() => changes++);
    const s = session();
    const call = calls.enter({ request: { session: 'a', requestId: 1 }, caller: { session: s, requestId: 1 } });
    const read = calls.enter({ request: { session: 'b', requestId: 4 } });
    expect(calls.size).toBe(2);
    expect(calls.requests()).toEqual([
      { session: 'a', requestId: 1 },
      { session: 'b', requestId: 4 },
    ]);
    expect(calls.ownerOf(undefined)).toEqual({ kind: 'caller', caller: { session: s, requestId: 1 } });
    call.leave();
    call.leave();
    expect(calls.ownerOf(undefined)).toEqual({ kind: 'none' });
    read.leave();
    expect([calls.size, calls.requests(), changes]).toEqual([0, [], 4]);
  });

  it('unnamed: a call waiting for its client to answer (input_required) is passed over', () => {
    const calls = new CallsInFlight();
    let waiting = true;
    calls.enter({ caller: { session: session(), requestId: 1, waiting: () => waiting } });
    const active = { session: session(), requestId: 2 };
    calls.enter({ caller: active });
    expect(calls.ownerOf(undefined)).toEqual({ kind: 'caller', caller: active });
    waiting = false;
    expect(calls.ownerOf(undefined)).toEqual({ kind: 'unknown', sessions: 2 });
  });
});
