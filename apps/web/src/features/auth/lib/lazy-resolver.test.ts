import type { ResolverOptions } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import { MESSAGES } from '@connect/shared/light';
import { lazyZodResolver } from './lazy-resolver.ts';

type Values = { email: string };
const schema = z.object({ email: z.string().check(z.minLength(1, { message: 'Required.' })) });
const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<Values>;

describe('lazyZodResolver', () => {
  it('loads the schema once, on first use, and validates with it', async () => {
    const load = vi.fn(async () => schema);
    const resolver = lazyZodResolver<Values>(load);
    expect(load).not.toHaveBeenCalled();

    const invalid = await resolver({ email: '' }, undefined, options);
    expect(invalid.errors).toMatchObject({ email: { message: 'Required.' } });
    const valid = await resolver({ email: 'a@b.io' }, undefined, options);
    expect(valid).toEqual({ values: { email: 'a@b.io' }, errors: {} });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('starts loading on preload, before any validation', async () => {
    const load = vi.fn(async () => schema);
    const resolver = lazyZodResolver<Values>(load);
    resolver.preload();
    resolver.preload();
    expect(load).toHaveBeenCalledTimes(1);
    await resolver({ email: 'x' }, undefined, options);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('reports the generic error when the schema cannot be loaded, and tries again next time', async () => {
    const load = vi.fn<() => Promise<typeof schema>>().mockRejectedValueOnce(new Error('offline'));
    load.mockResolvedValue(schema);
    const resolver = lazyZodResolver<Values>(load);

    const failed = await resolver({ email: 'x' }, undefined, options);
    expect(failed).toEqual({ values: {}, errors: { root: { type: 'load', message: MESSAGES.generic } } });
    const retried = await resolver({ email: 'x' }, undefined, options);
    expect(retried).toEqual({ values: { email: 'x' }, errors: {} });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
