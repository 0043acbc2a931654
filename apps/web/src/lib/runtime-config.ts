import { ZRuntimeConfig, type TRuntimeConfig } from '@connect/shared';

/** Loads the server's runtime configuration, so one build runs against any backend. */
export async function loadRuntimeConfig(fetcher: typeof fetch = fetch): Promise<TRuntimeConfig> {
  const response = await fetcher('/runtime-config.json', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`runtime configuration answered ${response.status}`);
  return ZRuntimeConfig.parse(await response.json());
}
