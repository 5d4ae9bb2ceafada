export { SERVER_STATES, type ServerState } from './server-state.js';
