import { z } from 'zod';
import { FEATURE_SWITCHES, type FeatureSwitch } from './constants.ts';

/*
 * Connect Beta (issue 35 §1; spec §2.3 `/beta/features`, named Connect Beta, order 0, feature
 * connectBeta), under /api/connect/. Staff keep a catalogue of beta features; each switches one
 * feature key on for the accounts that opt in, through the entitlements module (GET /available,
 * the menu and the server's guards read it), unless a staff override switches it off.
 *
 * Customers (the feature connectBeta; an id the account may not see answers 404):
 *   GET    /beta/features                    → BetaFeatureList (open features, and the ones the account is invited to)
 *   PUT    /beta/features/{id}/optin         → BetaFeature (opted in; again is the same answer)
 *   DELETE /beta/features/{id}/optin         → BetaFeature (opted out; again is the same answer)
 * Staff (management-admin), every write audited:
 *   GET    /management/beta-features                              → ManagedBetaFeatureList
 *   POST   /management/beta-features              BetaFeatureForm → 201 ManagedBetaFeature
 *   PUT    /management/beta-features/{id}         BetaFeatureForm → ManagedBetaFeature
 *   DELETE /management/beta-features/{id}                         → 204 (its opt-ins and invitations go with it)
 *   GET    /management/beta-features/{id}/participants            → BetaParticipantList
 *   POST   /management/beta-features/{id}/invitations BetaInvitation → 201 BetaParticipant
 *   DELETE /management/beta-features/{id}/invitations/{accountId} → 204
 */

/** Who may opt in: any account with connectBeta (OPEN), or only the accounts staff invited (INVITATION). */
export const BETA_ACCESS = ['OPEN', 'INVITATION'] as const;
export type TBetaAccess = (typeof BETA_ACCESS)[number];

/** The keys a beta feature may switch on: the switches of spec §6 except connectBeta itself. */
export const BETA_FEATURE_KEYS = FEATURE_SWITCHES.filter(
  (key): key is Exclude<FeatureSwitch, 'connectBeta'> => key !== 'connectBeta',
);

export const BETA_LIMITS = { name: 60, description: 500 } as const;

export const BETA_MESSAGES = {
  nameRequired: 'Please enter a name.',
  nameTooLong: `The name must be ${BETA_LIMITS.name} characters or fewer.`,
  descriptionRequired: 'Please enter a description.',
  descriptionTooLong: `The description must be ${BETA_LIMITS.description} characters or fewer.`,
  featureKey: 'Please choose the feature it switches on.',
  optInFailed: 'We could not change this beta feature. Please try again.',
} as const;

// ── Customers: GET /beta/features, PUT /beta/features/{id}/optin, DELETE /beta/features/{id}/optin

/** A beta feature as a customer sees it: only the ones the account may opt in to are listed. */
export const ZBetaFeature = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    featureKey: z.enum(BETA_FEATURE_KEYS),
    access: z.enum(BETA_ACCESS),
    optedIn: z.boolean(),
    /** A staff override switched the feature off for this account: the opt-in has no effect. */
    overriddenOff: z.boolean(),
  })
  .meta({ id: 'BetaFeature' });
export type TBetaFeature = z.infer<typeof ZBetaFeature>;

export const ZBetaFeatureList = z.object({ features: z.array(ZBetaFeature) }).meta({ id: 'BetaFeatureList' });
export type TBetaFeatureList = z.infer<typeof ZBetaFeatureList>;

// ── Staff (management-admin): /management/beta-features ────────────────────────────────────────

export const ZBetaFeatureForm = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, { message: BETA_MESSAGES.nameRequired })
      .max(BETA_LIMITS.name, { message: BETA_MESSAGES.nameTooLong }),
    description: z
      .string()
      .trim()
      .min(1, { message: BETA_MESSAGES.descriptionRequired })
      .max(BETA_LIMITS.description, { message: BETA_MESSAGES.descriptionTooLong }),
    featureKey: z.enum(BETA_FEATURE_KEYS, { message: BETA_MESSAGES.featureKey }),
    access: z.enum(BETA_ACCESS),
  })
  .meta({ id: 'BetaFeatureForm' });
export type TBetaFeatureForm = z.infer<typeof ZBetaFeatureForm>;

/** A catalogue entry as staff see it, with how many accounts opted in and how many are invited. */
export const ZManagedBetaFeature = ZBetaFeatureForm.extend({
  id: z.uuid(),
  optIns: z.number().int(),
  invitations: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).meta({ id: 'ManagedBetaFeature' });
export type TManagedBetaFeature = z.infer<typeof ZManagedBetaFeature>;

export const ZManagedBetaFeatureList = z
  .object({ features: z.array(ZManagedBetaFeature) })
  .meta({ id: 'ManagedBetaFeatureList' });

/** Who opted in to (or was invited to) a beta feature. */
export const ZBetaParticipant = z
  .object({
    accountId: z.uuid(),
    organisationName: z.string().nullable(),
    optedIn: z.boolean(),
    invited: z.boolean(),
    /** When the account opted in; null when only invited. */
    optedInAt: z.string().nullable(),
    optedInBy: z.string().nullable(),
  })
  .meta({ id: 'BetaParticipant' });
export type TBetaParticipant = z.infer<typeof ZBetaParticipant>;

export const ZBetaParticipantList = z
  .object({ participants: z.array(ZBetaParticipant) })
  .meta({ id: 'BetaParticipantList' });

export const ZBetaInvitation = z.object({ accountId: z.uuid() }).meta({ id: 'BetaInvitation' });
