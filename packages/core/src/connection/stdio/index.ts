export { baseEnv, childEnv } from './child-env.js';
export { commandLine, type CommandLine } from './command-line.js';
export {
  bwrapContainArgs,
  createContainment,
  describeContainment,
  unshareContainArgs,
  type Containment,
  type ContainmentDeps,
  type ContainmentKind,
  type LaunchLine,
} from './containment.js';
export { groupMembers, signalGroup } from './process-group.js';
export { descendantsOf, isSameProcess, parsePsPairs, signalProcesses, type ProcessId } from './process-tree.js';
export { DEFAULT_DRAIN_MS, DEFAULT_GRACE_MS, OwnedProcess, type OwnedProcessOptions, type ProcessExit } from './owned-process.js';
export {
  bwrapArgs,
  createSandbox,
  probeBubblewrap,
  sandboxExecArgs,
  sandboxPaths,
  sandboxUnavailable,
  sandboxWarning,
  seatbeltProfile,
  type Sandbox,
  type SandboxDeps,
  type SandboxedLine,
  type SandboxPaths,
  type SandboxPlaces,
} from './sandbox.js';
export { crashLine } from './crash-line.js';
export { findOnPath, type SearchPath } from './find-on-path.js';
export { createStdioTransport, spawnServer, type SpawnServerDeps } from './spawn-server.js';
export { STDERR_RING_BYTES, StderrRing, lastLines } from './stderr-ring.js';
export { EXIT_STDERR_LINES, StdioTransport, describeExit, type StdioTransportOptions } from './stdio-transport.js';
export { checkCommand, type CommandCheck, type CommandSearch } from './check-command.js';
export { installCommand } from './install-command.js';
