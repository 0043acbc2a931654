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
    // A page's first MUI render in the test DOM can take seconds on two busy cores.
    testTimeout: 15_000,
  },
});
