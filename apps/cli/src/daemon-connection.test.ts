import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { DaemonState } from '@blitz/client';
import { isWrittenBy } from './daemon-connection.js';
import type { SpawnedDaemon } from './early-daemon.js';

// startDaemon takes a state file its own child wrote as the sign it listens, without a status
// request (issue 18, cold start); any other file is asked first, as before.
const spawnedAt = Date.parse('2026-12-01T10:00:00.000Z');
const daemon: SpawnedDaemon = { child: { pid: 4242 } as ChildProcess, spawnedAt, exitCode: () => null };
const state = (pid: number, startedAt: string): DaemonState => ({ pid, port: 1, token: 't', version: '0', startedAt });

describe('isWrittenBy', () => {
  it('is the state file of the spawned child: its pid, started at or after the spawn', () => {
    expect(isWrittenBy(state(4242, '2026-12-01T10:00:00.000Z'), daemon)).toBe(true);
    expect(isWrittenBy(state(4242, '2026-12-01T10:00:00.250Z'), daemon)).toBe(true);
  });

  it('is not another daemon’s, nor a killed daemon’s file whose pid the child got again', () => {
    expect(isWrittenBy(state(4343, '2026-12-01T10:00:00.250Z'), daemon)).toBe(false);
    expect(isWrittenBy(state(4242, '2026-12-01T09:59:59.999Z'), daemon)).toBe(false);
    expect(isWrittenBy(state(4242, 'not a time'), daemon)).toBe(false);
  });
});
