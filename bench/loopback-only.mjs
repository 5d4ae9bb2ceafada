// Preloaded (`node --import`) into the peers bench/peers.mjs runs, to keep them on loopback:
// every server listens on 127.0.0.1 whatever host it asks for (some peers have no option and
// listen on every interface), and every outgoing connection or fetch to another host fails at
// once (mcp-hub fetches a registry of servers at start).
import net from 'node:net';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const refused = (host) =>
  Object.assign(new Error(`bench/loopback-only.mjs: no connection to ${host} (loopback only)`), { code: 'ECONNREFUSED' });

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' || (typeof args[0] === 'string' && /^\d+$/.test(args[0]))) {
    if (typeof args[1] === 'string') args[1] = '127.0.0.1';
    else args.splice(1, 0, '127.0.0.1');
  } else if (
    args[0] &&
    typeof args[0] === 'object' &&
    args[0].path === undefined &&
    args[0].fd === undefined &&
    !(args[0] instanceof net.Server)
  ) {
    args[0] = { ...args[0], host: '127.0.0.1' };
  }
  return listen.apply(this, args);
};

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const options =
    args[0] && typeof args[0] === 'object' && !Array.isArray(args[0])
      ? args[0]
      : { port: args[0], host: typeof args[1] === 'string' ? args[1] : undefined };
  const host = options.path === undefined ? (options.host ?? 'localhost') : 'localhost';
  if (!LOOPBACK.has(host)) {
    process.nextTick(() => this.destroy(refused(host)));
    return this;
  }
  return connect.apply(this, args);
};

const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  if (!LOOPBACK.has(url.hostname.replace(/^\[|\]$/g, ''))) throw refused(url.hostname);
  return realFetch(input, init);
};
