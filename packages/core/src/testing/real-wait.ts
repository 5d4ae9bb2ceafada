/**
 * How long a test waits for something a real child process or socket does (`vi.waitFor(fn,
 * REAL_WAIT)`). vitest's own default gives up after 1 s, which a child process's start can take
 * on a loaded 2-core machine; this still ends well within the test's own timeout.
 */
export const REAL_WAIT = { timeout: 20_000, interval: 20 } as const;
