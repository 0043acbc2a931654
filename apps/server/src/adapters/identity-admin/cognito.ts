import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminSetUserMFAPreferenceCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
  ListUsersCommand,
  type AttributeType,
} from '@aws-sdk/client-cognito-identity-provider';
import { assertPasswordPolicy, generateTemporaryPassword } from '../../lib/passwords.ts';
import type { SessionRevocations } from '../../lib/session-revocations.ts';
import type { IdentityAdmin, IdentityUser } from './port.ts';

/** What the adapter needs of the SDK client; tests pass a fake `send`, as AWS is not reachable from them. */
export type CognitoClient = Pick<CognitoIdentityProviderClient, 'send'>;

export type CognitoIdentityAdminOptions = {
  region: string;
  poolId: string;
  /** Where sign-outs are recorded: AWS Cognito never tells the API (a resource server) of them. */
  revocations: Pick<SessionRevocations, 'revokeUser'>;
  /** Defaults to an SDK client with the standard AWS credential chain (environment, role, ...). */
  client?: CognitoClient;
};

type CognitoUserShape = {
  Username?: string | undefined;
  Attributes?: AttributeType[] | undefined;
  UserAttributes?: AttributeType[] | undefined;
  UserStatus?: string | undefined;
  Enabled?: boolean | undefined;
  UserCreateDate?: Date | undefined;
  UserMFASettingList?: string[] | undefined;
  PreferredMfaSetting?: string | undefined;
};

const KNOWN_STATUSES = new Set<IdentityUser['status']>([
  'UNCONFIRMED',
  'CONFIRMED',
  'FORCE_CHANGE_PASSWORD',
  'RESET_REQUIRED',
]);

/** Maps AdminGetUser's and ListUsers' user shapes to the port's user. */
export function toIdentityUser(user: CognitoUserShape): IdentityUser {
  const attributes = new Map((user.Attributes ?? user.UserAttributes ?? []).map((a) => [a.Name, a.Value ?? '']));
  const status = user.UserStatus as IdentityUser['status'] | undefined;
  return {
    sub: attributes.get('sub') ?? user.Username ?? '',
    username: user.Username ?? '',
    email: attributes.get('email') ?? '',
    status: status && KNOWN_STATUSES.has(status) ? status : 'UNKNOWN',
    enabled: user.Enabled ?? true,
    totpVerified: user.UserMFASettingList?.includes('SOFTWARE_TOKEN_MFA') ?? false,
    mfaPreferred: user.PreferredMfaSetting === 'SOFTWARE_TOKEN_MFA',
    createdAt: user.UserCreateDate ?? new Date(0),
  };
}

const isUserNotFound = (error: unknown) => error instanceof Error && error.name === 'UserNotFoundException';

/**
 * The identity-admin port over AWS Cognito's Admin* operations (SigV4-signed by the SDK). Errors
 * keep the SDK's exception names (UsernameExistsException, UserNotFoundException, ...), the same
 * names the embedded pool's admin throws.
 */
export class CognitoIdentityAdmin implements IdentityAdmin {
  readonly mode = 'cognito' as const;
  private readonly client: CognitoClient;
  private readonly poolId: string;
  private readonly revocations: CognitoIdentityAdminOptions['revocations'];

  constructor(options: CognitoIdentityAdminOptions) {
    this.poolId = options.poolId;
    this.revocations = options.revocations;
    this.client = options.client ?? new CognitoIdentityProviderClient({ region: options.region });
  }

  async createUser(input: { email: string; password?: string; permanent?: boolean; groups?: string[] }) {
    const email = input.email.trim().toLowerCase();
    if (input.permanent && input.password === undefined) throw new Error('A permanent password must be given.');
    const password = input.password ?? generateTemporaryPassword();
    // The pool enforces its own policy too; checking first refuses a bad password before a user exists.
    assertPasswordPolicy(password);
    const created = await this.client.send(
      new AdminCreateUserCommand({
        UserPoolId: this.poolId,
        Username: email,
        TemporaryPassword: password,
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
        ],
        DesiredDeliveryMediums: ['EMAIL'],
        // A permanent password needs no invitation: the administrator already knows it.
        ...(input.permanent ? { MessageAction: 'SUPPRESS' as const } : {}),
      }),
    );
    const username = created.User?.Username ?? email;
    if (input.permanent) {
      await this.client.send(
        new AdminSetUserPasswordCommand({
          UserPoolId: this.poolId,
          Username: username,
          Password: password,
          Permanent: true,
        }),
      );
    }
    // The groups must exist in the pool; AWS refuses unknown ones (ResourceNotFoundException).
    for (const group of input.groups ?? []) {
      await this.client.send(
        new AdminAddUserToGroupCommand({ UserPoolId: this.poolId, Username: username, GroupName: group }),
      );
    }
    const user = toIdentityUser({ ...created.User, Username: username });
    return { user: input.permanent ? { ...user, status: 'CONFIRMED' as const } : user, password };
  }

  async getUser(username: string): Promise<IdentityUser | null> {
    try {
      const found = await this.client.send(new AdminGetUserCommand({ UserPoolId: this.poolId, Username: username }));
      return toIdentityUser(found);
    } catch (error) {
      if (isUserNotFound(error)) return null;
      throw error;
    }
  }

  async deleteUser(username: string): Promise<void> {
    await this.client.send(new AdminDeleteUserCommand({ UserPoolId: this.poolId, Username: username }));
  }

  async signOut(user: { sub: string; username: string; originJti?: string | undefined }): Promise<void> {
    // Recorded first: the API refuses the tokens even if AWS cannot be reached now.
    await this.revocations.revokeUser(user.sub, { sessions: user.originJti ? [user.originJti] : [] });
    await this.client.send(new AdminUserGlobalSignOutCommand({ UserPoolId: this.poolId, Username: user.username }));
  }

  async updateAttributes(username: string, attributes: Record<string, string>): Promise<void> {
    await this.client.send(
      new AdminUpdateUserAttributesCommand({
        UserPoolId: this.poolId,
        Username: username,
        UserAttributes: Object.entries(attributes).map(([Name, Value]) => ({ Name, Value })),
      }),
    );
  }

  async resetMfa(username: string): Promise<void> {
    await this.client.send(
      new AdminSetUserMFAPreferenceCommand({
        UserPoolId: this.poolId,
        Username: username,
        SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
      }),
    );
  }

  async listUsers(input: { limit: number; paginationToken?: string }) {
    const listed = await this.client.send(
      new ListUsersCommand({
        UserPoolId: this.poolId,
        Limit: Math.min(Math.max(Math.trunc(input.limit), 1), 60),
        ...(input.paginationToken ? { PaginationToken: input.paginationToken } : {}),
      }),
    );
    // ListUsers says nothing about MFA; AdminGetUser per listed user fills it in (a page is at
    // most 60 users, well inside Cognito's request quota for user reads).
    const users = await Promise.all(
      (listed.Users ?? []).map(async (listedUser) => {
        const base = toIdentityUser(listedUser);
        const detailed = await this.getUser(base.username);
        return detailed ? { ...base, totpVerified: detailed.totpVerified, mfaPreferred: detailed.mfaPreferred } : base;
      }),
    );
    return { users, ...(listed.PaginationToken ? { paginationToken: listed.PaginationToken } : {}) };
  }
}
