import type { TRuntimeConfig } from '@connect/shared';
import type * as Amplify from './amplify-auth.ts';
import { session } from './storage.ts';

export type { SignInOutcome } from './amplify-auth.ts';

/**
 * Authentication (Amplify v6 Auth, spec §4), behind a facade that loads aws-amplify on first use.
 * The public pages need it only when a form is sent, and the gate only for signed-in pages, so
 * /login renders without it. The functions and what they answer are those of amplify-auth.ts.
 */

type Identity = TRuntimeConfig['identity'];
type Implementation = typeof Amplify;

let identity: Identity | undefined;
let configuredWith: Identity | undefined;
let loading: Promise<Implementation> | undefined;

function load(): Promise<Implementation> {
  loading ??= import('./amplify-auth.ts').catch((error: unknown) => {
    // A chunk that failed to load (offline, new deployment) is tried again on the next call.
    loading = undefined;
    throw error;
  });
  return loading;
}

async function amplify(): Promise<Implementation> {
  const implementation = await load();
  if (!identity) throw new Error('authentication used before configureAuth');
  if (configuredWith !== identity) {
    implementation.configureAmplify(identity);
    configuredWith = identity;
  }
  return implementation;
}

/** Amplify v6 Auth against the embedded pool (userPoolEndpoint) or AWS Cognito (no endpoint). */
export function configureAuth(config: TRuntimeConfig): void {
  identity = config.identity;
}

/** Starts loading Amplify ahead of its first use (a signed-in start, or a form about to be sent). */
export function preloadAuth(): void {
  void load().catch(() => undefined);
}

/**
 * Sign-in of spec §4: a SOFTWARE_TOKEN_MFA challenge marks the user challenged (second-factor step);
 * any other challenge keeps the temporary password for the forced new-password step; with no
 * challenge the user id is the access token's subject.
 */
export const signInWithPassword = async (email: string, password: string) =>
  (await amplify()).signInWithPassword(email, password);

/** Spec §7: confirming sign-in without a challenged user returns false. */
export const confirmSignInWithTotp = async (code: string) => (await amplify()).confirmSignInWithTotp(code);
export const completeNewPassword = async (newPassword: string) => (await amplify()).completeNewPassword(newPassword);
export const register = async (email: string, password: string, captcha?: string) =>
  (await amplify()).register(email, password, captcha);
export const confirmRegistration = async (email: string, code: string) =>
  (await amplify()).confirmRegistration(email, code);
export const resendRegistrationCode = async (email: string) => (await amplify()).resendRegistrationCode(email);
export const requestPasswordReset = async (email: string) => (await amplify()).requestPasswordReset(email);
export const confirmPasswordReset = async (email: string, code: string, newPassword: string) =>
  (await amplify()).confirmPasswordReset(email, code, newPassword);
export const changePassword = async (oldPassword: string, newPassword: string) =>
  (await amplify()).changePassword(oldPassword, newPassword);

/** TOTP set-up: the secret and the otpauth URI an authenticator app scans. */
export const startTotpSetup = async (accountName: string, issuer: string) =>
  (await amplify()).startTotpSetup(accountName, issuer);
/** Verifies the first code and makes TOTP the preferred second factor (spec §4). */
export const finishTotpSetup = async (code: string) => (await amplify()).finishTotpSetup(code);
export const disableTotp = async () => (await amplify()).disableTotp();
export const mfaPreference = async () => (await amplify()).mfaPreference();

/** The current access token, refreshed by Amplify when it has expired; null without a session. */
export const currentAccessToken = async () => (await amplify()).currentAccessToken();

/** Sign-out of spec §4: global sign-out when possible, then local state and storage cleared. */
export async function signOutEverywhere(): Promise<void> {
  const implementation = await amplify().catch(() => undefined);
  if (implementation) return implementation.signOutEverywhere();
  // Amplify could not be loaded: its JWTs live in local storage, so clearing it still signs out here.
  session.clearAll();
  localStorage.clear();
}
