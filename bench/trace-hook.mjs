// Loaded with `--import` into `blitz connect` and the daemon it spawns by cold-start-trace.mjs
// (through NODE_OPTIONS, which the daemon inherits): appends one line per event to
// $BLITZ_TRACE_FILE — epoch ms, role, event. Diagnostics only: it wraps child_process.spawn and
// net.Server#listen of the traced process to see when they happen, and changes nothing else.
import cp from 'node:child_process';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const file = process.env.BLITZ_TRACE_FILE;
const role = process.argv[1]?.includes('daemon') || process.argv[1]?.endsWith('blitzd.js') ? 'daemon' : 'cli';
const log = (event, at = performance.timeOrigin + performance.now()) => {
  if (file) fs.appendFileSync(file, `${at.toFixed(1)} ${role} ${event}\n`);
};

log('process started', performance.timeOrigin);
log('hook loaded');
const spawn = cp.spawn;
let spawns = 0;
cp.spawn = function (command, args, ...rest) {
  spawns++;
  if (role === 'cli' || spawns === 1) log(role === 'cli' ? 'spawns the daemon' : 'spawns its first server');
  return spawn.call(this, command, args, ...rest);
};
syncBuiltinESMExports();
const listen = net.Server.prototype.listen;
let listened = false;
net.Server.prototype.listen = function (...args) {
  this.once('listening', () => {
    if (!listened) log('listening');
    listened = true;
  });
  return listen.apply(this, args);
};
