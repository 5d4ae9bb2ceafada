export * from './modern-protocol.js';
export type { EraMemory } from './era-memory.js';
export {
  ModernServerTransport,
  MAX_ROUNDS,
  type Era,
  type ModernServerTransportOptions,
  type EraVerdict,
} from './modern-server-transport.js';
export { paramHeaderMismatch, paramHeadersOf, type ParamHeader } from './param-headers.js';
