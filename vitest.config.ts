import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/adversarial/**/*.test.ts'],
    environment: 'node',
    // electron-store imports `electron`: inlined, so a test's vi.mock('electron') reaches it too.
    server: { deps: { inline: ['electron-store'] } },
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
