import { Command } from 'commander';
import type { CliContext } from './context.js';
import { VERSION } from './version.js';

type Register = (program: Command, ctx: CliContext) => void;

/**
 * Each top-level command's module, loaded only when that command runs: `blitz connect`, which
 * clients start again and again, loads the bridge alone — not the tray, OAuth, the keychain
 * or the daemon (bench/startup.mjs measures it). Help and unknown commands load them all.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  mcp: async () => (await import('./commands/mcp/index.js')).registerMcp,
  config: async () => (await import('./commands/config/index.js')).registerConfig,
  trust: async () => (await import('./commands/trust/trust.js')).registerTrust,
  daemon: async () => (await import('./commands/daemon/index.js')).registerDaemon,
  doctor: async () => (await import('./commands/doctor/index.js')).registerDoctor,
  tray: async () => (await import('./commands/tray/index.js')).registerTray,
  autostart: async () => (await import('./commands/autostart/index.js')).registerAutostart,
  connect: async () => (await import('./commands/connect/index.js')).registerConnect,
  clients: async () => (await import('./commands/clients/index.js')).registerClients,
  settings: async () => (await import('./commands/settings/index.js')).registerSettings,
  log: async () => (await import('./commands/log/index.js')).registerLog,
  context: async () => (await import('./commands/context/index.js')).registerContext,
};

/** The commands `argv` needs: the one it names, none for `--version`, all for anything else. */
export function commandsFor(argv: readonly string[]): string[] {
  const first = argv[2];
  if (first === '-V' || first === '--version') return [];
  if (first !== undefined && Object.hasOwn(COMMANDS, first)) return [first];
  return Object.keys(COMMANDS);
}

export async function createProgram(ctx: CliContext, argv: readonly string[] = process.argv): Promise<Command> {
  const program = new Command('blitz')
    .description('Blitz: one daemon that owns your MCP servers and offers them to every MCP client.')
    .version(VERSION)
    .showHelpAfterError()
    .configureOutput({ writeOut: (s) => ctx.out(s), writeErr: (s) => ctx.err(s) })
    .exitOverride();
  const registers = await Promise.all(commandsFor(argv).map((name) => COMMANDS[name]!()));
  for (const register of registers) register(program, ctx);
  return program;
}
