import { describe, expect, it } from 'vitest';
import { serverConfig } from '../testing/server-config.js';
import { offeredCapabilities } from './offered-capabilities.js';

const HUB = { roots: { listChanged: true }, elicitation: {} };

describe('offeredCapabilities', () => {
  it("offers sampling only to a server whose settings allow it, and roots unless it has roots = false; the rest as the hub's", () => {
    expect(offeredCapabilities(HUB, serverConfig('a'))).toEqual({ roots: { listChanged: true }, elicitation: {} });
    expect(offeredCapabilities(HUB, serverConfig('a', { sampling: true }))).toEqual({
      roots: { listChanged: true },
      elicitation: {},
      sampling: {},
    });
    expect(offeredCapabilities(HUB, serverConfig('a', { roots: false }))).toEqual({ elicitation: {} });
    expect(offeredCapabilities(undefined, serverConfig('a', { roots: ['/w'] }))).toEqual({});
  });
});
