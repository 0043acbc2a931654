import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contractsBuild, isBuildCurrent, recordBuild, sourcesHash } from './build-cache.mjs';
import { serverBuildDir } from './build-server.mjs';

let root;
const write = (file, text) => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
};
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'connect-build-cache-'));
  write('src/a.ts', 'export const a = 1;\n');
  write('src/nested/b.ts', 'export const b = 2;\n');
  write('dist/index.html', '<html></html>');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('npm start reuses a build while its sources are unchanged (issue 30)', () => {
  it('a recorded build stays current until a source changes, is added or is removed', () => {
    const hash = () => sourcesHash(root, ['src', 'missing.ts']);
    const current = () => isBuildCurrent(path.join(root, 'dist/index.html'), path.join(root, 'dist/.stamp'), hash());
    expect(current()).toBe(false); // never built
    recordBuild(path.join(root, 'dist/.stamp'), hash());
    expect(current()).toBe(true);
    write('src/nested/b.ts', 'export const b = 2;\n'); // rewritten, same content: still current
    expect(current()).toBe(true);
    write('src/nested/b.ts', 'export const b = 3;\n');
    expect(current()).toBe(false);
    recordBuild(path.join(root, 'dist/.stamp'), hash());
    write('src/c.ts', '');
    expect(current()).toBe(false);
    rmSync(path.join(root, 'src/c.ts'));
    expect(current()).toBe(true);
    rmSync(path.join(root, 'dist/index.html')); // the build itself gone
    expect(current()).toBe(false);
  });

  it('a file moved to another folder is another set of sources', () => {
    const before = sourcesHash(root, ['src']);
    rmSync(path.join(root, 'src/a.ts'));
    write('src/nested/a.ts', 'export const a = 1;\n');
    expect(sourcesHash(root, ['src'])).not.toBe(before);
  });

  it("the server's build directory is named by its sources and the esbuild version", () => {
    write('node_modules/esbuild/package.json', JSON.stringify({ version: '0.28.2' }));
    write('apps/server/src/server.ts', 'console.log(1);\n');
    const first = serverBuildDir(root);
    expect(first).toMatch(/^apps\/server\/dist\/[0-9a-f]{16}$/);
    expect(serverBuildDir(root)).toBe(first);
    write('packages/db/src/client.ts', 'export {};\n');
    const second = serverBuildDir(root);
    expect(second).not.toBe(first);
    write('node_modules/esbuild/package.json', JSON.stringify({ version: '0.28.3' }));
    expect(serverBuildDir(root)).not.toBe(second);
  });
});

describe("npm start loads the server's build through a V8 code cache (issue 30)", () => {
  // Each start is a process of its own: within one, V8 reuses what it compiled and never reads a cache.
  const start = (dir) =>
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { loadServerBuild } = await import(${JSON.stringify(path.join(import.meta.dirname, 'build-server.mjs'))});
         const build = loadServerBuild(${JSON.stringify(dir)});
         process.stdout.write(String(build.exports.answer()));
         build.saveCodeCache();`,
      ],
      { encoding: 'utf8' },
    );

  it('writes the cache once the server started, uses it at the next start, and replaces one V8 refuses', () => {
    write('build/server.cjs', 'exports.answer = () => 42;\n');
    const dir = path.join(root, 'build');
    const cache = path.join(dir, 'server.cjs.cache');

    expect(start(dir)).toBe('42');
    const written = readFileSync(cache);
    expect(written.length).toBeGreaterThan(0);

    writeFileSync(cache, written); // a cache that was used is not written again
    const before = statSync(cache).mtimeMs;
    expect(start(dir)).toBe('42');
    expect(statSync(cache).mtimeMs).toBe(before);

    writeFileSync(cache, 'not a cache V8 accepts');
    expect(start(dir)).toBe('42');
    expect(readFileSync(cache).length).toBe(written.length);
  });
});

describe('the committed contract artifacts (issue 30)', () => {
  it("are the contracts' current build, so a fresh clone compiles nothing", () => {
    const repo = path.resolve(import.meta.dirname, '..');
    const build = contractsBuild(repo);
    const current = isBuildCurrent(
      path.join(repo, build.output),
      path.join(repo, build.stamp),
      sourcesHash(repo, build.sources, build.salt),
    );
    expect(
      current,
      'packages/contracts/artifacts is not the build of the contracts: run `node scripts/start.mjs --build-only` and commit it',
    ).toBe(true);
  });
});
