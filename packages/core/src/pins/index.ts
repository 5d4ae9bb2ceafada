export { canonicalJson, definitionFingerprint, toolDefinition, type ToolDefinition } from './tool-definition.js';
export { diffDefinitions, type FieldChange } from './definition-diff.js';
export {
  PinStore,
  type ListingVerdict,
  type PinKey,
  type PinRecord,
  type PinStoreOptions,
  type ReviewChange,
  type ToolReview,
} from './pin-store.js';
export { pinKey } from './pin-key.js';
