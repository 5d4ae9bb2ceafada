import path from 'node:path';
import { blitzHome, blitzPaths } from '@blitz/core';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../context.js';
import { blitzLaunch } from './blitz-launch.js';

const context = (home: string, env: NodeJS.ProcessEnv): CliContext => ({
  paths: blitzPaths(home),
  env,
  cwd: '/',
  out: () => {},
  err: () => {},
});

describe('blitzLaunch', () => {
  it('runs this Node with the bin of this package, and `connect`', () => {
    const env = { HOME: '/home/ada' };
    const launch = blitzLaunch(context(blitzHome(env, 'linux'), env), 'linux');
    expect(launch).toEqual({
      command: process.execPath,
      args: [path.resolve(import.meta.dirname, '..', '..', '..', 'bin', 'blitz.js'), 'connect'],
      env: {},
    });
  });

  it('names BLITZ_HOME in the entry only when it is not the default (Codex passes clients a reduced environment)', () => {
    const env = { HOME: '/home/ada', BLITZ_HOME: '/srv/blitz' };
    expect(blitzLaunch(context('/srv/blitz', env), 'linux').env).toEqual({ BLITZ_HOME: '/srv/blitz' });
    const same = { HOME: '/home/ada', BLITZ_HOME: '/home/ada/.config/blitz' };
    expect(blitzLaunch(context('/home/ada/.config/blitz', same), 'linux').env).toEqual({});
  });
});
