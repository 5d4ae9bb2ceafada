import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { registerAdd } from './add.js';
import { registerApprove } from './approve.js';
import { registerRemove } from './remove.js';
import { registerToggle } from './toggle.js';
import { registerGet } from './get.js';
import { registerList } from './list.js';
import { registerLogin } from './login.js';
import { registerLogout } from './logout.js';
import { registerRestart } from './restart.js';
import { registerSet } from './set.js';
import { registerReview } from './review.js';

export function registerMcp(program: Command, ctx: CliContext): void {
  const mcp = program.command('mcp').description('configure MCP servers (edits settings.toml in place, comments kept)');
  registerAdd(mcp, ctx);
  registerList(mcp, ctx);
  registerGet(mcp, ctx);
  registerSet(mcp, ctx);
  registerRemove(mcp, ctx);
  registerToggle(mcp, ctx, true);
  registerToggle(mcp, ctx, false);
  registerApprove(mcp, ctx);
  registerRestart(mcp, ctx);
  registerReview(mcp, ctx);
  registerLogin(mcp, ctx);
  registerLogout(mcp, ctx);
}
