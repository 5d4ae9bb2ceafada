#!/usr/bin/env node
// The tray's own entry point, for running it without the CLI: `node dist/main.js` with
// BLITZ_HOME set, and BLITZ_CLI (the CLI's bin/blitz.js) for "Start daemon" and "Start at
// login". `blitz tray` runs `runTray` in its own process instead.
import { spawn } from 'node:child_process';
import { autostartControl, launchSpec, processAutostartSystem } from '@blitz/autostart';
import { runTray } from './run-tray.js';

const home = process.env.BLITZ_HOME;
const cli = process.env.BLITZ_CLI;
if (!home) {
  process.stderr.write('blitz tray: BLITZ_HOME is not set; start the tray with `blitz tray`\n');
  process.exitCode = 2;
} else {
  const missingCli = () => Promise.reject(new Error('BLITZ_CLI is not set: start the tray with `blitz tray`'));
  process.exitCode = await runTray({
    home,
    startDaemon: cli ? () => runCli(cli, ['daemon', 'start']) : missingCli,
    autostart: cli
      ? autostartControl(processAutostartSystem(), launchSpec({ node: process.execPath, cli, env: process.env }))
      : { isEnabled: async () => false, setEnabled: missingCli },
  });
}

function runCli(file: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`blitz ${args.join(' ')} exited with code ${code}`))));
  });
}
