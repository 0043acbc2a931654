import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    // happy-dom sets up and renders about twice as fast as jsdom (5 component test files: 38 s
    // against 85 s, environment set-up 6 s against 25 s, one after the other the same minute); a file that reads computed
    // styles jsdom cascades and happy-dom does not asks for jsdom in its first line.
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // Each file in a fresh VM context of a worker that stays (`vmThreads`), instead of a fresh worker
    // with its own module loader: the 92 files took 200–218 s of CPU against 375 s (import 48–50 s against
    // 100 s, environment 5–7 s against 71 s). Sharing one context between files (`isolate: false`) was
    // cheaper still for the files that mock nothing, but a file that replaces a module (`vi.mock`)
    // then met pages already holding the real one.
    pool: 'vmThreads',
    // A page's first MUI render in the test DOM can take seconds on two busy cores.
    testTimeout: 15_000,
  },
});
