import { z } from 'zod';
import { COMPANY_SIZES, HEAR_ABOUT_US, HEAR_ABOUT_US_WITH_DESCRIPTION, INDUSTRIES } from './constants.ts';
import { FIELD_MESSAGES } from './messages.ts';

/*
 * The organisation lists and the organisation search of spec §7 (issue 35 §2), under /api/connect/:
 *   GET /static-data/organisations        → OrganisationStaticData (cached: Cache-Control and ETag)
 *   GET /organisations?search=<2–100 chars> → OrganisationSearchResponse (at most 10 names)
 * The lists are the constants of constants.ts, which stay what the profile schemas validate with;
 * the server serves them so the forms take their options from one place.
 */

/** The lists the profile (/my-account) and onboarding (/user-details) forms offer. */
export const ZOrganisationStaticData = z
  .object({
    industries: z.array(z.enum(INDUSTRIES)),
    companySizes: z.array(z.enum(COMPANY_SIZES)),
    hearAboutUs: z.array(
      z.object({
        value: z.enum(HEAR_ABOUT_US),
        /** The answer asks for a few words more (hearAboutUsDescription). */
        descriptionRequired: z.boolean(),
      }),
    ),
  })
  .meta({ id: 'OrganisationStaticData' });
export type TOrganisationStaticData = z.infer<typeof ZOrganisationStaticData>;

/** The static data as the server answers it, built from the shared constants. */
export function organisationStaticData(): TOrganisationStaticData {
  return {
    industries: [...INDUSTRIES],
    companySizes: [...COMPANY_SIZES],
    hearAboutUs: HEAR_ABOUT_US.map((value) => ({
      value,
      descriptionRequired: (HEAR_ABOUT_US_WITH_DESCRIPTION as readonly string[]).includes(value),
    })),
  };
}

export const ORGANISATION_SEARCH = {
  /** Shorter searches are not asked (the server refuses them): one letter matches too much. */
  minLength: 2,
  maxLength: 100,
  /** How many names one search answers. */
  limit: 10,
} as const;

export const ORGANISATION_SEARCH_MESSAGES = {
  tooShort: `Type at least ${ORGANISATION_SEARCH.minLength} characters.`,
} as const;

export const ZOrganisationSearchQuery = z
  .object({
    search: z
      .string({ error: FIELD_MESSAGES.required })
      .trim()
      .min(ORGANISATION_SEARCH.minLength, { message: ORGANISATION_SEARCH_MESSAGES.tooShort })
      .max(ORGANISATION_SEARCH.maxLength, { message: FIELD_MESSAGES.tooLong(ORGANISATION_SEARCH.maxLength) }),
  })
  .meta({ id: 'OrganisationSearchQuery' });
export type TOrganisationSearchQuery = z.infer<typeof ZOrganisationSearchQuery>;

/** Names only: which account, who is in it or where it is stays private. */
export const ZOrganisationSearchResponse = z
  .object({
    organisations: z.array(z.object({ name: z.string() })),
  })
  .meta({ id: 'OrganisationSearchResponse' });
export type TOrganisationSearchResponse = z.infer<typeof ZOrganisationSearchResponse>;
