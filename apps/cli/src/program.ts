import { Command } from 'commander';
import type { CliContext } from './context.js';
import { registerMcp } from './commands/mcp/index.js';
import { registerConfig } from './commands/config/index.js';
import { registerTrust } from './commands/trust/trust.js';
import { registerDaemon } from './commands/daemon/index.js';
import { registerDoctor } from './commands/doctor/index.js';
import { registerTray } from './commands/tray/index.js';
import { registerAutostart } from './commands/autostart/index.js';
import { registerConnect } from './commands/connect/index.js';
import { VERSION } from './version.js';

export function createProgram(ctx: CliContext): Command {
  const program = new Command('blitz')
    .description('Blitz: one daemon that owns your MCP servers and offers them to every MCP client.')
    .version(VERSION)
    .showHelpAfterError()
    .configureOutput({ writeOut: (s) => ctx.out(s), writeErr: (s) => ctx.err(s) })
    .exitOverride();
  registerMcp(program, ctx);
  registerConfig(program, ctx);
  registerTrust(program, ctx);
  registerDaemon(program, ctx);
  registerDoctor(program, ctx);
  registerTray(program, ctx);
  registerAutostart(program, ctx);
  registerConnect(program, ctx);
  return program;
}
