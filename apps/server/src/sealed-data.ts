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

/** The key a node opens the sealed data with: SECRET_KEY, or when it is unset the one it generated in `file`. */
export type KeyInUse = { isSet: boolean; file: string };

/**
 * The one line a start with the wrong key begins with (issue 31): it names the setting, says that
 * every node needs the same one, and where a node without it keeps its own — the two-node case,
 * where a second node started without SECRET_KEY generated a key of its own in its data directory.
 */
function wrongKeyLine(key: KeyInUse): string {
  const same = 'every node of an installation must have the same SECRET_KEY';
  return key.isSet
    ? `Cannot start: SECRET_KEY does not open the data this installation sealed; ${same} — start with the one ` +
        `the data was sealed with (a node started without SECRET_KEY uses the key it generated in its data directory, here ${key.file}).`
    : `Cannot start: SECRET_KEY is unset and the key this node generated in ${key.file} does not open the data this ` +
        `installation sealed; ${same} — set it to the one the data was sealed with (a node started without SECRET_KEY ` +
        'keeps the key it generated in its own data directory, DATA_DIR/secret.key).';
}

/**
 * Opens everything the start will open, before anything uses it, and refuses the start naming
 * every value the key does not open. A SECRET_KEY that changed used to stop the start at the first
 * of them with node:crypto's "Unsupported state or unable to authenticate data"; fixing one at a
 * time, a restart each, is no way to find out which key went missing. The message's first line
 * says what is wrong and what to do (wrongKeyLine); the lines after it name what the key does not
 * open and what deleting each costs if the key it was sealed with is lost for good.
 */
export async function assertSealedDataOpens(db: Database, box: SecretBox, key: KeyInUse): Promise<void> {
  const unopened: SealedPlace[] = [];
  for (const place of SEALED_AT_START) {
    const sealed = await place.read(db);
    if (sealed.some((value) => !box.opens(value))) unopened.push(place);
  }
  if (unopened.length === 0) return;
  const lines = [
    wrongKeyLine(key),
    "The key in use does not open these (SECRET_KEY has changed since they were sealed, or differs from the other nodes'):",
    ...unopened.map((place) => `  - ${place.what}`),
    'Only if the key they were sealed with is lost for good:',
    ...unopened.map((place) => `  - ${place.what}: ${place.ifLost}.`),
    "Users' authenticator (TOTP) secrets are sealed with it as well: with a new key, those users set MFA up again.",
  ];
  throw new SealedDataError(
    unopened.map((place) => place.what),
    lines.join('\n'),
  );
}
