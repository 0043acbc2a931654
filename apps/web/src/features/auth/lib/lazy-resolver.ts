import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { ZodMiniType } from 'zod/mini';
import { MESSAGES } from '@connect/shared/light';

export type LazyResolver<T extends FieldValues> = Resolver<T> & {
  /** Starts loading the schema now (call it once the user starts typing or pointing). */
  preload: () => void;
};

/**
 * A react-hook-form resolver whose schema — with zod and the zod resolver — loads on first use
 * rather than with the page, so /login renders without a validation library. Validation is
 * asynchronous either way; the first check waits for the download (started earlier by `preload`).
 * Should the download fail, the form reports the generic error and the next attempt retries it.
 */
export function lazyZodResolver<T extends FieldValues>(loadSchema: () => Promise<ZodMiniType<T, T>>): LazyResolver<T> {
  let loading: Promise<Resolver<T>> | undefined;
  const load = () =>
    (loading ??= Promise.all([loadSchema(), import('@hookform/resolvers/zod')]).then(
      ([schema, { zodResolver }]) => zodResolver(schema) as unknown as Resolver<T>,
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const resolver: Resolver<T> = async (values, context, options) => {
    let resolve: Resolver<T>;
    try {
      resolve = await load();
    } catch {
      const errors = { root: { type: 'load', message: MESSAGES.generic } } as FieldErrors<T>;
      return { values: {}, errors };
    }
    return resolve(values, context, options);
  };
  return Object.assign(resolver, { preload: () => void load().catch(() => undefined) });
}
