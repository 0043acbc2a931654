import { randomBytes } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1';
import { bytesToHex, type Hex } from 'viem';
import { HDKey, privateKeyToAddress, publicKeyToAddress } from 'viem/accounts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { PlatformKeyRepository } from '../../repositories/platform.ts';

/**
 * Deposit addresses (issue 15 §2): address i is BIP-32 `m/44'/60'/0'/0/i` — the standard Ethereum
 * receive branch, so any wallet holding the seed finds them — derived from that branch's extended
 * public key (`QNT_DEPOSIT_XPUB`), so a server configured with it holds no deposit private key.
 * The embedded default generates a seed once (sealed with SECRET_KEY in platform_keys) and keeps
 * the private keys too, so the sweep can move settled deposits to the treasury on its own; with a
 * configured xpub the sweep is the operator's (their wallet holds the seed).
 */
export const DEPOSIT_BRANCH = "m/44'/60'/0'/0";
/** The embedded treasury: the seed's first address of account 1 (never a deposit address). */
export const TREASURY_PATH = "m/44'/60'/1'/0/0";
export const EMBEDDED_SEED_KEY = 'qnt-deposits:seed';

export type DepositKeys = {
  /** The branch's extended public key (what production configures). */
  xpub: string;
  /** Lower-case 0x address of index i. */
  addressAt(index: number): Hex;
  /** The private key of index i, when this installation holds the seed (the embedded default). */
  privateKeyAt(index: number): Hex | null;
  /** Where swept deposits go (configured, or the embedded seed's treasury), lower case. */
  treasury: Hex | null;
};

function fromBranch(branch: HDKey, treasury: Hex | null, root?: HDKey): DepositKeys {
  return {
    xpub: branch.publicExtendedKey,
    addressAt(index) {
      const compressed = branch.deriveChild(index).publicKey;
      if (!compressed) throw new Error('The deposit key has no public key');
      // BIP-32 gives the compressed point; an Ethereum address hashes the uncompressed one.
      const point = secp256k1.ProjectivePoint.fromHex(compressed).toRawBytes(false);
      return publicKeyToAddress(bytesToHex(point)).toLowerCase() as Hex;
    },
    privateKeyAt(index) {
      const key = root ? branch.deriveChild(index).privateKey : null;
      return key ? bytesToHex(key) : null;
    },
    treasury,
  };
}

/** Keys from a configured extended public key of the branch `m/44'/60'/0'/0`. */
export function depositKeysFromXpub(xpub: string, treasury: string | null): DepositKeys {
  const branch = HDKey.fromExtendedKey(xpub);
  if (branch.privateKey) throw new Error('QNT_DEPOSIT_XPUB must be an extended public key (xpub…), not a private one');
  return fromBranch(branch, (treasury?.toLowerCase() as Hex | undefined) ?? null);
}

/**
 * Keys from a seed this installation holds (the embedded default), derived when first used: the
 * derivation and secp256k1's tables cost a start ~80 ms of the server's thread (issue 30), and a
 * start hands out no address.
 */
export function depositKeysFromSeed(seed: Uint8Array, treasury: string | null): DepositKeys {
  let keys: DepositKeys | undefined;
  const derived = () => (keys ??= deriveFromSeed(seed, treasury));
  return {
    get xpub() {
      return derived().xpub;
    },
    addressAt: (index) => derived().addressAt(index),
    privateKeyAt: (index) => derived().privateKeyAt(index),
    get treasury() {
      return derived().treasury;
    },
  };
}

function deriveFromSeed(seed: Uint8Array, treasury: string | null): DepositKeys {
  const root = HDKey.fromMasterSeed(seed);
  const ownTreasury = privateKeyToAddress(bytesToHex(root.derive(TREASURY_PATH).privateKey!)).toLowerCase() as Hex;
  return fromBranch(root.derive(DEPOSIT_BRANCH), (treasury?.toLowerCase() as Hex | undefined) ?? ownTreasury, root);
}

/**
 * The configured xpub, or the installation's seed (generated on first use; across nodes the first
 * stored wins).
 */
export async function loadDepositKeys(
  config: { depositXpub: string | null; treasuryAddress: string | null },
  keys: PlatformKeyRepository,
  box: SecretBox,
): Promise<DepositKeys> {
  if (config.depositXpub) return depositKeysFromXpub(config.depositXpub, config.treasuryAddress);
  let stored = await keys.find(EMBEDDED_SEED_KEY);
  if (!stored) {
    const seed = randomBytes(32);
    const made = depositKeysFromSeed(seed, config.treasuryAddress);
    stored = await keys.insertOrKeep({
      name: EMBEDDED_SEED_KEY,
      address: made.treasury!,
      sealedPrivateKey: box.seal(bytesToHex(seed)),
    });
  }
  const seedHex = box.open(stored.sealedPrivateKey, 'the QNT deposit seed') as Hex;
  return depositKeysFromSeed(Buffer.from(seedHex.slice(2), 'hex'), config.treasuryAddress);
}
