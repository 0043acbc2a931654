import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * Reading the server's own source for the architecture tests (service-graph.test.ts,
 * table-owners.test.ts): which files there are, what each imports, and how a path maps to its
 * service. Source text only — nothing is loaded or run.
 */

/** apps/server/src, absolute. */
export const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

/** A file's path from apps/server/src, with forward slashes (`services/payment/index.ts`). */
export function fromSrc(file: string): string {
  return path.relative(SRC, file).split(path.sep).join('/');
}

/** Files kept for tests only: test files, and the helpers tests import (testing.ts, test-support.ts). */
export function isTestOnly(file: string): boolean {
  const name = path.basename(file);
  return /\.test\.tsx?$/.test(name) || name === 'testing.ts' || name === 'test-support.ts';
}

/** Every non-test TypeScript file under `dir` (absolute paths, sorted). */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !isTestOnly(file))
    .sort();
}

/** The service a file of apps/server/src belongs to (`services/<name>/…`), or null. */
export function serviceOf(file: string): string | null {
  const match = /^services\/([^/]+)\//.exec(fromSrc(file));
  return match ? match[1]! : null;
}

/**
 * Every module `file` imports, resolved to an absolute path when relative: static imports and
 * re-exports, type-only ones included (`import type`, `export type … from`), and dynamic
 * `import()`. Package imports answer their specifier as it is.
 */
export function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles.map(({ fileName }) =>
    fileName.startsWith('.') ? path.resolve(path.dirname(file), fileName) : fileName,
  );
}

/** The parsed source of `file`. */
export function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}
