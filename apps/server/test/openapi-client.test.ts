import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { isJson, recordEveryOperation, type Recording } from './openapi-recordings.ts';

/**
 * Issue 12 §2: a client generated from the OpenAPI document type-checks against the real
 * answers. The test generates the document's types with openapi-typescript (into a temporary
 * directory, each run: nothing generated is committed, so nothing can go stale), writes every
 * recorded call (openapi-recordings.ts) as TypeScript — the request through a typed client
 * call (path parameters and JSON body), the answer as a value of the type the client gives for
 * that operation, status and media type — and runs `tsc --noEmit` on it. An answer with a field
 * the document does not name, a missing required field, a value outside an enum or a status the
 * document does not list is a type error, reported with the call it came from.
 */

type Document = {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
};

const recorded = await recordEveryOperation();
const document = recorded.document as unknown as Document;
const tsc = createRequire(import.meta.url).resolve('typescript/lib/tsc.js');

/** The response key a client uses for a status: itself, its range (`4XX`) or `default`. */
function responseKey(responses: Record<string, unknown>, status: number): string {
  return [String(status), `${String(status)[0]}XX`, 'default'].find((key) => key in responses) ?? String(status);
}

/** Path parameters of a URL, by the names in the document's path (`/application/{id}`). */
function pathParameters(template: string, url: string): Record<string, string> {
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '([^/?]+)').replaceAll('.', '\\.')}(?:\\?|$)`);
  const values = pattern.exec(url)?.slice(1) ?? [];
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(values[i] ?? '')]));
}

const literal = (value: unknown) => JSON.stringify(value, null, 2);

/** tsc's errors, each with the call it came from (the comment above it in answers.ts). */
function explain(output: string, source: string): string[] {
  const lines = source.split('\n');
  return output
    .split('\n')
    .filter((line) => line.includes('error TS'))
    .map((error) => {
      const at = Number(/answers\.ts\((\d+),/.exec(error)?.[1] ?? 0);
      const call = lines.slice(0, at).findLast((line) => line.startsWith('// '));
      return `${call ?? ''}\n  ${error}`;
    });
}

/** One recorded call as TypeScript: the typed request, then the answer as the client's type for it. */
function callSource(recording: Recording, index: number): string {
  const [method, template] = recording.operation.split(' ') as [string, string];
  const operation = document.paths[template]?.[method.toLowerCase()];
  if (!operation) return `// ${recording.operation}: not in the document\n`;
  const id = JSON.stringify(operation.operationId);
  const status = responseKey(operation.responses, recording.status);
  const statusKey = /^\d+$/.test(status) ? status : JSON.stringify(status);
  const params = pathParameters(template, recording.request.url);
  const request = [
    ...(Object.keys(params).length ? [`path: ${literal(params)}`] : []),
    // A body the script sends to be refused as invalid is not one a typed client would send.
    ...(recording.request.body !== undefined && recording.expected !== 400
      ? [`body: ${literal(recording.request.body)}`]
      : []),
  ];
  const lines = [
    `// ${recording.request.method} ${recording.request.url} → ${recording.status}`,
    `call(${id}, { ${request.join(', ')} });`,
    `export type Status${index} = Responses<${id}>[${statusKey}];`,
  ];
  if (isJson(recording.mediaType)) {
    lines.push(
      `export const answer${index}: Answer<${id}, ${statusKey}, ${JSON.stringify(recording.mediaType)}> = ${literal(recording.body)};`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const PRELUDE = `import type { operations } from './api.ts';

type Op = keyof operations;
type Responses<O extends Op> = operations[O]['responses'];
/** What a generated client hands its caller for an answer of this status and media type. */
type Answer<O extends Op, S extends keyof Responses<O>, M extends string> = Responses<O>[S] extends { content: infer C }
  ? M extends keyof C
    ? C[M]
    : never
  : never;
type Body<O extends Op> =
  NonNullable<operations[O]['requestBody']> extends { content: { 'application/json': infer B } } ? B : never;
type PathParameters<O extends Op> = operations[O]['parameters']['path'];

/** The shape of a generated client's call: the request typed by the document. */
declare function call<O extends Op>(operationId: O, request: { path?: PathParameters<O>; body?: Body<O> }): void;

`;

describe('a client generated from the OpenAPI document', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'connect-openapi-client-'));
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await recorded.close();
  });

  it('type-checks every recorded request and answer', async () => {
    // A request may leave out a field with a default (the server fills it in); openapi-typescript
    // would otherwise make such fields required everywhere (its defaultNonNullable).
    const generated = await openapiTS(recorded.document as unknown as OpenAPI3, {
      silent: true,
      defaultNonNullable: false,
    });
    const types = astToString(generated);
    writeFileSync(path.join(dir, 'api.ts'), types);
    const source = `${PRELUDE}${recorded.recordings.map(callSource).join('\n')}`;
    writeFileSync(path.join(dir, 'answers.ts'), source);
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noUncheckedIndexedAccess: true,
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          allowImportingTsExtensions: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['answers.ts'],
      }),
    );
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', dir, '--pretty', 'false']).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(explain(result, source)).toEqual([]);
    expect(result).toBe('');
  });
});
