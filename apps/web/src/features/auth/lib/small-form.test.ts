import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import { MESSAGES } from '@connect/shared/light';
import { lazyValidator } from './small-form.ts';

type Values = { email: string; name: string };
const schema = z.object({
  email: z.string().check(z.trim(), z.toLowerCase(), z.minLength(1, { message: 'Required.' })),
  name: z.string().check(z.minLength(1, { message: 'Required.' })),
});

// The login form's own behaviour (when fields are checked, focus, submitting) is tested through
// the page in pages/login.test.tsx.
describe('lazyValidator', () => {
  it('loads the schema once, on first use, and gives each field its first problem', async () => {
    const load = vi.fn(async () => schema);
    const validate = lazyValidator<Values>(load);
    expect(load).not.toHaveBeenCalled();

    expect(await validate({ email: '', name: '' })).toEqual({
      errors: { email: { message: 'Required.' }, name: { message: 'Required.' } },
    });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('gives the parsed values when there is no problem', async () => {
    const validate = lazyValidator<Values>(async () => schema);
    expect(await validate({ email: ' Alice@Example.com ', name: 'Alice' })).toEqual({
      errors: {},
      data: { email: 'alice@example.com', name: 'Alice' },
    });
  });

  it('starts loading on preload, before any validation', async () => {
    const load = vi.fn(async () => schema);
    const validate = lazyValidator<Values>(load);
    validate.preload();
    validate.preload();
    expect(load).toHaveBeenCalledTimes(1);
    await validate({ email: 'a@b.io', name: 'x' });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('reports the generic error when the schema cannot be loaded, and tries again next time', async () => {
    const load = vi.fn<() => Promise<typeof schema>>().mockRejectedValueOnce(new Error('offline'));
    load.mockResolvedValue(schema);
    const validate = lazyValidator<Values>(load);

    expect(await validate({ email: 'a@b.io', name: 'x' })).toEqual({ errors: { root: { message: MESSAGES.generic } } });
    expect(await validate({ email: 'a@b.io', name: 'x' })).toEqual({
      errors: {},
      data: { email: 'a@b.io', name: 'x' },
    });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
