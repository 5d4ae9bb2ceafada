#!/usr/bin/env node
// The daemon's own entry point: `blitz daemon` and `blitz daemon start` run this file.
import { runDaemon } from './run-daemon.js';
import { VERSION } from './version.js';

const port = process.env.BLITZ_DAEMON_PORT;
// `blitz daemon start` sets it to 0: in the background stderr is logs/daemon.out, which is never rotated.
const mirrorLog = process.env.BLITZ_DAEMON_LOG_STDERR !== '0';
// `off`: every tools/call takes the SDK's own path (docs/daemon.md): to compare, or to rule the fast lanes out.
const fastLanes = process.env.BLITZ_FAST_LANES !== 'off';
process.exitCode = await runDaemon({ version: VERSION, mirrorLog, fastLanes, ...(port ? { port: Number(port) } : {}) });
