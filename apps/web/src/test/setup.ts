// Dates render in the browser's time zone: the tests read them as a browser in UTC would, on any machine.
process.env.TZ = 'UTC';
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy*/waitFor give up after 1 s by default; a page's first MUI render on two busy cores (the
// CI machine runs the web and server suites side by side) can take longer than that. The tests'
// own timeout (vitest.config.ts) still bounds a test that never gets there. In CI the stage yields
// the cores to the journeys, so the wait is generous: one that succeeds ends as soon as it can.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => cleanup());
