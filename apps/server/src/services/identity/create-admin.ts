import type { Database } from '@connect/db';
import type { IdentityAdmin } from '../../adapters/identity-admin/port.ts';
import type { Mailer } from '../../adapters/mail/port.ts';
import type { Config } from '../../config.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { EmbeddedIdentityAdmin } from './admin.ts';
import type { KeyStore } from './keys.ts';
import type { PoolSettings } from './pool.ts';

export function createIdentityAdmin(input: {
  config: Config;
  db: Database;
  mailer: Mailer;
  pool: PoolSettings;
  box: SecretBox;
  keys: KeyStore | undefined;
}): IdentityAdmin {
  return new EmbeddedIdentityAdmin(input.db) as unknown as IdentityAdmin;
}
