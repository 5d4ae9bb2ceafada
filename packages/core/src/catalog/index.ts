export { exposedName, MAX_EXPOSED_NAME_BYTES, type ExposedName } from './exposed-name.js';
export { buildCatalog, type CatalogEntry, type ServerTools, type ToolCatalog } from './build-catalog.js';
export { buildPromptCatalog, type PromptCatalog, type PromptEntry, type ServerPrompts } from './build-prompt-catalog.js';
export { buildResourceCatalog, type ResourceCatalog, type ResourceEntry, type ServerResources } from './build-resource-catalog.js';
export {
  buildNamedCatalog,
  type NamedCatalog,
  type NamedCatalogOptions,
  type NamedEntry,
  type NamedSource,
} from './named-catalog.js';
export type { ServerWarnings } from './server-warnings.js';
export { Catalog, type CatalogRow } from './catalog.js';
export { agentMayUse, EVERY_AGENT, MAIN_AGENT } from './agent-may-use.js';
export { exposureOverride, toolExposure, unusedOverrides, type ToolExposure } from './tool-exposure.js';
export { toolSettingProblems } from './tool-setting-problems.js';
export { unmatchedSettingWarning, type UnmatchedSetting } from './unmatched-settings.js';
