import type { Database } from '@connect/db';
import type { Config } from '../../config.ts';
import type { SessionRevocations } from '../../lib/session-revocations.ts';
import type { Mailer } from '../mail/port.ts';
import { CognitoIdentityAdmin } from './cognito.ts';
import { EmbeddedIdentityAdmin } from './embedded.ts';
import type { IdentityAdmin } from './port.ts';

/** The pool's administration: AWS Cognito when configured, otherwise the embedded pool's tables. */
export function createIdentityAdmin(input: {
  config: Config;
  db: Database;
  mailer: Mailer;
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
