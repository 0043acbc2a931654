import { randomBytes } from 'node:crypto';
import type { Database } from '@connect/db';
import type { Config } from '../config.ts';
import { AppSettingRepository } from '../repositories/app-settings.ts';

/**
 * How long the embedded pool's access tokens live (services/identity signs them; the platform's
 * session revocations keep a sign-out that long).
 */
export const ACCESS_JWT_SECONDS = 3600;

/** The identity pool the API trusts: the embedded pool's (services/identity serves it) or AWS Cognito's. */
export type PoolSettings = {
  region: string;
  poolId: string;
  clientId: string;
  /** The `iss` of every token: `<PUBLIC_URL>/idp/<poolId>`, or Cognito's issuer for AWS. */
  issuer: string;
  /**
   * Where the SPA's Amplify sends the wire protocol (absent for AWS Cognito): a path on the origin
   * the portal was opened at, so it works at any host name, not only PUBLIC_URL's.
   */
  endpoint: string | undefined;
  jwksUrl: string;
};

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function randomId(length: number, alphabet = ALPHANUMERIC): string {
  const bytes = randomBytes(length);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

/**
 * Pool id and app client id: from configuration, else generated on first start and kept in the
 * database so tokens and the SPA's configuration stay valid across restarts.
 */
export async function resolvePoolSettings(config: Config, db: Database): Promise<PoolSettings> {
  if (config.identity.mode === 'cognito') {
    const { region, poolId, clientId } = config.identity;
    const issuer = `https://cognito-idp.${region}.amazonaws.com/${poolId}`;
    return { region, poolId, clientId, issuer, endpoint: undefined, jwksUrl: `${issuer}/.well-known/jwks.json` };
  }
  const region = config.identity.region;
  const settings = new AppSettingRepository(db);
  const poolId =
    config.identity.poolId ?? (await settings.readOrCreate('idp.pool_id', () => `${region}_${randomId(9)}`));
  const clientId =
    config.identity.clientId ??
    (await settings.readOrCreate('idp.client_id', () => randomId(26, 'abcdefghijklmnopqrstuvwxyz0123456789')));
  const issuer = `${config.publicUrl}/idp/${poolId}`;
  return {
    region,
    poolId,
    clientId,
    issuer,
    endpoint: '/idp',
    jwksUrl: `${issuer}/.well-known/jwks.json`,
  };
}
