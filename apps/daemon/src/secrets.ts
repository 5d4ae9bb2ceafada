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

  /**
   * The secrets of a group of servers (serverSecretValues: header values, secret env values,
   * OAuth client secrets), as configured or as expanded once a workspace resolves them. A
   * group's set replaces its last: a removed server's values are masked no longer (issue
   * 26.4). The logger shares this redactor, so its lines follow.
   */
  setServers(group: string, servers: readonly ServerConfig[]): void {
    this.#redactor.set(group, servers.flatMap(serverSecretValues));
  }

  addValues(values: readonly string[]): void {
    for (const value of values) this.#redactor.add(value);
    this.#log.addSecrets(values);
  }
}
