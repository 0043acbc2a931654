import type { TUser } from './user.ts';

/** The five fields the profile guard of spec §5 checks for the individual role. */
export const PROFILE_FIELDS = ['firstName', 'organisationLocation', 'industry', 'companySize', 'hearAboutUs'] as const;
export function isProfileComplete(user: Pick<TUser, (typeof PROFILE_FIELDS)[number]>): boolean {
  return PROFILE_FIELDS.every((field) => Boolean(user[field]));
}
