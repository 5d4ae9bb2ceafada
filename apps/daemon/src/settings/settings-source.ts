import {
  BlitzError,
  effectiveServers,
  formatProblem,
  hasErrors,
  loadSettings,
  readProjectConfig,
  shadowedProblems,
  TrustStore,
  withheldProblems,
  type BlitzPaths,
  type Trust,
  type ParsedSettings,
  type ProjectConfig,
  type Problem,
  type ServerConfig,
  type ServerSet,
  type Settings,
} from '@blitz/core';

/**
 * The daemon's view of settings.toml: the last good settings, and the problems of the last
 * load. A file that fails to parse or validate changes nothing (MCP-45): the previous
 * settings stay in force and the problems show in status and the log.
 */
export class SettingsSource {
  readonly paths: BlitzPaths;
  readonly #env: Readonly<Record<string, string | undefined>>;
  #settings: Settings;
  #problems: Problem[] = [];
  /** Where the last good load found each global server's fields (its lines move with an edit that changes no setting). */
  #serverLine: ParsedSettings['serverLine'] = () => undefined;
  /** Where the last read of each project file found its servers' fields, by the file. */
  readonly #projectLines = new Map<string, ProjectConfig['serverLine']>();

  constructor(paths: BlitzPaths, initial: Settings, env: Readonly<Record<string, string | undefined>> = process.env) {
    this.paths = paths;
    this.#settings = initial;
    this.#env = env;
  }

  get settings(): Settings {
    return this.#settings;
  }

  /** Errors and warnings of the last load, formatted with file and line. */
  problems(): string[] {
    return this.#problems.map(formatProblem);
  }

  hasErrors(): boolean {
    return hasErrors(this.#problems);
  }

  /** Reads the file again; returns whether the settings in force changed. */
  reload(): { applied: boolean; problems: Problem[] } {
    const { settings, problems, serverLine } = loadSettings(this.paths.settings);
    this.#problems = problems;
    if (hasErrors(problems)) return { applied: false, problems };
    this.#serverLine = serverLine;
    const changed = JSON.stringify(settings) !== JSON.stringify(this.#settings);
    this.#settings = settings;
    return { applied: changed, problems };
  }

  /** The line of a server's field: a settings.toml server's as the last good load found it, a project's as its file was last read. */
  serverLine(config: ServerConfig, field: string): number | undefined {
    if (config.source.kind === 'project') return this.#projectLines.get(config.source.file)?.(config, field);
    return config.source.file === this.paths.settings ? this.#serverLine(config.name, field) : undefined;
  }

  /**
   * The servers of a workspace: global ones, replaced or joined by the project's once trusted.
   * Whatever the project's files are (a FIFO, a link to a device, huge), reading them is
   * bounded; what cannot be used becomes that project's problem.
   */
  serversFor(root: string): ServerSet & { projectProblems: Problem[]; trusted: boolean; untrusted?: { servers: string[] } } {
    const project = readProjectConfig(root);
    for (const file of project.files) this.#projectLines.set(file, project.serverLine);
    const problems = [...project.problems];
    let trust: Trust | undefined;
    try {
      // Checked against the hash of the bytes just parsed, never a second read (issue 25).
      trust = project.files.length > 0 ? new TrustStore(this.paths.trust).trustOf(project) : undefined;
    } catch (err) {
      // A broken trust file trusts nobody; the workspace still opens with the global servers.
      if (!(err instanceof BlitzError)) throw err;
      problems.push({ severity: 'error', file: this.paths.trust, message: err.message });
    }
    const trusted = trust !== undefined;
    const effective = effectiveServers(
      this.#settings.servers,
      { config: project, trusted, ...(trust ? { allowed: trust.allowed } : {}) },
      this.#env,
    );
    problems.push(...withheldProblems(project, effective.withheld));
    if (trusted) problems.push(...shadowedProblems(this.#settings.servers, project, (g) => this.serverLine(g, 'name')));
    return {
      servers: effective.servers,
      // A project's problems skip its own entries; they never block the workspace.
      projectProblems: problems,
      trusted,
      ...(effective.untrusted ? { untrusted: { servers: effective.untrusted.servers } } : {}),
    };
  }
}
