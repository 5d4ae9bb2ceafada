#!/usr/bin/env node
// The daemon's own entry point: `blitz daemon` and `blitz daemon start` run this file.
import { runDaemon } from './run-daemon.js';
import { VERSION } from './version.js';

const port = process.env.BLITZ_DAEMON_PORT;
process.exitCode = await runDaemon({ version: VERSION, ...(port ? { port: Number(port) } : {}) });
