import { z } from 'zod';
import { LIMITS } from './constants.ts';
import { ZQueryInt, ZQueryPage } from './numbers.ts';
import { PROBLEMS } from './problem-codes.ts';

/** Application types of spec §3: fixed when the application is created. */
export const APPLICATION_TYPES = ['testnet', 'mainnet'] as const;
export type ApplicationType = (typeof APPLICATION_TYPES)[number];

/** Messages of spec §8 (quoted exactly) and the ones the spec leaves open (docs/decisions/developer-hub.md). */
export const APPLICATION_MESSAGES = {
  nameRequired: 'Please enter an application name',
  nameTooLong: 'Your application name is too long',
  nameSpecialCharacters: 'Your application name can only contain letters, numbers, spaces, hyphens and underscores',
  /** Shown when creating an application under a name the account already uses. */
  nameExistsOnCreate: PROBLEMS.APPLICATION_EXISTS.message,
  /** Shown by the name check (POST /validate) and when renaming an application. */
  nameExists: PROBLEMS.APPLICATION_NAME_EXISTS.message,
  callbackRequired: 'Please enter a callback URL',
  callbackInvalid: 'Please enter a valid secure callback URL starting with https://',
  networksRequired: PROBLEMS.NETWORKS_REQUIRED.message,
  typeRequired: 'Please choose where the application runs',
  typeFixed: PROBLEMS.APPLICATION_TYPE_FIXED.message,
  networkUnavailable: PROBLEMS.APPLICATION_NETWORK_UNAVAILABLE.message,
  updated: 'Application has been updated successfully.',
  quotaReached: PROBLEMS.APPLICATION_QUOTA_REACHED.message,
  notFound: PROBLEMS.APPLICATION_NOT_FOUND.message,
  secretNotFound: PROBLEMS.CLIENT_SECRET_NOT_FOUND.message,
} as const;

/** Letters (any script), digits, spaces, hyphens and underscores; decided in docs/decisions/developer-hub.md. */
export const APPLICATION_NAME_PATTERN = /^[\p{L}\p{N} _-]+$/u;

export const ZApplicationName = z
  .string({ error: APPLICATION_MESSAGES.nameRequired })
  .trim()
  // abort: an empty name gets one message, not the pattern's as well.
  .min(1, { message: APPLICATION_MESSAGES.nameRequired, abort: true })
  .max(LIMITS.applicationNameMax, { message: APPLICATION_MESSAGES.nameTooLong })
  .regex(APPLICATION_NAME_PATTERN, { message: APPLICATION_MESSAGES.nameSpecialCharacters });

/** Required, an absolute https URL (spec §5: "a valid secure (https) URL"). */
export const ZCallbackUrl = z
  .string({ error: APPLICATION_MESSAGES.callbackRequired })
  .trim()
  .min(1, { message: APPLICATION_MESSAGES.callbackRequired, abort: true })
  .max(2048, { message: APPLICATION_MESSAGES.callbackInvalid, abort: true })
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'https:' && url.hostname.length > 0;
      } catch {
        return false;
      }
    },
    { message: APPLICATION_MESSAGES.callbackInvalid },
  );

const ZNetworkIds = z
  .array(z.uuid({ message: APPLICATION_MESSAGES.networksRequired }), {
    error: APPLICATION_MESSAGES.networksRequired,
  })
  .min(1, { message: APPLICATION_MESSAGES.networksRequired })
  .max(100)
  .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))]);

/** POST /create-application/ (the registration stepper's form). */
export const ZCreateApplicationRequest = z
  .object({
    name: ZApplicationName,
    callbackUrl: ZCallbackUrl,
    applicationType: z.enum(APPLICATION_TYPES, { error: APPLICATION_MESSAGES.typeRequired }),
    networkIds: ZNetworkIds,
    testnetSigning: z.boolean().default(false),
  })
  .meta({ id: 'CreateApplicationRequest' });
export type TCreateApplicationRequest = z.input<typeof ZCreateApplicationRequest>;

/** PUT /application (the edit dialog). The type may be sent but never changes (spec §3). */
export const ZUpdateApplicationRequest = z
  .object({
    id: z.uuid({ message: APPLICATION_MESSAGES.notFound }),
    name: ZApplicationName,
    callbackUrl: ZCallbackUrl,
    networkIds: ZNetworkIds,
    testnetSigning: z.boolean(),
    applicationType: z.enum(APPLICATION_TYPES).optional(),
  })
  .meta({ id: 'UpdateApplicationRequest' });
export type TUpdateApplicationRequest = z.input<typeof ZUpdateApplicationRequest>;

/** POST /validate: is the name free in the caller's account (ignoring `id`, the one being edited)? */
export const ZValidateApplicationRequest = z
  .object({
    name: ZApplicationName,
    id: z.uuid().optional(),
  })
  .meta({ id: 'ValidateApplicationRequest' });
export type TValidateApplicationRequest = z.input<typeof ZValidateApplicationRequest>;
export const ZValidateApplicationResponse = z
  .object({ valid: z.literal(true) })
  .meta({ id: 'ValidateApplicationResponse' });

/** A network as the application forms list it. */
export const ZApplicationNetwork = z
  .object({
    id: z.uuid(),
    code: z.string(),
    name: z.string(),
    networkType: z.enum(APPLICATION_TYPES),
    technology: z.string(),
    chainId: z.number().int(),
    /** What the gateway enforces for the account: the plan's requests a second per network. */
    rateLimit: z
      .number()
      .int()
      .describe(
        "The account's plan's gateway rate limit on this network: requests a second, shared by the account's applications.",
      ),
    isLocal: z.boolean(),
  })
  .meta({ id: 'ApplicationNetwork' });
export type TApplicationNetwork = z.infer<typeof ZApplicationNetwork>;
export const ZApplicationNetworksResponse = z
  .object({ networks: z.array(ZApplicationNetwork) })
  .meta({ id: 'ApplicationNetworksResponse' });

export const SECRET_STATUSES = ['ACTIVE', 'EXPIRING', 'EXPIRED', 'REVOKED'] as const;
export type SecretStatus = (typeof SECRET_STATUSES)[number];

/** A client secret as the portal shows it: never the secret, only its last four characters. */
export const ZApplicationSecret = z
  .object({
    id: z.uuid(),
    hint: z.string(),
    status: z.enum(SECRET_STATUSES),
    createdAt: z.string(),
    expiresAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .meta({ id: 'ApplicationSecret' });
export type TApplicationSecret = z.infer<typeof ZApplicationSecret>;

/** The application of spec §3 (everything but the secret, which is shown once). */
export const ZApplication = z
  .object({
    id: z.uuid(),
    accountId: z.uuid(),
    name: z.string(),
    callbackUrl: z.string(),
    applicationType: z.enum(APPLICATION_TYPES),
    testnetSigning: z.boolean(),
    clientId: z.string(),
    signingServiceName: z.string(),
    signingKeyId: z.string(),
    signingPublicKey: z.string(),
    networks: z.array(ZApplicationNetwork),
    secrets: z.array(ZApplicationSecret),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Application' });
export type TApplication = z.infer<typeof ZApplication>;

/** The creation answer: the application plus its client secret, shown this once. */
export const ZCreateApplicationResponse = ZApplication.extend({ clientSecret: z.string() }).meta({
  id: 'CreateApplicationResponse',
});
export type TCreateApplicationResponse = z.infer<typeof ZCreateApplicationResponse>;

/** The applications:create allowance: used / total (null total = unlimited). */
export const ZApplicationQuota = z
  .object({ used: z.number().int(), total: z.number().int().nullable() })
  .meta({ id: 'ApplicationQuota' });
export type TApplicationQuota = z.infer<typeof ZApplicationQuota>;

export const APPLICATION_PAGE_SIZES = LIMITS.pageSizes;

/** GET /applications/ query: search by name, filter by network and environment, paged (spec §9 sizes). */
export const ZApplicationsQuery = z.object({
  page: ZQueryPage.optional().transform((page) => page ?? 0),
  size: ZQueryInt()
    .refine((size) => (APPLICATION_PAGE_SIZES as readonly number[]).includes(size), {
      message: `The page size must be one of ${APPLICATION_PAGE_SIZES.join(', ')}.`,
    })
    .default(10),
  search: z.string().trim().max(100).optional(),
  networkId: z.uuid({ message: 'The network id must be a UUID.' }).optional(),
  applicationType: z.enum(APPLICATION_TYPES).optional(),
});
/** What a client sends (numbers written in the query string in decimal digits). */
export type TApplicationsQuery = {
  page?: number;
  size?: number;
  search?: string | undefined;
  networkId?: string | undefined;
  applicationType?: ApplicationType | undefined;
};

export const ZApplicationsPage = z
  .object({
    content: z.array(ZApplication),
    totalElements: z.number().int(),
    totalPages: z.number().int(),
    number: z.number().int(),
    size: z.number().int(),
    quota: ZApplicationQuota,
  })
  .meta({ id: 'ApplicationsPage' });
export type TApplicationsPage = z.infer<typeof ZApplicationsPage>;

export const ZApplicationKeyIdsResponse = z
  .object({
    keyIds: z.array(
      z.object({
        applicationId: z.uuid(),
        name: z.string(),
        signingServiceName: z.string(),
        keyId: z.string(),
        publicKey: z.string(),
      }),
    ),
  })
  .meta({ id: 'ApplicationKeyIdsResponse' });

/** Grace periods offered when rotating a secret, in minutes (0 = revoke the old secret now). */
export const SECRET_GRACE_PERIODS = [0, 60, 1_440, 10_080] as const;
export const ZRotateSecretRequest = z
  .object({
    // A number, not text: z.coerce read "", null and [] as 0, which revokes the old secret at once.
    gracePeriodMinutes: z
      .number()
      .int()
      .min(0)
      .max(30 * 1_440, { message: 'The grace period can be at most 30 days.' }),
  })
  .meta({ id: 'RotateSecretRequest' });
export type TRotateSecretRequest = z.input<typeof ZRotateSecretRequest>;
export const ZRotateSecretResponse = z
  .object({ application: ZApplication, clientSecret: z.string() })
  .meta({ id: 'RotateSecretResponse' });
export type TRotateSecretResponse = z.infer<typeof ZRotateSecretResponse>;

export const ZUsageQuery = z.object({ days: ZQueryInt({ min: 1, max: 90 }).default(14) });
export const ZApplicationUsage = z
  .object({
    from: z.string(),
    to: z.string(),
    total: z.number().int(),
    /** One entry per UTC day from `from` to `to`, zero-filled. */
    days: z.array(z.object({ day: z.string(), requests: z.number().int() })),
    networks: z.array(z.object({ networkId: z.uuid(), name: z.string(), requests: z.number().int() })),
  })
  .meta({ id: 'ApplicationUsage' });
export type TApplicationUsage = z.infer<typeof ZApplicationUsage>;

/** POST /oauth2/token answer (RFC 6749 §5.1). */
export const ZTokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
  })
  .meta({ id: 'TokenResponse' });
export const ACCESS_TOKEN_SECONDS = 3_600;
