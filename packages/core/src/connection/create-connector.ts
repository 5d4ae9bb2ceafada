import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Clock } from '@blitz/clock';
import type { ServerConfig } from '../config/server-config.js';
import type { EraMemory } from '../eras/era-memory.js';
import type { EraVerdict } from '../eras/modern-server-transport.js';
import type { ConnectOptions, Connector } from './connector.js';
import type { Link } from './link.js';
import { connectHttp } from './http/connect-http.js';
import { createContainment } from './stdio/containment.js';
import { createSandbox } from './stdio/sandbox.js';
import { connectStdio } from './stdio/connect-stdio.js';

export interface ConnectorDeps {
  /** `$BLITZ_HOME`: hidden from sandboxed servers. */
  blitzHome: string;
  clock: Clock;
  clientVersion: string;
  warn(message: string): void;
  /**
   * OAuth for HTTP servers: wraps the server's fetch so its requests carry (and refresh) its
   * token; undefined for a server that must go without. A fetch wrapper rather than an SDK
   * auth provider, so concurrent requests share one refresh (see `authorizedFetch`).
   */
  authFetch?(config: ServerConfig): ((base: FetchLike) => FetchLike) | undefined;
  parentEnv?: Readonly<Record<string, string | undefined>>;
  graceMs?: number;
  /** The temp folder sandboxed servers may write (default `os.tmpdir()`). */
  tmpDir?: string;
  /** The largest message held from a stdio server: `[hub] max_result_mb`, read when needed. */
  maxMessageBytes?: () => number;
  /** Hears each stdio server's descendants as they are seen: a daemon records them to end them after a crash. */
  onDescendants?: (leader: number, descendants: ReadonlyArray<{ pid: number; start?: string }>) => void;
  /** `tools/call` on stdio links past the SDK client (direct-tool-calls.ts); default true. Off: the SDK's own `callTool`, to compare. */
  directCalls?: boolean;
  /** Hears each stdio server's stderr as it comes (the daemon's per-server log, issue 29.9). */
  onStderr?: (serverName: string, chunk: Buffer) => void;
  /** Each server's era as last found (the daemon keeps it in its catalog cache): a legacy server is not asked again. */
  eras?: EraMemory;
}

/** The production connector: an owned (sandboxed, or pid-namespaced) process for stdio servers, streamable HTTP for URLs. */
export function createConnector(deps: ConnectorDeps): Connector {
  const containment = createContainment({ warn: deps.warn });
  const sandbox = createSandbox({
    blitzHome: deps.blitzHome,
    warn: deps.warn,
    ...(deps.tmpDir === undefined ? {} : { tmpDir: deps.tmpDir }),
  });
  const connect = (config: ServerConfig, opts: ConnectOptions): Promise<Link> => {
    switch (config.transport.kind) {
      case 'stdio':
        return connectStdio(config, opts, {
          sandbox,
          containment,
          clock: deps.clock,
          clientVersion: deps.clientVersion,
          ...(deps.parentEnv ? { parentEnv: deps.parentEnv } : {}),
          ...(deps.graceMs === undefined ? {} : { graceMs: deps.graceMs }),
          ...(deps.maxMessageBytes ? { maxMessageBytes: deps.maxMessageBytes } : {}),
          ...(deps.onDescendants ? { onDescendants: deps.onDescendants } : {}),
          ...(deps.directCalls === false ? { directCalls: false } : {}),
          ...(deps.onStderr ? { onStderr: deps.onStderr } : {}),
        });
      case 'http': {
        const wrapFetch = deps.authFetch?.(config);
        return connectHttp(config, {
          ...opts,
          clock: deps.clock,
          clientVersion: deps.clientVersion,
          ...(wrapFetch ? { wrapFetch } : {}),
          ...(deps.maxMessageBytes ? { maxMessageBytes: deps.maxMessageBytes } : {}),
        });
      }
      default: {
        const _exhaustive: never = config.transport;
        return _exhaustive;
      }
    }
  };
  // Asked which era it speaks (unless known to be legacy); one that exits rather than answer is
  // started again, spoken to in 2025 from then on.
  return async (config, opts) => {
    let verdict: EraVerdict | undefined;
    const era = opts.era ?? deps.eras?.recall(config, opts.workspace);
    const onVerdict = (v: EraVerdict) => {
      verdict = v;
      opts.onVerdict?.(v);
      // A server still starting when its discovery went unanswered is asked again next time.
      if (v.era === 'modern' || v.how !== 'slow') deps.eras?.remember(config, opts.workspace, v.era);
    };
    try {
      return await connect(config, { ...opts, ...(era ? { era } : {}), onVerdict });
    } catch (err) {
      if (verdict?.era !== 'legacy' || verdict.how !== 'closed' || opts.signal?.aborted) throw err;
      return connect(config, { ...opts, era: 'legacy' });
    }
  };
}
