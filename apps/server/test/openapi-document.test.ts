import { afterAll, describe, expect, it } from 'vitest';
import { recordEveryOperation, needsToken, type Recording } from './openapi-recordings.ts';
import { documentValidator } from './openapi-validator.ts';

/**
 * Issue 12 §2: the OpenAPI document (/api/docs/json) holds against real answers. Every operation
 * of the document is called at least once (openapi-recordings.ts: a success, and without its
 * token a 401); each answer's status must be documented (itself, its range or `default`), its
 * media type listed for that status, its body valid against that schema (with the document's
 * components) and its documented headers valid. An operation without a recorded answer fails.
 */

type Media = { schema?: object };
type Response = { description: string; content?: Record<string, Media>; headers?: Record<string, { schema?: object }> };
type Operation = {
  operationId?: string;
  security?: Record<string, string[]>[];
  requestBody?: { content?: Record<string, Media> };
  responses: Record<string, Response>;
};
type Document = { paths: Record<string, Record<string, Operation>> };

const recorded = await recordEveryOperation();
const document = recorded.document as unknown as Document;
const check = documentValidator(document);

const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({
    key: `${method.toUpperCase()} ${path}`,
    path,
    method,
    operation,
  })),
);

const clip = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** Where the document describes a status: itself, its range (`4XX`) or `default`. */
function documented(responses: Record<string, Response>, status: number): [string, Response] | undefined {
  for (const key of [String(status), `${String(status)[0]}XX`, 'default']) {
    if (responses[key]) return [key, responses[key]];
  }
  return undefined;
}

/** What in one answer the document does not say. */
function mismatches(path: string, method: string, operation: Operation, recording: Recording): string[] {
  const where = `${recording.request.url} answered ${recording.status}`;
  const found = documented(operation.responses, recording.status);
  if (!found) return [`${where}: not documented (documented: ${Object.keys(operation.responses).join(', ')})`];
  const [status, response] = found;
  const at = ['paths', path, method, 'responses', status];
  const problems: string[] = [];
  const types = Object.keys(response.content ?? {});
  if (recording.mediaType === undefined) {
    if (types.length) problems.push(`${where} with no body; the document gives ${types.join(', ')}`);
  } else if (!response.content?.[recording.mediaType]) {
    problems.push(`${where} ${recording.mediaType}; the document gives ${types.join(', ') || 'no body'}`);
  } else if (response.content[recording.mediaType]!.schema) {
    const errors = check([...at, 'content', recording.mediaType, 'schema'], recording.body);
    if (errors.length) problems.push(`${where}: ${errors.join('; ')} in ${clip(JSON.stringify(recording.body))}`);
  }
  // The request too, unless the script sent it to be refused as invalid.
  if (recording.request.body !== undefined && recording.expected !== 400) {
    const sent = `${recording.request.url} sent ${clip(JSON.stringify(recording.request.body))}`;
    if (!operation.requestBody?.content?.['application/json']?.schema) {
      problems.push(`${sent}: the document describes no JSON body`);
    } else {
      const errors = check(
        [...at.slice(0, 3), 'requestBody', 'content', 'application/json', 'schema'],
        recording.request.body,
      );
      if (errors.length) problems.push(`${sent}: ${errors.join('; ')}`);
    }
  }
  // The point of a documented Retry-After: a client can count on it.
  if (recording.status === 429 && response.headers?.['Retry-After'] && recording.headers['retry-after'] === undefined) {
    problems.push(`${where} without the Retry-After header the document promises`);
  }
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    const value = recording.headers[name.toLowerCase()];
    if (value === undefined || !header.schema) continue;
    const text = String(value);
    const typed = /^-?\d+$/.test(text) ? Number(text) : text;
    const errors = check([...at, 'headers', name, 'schema'], typed);
    if (errors.length) problems.push(`${where}: header ${name}: ${text}: ${errors.join('; ')}`);
  }
  return problems;
}

describe('the OpenAPI document against recorded answers of every operation', () => {
  afterAll(() => recorded.close());

  it('records what its script says: each call answered the status it expects', () => {
    const unexpected = recorded.recordings
      .filter((r) => r.status !== r.expected)
      .map(
        (r) => `${r.request.method} ${r.request.url}: ${r.status}, not ${r.expected}: ${clip(JSON.stringify(r.body))}`,
      );
    expect(unexpected).toEqual([]);
  });

  it('records only operations of the document, each at a URL of its path', () => {
    const keys = new Set(operations.map((op) => op.key));
    const strays = recorded.recordings.filter((r) => {
      const [, path] = r.operation.split(' ');
      const pattern = new RegExp(`^${path!.replace(/\{[^}]+\}/g, '[^/?]+').replaceAll('.', '\\.')}(\\?|$)`);
      return !keys.has(r.operation) || !pattern.test(r.request.url);
    });
    expect(strays.map((r) => `${r.operation}: ${r.request.url}`)).toEqual([]);
  });

  for (const { key, path, method, operation } of operations) {
    it(`${key} answers as documented`, () => {
      const answers = recorded.recordings.filter((r) => r.operation === key);
      expect(answers.length, `${key} has no recorded answer`).toBeGreaterThan(0);
      expect(
        answers.some((r) => r.status < 300),
        `${key} has no recorded success`,
      ).toBe(true);
      if (needsToken(operation)) {
        expect(
          answers.some((r) => r.status === 401),
          `${key} has no recorded 401 without its token`,
        ).toBe(true);
      }
      expect(answers.flatMap((r) => mismatches(path, method, operation, r))).toEqual([]);
    });
  }
});
