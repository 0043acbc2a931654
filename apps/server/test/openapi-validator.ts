import { createRequire } from 'node:module';

/**
 * Validates values against the JSON Schemas of an OpenAPI 3.1 document (JSON Schema 2020-12),
 * with the document's `$ref`s resolved where they point: the document is one schema resource
 * and each schema is compiled by its JSON pointer.
 *
 * The validator is Ajv 8, the one Fastify itself compiles schemas with (through
 * @fastify/ajv-compiler): the project declares no JSON Schema validator of its own, and the
 * `ajv` at the top of node_modules is ESLint's Ajv 6, which knows no 2020-12.
 */

type Validate = ((data: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null };
type Ajv = {
  addSchema: (schema: object, key: string) => Ajv;
  compile: (schema: object) => Validate;
};
type AjvClass = new (options: object) => Ajv;

const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
const fromCompiler = createRequire(fromFastify.resolve('@fastify/ajv-compiler'));
const Ajv2020 = (fromCompiler('ajv/dist/2020') as { default: AjvClass }).default;
const addFormats = (fromCompiler('ajv-formats') as { default: (ajv: Ajv) => Ajv }).default;

const DOCUMENT_ID = 'urn:connect:openapi';

/** `/api/x/{id}` → `~1api~1x~1%7Bid%7D`: one step of a JSON pointer inside a URI fragment. */
const step = (segment: string) => encodeURIComponent(segment.replaceAll('~', '~0').replaceAll('/', '~1'));

export type SchemaCheck = (path: string[], value: unknown) => string[];

/** A function that checks a value against the schema at `path` in the document; answers the errors. */
export function documentValidator(document: object): SchemaCheck {
  // Not strict: OpenAPI allows annotations (`example`, `x-…`) JSON Schema does not define.
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, logger: false }));
  ajv.addSchema(document, DOCUMENT_ID);
  const compiled = new Map<string, Validate>();
  return (path, value) => {
    const ref = `${DOCUMENT_ID}#/${path.map(step).join('/')}`;
    let validate = compiled.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      compiled.set(ref, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`);
  };
}
