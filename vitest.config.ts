import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two cores: one worker each. PGlite instances are large, so never more.
    maxWorkers: 2,
    projects: [
      { test: { name: 'shared', root: 'packages/shared', include: ['src/**/*.test.ts'] } },
      { test: { name: 'scripts', root: 'scripts', include: ['*.test.mjs'] } },
      {
        test: {
          name: 'db',
          root: 'packages/db',
          include: ['src/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: { name: 'devchain', root: 'packages/devchain', include: ['src/**/*.test.ts'], testTimeout: 60_000 },
      },
      {
        test: {
          name: 'contracts',
          root: 'packages/contracts',
          include: ['src/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // Each file builds its own app and database, and no server test mocks modules or edits the
          // environment, so files share their worker's loaded modules: the suite took 474 s instead
          // of 645 s on this machine (module import 51 s instead of 316 s, summed over the workers).
          isolate: false,
        },
      },
      'apps/web/vitest.config.ts',
    ],
  },
});
