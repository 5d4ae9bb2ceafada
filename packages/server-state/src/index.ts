export { CAUSE_CODES, SERVER_STATES, type CauseCode, type ServerState } from './server-state.js';
