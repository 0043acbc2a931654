import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { LIMITS } from '@connect/shared';

const ZHealth = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ status: z.enum(['up', 'down']) }),
});
export type THealth = z.infer<typeof ZHealth>;

/**
 * GET /api/health: public, outside the services (so not through the API client, whose bases are
 * `/api/{service}`). It answers 503 with the same body when the database is down; any other
 * failure means the server did not answer.
 */
export async function getHealth(): Promise<THealth> {
  const response = await fetch('/api/health', {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(LIMITS.requestTimeoutMs),
  });
  if (!response.ok && response.status !== 503) throw new Error(`GET /api/health answered ${response.status}`);
  return ZHealth.parse(await response.json());
}

export const getHealthQueryOptions = () =>
  queryOptions({
    queryKey: ['health'],
    queryFn: getHealth,
    staleTime: 30_000,
    refetchInterval: 60_000,
    retry: false,
  });

export function useHealth() {
  return useQuery(getHealthQueryOptions());
}
