/** `GET /v1/clients`: other MCP clients' config files, what import and connect would change (issue 29.9). */

/** One client Blitz knows, as its config file is on this machine. */
export interface ClientReport {
  id: string;
  title: string;
  file: string;
  /** The file exists. */
  found: boolean;
  /** The file or the client's own folder exists. */
  installed: boolean;
  pointsAtBlitz: boolean;
  /** Why the file could not be read or parsed: nothing is written to it, import and connect are refused. */
  error?: string;
  /** How Blitz offers this client its tools (`blitz clients`' TOOLS), in a line, and why. */
  surface: { text: string; because: string };
  /** What `blitz clients import ID` would add to settings.toml. */
  import: ImportPreview;
  /** What `blitz clients connect ID` would change in the client's file. */
  connect: ConnectPreview;
}

export interface ImportPreview {
  /** Servers new to Blitz, each as `describe` shows it (secrets never shown). */
  add: { name: string; describe: string }[];
  /** Already in Blitz (under `as`). */
  present: { name: string; as: string }[];
  /** A different server under a name Blitz already has: not imported. */
  conflicts: { name: string }[];
  skipped: { name: string; reason: string }[];
  /** Unified diff of settings.toml, secrets masked ('' when nothing would change). */
  diff: string;
}

export interface ConnectPreview {
  /** Unified diff of the client's file, secrets masked ('' when it already points at Blitz). */
  diff: string;
  blitz?: 'add' | 'update' | 'same';
  remove: string[];
  keep: { name: string; why: string }[];
  /** Why connect cannot be done from here now. */
  error?: string;
  /** The client rewrites its file while it runs: restart it after. */
  restartNote?: string;
}

export interface ClientsReport {
  settingsFile: string;
  clients: ClientReport[];
}

/** `POST /v1/clients/:id/import`. */
export interface ClientImported {
  client: string;
  target: string;
  added: string[];
  refused: { name: string; problems: string[] }[];
}

/** `POST /v1/clients/:id/connect`. */
export interface ClientConnected {
  client: string;
  file: string;
  changed: boolean;
  removed: string[];
  kept: { name: string; why: string }[];
  restartNote?: string;
}
