import { invalidParameter, notAuthorized } from '../../lib/cognito-errors.ts';
import type { IdpUser } from '../../repositories/identity-pool.ts';
import type { PoolContext } from './context.ts';
import { userForAccessToken } from './sessions.ts';
import type { AttributeType, TAccessTokenOnly } from './wire.ts';

/** The pool user as clients see it: their attributes, and GetUser. */

/** Standard attributes a client may set on its own user; `custom:` attributes are allowed too. */
const WRITABLE_ATTRIBUTES = new Set([
  'name',
  'given_name',
  'family_name',
  'middle_name',
  'nickname',
  'profile',
  'picture',
  'website',
  'gender',
  'birthdate',
  'zoneinfo',
  'locale',
  'address',
  'updated_at',
]);
/** Attributes only the pool itself sets. */
const PROTECTED_ATTRIBUTES = new Set(['sub', 'email_verified', 'phone_number_verified', 'identities']);

/**
 * The attributes a client may write, as a map; refuses the ones only the pool sets and names the
 * schema does not have. `handledElsewhere` is accepted and left out (the email is the username).
 */
export function writableAttributes(
  attributes: { Name: string; Value?: string | undefined }[],
  handledElsewhere: string,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const { Name, Value } of attributes) {
    if (Name === handledElsewhere) continue;
    if (PROTECTED_ATTRIBUTES.has(Name) || Name.startsWith('cognito:')) {
      throw notAuthorized('A client attempted to write unauthorized attribute');
    }
    if (!WRITABLE_ATTRIBUTES.has(Name) && !Name.startsWith('custom:')) {
      throw invalidParameter(`Attribute does not exist in the schema: ${Name}`);
    }
    result[Name] = Value ?? '';
  }
  return result;
}

export function userAttributes(user: IdpUser): AttributeType[] {
  return [
    { Name: 'sub', Value: user.sub },
    { Name: 'email', Value: user.email },
    { Name: 'email_verified', Value: String(user.emailVerified) },
    ...Object.entries(user.attributes)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([Name, Value]) => ({ Name, Value })),
  ];
}

export async function getUser(ctx: PoolContext, input: TAccessTokenOnly) {
  const user = await userForAccessToken(ctx, input.AccessToken);
  const totpOn = user.totpVerified && user.mfaEnabled;
  return {
    Username: user.username,
    UserAttributes: userAttributes(user),
    ...(totpOn ? { UserMFASettingList: ['SOFTWARE_TOKEN_MFA'] } : {}),
    ...(totpOn && user.mfaPreferred ? { PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA' } : {}),
  };
}
