/** The settings page's one-time code and session. */

/** `POST /v1/settings/code`: opens the settings page once, within a minute. */
export interface SettingsCode {
  /** `http://127.0.0.1:PORT/settings/?code=…` */
  url: string;
  /** ISO 8601 */
  expiresAt: string;
}

/** `GET /v1/settings/session` (the page's own session): the token its writes carry in `header`. */
export interface SettingsSession {
  csrfToken: string;
  header: string;
  file: string;
  /** The env a client's `blitz connect` entry needs to reach this daemon: `BLITZ_HOME` when it is not the default. */
  connectEnv: Record<string, string>;
  /** How a client's entry starts Blitz: `blitz connect` when `blitz` is on the daemon's PATH, else full paths. */
  launch?: BlitzLaunchText;
}

export interface BlitzLaunchText {
  command: string;
  args: string[];
  /** `blitz` is on the daemon's PATH; when not, `command` and `args` are full paths. */
  onPath: boolean;
}
