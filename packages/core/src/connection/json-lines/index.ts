export { JsonLinesTransport, type JsonLinesOptions, type LineStreams } from './json-lines-transport.js';
