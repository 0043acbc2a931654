import type { ServiceModule } from '../../modules.ts';
import { identityRoutes } from './routes.ts';

/**
 * The embedded identity pool (a Cognito-compatible user pool): not a service of SERVICES but a
 * part of the platform, served at /idp where the pool is embedded (with AWS Cognito, nothing).
 * Its settings and keys, which the platform verifies tokens with, are lib/pool-settings.ts and
 * lib/pool-keys.ts.
 */
export const identityModule: ServiceModule = {
  name: 'identity',
  scopes: [{ prefix: '/idp', when: (config) => config.identity.mode === 'embedded', plugin: identityRoutes }],
};
