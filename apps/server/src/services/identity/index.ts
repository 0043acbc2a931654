/**
 * What the rest of the server may use of the embedded identity pool: its routes (mounted at /idp),
 * its settings and signing keys (read at start-up), and how long its access tokens live.
 */
export { ACCESS_JWT_SECONDS } from './jwts.ts';
export { KeyStore } from '../../lib/pool-keys.ts';
export { resolvePoolSettings, type PoolSettings } from '../../lib/pool-settings.ts';
export { identityRoutes } from './routes.ts';
