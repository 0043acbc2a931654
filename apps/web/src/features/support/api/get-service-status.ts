import { queryOptions, useQueries } from '@tanstack/react-query';
import { z } from 'zod';
import type { ServiceName } from '@connect/shared';
import { api } from '../../../lib/api.ts';

const ZServiceStatus = z.object({ service: z.string(), status: z.literal('up'), version: z.string() });
export type TServiceStatus = z.infer<typeof ZServiceStatus>;

const CLIENTS = {
  connect: api.connect,
  integrate: api.integrate,
  'account-plan': api.accountPlan,
  'application-manager': api.applicationManager,
  tokenise: api.tokenise,
  bridge: api.bridge,
  payment: api.payment,
  campaign: api.campaign,
} satisfies Record<ServiceName, unknown>;

/** GET /api/{service}/status: public; answers only when the service is served and healthy. */
export function getServiceStatus(service: ServiceName): Promise<TServiceStatus> {
  return CLIENTS[service].get('/status', { anonymous: true, schema: ZServiceStatus });
}

export const getServiceStatusQueryOptions = (service: ServiceName) =>
  queryOptions({
    queryKey: ['status', service],
    queryFn: () => getServiceStatus(service),
    staleTime: 30_000,
    refetchInterval: 60_000,
    retry: false,
  });

export function useServiceStatuses(services: readonly ServiceName[]) {
  return useQueries({ queries: services.map((service) => getServiceStatusQueryOptions(service)) });
}
