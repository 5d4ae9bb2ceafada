export * from './server-config.js';
export * from './paths.js';
export * from './problem.js';
export * from './expand-env.js';
export * from './settings.js';
export * from './client-surface.js';
export * from './server-entry.js';
export * from './load-settings.js';
export * from './project-config.js';
export * from './runs-blitz.js';
export * from './trust-store.js';
export * from './project-grants.js';
export * from './resolve-server.js';
export * from './effective-servers.js';
export * from './shadowed-servers.js';
export * from './url-rules.js';
export * from './home-path.js';
export * from './server-to-entry.js';
export * from './settings-editor.js';
export {
  editSettingsFile,
  readSettingsText,
  formatValue,
  formatKey,
  firstDifference,
  addNamedTable,
  removeNamedTable,
  detectEol,
  namedTableLines,
  namedTableText,
  replaceNamedTable,
  insertNamedTableText,
  locateNamedTables,
  describeTomlError,
  addServerEntry,
  parseToml,
  parseTomlText,
  tomlParses,
  type FieldChanges,
  type ServerEntry,
  type TomlValue,
} from './toml-edit/index.js';
export { isTable } from './field-reader.js';
export { withFileLock, type LockOptions } from './toml-edit/settings-file-lock.js';
