export { ToolIndex, type SearchableTool, type ToolIndexOptions, type ToolMatch, type ToolSearchOptions } from './tool-index.js';
export { DenseRanking, type DenseDoc } from './dense-ranking.js';
export { defaultSentenceVectors, defaultWordVectors, encodeWordVectors, WordVectors } from './word-vectors.js';
export { nameKey, splitWords } from './words.js';
export { ServiceWords, type ServiceTool } from './service-words.js';
export { parameterSignature, searchSummaries, summaryText, toolSummary, type ToolSummary } from './tool-summary.js';
