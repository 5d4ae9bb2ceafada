export { causeLine, explainCause, type Explanation } from './explain-cause.js';
export { causeOf, systemCause, type CauseCode, type ServerCause } from './server-cause.js';
