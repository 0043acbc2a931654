import type { Database } from '@connect/db';
import { CognitoIdentityAdmin } from '../../adapters/identity-admin/cognito.ts';
import type { IdentityAdmin } from '../../adapters/identity-admin/port.ts';
import type { Mailer } from '../../adapters/mail/port.ts';
import type { Config } from '../../config.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { SessionRevocations } from '../../lib/session-revocations.ts';
import { EmbeddedIdentityAdmin } from './admin.ts';
import type { KeyStore } from './keys.ts';
import type { PoolSettings } from './pool.ts';

/** The pool's administration: AWS Cognito when configured, otherwise the embedded pool's tables. */
export function createIdentityAdmin(input: {
  config: Config;
  db: Database;
  mailer: Mailer;
  pool: PoolSettings;
  box: SecretBox;
  keys: KeyStore | undefined;
  revocations: SessionRevocations;
}): IdentityAdmin {
  const { config } = input;
  if (config.identity.mode === 'cognito') {
    return new CognitoIdentityAdmin({
      region: config.identity.region,
      poolId: config.identity.poolId,
      revocations: input.revocations,
    });
  }
  return new EmbeddedIdentityAdmin({
    db: input.db,
    mailer: input.mailer,
    revocations: input.revocations,
    product: { productName: config.productName, publicUrl: config.publicUrl },
  });
}
