// The browser tests run in Debian's Chromium: the journeys in its headless shell (package
// chromium-headless-shell, the engine without the desktop browser around it: the same 13 journeys
// took 161 s of CPU in it against 203 s in /usr/bin/chromium, whose GPU process composites every
// frame in software), the Lighthouse benchmark in the full browser (package chromium). When either
// is missing, install it (as root) or stop with the exact command to run: the browser tests never
// skip quietly. CHROMIUM_PATH points the journeys at another binary.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const JOURNEY_BROWSER = '/usr/bin/chromium-headless-shell';
const NEEDED = process.env.CHROMIUM_PATH
  ? [{ path: process.env.CHROMIUM_PATH, pkg: null }]
  : [
      { path: JOURNEY_BROWSER, pkg: 'chromium-headless-shell' },
      { path: '/usr/bin/chromium', pkg: 'chromium' },
    ];

const missing = NEEDED.filter(({ path }) => !existsSync(path));
if (missing.length === 0) process.exit(0);
const unknown = missing.find(({ pkg }) => pkg === null);
if (unknown) {
  console.error(`CHROMIUM_PATH is ${unknown.path}, which does not exist.`);
  process.exit(1);
}

const packages = missing.map(({ pkg }) => pkg).join(' ');
const command = `apt-get update && apt-get install -y ${packages}`;
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(`Chromium is missing (${packages}). Install it, then run the tests again:\n\n  sudo ${command}\n`);
  process.exit(1);
}
console.log(`Chromium is missing: installing Debian ${packages} (apt-get)…`);
for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...packages.split(' ')]]) {
  const result = spawnSync('apt-get', args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status !== 0) {
    console.error(`apt-get ${args.join(' ')} failed. Run it yourself:\n\n  ${command}\n`);
    process.exit(1);
  }
}
for (const { path } of missing) {
  if (!existsSync(path)) {
    console.error(`Chromium was installed but ${path} does not exist.`);
    process.exit(1);
  }
}
