import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MAX_LINES = 500;
/** Test files and what only tests use are held to the review, not to this limit. */
const TEST_ONLY = /(\.test\.tsx?|\.spec\.ts|\/testing\.ts|\/test-support\.ts|\/test-utils\.tsx?)$|^e2e\/|\/test\//;

describe('source sizes', () => {
  it(`keeps every source file at ${MAX_LINES} lines or fewer`, () => {
    const files = execFileSync(
      'git',
      ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.tsx', '*.mjs'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    )
      .split('\n')
      .filter((file) => file && !TEST_ONLY.test(file) && !file.startsWith('packages/db/migrations/'));
    expect(files.length).toBeGreaterThan(300);
    const over = files
      .map((file) => ({ file, lines: readFileSync(path.join(ROOT, file), 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(over).toEqual([]);
  });
});
