import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isBuildCurrent, recordBuild, sourcesHash } from './build-cache.mjs';
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
