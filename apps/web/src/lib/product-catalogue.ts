import type { z } from 'zod';
import { LIMITS, MESSAGES } from '@connect/shared/light';
import { ApiError } from './api-client.ts';
import { runtimeConfig } from './runtime-config.ts';

/** `Basic` credentials of RFC 7617, the user name and password as UTF-8. */
export function basicAuthorization(username: string, password: string): string {
  const bytes = new TextEncoder().encode(`${username}:${password}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

/**
 * One file of the product catalogue (spec §7): `GET /jsons/{name}.json?v={version}` on the
 * site's own origin, with the basic-authentication credentials of the runtime configuration.
 * Those credentials reach every browser, so they protect nothing: the catalogue's content is
 * public-safe (docs/decisions/shell-and-web.md "The product catalogue"). Not through the API's
 * request layer: no access token goes with it, and a refusal here never ends the session.
 */
export async function fetchCatalogue<T>(
  name: string,
  schema: z.ZodType<T>,
  options: { signal?: AbortSignal; fetch?: typeof fetch } = {},
): Promise<T> {
  const { productCatalogue, version } = runtimeConfig();
  const timeout = AbortSignal.timeout(LIMITS.requestTimeoutMs);
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(`/jsons/${encodeURIComponent(name)}.json?v=${encodeURIComponent(version)}`, {
      headers: {
        accept: 'application/json',
        authorization: basicAuthorization(productCatalogue.username, productCatalogue.password),
      },
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, { detail: MESSAGES.generic });
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw new ApiError(response.status, body);
  return schema.parse(body);
}
