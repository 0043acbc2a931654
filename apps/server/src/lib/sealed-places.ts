import type { Database } from '@connect/db';
import { AppSettingRepository } from '../repositories/app-settings.ts';
import { PlatformKeyRepository } from '../repositories/platform.ts';

/** A value the installation sealed with SECRET_KEY and opens while it starts (sealed-data.ts). */
export type SealedPlace = {
  /** What it is and where it is kept, e.g. "the QNT deposit seed (platform_keys qnt-deposits:seed)". */
  what: string;
  /** What to do when the key it was sealed with is lost for good. */
  ifLost: string;
  /** Its sealed values (none before the first start that needs it). */
  read: (db: Database) => Promise<string[]>;
};

/** The sealed private key of a platform key (platform_keys), if it has been made. */
export const sealedPlatformKey = (name: string) => async (db: Database) => {
  const row = await new PlatformKeyRepository(db).find(name);
  return row ? [row.sealedPrivateKey] : [];
};

/** A sealed application setting (app_settings), if it has been made. */
export const sealedSetting = (key: string) => async (db: Database) => {
  const value = await new AppSettingRepository(db).find(key);
  return value ? [value] : [];
};
