// The browser tests run in Debian's Chromium. When it is missing, install it (as root) or stop
// with the exact command to run: the browser tests never skip quietly.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(CHROMIUM)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(
    `Chromium is missing at ${CHROMIUM}. Install it, then run the tests again:\n\n  sudo apt-get update && sudo apt-get install -y chromium\n`,
  );
  process.exit(1);
}
console.log('Chromium is missing: installing Debian chromium (apt-get)…');
for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
  const result = spawnSync('apt-get', args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status !== 0) {
    console.error(
      `apt-get ${args.join(' ')} failed. Run it yourself:\n\n  apt-get update && apt-get install -y chromium\n`,
    );
    process.exit(1);
  }
}
if (!existsSync(CHROMIUM)) {
  console.error(`Chromium was installed but ${CHROMIUM} does not exist. Set CHROMIUM_PATH to its location.`);
  process.exit(1);
}
