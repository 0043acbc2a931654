import fc from 'fast-check';

/**
 * Hostile values and request generators for the property-based test of every operation of the
 * OpenAPI document (malformed-input.test.ts): bodies, query strings, headers and path ids built
 * from each operation's JSON Schemas, then broken in one place.
 */

export const NUL = 'a\u0000b';

export type Auth = 'none' | 'user' | 'garbage';
export type Body = { type: string | undefined; text: string };
export type Probe = {
  method: string;
  url: string;
  auth: Auth;
  headers?: Record<string, string>;
  body?: Body;
};

// ---------------------------------------------------------------------------------------------
// Hostile values
// ---------------------------------------------------------------------------------------------

const HUGE = 'x'.repeat(70_000);
const OVER_LIMIT = `{"a":"${'x'.repeat(1_100_000)}"}`;

export const hostileString = fc.oneof(
  // The NUL character first and most often: PostgreSQL cannot store it (issue 11 §3).
  { arbitrary: fc.constantFrom(NUL, '\u0000'), weight: 3 },
  fc.constantFrom('', ' ', '\uFEFF', '\uD800', '%00', '../../etc/passwd', "' or 1=1 --", '<script>'),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'null', 'undefined', 'NaN', '-1', '1e400'),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('x'.repeat(101), 'é'.repeat(3_000), HUGE),
);

const hostileNumber = fc.constantFrom(
  -1,
  0,
  0.5,
  -0,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  -(2 ** 63),
  1e308,
  -1e308,
  5e-324,
);

/** Any value of a kind the field may not expect. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  hostileNumber,
  hostileString,
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

/** Bodies that are not the JSON they claim to be, or not JSON at all. */
export const rawBody: fc.Arbitrary<Body> = fc.oneof(
  fc
    .constantFrom(
      '',
      '{',
      '{"a":',
      '[1,]',
      'nul',
      'null',
      'true',
      '0',
      '"\\u0000"',
      '1e400',
      '{"a":1e400}',
      '{"__proto__":{"polluted":1}}',
      '{"constructor":{"prototype":{"polluted":1}}}',
      '{"a":"\\ud800"}',
      '\uFEFF{}',
      `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
      OVER_LIMIT,
    )
    .map((text) => ({ type: 'application/json', text })),
  fc.string({ unit: 'binary', maxLength: 60 }).map((text) => ({ type: 'application/json', text })),
  fc.constantFrom<Body>(
    { type: 'application/xml', text: '<a>1</a>' },
    { type: 'text/plain', text: NUL },
    { type: 'application/x-www-form-urlencoded', text: 'a=1&b=%00&c=%zz' },
    { type: 'multipart/form-data; boundary=x', text: '--x\r\n' },
    { type: 'application/json; charset=utf-16', text: '{}' },
    { type: 'application/octet-stream', text: '\u0000\u0001' },
    { type: undefined, text: '{}' },
  ),
);

/**
 * Percent-encodes the UTF-8 bytes of any string, lone surrogates included (as U+FFFD, like a
 * browser), where encodeURIComponent would throw.
 */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export const json = (value: unknown): Body => ({ type: 'application/json', text: JSON.stringify(value) ?? 'null' });

/** Sets a key as an own enumerable property, so `__proto__` becomes a key of the JSON text. */
export function withKey(target: unknown, key: string, value: unknown): unknown {
  const copy = target && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {};
  Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
  return copy;
}

// ---------------------------------------------------------------------------------------------
// Generators from the OpenAPI document's JSON Schemas
// ---------------------------------------------------------------------------------------------

export type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
};
export type Parameter = { in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema?: Schema };
export type Operation = {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: Schema;
};

export type OpenApiDocument = {
  paths: Record<
    string,
    Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }>
  >;
  components?: { schemas?: Record<string, Schema> };
};

/** Every operation of the document, with its parameters and JSON body schema. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, spec]) => ({
      method: method.toUpperCase(),
      path,
      parameters: spec.parameters ?? [],
      ...(spec.requestBody?.content?.['application/json']?.schema
        ? { body: spec.requestBody.content['application/json'].schema }
        : {}),
    })),
  );
}

/**
 * The generators of one document: `known.ids` are ids that exist and belong to the ordinary user
 * (or to nobody), so probes reach past "not found"; read when a generator is built, so a suite
 * may fill them in its set-up.
 */
export function documentArbitraries(document: OpenApiDocument, known: { ids: string[] }) {
  const components = document.components?.schemas ?? {};

  function resolve(schema: Schema): Schema {
    if (!schema.$ref) return schema;
    return resolve(components[schema.$ref.split('/').pop()!] ?? {});
  }

  const typeOf = (schema: Schema) => (Array.isArray(schema.type) ? schema.type[0] : schema.type);

  /** A value that roughly satisfies the schema (a starting point for one mutation). */
  function plausible(input: Schema, depth = 0): fc.Arbitrary<unknown> {
    const schema = resolve(input);
    const options = schema.anyOf ?? schema.oneOf;
    if (options?.length) return fc.oneof(...options.map((option) => plausible(option, depth + 1)));
    if (schema.enum?.length) return fc.constantFrom(...schema.enum);
    if ('const' in schema) return fc.constant(schema.const);
    switch (typeOf(schema)) {
      case 'string':
        if (schema.format === 'uuid') return fc.oneof(fc.constantFrom(...known.ids), fc.uuid());
        return fc.string({
          minLength: Math.min(schema.minLength ?? 0, 20),
          maxLength: Math.max(Math.min(schema.maxLength ?? 20, 20), Math.min(schema.minLength ?? 0, 20)),
        });
      case 'integer':
        return fc.integer({ min: Math.max(schema.minimum ?? -1e6, -1e6), max: Math.min(schema.maximum ?? 1e6, 1e6) });
      case 'number':
        return fc.double({
          min: Math.max(schema.minimum ?? -1e6, -1e6),
          max: Math.min(schema.maximum ?? 1e6, 1e6),
          noNaN: true,
        });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        if (depth > 3) return fc.constant([]);
        return fc.array(plausible(schema.items ?? {}, depth + 1), {
          minLength: Math.min(schema.minItems ?? 0, 3),
          maxLength: Math.max(Math.min(schema.maxItems ?? 3, 3), Math.min(schema.minItems ?? 0, 3)),
        });
      case 'object': {
        if (depth > 3 || !schema.properties) return fc.constant({});
        const model = Object.fromEntries(
          Object.entries(schema.properties).map(([key, sub]) => [key, plausible(sub, depth + 1)]),
        );
        return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in model) });
      }
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  /** A value that breaks the schema in one place: wrong type, missing field, hostile string, extra key … */
  function broken(input: Schema, depth = 0): fc.Arbitrary<unknown> {
    const schema = resolve(input);
    const kind = typeOf(schema);
    if (kind === 'object' && schema.properties && depth <= 3) {
      const properties = schema.properties;
      const keys = Object.keys(properties);
      const inOneField = fc.constantFrom(...keys).chain((key) =>
        fc
          .tuple(
            plausible(schema, depth),
            fc.oneof(
              fc.constant({ drop: true as const }),
              wrongValue.map((value) => ({ value })),
              broken(properties[key]!, depth + 1).map((value) => ({ value })),
            ),
          )
          .map(([value, change]) => {
            const copy = { ...(value as object) } as Record<string, unknown>;
            if ('drop' in change) delete copy[key];
            else return withKey(copy, key, change.value);
            return copy;
          }),
      );
      const extraKey = fc
        .tuple(
          plausible(schema, depth),
          fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', NUL, 'x'.repeat(300))),
          wrongValue,
        )
        .map(([value, key, extra]) => withKey(value, key, extra));
      return fc.oneof(
        { arbitrary: inOneField, weight: 5 },
        { arbitrary: extraKey, weight: 2 },
        { arbitrary: plausible(schema, depth).map((value) => [value]), weight: 1 },
        { arbitrary: wrongValue, weight: 1 },
      );
    }
    if (kind === 'array' && depth <= 3) {
      const items = schema.items ?? {};
      return fc.oneof(
        fc.array(broken(items, depth + 1), { minLength: 1, maxLength: 3 }),
        plausible(items, depth + 1).map((item) => Array.from({ length: (schema.maxItems ?? 100) + 1 }, () => item)),
        plausible(items, depth + 1),
        wrongValue,
      );
    }
    return wrongValue;
  }

  const malformedBody = (schema: Schema | undefined): fc.Arbitrary<Body> =>
    schema
      ? fc.oneof({ arbitrary: broken(schema).map(json), weight: 6 }, { arbitrary: rawBody, weight: 2 })
      : fc.oneof(wrongValue.map(json), rawBody);

  /** Path segments: ids that exist, and what a router, a decoder or a database may choke on. */
  const pathValue = (): fc.Arbitrary<string> =>
    fc.oneof(
      { arbitrary: fc.constantFrom(...known.ids), weight: 3 },
      { arbitrary: fc.uuid(), weight: 1 },
      {
        arbitrary: fc.constantFrom(
          '%00',
          'a%00b',
          '%zz',
          '%',
          'x'.repeat(101),
          'x'.repeat(3_000),
          '..',
          '%2e%2e',
          'a%2Fb',
          '%20',
          '-1',
          '0',
          '1e400',
          'null',
          '__proto__',
          '%F0%9F%92%A9',
          '%ED%A0%80',
        ),
        weight: 3,
      },
      { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(percentEncode), weight: 1 },
    );

  /** Query values as they appear on the wire (already percent-encoded). */
  const queryValue = (schema: Schema | undefined): fc.Arbitrary<string> =>
    fc.oneof(
      plausible(schema ?? {}).map((value) => percentEncode(String(value))),
      fc.constantFrom('%00', 'a%00b', '%zz', '%', '', '-1', '1e400', '99999999999999999999999', 'NaN', '0x10', '+1'),
      fc.constantFrom('x'.repeat(5_000), percentEncode('é'.repeat(2_000))),
      fc.string({ unit: 'grapheme', maxLength: 30 }).map(percentEncode),
    );

  function queryOf(parameters: Parameter[]): fc.Arbitrary<string> {
    const names = parameters.filter((p) => p.in === 'query');
    const pair = fc.oneof(
      ...names.map((p) => queryValue(p.schema).map((value) => `${percentEncode(p.name)}=${value}`)),
      queryValue(undefined).map((value) => `unknown=${value}`),
      fc.constantFrom('a[b]=1', '__proto__[x]=1', '=1', '&&', names[0] ? `${names[0].name}` : 'flag'),
    );
    return fc.array(pair, { maxLength: 4 }).map((pairs) => (pairs.length ? `?${pairs.join('&')}` : ''));
  }

  /** A header value the operation declares, hostile but sendable (no control characters). */
  const headerValue = fc.oneof(
    fc.string({ unit: 'grapheme-ascii', maxLength: 40 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
    fc.constant('x'.repeat(5_000)),
  );

  function probesFor(operation: Operation): fc.Arbitrary<Probe> {
    const pathParams = operation.parameters.filter((p) => p.in === 'path');
    const headerParams = operation.parameters.filter((p) => p.in === 'header');
    const hasBody = !['GET', 'HEAD'].includes(operation.method);
    return fc
      .record({
        auth: fc.constantFrom<Auth>('none', 'user', 'user', 'garbage'),
        path: fc.tuple(...pathParams.map(() => pathValue())),
        query: queryOf(operation.parameters),
        headers: fc.tuple(...headerParams.map(() => headerValue)),
        body: hasBody ? malformedBody(operation.body).map((body) => body as Body | undefined) : fc.constant(undefined),
      })
      .map(({ auth, path, query, headers, body }) => {
        let i = 0;
        const url = operation.path.replace(/\{[^}]+\}/g, () => path[i++]!) + query;
        return {
          method: operation.method,
          url,
          auth,
          headers: Object.fromEntries(headerParams.map((p, j) => [p.name, headers[j]!])),
          ...(body ? { body } : {}),
        };
      });
  }

  return { pathValue, probesFor };
}
