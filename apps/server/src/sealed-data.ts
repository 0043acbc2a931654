import type { Database } from '@connect/db';
import { SANDBOX_WEBHOOK_SECRET_SETTING } from './adapters/cards/create-gateway.ts';
import { LOCAL_DEPLOYER_KEY } from './adapters/chains/platform-deployer.ts';
import { sealedPlatformKey, sealedSetting, type SealedPlace } from './lib/sealed-places.ts';
import type { SecretBox } from './lib/secret-box.ts';
import { IdentityPoolRepository } from './repositories/identity-pool.ts';
import { MODULES } from './services/index.ts';

/**
 * Everything sealed with SECRET_KEY that a start opens: the platform's, then the modules' (their
 * `sealed`). (The users' TOTP secrets are sealed with it too, but opened one at a time at sign-in:
 * the message names them without reading them.)
 */
const SEALED_AT_START: readonly SealedPlace[] = [
  {
    what: "the identity pool's signing key (idp_signing_keys)",
    ifLost: 'delete its rows; the next start makes a new key and every signed-in user signs in again',
    read: async (db) => (await new IdentityPoolRepository(db).activeSigningKeys()).map((k) => k.privateJwkEncrypted),
  },
  {
    what: `the local chains' deployer key (platform_keys ${LOCAL_DEPLOYER_KEY})`,
    ifLost: 'delete its row; the next start makes a new deployer and funds it from the local faucet',
    read: sealedPlatformKey(LOCAL_DEPLOYER_KEY),
  },
  {
    what: `the card sandbox's webhook secret (app_settings ${SANDBOX_WEBHOOK_SECRET_SETTING})`,
    ifLost: 'delete its row; the next start makes a new one',
    read: sealedSetting(SANDBOX_WEBHOOK_SECRET_SETTING),
  },
  // What the services seal (the QNT deposit seed, the platform API's access-token key): their modules.
  ...MODULES.flatMap((module) => module.sealed ?? []),
];

/** The start refused: SECRET_KEY does not open what the installation sealed (server.ts prints the message). */
export class SealedDataError extends Error {
  constructor(
    readonly unopened: readonly string[],
    message: string,
  ) {
    super(message);
    this.name = 'SealedDataError';
  }
}

/**
 * Opens everything the start will open, before anything uses it, and refuses the start naming
 * every value the key does not open. A SECRET_KEY that changed used to stop the start at the first
 * of them with node:crypto's "Unsupported state or unable to authenticate data"; fixing one at a
 * time, a restart each, is no way to find out which key went missing. `keySource` says where the
 * key in use came from (SECRET_KEY, or the file generated under DATA_DIR when it is unset).
 */
export async function assertSealedDataOpens(db: Database, box: SecretBox, keySource: string): Promise<void> {
  const unopened: SealedPlace[] = [];
  for (const place of SEALED_AT_START) {
    const sealed = await place.read(db);
    if (sealed.some((value) => !box.opens(value))) unopened.push(place);
  }
  if (unopened.length === 0) return;
  const lines = [
    `Cannot start: the secret key in use (${keySource}) does not open what this installation sealed with ` +
      'its earlier key. SECRET_KEY has changed since these were sealed:',
    ...unopened.map((place) => `  - ${place.what}`),
    '',
    'To recover, start again with the SECRET_KEY these were sealed with (from your secrets store or the',
    'backup kept with the database). Only if that key is lost for good:',
    ...unopened.map((place) => `  - ${place.what}: ${place.ifLost}.`),
    "Users' authenticator (TOTP) secrets are sealed with it as well: with a new key, those users set MFA up again.",
  ];
  throw new SealedDataError(
    unopened.map((place) => place.what),
    lines.join('\n'),
  );
}
