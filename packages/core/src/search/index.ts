export { ToolIndex, type SearchableTool, type ToolIndexOptions, type ToolMatch, type ToolSearchOptions } from './tool-index.js';
export { nameKey, splitWords } from './words.js';
