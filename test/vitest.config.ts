import { defineConfig } from 'vitest/config';
import { sharedTestConfig } from '../vitest.shared.js';
import { StartFirstSequencer } from './start-first-sequencer.js';

export default defineConfig(({ mode }) => ({
  test: {
    ...sharedTestConfig('@blitz/test', mode, ['**/*.test.ts']),
    // The package every real test runs `blitz` from; an in-process run starts no `blitz`.
    ...(mode === 'in-process' ? {} : { globalSetup: ['./global-setup.ts'], sequence: { sequencer: StartFirstSequencer } }),
  },
}));
