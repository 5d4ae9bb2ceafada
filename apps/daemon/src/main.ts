#!/usr/bin/env node
// The daemon's own entry point: `blitz daemon` and `blitz daemon start` run this file.
import { runDaemon } from './run-daemon.js';
import { VERSION } from './version.js';

const port = process.env.BLITZ_DAEMON_PORT;
// `blitz daemon start` sets it to 0: in the background stderr is logs/daemon.out, which is never rotated.
const mirrorLog = process.env.BLITZ_DAEMON_LOG_STDERR !== '0';
process.exitCode = await runDaemon({ version: VERSION, mirrorLog, ...(port ? { port: Number(port) } : {}) });
