// When `npm start` may reuse a build: a build is current while the content hash of its sources
// equals the hash recorded beside it when it was built. Content, not modification times: a
// checkout, a copy or a clock never makes a build look current when its sources changed.
// Hashing the server's and the web app's sources (~1,000 files, 7 MB) takes about 20 ms.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The files under `entries` (files or directories, relative to `root`), sorted; missing entries are skipped. */
export function listSources(root, entries) {
  const files = [];
  const visitDir = (dir) => {
    const children = readdirSync(path.join(root, dir), { withFileTypes: true });
    for (const child of children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const entry = path.join(dir, child.name);
      if (child.isDirectory()) visitDir(entry);
      else files.push(entry);
    }
  };
  for (const entry of entries) {
    const full = path.join(root, entry);
    if (!existsSync(full)) continue;
    if (statSync(full).isDirectory()) visitDir(entry);
    else files.push(entry);
  }
  return files;
}

/** A hash of the sources' paths and contents (and `salt`: what else makes a different build, a version). */
export function sourcesHash(root, entries, salt = '') {
  const hash = createHash('sha256').update(salt);
  for (const file of listSources(root, entries)) hash.update(`\0${file}\0`).update(readFileSync(path.join(root, file)));
  return hash.digest('hex');
}

/** True when `output` exists and `stampFile` records `hash` (the build was made from these sources). */
export function isBuildCurrent(output, stampFile, hash) {
  if (!existsSync(output) || !existsSync(stampFile)) return false;
  return readFileSync(stampFile, 'utf8').trim() === hash;
}

/** Records that the build beside `stampFile` was made from the sources of `hash`. */
export function recordBuild(stampFile, hash) {
  writeFileSync(stampFile, `${hash}\n`);
}

/**
 * The token contracts' build (packages/contracts: solc-js over contracts/, into artifacts/). Its
 * output and stamp are committed, so that a fresh clone compiles nothing while they are current
 * (5.5 s of a first start; issue 30); a change to the contracts, the compiler or OpenZeppelin makes
 * `npm start` compile them again, and the new artifacts are committed with the change (a test
 * fails until they are).
 */
export function contractsBuild(root) {
  return {
    sources: ['packages/contracts/contracts', 'packages/contracts/src/compile.ts'],
    salt: ['solc', '@openzeppelin/contracts']
      .map((name) => readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8'))
      .join(),
    output: 'packages/contracts/artifacts/contracts.json',
    stamp: 'packages/contracts/artifacts/.sources-hash',
  };
}
