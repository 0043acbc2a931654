import type { TRuntimeConfig } from '@connect/shared';
// Checked without zod: this runs before the first screen, which should not wait for a validator.
import { parseRuntimeConfig } from '@connect/shared/light';

let current: TRuntimeConfig | undefined;

/** Loads the server's runtime configuration, so one build runs against any backend. */
export async function loadRuntimeConfig(fetcher: typeof fetch = fetch): Promise<TRuntimeConfig> {
  const response = await fetcher('/runtime-config.json', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`runtime configuration answered ${response.status}`);
  current = parseRuntimeConfig(await response.json());
  return current;
}

/** The configuration loaded at start-up (main.tsx loads it before anything renders). */
export function runtimeConfig(): TRuntimeConfig {
  if (!current) throw new Error('runtime configuration used before it was loaded');
  return current;
}

/** Tests set the configuration directly. */
export function setRuntimeConfig(config: TRuntimeConfig): void {
  current = config;
}
