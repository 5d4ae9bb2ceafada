import { loadSettings, resolveServer } from '@blitz/core/config';
import { Redactor, serverSecretValues } from '@blitz/core/redact';

/**
 * What every line the CLI prints passes through (MCP-42): the one redactor, knowing the
 * secrets of every server in settings.toml (as written and as expanded from this
 * environment) from the first line printed, and whatever a command adds (OAuth tokens it
 * read). Commands need not remember to mask: a text that names no secret comes out unchanged.
 */
export class OutputRedactor {
  readonly #redactor = new Redactor();
  readonly #settingsFile: string;
  readonly #env: NodeJS.ProcessEnv;
  #learned = false;

  constructor(settingsFile: string, env: NodeJS.ProcessEnv) {
    this.#settingsFile = settingsFile;
    this.#env = env;
  }

  add(values: Iterable<string>): void {
    for (const value of values) this.#redactor.add(value);
  }

  redact(text: string): string {
    this.#learnSettings();
    return this.#redactor.redact(text);
  }

  #learnSettings(): void {
    if (this.#learned) return;
    this.#learned = true;
    let servers;
    try {
      servers = loadSettings(this.#settingsFile).settings.servers;
    } catch {
      return; // Unreadable settings hold no secret we could print; the command reports the problem.
    }
    for (const server of servers) this.add([...serverSecretValues(server), ...serverSecretValues(resolveServer(server, this.#env).config)]);
  }
}
