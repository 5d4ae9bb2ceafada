import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { registerShow } from './show.js';

export function registerConfig(program: Command, ctx: CliContext): void {
  const config = program.command('config').description('inspect settings');
  registerShow(config, ctx);
}
