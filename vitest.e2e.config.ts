import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    environment: 'node',
    testTimeout: 90_000,
    hookTimeout: 90_000,
    fileParallelism: false,
    // A browser, a host and fakes share two cores: a poll gets longer than the 1 s default before it fails.
    expect: { poll: { timeout: 5_000 } },
  },
});
