import { describe, expect, it } from 'vitest';
import { blitzPaths } from '@blitz/core';
import type { CliContext } from './context.js';
import { commandsFor, createProgram } from './program.js';

const argv = (...args: string[]) => ['node', 'blitz', ...args];

function quietContext(): CliContext {
  return { paths: blitzPaths('/nonexistent-blitz-home'), env: {}, cwd: '/', out: () => {}, err: () => {} };
}

describe('commandsFor', () => {
  it('loads only the command argv names', () => {
    expect(commandsFor(argv('connect', '--workspace', '.'))).toEqual(['connect']);
    expect(commandsFor(argv('mcp', 'list'))).toEqual(['mcp']);
  });

  it('loads none for --version', () => {
    expect(commandsFor(argv('--version'))).toEqual([]);
    expect(commandsFor(argv('-V'))).toEqual([]);
  });

  it('loads every command for help, no command, an option first, or an unknown command', () => {
    const all = commandsFor(argv('help'));
    expect(all).toEqual(expect.arrayContaining(['mcp', 'config', 'trust', 'daemon', 'doctor', 'tray', 'autostart', 'connect']));
    for (const args of [[], ['--help'], ['conect']]) expect(commandsFor(argv(...args))).toEqual(all);
  });
});

describe('createProgram', () => {
  it('registers every command when all are asked for, in order', async () => {
    const program = await createProgram(quietContext(), argv('help'));
    expect(program.commands.map((c) => c.name())).toEqual(commandsFor(argv('help')));
  });

  it('registers only connect for blitz connect', async () => {
    const program = await createProgram(quietContext(), argv('connect'));
    expect(program.commands.map((c) => c.name())).toEqual(['connect']);
  });
});
