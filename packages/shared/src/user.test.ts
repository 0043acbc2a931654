import { describe, expect, it } from 'vitest';
import { FIELD_MESSAGES } from './messages.ts';
import { isProfileComplete, mfaStatusOf, ZAcceptTermsRequest, ZUpdateUserRequest } from './user.ts';

const complete = {
  firstName: 'Ada',
  organisationLocation: 'United Kingdom',
  industry: 'Technology',
  companySize: '1-10',
  hearAboutUs: 'EVENT',
};

describe('isProfileComplete (spec §5 profile guard)', () => {
  it('is true when the five profile fields are filled', () => {
    expect(isProfileComplete(complete)).toBe(true);
  });

  it.each(['firstName', 'organisationLocation', 'industry', 'companySize', 'hearAboutUs'] as const)(
    'is false when %s is missing or empty',
    (field) => {
      expect(isProfileComplete({ ...complete, [field]: null })).toBe(false);
      expect(isProfileComplete({ ...complete, [field]: '' })).toBe(false);
    },
  );
});

describe('mfaStatusOf', () => {
  it('is ACTIVE with both flags, SETUP when only verified, DISABLED otherwise', () => {
    expect(mfaStatusOf(true, true)).toBe('ACTIVE');
    expect(mfaStatusOf(true, false)).toBe('SETUP');
    expect(mfaStatusOf(false, false)).toBe('DISABLED');
    // A preference without a verified authenticator cannot challenge anyone.
    expect(mfaStatusOf(false, true)).toBe('DISABLED');
  });
});

describe('ZUpdateUserRequest', () => {
  const profile = {
    firstName: ' Ada ',
    lastName: 'Lovelace',
    organisationName: 'Analytical Engines',
    organisationLocation: 'United Kingdom',
    industry: 'Technology',
    companySize: '1-10',
    hearAboutUs: 'SEARCH_ENGINE',
  };

  it('trims names and accepts a profile without a description for ordinary answers', () => {
    const parsed = ZUpdateUserRequest.parse(profile);
    expect(parsed.firstName).toBe('Ada');
  });

  it.each(['EVENT', 'OTHER'])('needs a description when the answer is %s', (hearAboutUs) => {
    const result = ZUpdateUserRequest.safeParse({ ...profile, hearAboutUs });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['hearAboutUsDescription'], message: FIELD_MESSAGES.descriptionRequired }),
    ]);
    expect(ZUpdateUserRequest.safeParse({ ...profile, hearAboutUs, hearAboutUsDescription: 'Devcon' }).success).toBe(
      true,
    );
  });

  it('reports a blank or overlong name with the shared wording', () => {
    const blank = ZUpdateUserRequest.safeParse({ ...profile, firstName: '   ' });
    expect(blank.error?.issues[0]).toMatchObject({ path: ['firstName'], message: FIELD_MESSAGES.required });
    const long = ZUpdateUserRequest.safeParse({ ...profile, lastName: 'x'.repeat(101) });
    expect(long.error?.issues[0]).toMatchObject({ path: ['lastName'], message: FIELD_MESSAGES.tooLong(100) });
  });
});

describe('ZAcceptTermsRequest', () => {
  it('needs a version of at most 50 characters', () => {
    expect(ZAcceptTermsRequest.safeParse({}).error?.issues[0]?.message).toBe(FIELD_MESSAGES.required);
    expect(ZAcceptTermsRequest.safeParse({ version: 'v'.repeat(51) }).error?.issues[0]?.message).toBe(
      FIELD_MESSAGES.tooLong(50),
    );
    expect(ZAcceptTermsRequest.parse({ version: ' 2026-10-01 ' })).toEqual({ version: '2026-10-01' });
  });
});
