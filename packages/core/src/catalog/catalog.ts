/** The fields a catalog looks entries up by. */
export interface CatalogRow {
  exposedName: string;
  server: string;
}

/**
 * Read-only lookups over a built catalog (tools or prompts). Built once per catalog change and
 * then only read, so the indexes are made up front and every lookup is a map hit.
 */
export class Catalog<E extends CatalogRow> {
  readonly #entries: readonly E[];
  readonly #byName = new Map<string, E>();
  readonly #byServer = new Map<string, E[]>();

  /** Entries in catalog order; should two share a name, the first is found, as when building. */
  constructor(entries: readonly E[]) {
    this.#entries = [...entries];
    for (const entry of this.#entries) {
      if (!this.#byName.has(entry.exposedName)) this.#byName.set(entry.exposedName, entry);
      const list = this.#byServer.get(entry.server);
      if (list === undefined) this.#byServer.set(entry.server, [entry]);
      else list.push(entry);
    }
  }

  /** The entry a client's call names, to route it to its server under its original name. */
  byExposedName(name: string): E | undefined {
    return this.#byName.get(name);
  }

  /** A server's entries in catalog order; none for a server that is unknown or offers nothing. */
  forServer(server: string): readonly E[] {
    return this.#byServer.get(server) ?? [];
  }

  list(): readonly E[] {
    return this.#entries;
  }
}
