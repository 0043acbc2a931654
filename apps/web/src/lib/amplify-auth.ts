// The Amplify side of lib/auth.ts, loaded on first use: import it only through that facade, so
// aws-amplify (~40 KB gzipped) stays out of the pages that never talk to the identity pool.
import { Amplify } from 'aws-amplify';
import {
  confirmResetPassword,
  confirmSignIn,
  confirmSignUp,
  fetchAuthSession,
  fetchMFAPreference,
  resendSignUpCode,
  resetPassword,
  setUpTOTP,
  signIn,
  signOut,
  signUp,
  updateMFAPreference,
  updatePassword,
  verifyTOTPSetup,
} from 'aws-amplify/auth';
import { ConsoleLogger } from 'aws-amplify/utils';
import type { TRuntimeConfig } from '@connect/shared';
import { LIMITS } from '@connect/shared/light';
import { createApiClient } from './api-client.ts';
import { session } from './storage.ts';

/**
 * Amplify v6 Auth against the embedded pool (userPoolEndpoint) or AWS Cognito (no endpoint). The
 * embedded pool answers on the portal's own origin (/idp): its endpoint is resolved against the
 * address the page was opened at, so the portal works at any host name, behind any proxy.
 */
export function configureAmplify(identity: TRuntimeConfig['identity']): void {
  const endpoint = identity.userPoolEndpoint && new URL(identity.userPoolEndpoint, window.location.origin).href;
  const configure = () =>
    Amplify.configure({
      Auth: {
        Cognito: {
          userPoolId: identity.userPoolId,
          userPoolClientId: identity.userPoolClientId,
          ...(endpoint ? { userPoolEndpoint: endpoint } : {}),
          loginWith: { email: true },
          signUpVerificationMethod: 'code',
        },
      },
    });
  if (!endpoint) return configure();
  // Amplify warns on every configure that a custom user pool endpoint is set ("ensure the endpoint
  // is correct"): the embedded pool is that endpoint by design. Its logger has no per-message
  // switch, so its own level is raised for this call only, whose only warnings are the endpoint
  // notices; every later Amplify warning still reaches the console.
  const level = ConsoleLogger.LOG_LEVEL;
  ConsoleLogger.LOG_LEVEL = 'ERROR';
  try {
    configure();
  } finally {
    ConsoleLogger.LOG_LEVEL = level;
  }
}

export type SignInOutcome =
  { kind: 'signedIn'; userUuid: string } | { kind: 'mfa' } | { kind: 'newPassword' } | { kind: 'confirmSignUp' };

async function currentUserUuid(): Promise<string> {
  // Amplify's `tokens` are the session's JWTs (access and id token), not ERC tokens.
  const { tokens: sessionJwts } = await fetchAuthSession();
  const sub = sessionJwts?.accessToken.payload.sub;
  if (!sub) throw new Error('The identity provider returned no session');
  return sub;
}

/**
 * Sign-in of spec §4: a SOFTWARE_TOKEN_MFA challenge marks the user challenged (second-factor step);
 * any other challenge keeps the temporary password for the forced new-password step; with no
 * challenge the user id is the access token's subject.
 */
export async function signInWithPassword(email: string, password: string): Promise<SignInOutcome> {
  // A stale session in this tab would make Amplify refuse to sign in again.
  await signOut().catch(() => undefined);
  const result = await signIn({ username: email, password, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
  switch (result.nextStep.signInStep) {
    case 'DONE':
      return { kind: 'signedIn', userUuid: await currentUserUuid() };
    case 'CONFIRM_SIGN_IN_WITH_TOTP_CODE':
      session.setChallengedUser({ username: email });
      return { kind: 'mfa' };
    case 'CONFIRM_SIGN_UP':
      return { kind: 'confirmSignUp' };
    default:
      session.setTemporaryPassword(password);
      return { kind: 'newPassword' };
  }
}

/** Spec §7: confirming sign-in without a challenged user returns false. */
export async function confirmSignInWithTotp(code: string): Promise<string | false> {
  if (!session.challengedUser()) return false;
  const result = await confirmSignIn({ challengeResponse: code });
  if (result.nextStep.signInStep !== 'DONE') return false;
  session.clearChallengedUser();
  return currentUserUuid();
}

export async function completeNewPassword(newPassword: string): Promise<string> {
  const result = await confirmSignIn({ challengeResponse: newPassword });
  session.clearTemporaryPassword();
  if (result.nextStep.signInStep === 'CONFIRM_SIGN_IN_WITH_TOTP_CODE') {
    throw Object.assign(new Error('A second factor is required'), { name: 'MfaRequired' });
  }
  return currentUserUuid();
}

export async function register(email: string, password: string, captcha?: string): Promise<void> {
  await signUp({
    username: email,
    password,
    options: {
      userAttributes: { email },
      ...(captcha ? { validationData: { captcha } } : {}),
    },
  });
}

export const confirmRegistration = (email: string, code: string) =>
  confirmSignUp({ username: email, confirmationCode: code });
export const resendRegistrationCode = (email: string) => resendSignUpCode({ username: email });
export const requestPasswordReset = (email: string) => resetPassword({ username: email });
export const confirmPasswordReset = (email: string, code: string, newPassword: string) =>
  confirmResetPassword({ username: email, confirmationCode: code, newPassword });
export const changePassword = (oldPassword: string, newPassword: string) =>
  updatePassword({ oldPassword, newPassword });

/** TOTP set-up: the secret and the otpauth URI an authenticator app scans. */
export async function startTotpSetup(accountName: string, issuer: string) {
  const details = await setUpTOTP();
  return { secret: details.sharedSecret, uri: details.getSetupUri(issuer, accountName).toString() };
}

/** Verifies the first code and makes TOTP the preferred second factor (spec §4). */
export async function finishTotpSetup(code: string): Promise<void> {
  await verifyTOTPSetup({ code });
  await updateMFAPreference({ totp: 'PREFERRED' });
}

export const disableTotp = () => updateMFAPreference({ totp: 'DISABLED' });
export const mfaPreference = () => fetchMFAPreference();

/**
 * The current access token; null without a session. Spec §4/§9 name a 60-second session refresh
 * threshold: an access token that expires within 60 seconds is refreshed before it is sent, so a
 * request never leaves with one that lapses on its way (Amplify alone refreshes only 5 s before).
 */
export async function currentAccessToken(now: number = Date.now()): Promise<string | null> {
  const { tokens: sessionJwts } = await fetchAuthSession();
  if (!sessionJwts) return null;
  const expiresAt = (sessionJwts.accessToken.payload.exp ?? 0) * 1000;
  if (expiresAt - now > LIMITS.sessionRefreshThresholdSeconds * 1000) return sessionJwts.accessToken.toString();
  const refreshed = await fetchAuthSession({ forceRefresh: true });
  return refreshed.tokens?.accessToken.toString() ?? null;
}

/**
 * The API's sign-out, with its own short timeout and no session-ending reaction: it runs while the
 * session ends (the request layer in api.ts would end it once more on a refusal).
 */
const signOutApi = createApiClient({
  getAccessToken: () => currentAccessToken(),
  onSessionLost: () => undefined,
  timeoutMs: 5000,
});

/**
 * Sign-out of spec §4: global, then local state and storage cleared. It goes through the API first,
 * which records it (so every node of the API refuses the session's JWTs at once; AWS Cognito never
 * tells the API) and forwards it to the pool; Amplify then only forgets its JWTs here. When the
 * API cannot be reached, the pool is asked directly; either way the user ends up signed out here.
 */
export async function signOutEverywhere(): Promise<void> {
  const isSignedOutByApi = await signOutApi.connect.post('/sign-out').then(
    () => true,
    () => false,
  );
  await signOut(isSignedOutByApi ? undefined : { global: true }).catch(() => signOut().catch(() => undefined));
  session.clearAll();
  // Cookie consent lives in a cookie, so clearing local storage does not ask for it again.
  localStorage.clear();
}
