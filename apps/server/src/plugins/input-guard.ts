import fp from 'fastify-plugin';

/** What the API answers for a string with a NUL character, in every place it is refused. */
export const NUL_REASON = 'Must not contain the NUL character (U+0000).';

/** One refused value, shaped as Fastify's validation issues so every error handler reads it as one. */
type Issue = { instancePath: string; message: string };

/**
 * A request refused by the input guard: Fastify's validation-error shape (`statusCode`,
 * `validation`, `validationContext`), so the problem plugin answers 400 with `invalidParams` and
 * the identity pool's handler InvalidParameterException, exactly as for a schema's refusal.
 */
export class InvalidInputError extends Error {
  readonly statusCode = 400;
  readonly code = 'FST_ERR_VALIDATION';
  constructor(
    readonly validation: Issue[],
    readonly validationContext: 'body' | 'querystring' | 'params',
  ) {
    super(validation[0]?.message ?? 'The request is invalid.');
    this.name = 'InvalidInputError';
  }
}

/** A body full of NULs is named by its first few. */
const MAX_ISSUES = 10;

/** Where a value sits: its key and its parent's place (a linked list, so no path is copied per value). */
type Place = { key: string | number; parent: Place } | null;

/** `/a/0/b` for a value's place, with a NUL shown as `\u0000` so a refused key can be named. */
function pointer(place: Place): string {
  const parts: string[] = [];
  for (let at = place; at; at = at.parent) parts.push(`/${String(at.key).replaceAll('\u0000', '\\u0000')}`);
  return parts.reverse().join('');
}

/**
 * The places in a parsed value (JSON, form, query string, path params) where a string — a value
 * or an object's key — holds a NUL (the first MAX_ISSUES of them). Iterative, so a deeply nested body cannot overflow the stack;
 * a Buffer (a body a route keeps raw, like the gateway's) is not walked.
 */
export function nulBytesIn(value: unknown): Issue[] {
  const issues: Issue[] = [];
  const stack: [unknown, Place][] = [[value, null]];
  while (stack.length && issues.length < MAX_ISSUES) {
    const [current, place] = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) issues.push({ instancePath: pointer(place), message: NUL_REASON });
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], { key: i, parent: place }]);
    } else if (current && typeof current === 'object' && !Buffer.isBuffer(current)) {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        const at = { key, parent: place };
        if (key.includes('\u0000')) issues.push({ instancePath: pointer(at), message: NUL_REASON });
        else stack.push([item, at]);
      }
    }
  }
  return issues;
}

/**
 * The one place that refuses a NUL character in what a request sends (issue 11 §3). PostgreSQL's
 * text and jsonb cannot hold U+0000 (`invalid byte sequence for encoding "UTF8": 0x00`), so a NUL
 * that reached a statement was a 500. A hook on every route — rather than a refinement in each
 * schema — cannot be forgotten by a new route, and also covers the routes whose bodies have no
 * schema (/oauth2/token, /idp). It runs at preValidation: after Fastify has parsed the body, query
 * string and path, before any schema or handler sees them. Headers are not walked: none is
 * stored, and Node refuses a raw NUL in one. The gateway's raw-forwarded JSON-RPC body is a
 * Buffer and is not walked (it is never stored); its path is.
 */
export const inputGuardPlugin = fp(
  async (app) => {
    // Callback-style: an async hook costs a promise and a microtask on every request.
    app.addHook('preValidation', (request, _reply, done) => {
      for (const [context, value] of [
        ['params', request.params],
        ['querystring', request.query],
        ['body', request.body],
      ] as const) {
        const issues = nulBytesIn(value);
        if (issues.length) return done(new InvalidInputError(issues, context));
      }
      done();
    });
  },
  { name: 'input-guard' },
);
