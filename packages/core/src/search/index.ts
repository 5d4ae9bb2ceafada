export { ToolIndex, type SearchableTool, type ToolIndexOptions, type ToolMatch, type ToolSearchOptions } from './tool-index.js';
export { defaultWordVectors, encodeWordVectors, WordVectors } from './word-vectors.js';
export { nameKey, splitWords } from './words.js';
