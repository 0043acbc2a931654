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
  /** The `iss` of every token: `<installationUrl>/idp/<poolId>`, or Cognito's issuer for AWS. */
  issuer: string;
  /**
   * The address the installation names itself by in the tokens it issues (this pool's and the
   * gateway's OAuth tokens): PUBLIC_URL, or this node's own address when it is unset, as recorded
   * at the installation's first start. Every node reads the recorded one, so a token one node
   * issues verifies on every other whatever address each listens on (issue 31).
   */
  installationUrl: string;
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
 * database so tokens and the SPA's configuration stay valid across restarts. The issuer comes
 * from the installation's recorded address, never from the node's own (see `installationUrl`).
 */
export async function resolvePoolSettings(config: Config, db: Database): Promise<PoolSettings> {
  const settings = new AppSettingRepository(db);
  const installationUrl = await settings.readOrCreate('installation.url', () => config.publicUrl);
  const pool = config.identity.mode === 'cognito' ? cognitoPool(config.identity) : await embeddedPool();
  return { ...pool, installationUrl, jwksUrl: `${pool.issuer}/.well-known/jwks.json` };

  async function embeddedPool() {
    const { region } = config.identity;
    const poolId =
      config.identity.poolId ?? (await settings.readOrCreate('idp.pool_id', () => `${region}_${randomId(9)}`));
    const clientId =
      config.identity.clientId ??
      (await settings.readOrCreate('idp.client_id', () => randomId(26, 'abcdefghijklmnopqrstuvwxyz0123456789')));
    return { region, poolId, clientId, issuer: `${installationUrl}/idp/${poolId}`, endpoint: '/idp' };
  }
}

function cognitoPool({ region, poolId, clientId }: { region: string; poolId: string; clientId: string }) {
  return {
    region,
    poolId,
    clientId,
    issuer: `https://cognito-idp.${region}.amazonaws.com/${poolId}`,
    endpoint: undefined,
  };
}
