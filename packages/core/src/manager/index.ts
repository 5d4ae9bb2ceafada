export { Manager, type ManagerEvent, type ManagerNotice, type ManagerOptions, type ServerSet } from './manager.js';
