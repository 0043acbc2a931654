/** A user as the identity provider's administration sees it. */
export type IdentityUser = {
  sub: string;
  username: string;
  email: string;
  status: 'UNCONFIRMED' | 'CONFIRMED' | 'FORCE_CHANGE_PASSWORD' | 'RESET_REQUIRED' | 'UNKNOWN';
  enabled: boolean;
  /** An authenticator app has been verified for the user. */
  totpVerified: boolean;
  /** Software-token MFA is enabled and preferred. */
  mfaPreferred: boolean;
  createdAt: Date;
};

/**
 * Server-side administration of the user pool (spec: invite, delete, reset MFA, list).
 * Two implementations: the embedded pool and AWS Cognito through the AWS SDK. Admin operations
 * are never exposed over the /idp wire protocol.
 */
export interface IdentityAdmin {
  readonly mode: 'embedded' | 'cognito';
  /**
   * Creates a confirmed user. By default with a temporary password (generated unless given) and an
   * invitation email; the first sign-in then answers NEW_PASSWORD_REQUIRED. With `permanent` the
   * given password is final and no invitation is sent (the seeded administrator with ADMIN_PASSWORD).
   */
  createUser(input: { email: string; password?: string; permanent?: boolean; groups?: string[] }): Promise<{
    user: IdentityUser;
    /** The temporary password, or the permanent one as given. */
    password: string;
  }>;
  getUser(username: string): Promise<IdentityUser | null>;
  deleteUser(username: string): Promise<void>;
  /**
   * Ends every session of the user at the pool (AdminUserGlobalSignOut) and records it, so the API
   * refuses their access tokens at once (lib/session-revocations.ts). `originJti` names the sign-in
   * that asks (the API's sign-out), refused whatever the second its tokens were issued in.
   */
  signOut(user: { sub: string; username: string; originJti?: string | undefined }): Promise<void>;
  /**
   * Sets (adds or replaces) attributes of the user, as Cognito's AdminUpdateUserAttributes does; the
   * others stay. Used for the names the pool holds (given_name, family_name: PUT /user/identity).
   */
  updateAttributes(username: string, attributes: Record<string, string>): Promise<void>;
  /** Removes the user's authenticator so the next sign-in has no MFA step. */
  resetMfa(username: string): Promise<void>;
  listUsers(input: { limit: number; paginationToken?: string }): Promise<{
    users: IdentityUser[];
    paginationToken?: string;
  }>;
}
