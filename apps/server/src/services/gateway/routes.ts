import type { App, Deps } from '../../types.ts';
import { gatewayFastPath } from './fast-path.ts';
import { gatewayRoute } from './gateway-route.ts';
import { GatewayService } from './service.ts';
import { tokenRoute } from './token-route.ts';

/**
 * The platform API that registered applications call (issue 4 §5), served beside the
 * application-manager service: `POST /oauth2/token` (OAuth2 client credentials, RFC 6749 §4.4)
 * and `POST /api/gateway/{networkId}` (JSON-RPC forwarded to the network's RPC endpoint).
 */
export async function platformApiRoutes(app: App, deps: Deps) {
  const service = await GatewayService.create(deps, (error) =>
    app.log.warn({ err: error }, 'gateway usage not recorded'),
  );
  app.addHook('onClose', () => service.close());
  // Each in its own scope: they parse bodies differently.
  await app.register(async (scope) => tokenRoute(scope as App, service));
  await app.register(async (scope) => gatewayRoute(scope as App, service));
  // Requests decided from memory, answered before Fastify's pipeline (fast-path.ts).
  if (service.hasFastPath)
    deps.rawHandlers.push(gatewayFastPath(service.decider, (decision) => service.relay(decision)));
}
