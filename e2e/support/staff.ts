import { expect, type APIRequestContext } from '@playwright/test';
import { idp } from './identity.ts';
import { latestMail } from './mailbox.ts';

/** The seeded administrator (playwright.config.ts ADMIN_EMAIL) and the password recovery.spec.ts chooses. */
export const ADMIN_EMAIL = 'admin@e2e.test';
export const ADMIN_PASSWORD = 'Admin-Chosen-Passw0rd!';

type AuthAnswer = {
  AuthenticationResult?: { AccessToken: string };
  ChallengeName?: string;
  Session?: string;
};

/**
 * An administrator's access token for staff calls that have no screen yet. The administrator is
 * invited with a temporary password; whichever spec signs in first chooses ADMIN_PASSWORD (as
 * recovery.spec.ts does through the UI), so this works whether or not that spec ran before.
 */
export async function adminAccessToken(request: APIRequestContext): Promise<string> {
  const signIn = (password: string) =>
    idp(request, 'InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: ADMIN_EMAIL, PASSWORD: password },
    });
  let response = await signIn(ADMIN_PASSWORD);
  if (response.status() !== 200) {
    const invitation = await latestMail(request, ADMIN_EMAIL, 'INVITATION');
    response = await signIn(invitation.code ?? '');
    expect(response.status(), await response.text()).toBe(200);
    const challenge = (await response.json()) as AuthAnswer;
    expect(challenge.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
    response = await idp(request, 'RespondToAuthChallenge', {
      ChallengeName: 'NEW_PASSWORD_REQUIRED',
      ChallengeResponses: { USERNAME: ADMIN_EMAIL, NEW_PASSWORD: ADMIN_PASSWORD },
      Session: challenge.Session,
    });
  }
  expect(response.status(), await response.text()).toBe(200);
  const answer = (await response.json()) as AuthAnswer;
  expect(answer.AuthenticationResult?.AccessToken).toBeTruthy();
  return answer.AuthenticationResult!.AccessToken;
}
