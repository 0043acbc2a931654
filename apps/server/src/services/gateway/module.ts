import { sealedSetting } from '../../lib/sealed-places.ts';
import type { ServiceModule } from '../../modules.ts';
import { ACCESS_TOKEN_KEY_SETTING } from './repository.ts';
import { platformApiRoutes } from './routes.ts';

/**
 * The platform API that applications call (/oauth2/token, /api/gateway/{networkId}): served
 * beside the application-manager service, on a node that serves it. Its usage flush (a timer of
 * the gateway service) starts with its routes and stops when the app closes.
 */
export const gatewayModule: ServiceModule = {
  name: 'gateway',
  scopes: [
    { prefix: '', when: (config) => config.services.includes('application-manager'), plugin: platformApiRoutes },
  ],
  sealed: [
    {
      what: `the platform API's access-token key (app_settings ${ACCESS_TOKEN_KEY_SETTING})`,
      ifLost: "delete its row; the next start makes a new one and applications' current access tokens stop working",
      read: sealedSetting(ACCESS_TOKEN_KEY_SETTING),
    },
  ],
  codes: [
    'GATEWAY_TOKEN_REQUIRED',
    'GATEWAY_TOKEN_INVALID',
    'GATEWAY_SECRET_REVOKED',
    'GATEWAY_NETWORK_UNKNOWN',
    'GATEWAY_NETWORK_NOT_ASSOCIATED',
    'GATEWAY_NETWORK_INACTIVE',
    'GATEWAY_NO_RPC_ENDPOINT',
    'GATEWAY_INVALID_RPC',
    'GATEWAY_BATCH_TOO_LARGE',
    'GATEWAY_RATE_LIMITED',
    'GATEWAY_SPENDING_CAP_REACHED',
    'UPSTREAM_TIMEOUT',
    'UPSTREAM_TOO_LARGE',
    'UPSTREAM_UNREACHABLE',
    'UPSTREAM_NO_BLOCK_NUMBER',
  ],
};
