import { PoolContext, type IdentityServiceDeps } from './context.ts';
import { associateSoftwareToken, setUserMfaPreference, verifySoftwareToken } from './mfa.ts';
import { changePassword, confirmForgotPassword, forgotPassword } from './password.ts';
import { getTokensFromRefreshToken, globalSignOut, revokeToken } from './sessions.ts';
import { initiateAuth, respondToAuthChallenge } from './sign-in.ts';
import { confirmSignUp, resendConfirmationCode, signUp } from './sign-up.ts';
import { getUser } from './user.ts';
import type {
  TAccessTokenOnly,
  TAssociateSoftwareToken,
  TChangePassword,
  TConfirmForgotPassword,
  TConfirmSignUp,
  TForgotPassword,
  TGetTokensFromRefreshToken,
  TInitiateAuth,
  TResendConfirmationCode,
  TRespondToAuthChallenge,
  TRevokeToken,
  TSetUserMFAPreference,
  TSignUp,
  TVerifySoftwareToken,
} from './wire.ts';

export type { Clock, IdentityServiceDeps, MfaConfiguration } from './context.ts';

/**
 * The user pool's operations, one per Cognito operation. Inputs are already shaped by wire.ts;
 * every refusal is a CognitoError with Cognito's exception name and message. Each concern has
 * its file: sign-up.ts, sign-in.ts, sessions.ts (refresh, sign-out), mfa.ts, password.ts, user.ts.
 */
export function createIdentityService(deps: IdentityServiceDeps) {
  const ctx = new PoolContext(deps);
  return {
    signUp: (input: TSignUp) => signUp(ctx, input),
    confirmSignUp: (input: TConfirmSignUp) => confirmSignUp(ctx, input),
    resendConfirmationCode: (input: TResendConfirmationCode) => resendConfirmationCode(ctx, input),
    initiateAuth: (input: TInitiateAuth) => initiateAuth(ctx, input),
    respondToAuthChallenge: (input: TRespondToAuthChallenge) => respondToAuthChallenge(ctx, input),
    getTokensFromRefreshToken: (input: TGetTokensFromRefreshToken) => getTokensFromRefreshToken(ctx, input),
    associateSoftwareToken: (input: TAssociateSoftwareToken) => associateSoftwareToken(ctx, input),
    verifySoftwareToken: (input: TVerifySoftwareToken) => verifySoftwareToken(ctx, input),
    setUserMfaPreference: (input: TSetUserMFAPreference) => setUserMfaPreference(ctx, input),
    getUser: (input: TAccessTokenOnly) => getUser(ctx, input),
    changePassword: (input: TChangePassword) => changePassword(ctx, input),
    forgotPassword: (input: TForgotPassword) => forgotPassword(ctx, input),
    confirmForgotPassword: (input: TConfirmForgotPassword) => confirmForgotPassword(ctx, input),
    globalSignOut: (input: TAccessTokenOnly) => globalSignOut(ctx, input),
    revokeToken: (input: TRevokeToken) => revokeToken(ctx, input),
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
