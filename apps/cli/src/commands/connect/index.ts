import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { MAX_MESSAGE_DEPTH } from '@blitz/core/lines';
import { MAX_CLIENT_MESSAGE_BYTES } from '@blitz/client';
import { CliError, type CliContext } from '../../context.js';
import { DAEMON_STOPPED_MESSAGE, startDaemon, stoppedOnPurpose } from '../../daemon-connection.js';
import { daemonVersionNote } from '../../daemon-version.js';
import { VERSION } from '../../version.js';
import { openDaemonStream } from './daemon-stream.js';
import { LineLink } from './line-link.js';
import { StdioBridge } from './stdio-bridge.js';

export function registerConnect(program: Command, ctx: CliContext): void {
  program
    .command('connect')
    .description("serve Blitz's aggregated MCP endpoint on stdio, for clients that start a command (starts the daemon if needed)")
    .option('--workspace <dir>', 'the project whose servers to offer (default: the current directory)')
    .option('--agent <name>', "the agent this client connects as (servers' agents = [...] decide what it sees)", 'main')
    .option('--mode <mode>', 'read-only: every server tool refused, resource tools allowed')
    .action(async (opts: { workspace?: string; agent: string; mode?: string }) => {
      const workspace = path.resolve(ctx.cwd, opts.workspace ?? '.');
      // Said before any daemon is involved: it is not the daemon that is missing.
      if (!isDirectory(workspace))
        throw new CliError(`the workspace ${workspace} ${fs.existsSync(workspace) ? 'is not a folder' : 'does not exist'} (--workspace)`);
      if (opts.mode !== undefined && opts.mode !== 'read-only')
        throw new CliError(`unknown mode ${opts.mode} (--mode): use read-only, or leave --mode out`);
      const query = new URLSearchParams({ workspace, agent: opts.agent });
      if (opts.mode) query.set('mode', opts.mode);
      // Said once per daemon: the bridge finds the daemon again after each restart.
      let told: number | undefined;
      // The stop is said once on stderr (a client's log), and in each refused request's error.
      let saidStopped = false;
      const bridge = new StdioBridge({
        client: new LineLink({ input: process.stdin, output: process.stdout }, { maxLineBytes: MAX_CLIENT_MESSAGE_BYTES, halfOpen: true }),
        daemon: async () => {
          const { state } = await startDaemon(ctx, { unlessStopped: true }).catch((err: unknown) => {
            if (!saidStopped && stoppedOnPurpose(ctx)) ctx.err(`blitz connect: ${DAEMON_STOPPED_MESSAGE}`);
            saidStopped ||= stoppedOnPurpose(ctx);
            throw err;
          });
          saidStopped = false;
          const note = daemonVersionNote(state.version, VERSION);
          if (note && told !== state.pid) ctx.err(`blitz connect: ${note}`);
          told = state.pid;
          return state;
        },
        open: openDaemonStream,
        query,
        maxMessageBytes: MAX_CLIENT_MESSAGE_BYTES,
        maxDepth: MAX_MESSAGE_DEPTH,
        // stdout carries the protocol: anything human goes to stderr.
        log: (message) => ctx.err(`blitz connect: ${message}`),
      });
      bridge.start();
      await bridge.done;
    });
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
