export { addServerEntry } from './add-server-entry.js';
export { removeServerEntry } from './remove-server-entry.js';
export { disabledChanges, setServerDisabled } from './set-server-disabled.js';
export { replaceServerEntry } from './replace-server-entry.js';
export { formatServerEntry, SERVER_FIELD_ORDER, type ServerEntry } from './format-server-entry.js';
export { formatKey, formatString, formatValue, type TomlValue } from './format-value.js';
export { withServerAdded, withServerFields, withServerFlag, withServerRemoved, withServerReplaced } from './intended-settings.js';
export { setServerFields, type FieldChanges } from './set-server-fields.js';
export { setServerFlag } from './set-server-flag.js';
export {
  changedPatterns,
  editPermissionList,
  withPermissionList,
  type PatternChange,
  type PermissionKind,
} from './edit-permission-list.js';
export { editSettingsFile, readSettingsText, type EditSettingsOptions, type EditSettingsResult } from './edit-settings-file.js';
export { type LockOptions } from './settings-file-lock.js';
export { parseToml, parseTomlText, tomlParses } from './parse-toml-text.js';
export { firstDifference } from './first-difference.js';
export {
  addNamedTable,
  insertNamedTableText,
  locateNamedTables,
  namedTableLines,
  namedTableText,
  replaceNamedTable,
  removeNamedTable,
  type NamedTableBlock,
  type NamedTablesLayout,
} from './named-tables.js';
export { describeTomlError } from './parse-toml-text.js';
export { detectEol } from './scan-lines.js';
