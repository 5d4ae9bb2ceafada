export {
  autostartControl,
  autostartStatus,
  enableAutostart,
  processAutostartSystem,
  removeAutostart,
  type AutostartControl,
  type AutostartStatus,
  type AutostartSystem,
} from './autostart.js';
export {
  autostartEntry,
  autostartPlatform,
  entryLocation,
  userDirs,
  type AutostartEntry,
  type AutostartPlatform,
} from './autostart-entry.js';
export { AUTOSTART_KINDS, launchSpec, type AutostartKind, type LaunchSpec } from './launch-spec.js';
export { regAddArgs, regCommandLine, regDeleteArgs } from './windows-run-key.js';
