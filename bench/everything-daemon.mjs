// A daemon for the hub benchmarks: its own BLITZ_HOME and workspace in the temp folder, one
// server (server-everything over stdio, auto-approved), loopback on a free port.
import fs from 'node:fs';
import { blitz, everything, serverEntry, startDaemon, tempDir } from './harness.mjs';

export const EVERYTHING = everything;
export const BLITZ = blitz;

/** Starts it; `stop()` ends the daemon and removes its folders. */
export async function startEverythingDaemon() {
  const home = tempDir('blitz-bench-');
  const workspace = tempDir('blitz-bench-ws-');
  const daemon = await startDaemon(home, serverEntry('everything', EVERYTHING, ['stdio']));
  return {
    home,
    workspace,
    env: daemon.env,
    state: daemon.state,
    async stop() {
      await daemon.stop();
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(workspace, { recursive: true, force: true });
    },
  };
}
