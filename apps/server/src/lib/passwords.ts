import { randomInt } from 'node:crypto';
import { hash, verify, type Algorithm, type Options } from '@node-rs/argon2';
import { PASSWORD_RULES, passwordMeetsPolicy } from '@connect/shared';
import { CognitoError } from './cognito-errors.ts';

/**
 * OWASP's argon2id baseline (m=19 MiB, t=2, p=1). `Algorithm` is an ambient const enum, which
 * isolatedModules cannot read at runtime, hence the literal: 2 is Argon2id.
 */
const ARGON2_OPTIONS: Options = {
  algorithm: 2 as Algorithm,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A row without a usable hash (a user made straight on the tables) never matches.
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as checking a real password, so an unknown username cannot be told from a
 * wrong password by how long the answer takes.
 */
export async function verifyDummyPassword(password: string): Promise<void> {
  dummyHash ??= hashPassword(`dummy-${randomInt(1_000_000_000)}`);
  await verifyPassword(await dummyHash, password);
}

/** Cognito's wording for each rule of the shared policy. */
const POLICY_MESSAGES: Record<(typeof PASSWORD_RULES)[number]['id'], string> = {
  length: 'Password not long enough',
  lower: 'Password must have lowercase characters',
  upper: 'Password must have uppercase characters',
  digit: 'Password must have numeric characters',
  symbol: 'Password must have symbol characters',
};

/** Throws InvalidPasswordException naming the first rule the password breaks. */
export function assertPasswordPolicy(password: string): void {
  if (passwordMeetsPolicy(password)) return;
  const broken = PASSWORD_RULES.find((rule) => !rule.test(password));
  const reason = broken ? POLICY_MESSAGES[broken.id] : 'Password too long';
  throw new CognitoError('InvalidPasswordException', `Password did not conform with policy: ${reason}`);
}

/** How long an invitation's temporary password works (Cognito's default for a pool). */
export const TEMPORARY_PASSWORD_MS = 7 * 86_400_000;

const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
// Symbols that survive being copied out of an email and typed back: no quotes, no spaces.
const SYMBOLS = '!#%*+-=?@_';

function pick(alphabet: string): string {
  return alphabet[randomInt(alphabet.length)]!;
}

/**
 * A temporary password for an invitation: 16 characters with every class the policy asks for,
 * without look-alikes (0/O, 1/l/I) because people type it from an email.
 */
export function generateTemporaryPassword(length = 16): string {
  const all = LOWER + UPPER + DIGITS + SYMBOLS;
  const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(SYMBOLS)];
  while (chars.length < length) chars.push(pick(all));
  // Fisher–Yates, so the guaranteed classes are not always at the front.
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  const password = chars.join('');
  if (!passwordMeetsPolicy(password)) throw new Error('generated password breaks the policy');
  return password;
}
