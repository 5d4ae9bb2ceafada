#!/usr/bin/env node
// `blitz connect` with no daemon running starts it before the CLI itself is loaded (early-daemon.ts).
import { startDaemonEarly } from './early-daemon.js';

startDaemonEarly(process.argv, process.env, process.cwd());
await import('./run-cli.js');
