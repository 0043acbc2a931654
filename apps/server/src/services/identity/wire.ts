import { z } from 'zod';

/**
 * Request bodies of the operations the pool speaks, with Cognito's field names. Objects are not
 * strict: clients send fields the pool ignores (ClientMetadata, UserContextData, DeviceKey, ...).
 */
const ClientId = z.string().min(1).max(128);
const Username = z.string().min(1).max(128);
const Password = z.string().min(1).max(256);
const Code = z.string().min(1).max(2048);
const Token = z.string().min(1).max(16_384);
const Session = z.string().min(1).max(2048);
const StringMap = z.record(z.string(), z.string());
const Attributes = z
  .array(z.object({ Name: z.string().min(1).max(32), Value: z.string().max(2048).optional() }))
  .max(50);
const MfaSettings = z.object({ Enabled: z.boolean().optional(), PreferredMfa: z.boolean().optional() });

export const ZSignUp = z.object({
  ClientId,
  Username,
  Password,
  UserAttributes: Attributes.optional(),
  /** Amplify's `options.validationData`; the pool reads `captcha` from it (SIGNUP_CAPTCHA). */
  ValidationData: Attributes.optional(),
});
export const ZConfirmSignUp = z.object({ ClientId, Username, ConfirmationCode: Code });
export const ZResendConfirmationCode = z.object({ ClientId, Username });
export const ZInitiateAuth = z.object({
  ClientId,
  AuthFlow: z.string().min(1).max(64),
  AuthParameters: StringMap.optional(),
});
export const ZGetTokensFromRefreshToken = z.object({ ClientId, RefreshToken: Token });
export const ZRespondToAuthChallenge = z.object({
  ClientId,
  ChallengeName: z.string().min(1).max(64),
  Session,
  ChallengeResponses: StringMap.optional(),
});
export const ZAssociateSoftwareToken = z.object({ AccessToken: Token.optional(), Session: Session.optional() });
export const ZVerifySoftwareToken = z.object({
  AccessToken: Token.optional(),
  Session: Session.optional(),
  UserCode: z.string().min(1).max(32),
  FriendlyDeviceName: z.string().max(256).optional(),
});
export const ZSetUserMFAPreference = z.object({
  AccessToken: Token,
  SoftwareTokenMfaSettings: MfaSettings.optional(),
  SMSMfaSettings: MfaSettings.optional(),
  EmailMfaSettings: MfaSettings.optional(),
});
export const ZAccessTokenOnly = z.object({ AccessToken: Token });
export const ZChangePassword = z.object({ AccessToken: Token, PreviousPassword: Password, ProposedPassword: Password });
export const ZForgotPassword = z.object({ ClientId, Username });
export const ZConfirmForgotPassword = z.object({ ClientId, Username, ConfirmationCode: Code, Password });
export const ZRevokeToken = z.object({ ClientId, Token });

export type TSignUp = z.infer<typeof ZSignUp>;
export type TConfirmSignUp = z.infer<typeof ZConfirmSignUp>;
export type TResendConfirmationCode = z.infer<typeof ZResendConfirmationCode>;
export type TInitiateAuth = z.infer<typeof ZInitiateAuth>;
export type TGetTokensFromRefreshToken = z.infer<typeof ZGetTokensFromRefreshToken>;
export type TRespondToAuthChallenge = z.infer<typeof ZRespondToAuthChallenge>;
export type TAssociateSoftwareToken = z.infer<typeof ZAssociateSoftwareToken>;
export type TVerifySoftwareToken = z.infer<typeof ZVerifySoftwareToken>;
export type TSetUserMFAPreference = z.infer<typeof ZSetUserMFAPreference>;
export type TAccessTokenOnly = z.infer<typeof ZAccessTokenOnly>;
export type TChangePassword = z.infer<typeof ZChangePassword>;
export type TForgotPassword = z.infer<typeof ZForgotPassword>;
export type TConfirmForgotPassword = z.infer<typeof ZConfirmForgotPassword>;
export type TRevokeToken = z.infer<typeof ZRevokeToken>;

export type CodeDeliveryDetails = { Destination: string; DeliveryMedium: 'EMAIL'; AttributeName: 'email' };
export type AttributeType = { Name: string; Value: string };

/** The JWTs (and, at a sign-in or a rotation, the refresh token) an operation answers. */
export type AuthenticationResult = {
  AccessToken: string;
  IdToken: string;
  RefreshToken?: string;
  ExpiresIn: number;
  TokenType: 'Bearer';
};

export type Challenge = 'SOFTWARE_TOKEN_MFA' | 'NEW_PASSWORD_REQUIRED' | 'MFA_SETUP';

export type SignInResult =
  | { AuthenticationResult: AuthenticationResult; ChallengeParameters: Record<string, string> }
  | { ChallengeName: Challenge; Session: string; ChallengeParameters: Record<string, string> };
