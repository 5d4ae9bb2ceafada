import { serverSecretValues, type Redactor, type ServerConfig } from '@blitz/core';
import type { Logger } from './log/index.js';

/** The secrets the daemon masks (MCP-42) in what it answers (the redactor) and in what it logs. */
export class Secrets {
  readonly #redactor: Redactor;
  readonly #log: Logger;

  constructor(redactor: Redactor, log: Logger) {
    this.#redactor = redactor;
    this.#log = log;
  }

  /** Header and env values and OAuth client secrets are secrets: as configured, and as expanded once a workspace resolves them. */
  addServers(servers: readonly ServerConfig[]): void {
    this.addValues(servers.flatMap(serverSecretValues));
  }

  addValues(values: readonly string[]): void {
    for (const value of values) this.#redactor.add(value);
    this.#log.addSecrets(values);
  }
}
