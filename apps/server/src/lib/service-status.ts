import { z } from 'zod';
import type { ServiceName } from '@connect/shared';
import type { App } from '../types.ts';

/**
 * `GET /api/{service}/status`: lets a load balancer or the SPA see which services this process
 * serves, once services are split into separate processes with SERVICES=...
 */
export function serviceStatusRoute(app: App, service: ServiceName, version: string) {
  app.get(
    '/status',
    {
      config: { access: 'public' },
      schema: {
        tags: [service],
        summary: `Whether the ${service} service is served by this process`,
        response: { 200: z.object({ service: z.string(), status: z.literal('up'), version: z.string() }) },
      },
    },
    async () => ({ service, status: 'up' as const, version }),
  );
}
