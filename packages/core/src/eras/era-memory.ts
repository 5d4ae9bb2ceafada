import type { ServerConfig } from '../config/server-config.js';
import type { Era } from './modern-server-transport.js';

/** Where the era a server was found to speak is kept between starts (the daemon's: its catalog cache). */
export interface EraMemory {
  recall(config: ServerConfig, workspace: string): Era | undefined;
  remember(config: ServerConfig, workspace: string, era: Era): void;
}
