/**
 * The document's reusable schemas, tidied for a reader and a client generator.
 *
 * fastify-type-provider-zod emits every zod schema registered with an id twice: `X`, as the
 * server answers it (zod's output), and `XInput`, as a caller sends it (zod's input; a field with
 * a default is optional there). For almost every schema the two are the same, so `XInput` is
 * folded into `X` whenever it says the same thing — down to the schemas it references — and a
 * schema no operation reaches is left out.
 */

const REF = '#/components/schemas/';

type Document = { paths?: unknown; components?: { schemas?: Record<string, unknown> } };

/** Every `$ref` value found in a JSON value. */
function refsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith(REF)) found.add(child.slice(REF.length));
      else refsIn(child, found);
    }
  }
  return found;
}

/** A copy of a JSON value with its component references renamed. */
function renameRefs<T>(value: T, rename: (id: string) => string): T {
  return JSON.parse(
    JSON.stringify(value, (key, child: unknown) =>
      key === '$ref' && typeof child === 'string' && child.startsWith(REF)
        ? `${REF}${rename(child.slice(REF.length))}`
        : child,
    ),
  ) as T;
}

export function tidyComponents<T extends Document>(document: T): T {
  const schemas = document.components?.schemas ?? {};
  const inputOf = (id: string) => `${id}Input`;
  const paired = new Set(Object.keys(schemas).filter((id) => inputOf(id) in schemas));
  const withoutSuffix = (id: string) => {
    const base = id.replace(/Input$/, '');
    return id !== base && paired.has(base) ? base : id;
  };
  const sameText = (id: string) =>
    JSON.stringify(renameRefs(schemas[id], withoutSuffix)) ===
    JSON.stringify(renameRefs(schemas[inputOf(id)], withoutSuffix));

  // Folded when the two read the same and every input schema they reference folds as well.
  const folded = new Set([...paired].filter(sameText));
  for (let changed = true; changed;) {
    changed = false;
    for (const id of folded) {
      const keepsInput = [...refsIn(schemas[inputOf(id)])].some(
        (ref) => paired.has(withoutSuffix(ref)) && !folded.has(withoutSuffix(ref)),
      );
      if (keepsInput) {
        folded.delete(id);
        changed = true;
      }
    }
  }
  const fold = (id: string) => (folded.has(withoutSuffix(id)) ? withoutSuffix(id) : id);
  const all = renameRefs(schemas, fold);

  // Only what the operations reach, directly or through another schema.
  const reached = new Set<string>();
  const pending = [...refsIn(renameRefs(document.paths ?? {}, fold))];
  while (pending.length) {
    const id = pending.pop()!;
    if (reached.has(id) || !(id in all)) continue;
    reached.add(id);
    pending.push(...refsIn(all[id]));
  }
  // A schema only ever sent (a request body) keeps its plain name.
  const name = (id: string) => {
    const named = fold(id);
    const base = withoutSuffix(named);
    return base !== named && !reached.has(base) ? base : named;
  };
  const kept = Object.fromEntries(
    [...reached].map((id) => [name(id), renameRefs(all[id], name)] as const).sort(([a], [b]) => a.localeCompare(b)),
  );
  const tidied = renameRefs(document, name);
  return { ...tidied, components: { ...tidied.components, schemas: kept } };
}
