import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminSetUserMFAPreferenceCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  ListUsersCommand,
  UserNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import { describe, expect, it } from 'vitest';
import { passwordMeetsPolicy } from '@connect/shared';
import { CognitoIdentityAdmin, type CognitoClient } from './cognito.ts';

/**
 * AWS is not reachable from the tests, so the SDK client is replaced by a fake `send` that records
 * the commands and answers like Cognito. This checks what the adapter sends and how it maps the
 * answers; the commands' wire format is the SDK's business.
 */
type Sent = { name: string; input: Record<string, unknown> };

function fakeCognito(answer: (name: string, input: Record<string, unknown>) => unknown) {
  const sent: Sent[] = [];
  // What the adapter records for the API (lib/session-revocations.ts has its own tests).
  const revoked: { sub: string; sessions: string[] | undefined }[] = [];
  const revocations = {
    revokeUser: async (sub: string, options: { sessions?: string[] } = {}) =>
      void revoked.push({ sub, sessions: options.sessions }),
  };
  const client = {
    send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      const name = command.constructor.name;
      sent.push({ name, input: command.input });
      return answer(name, command.input);
    },
  } as unknown as CognitoClient;
  return {
    sent,
    revoked,
    admin: new CognitoIdentityAdmin({ region: 'eu-west-2', poolId: 'eu-west-2_Pool', client, revocations }),
  };
}

const createdUser = {
  Username: '5f0c1c1e-0000-4000-8000-000000000001',
  UserStatus: 'FORCE_CHANGE_PASSWORD',
  Enabled: true,
  UserCreateDate: new Date('2025-01-02T03:04:05Z'),
  Attributes: [
    { Name: 'sub', Value: '5f0c1c1e-0000-4000-8000-000000000001' },
    { Name: 'email', Value: 'new@example.com' },
    { Name: 'email_verified', Value: 'true' },
  ],
};

describe('Cognito identity administration (fake SDK client)', () => {
  it('invites with a temporary password, an email and a verified address', async () => {
    const { sent, admin } = fakeCognito(() => ({ User: createdUser }));
    const { user, password } = await admin.createUser({ email: 'New@Example.com' });
    expect(passwordMeetsPolicy(password)).toBe(true);
    expect(sent).toEqual([
      {
        name: AdminCreateUserCommand.name,
        input: {
          UserPoolId: 'eu-west-2_Pool',
          Username: 'new@example.com',
          TemporaryPassword: password,
          UserAttributes: [
            { Name: 'email', Value: 'new@example.com' },
            { Name: 'email_verified', Value: 'true' },
          ],
          DesiredDeliveryMediums: ['EMAIL'],
        },
      },
    ]);
    expect(user).toEqual({
      sub: '5f0c1c1e-0000-4000-8000-000000000001',
      username: '5f0c1c1e-0000-4000-8000-000000000001',
      email: 'new@example.com',
      status: 'FORCE_CHANGE_PASSWORD',
      enabled: true,
      totpVerified: false,
      mfaPreferred: false,
      createdAt: new Date('2025-01-02T03:04:05Z'),
    });
  });

  it('with a permanent password suppresses the invitation, sets the password and adds the groups', async () => {
    const { sent, admin } = fakeCognito((name) => (name === AdminCreateUserCommand.name ? { User: createdUser } : {}));
    const { user } = await admin.createUser({
      email: 'new@example.com',
      password: 'Given-Pass-9',
      permanent: true,
      groups: ['QUANT_ADMIN'],
    });
    expect(sent.map((s) => s.name)).toEqual([
      AdminCreateUserCommand.name,
      AdminSetUserPasswordCommand.name,
      AdminAddUserToGroupCommand.name,
    ]);
    expect(sent[0]!.input).toMatchObject({ MessageAction: 'SUPPRESS', TemporaryPassword: 'Given-Pass-9' });
    expect(sent[1]!.input).toEqual({
      UserPoolId: 'eu-west-2_Pool',
      Username: createdUser.Username,
      Password: 'Given-Pass-9',
      Permanent: true,
    });
    expect(sent[2]!.input).toMatchObject({ Username: createdUser.Username, GroupName: 'QUANT_ADMIN' });
    expect(user.status).toBe('CONFIRMED');
  });

  it('refuses a password that breaks the policy before calling AWS', async () => {
    const { sent, admin } = fakeCognito(() => ({}));
    await expect(admin.createUser({ email: 'x@example.com', password: 'weak', permanent: true })).rejects.toMatchObject(
      {
        name: 'InvalidPasswordException',
      },
    );
    expect(sent).toEqual([]);
  });

  it('maps AdminGetUser, including MFA, and answers null for an unknown user', async () => {
    const { sent, admin } = fakeCognito((_name, input) => {
      if (input.Username === 'ghost@example.com') {
        throw new UserNotFoundException({ message: 'User does not exist.', $metadata: {} });
      }
      return {
        Username: createdUser.Username,
        UserAttributes: createdUser.Attributes,
        UserStatus: 'CONFIRMED',
        Enabled: false,
        UserCreateDate: createdUser.UserCreateDate,
        UserMFASettingList: ['SOFTWARE_TOKEN_MFA'],
        PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA',
      };
    });
    expect(await admin.getUser('new@example.com')).toMatchObject({
      email: 'new@example.com',
      status: 'CONFIRMED',
      enabled: false,
      totpVerified: true,
      mfaPreferred: true,
    });
    expect(await admin.getUser('ghost@example.com')).toBeNull();
    expect(sent[0]).toEqual({
      name: AdminGetUserCommand.name,
      input: { UserPoolId: 'eu-west-2_Pool', Username: 'new@example.com' },
    });
  });

  it('passes other AWS errors on with their exception names', async () => {
    const { admin } = fakeCognito(() => {
      throw Object.assign(new Error('Rate exceeded'), { name: 'TooManyRequestsException' });
    });
    await expect(admin.getUser('new@example.com')).rejects.toMatchObject({ name: 'TooManyRequestsException' });
  });

  it('deletes, and disables the authenticator to reset MFA', async () => {
    const { sent, admin } = fakeCognito(() => ({}));
    await admin.deleteUser('new@example.com');
    await admin.resetMfa('new@example.com');
    expect(sent).toEqual([
      { name: AdminDeleteUserCommand.name, input: { UserPoolId: 'eu-west-2_Pool', Username: 'new@example.com' } },
      {
        name: AdminSetUserMFAPreferenceCommand.name,
        input: {
          UserPoolId: 'eu-west-2_Pool',
          Username: 'new@example.com',
          SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
        },
      },
    ]);
  });

  it('updates the names the pool holds with AdminUpdateUserAttributes', async () => {
    const { sent, admin } = fakeCognito(() => ({}));
    await admin.updateAttributes('new@example.com', { given_name: 'Ada', family_name: 'Lovelace' });
    expect(sent).toEqual([
      {
        name: AdminUpdateUserAttributesCommand.name,
        input: {
          UserPoolId: 'eu-west-2_Pool',
          Username: 'new@example.com',
          UserAttributes: [
            { Name: 'given_name', Value: 'Ada' },
            { Name: 'family_name', Value: 'Lovelace' },
          ],
        },
      },
    ]);
  });

  it('passes a refused attribute update on with its exception name', async () => {
    const { admin } = fakeCognito(() => {
      throw Object.assign(new Error('User does not exist.'), { name: 'UserNotFoundException' });
    });
    await expect(admin.updateAttributes('ghost@example.com', { given_name: 'Ada' })).rejects.toMatchObject({
      name: 'UserNotFoundException',
    });
  });

  it('signs a user out everywhere, recording it for the API first (AWS never tells the API)', async () => {
    const { sent, revoked, admin } = fakeCognito(() => ({}));
    await admin.signOut({ sub: createdUser.Username, username: 'new@example.com', originJti: 'this-sign-in' });
    expect(revoked).toEqual([{ sub: createdUser.Username, sessions: ['this-sign-in'] }]);
    expect(sent).toEqual([
      {
        name: AdminUserGlobalSignOutCommand.name,
        input: { UserPoolId: 'eu-west-2_Pool', Username: 'new@example.com' },
      },
    ]);
  });

  it('keeps the API refusing the tokens when AWS cannot be reached to sign out', async () => {
    const { revoked, admin } = fakeCognito(() => {
      throw Object.assign(new Error('connect ETIMEDOUT'), { name: 'TimeoutError' });
    });
    await expect(admin.signOut({ sub: 'abc', username: 'new@example.com' })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    expect(revoked).toEqual([{ sub: 'abc', sessions: [] }]);
  });

  it('lists users with the pagination token and fills in MFA from AdminGetUser', async () => {
    const { sent, admin } = fakeCognito((name, input) => {
      if (name === ListUsersCommand.name) {
        return {
          Users: [
            { ...createdUser, Username: 'u1', UserStatus: 'EXTERNAL_PROVIDER' },
            { ...createdUser, Username: 'u2', UserStatus: 'CONFIRMED' },
          ],
          PaginationToken: 'next-page',
        };
      }
      return {
        Username: input.Username,
        UserAttributes: createdUser.Attributes,
        UserMFASettingList: input.Username === 'u2' ? ['SOFTWARE_TOKEN_MFA'] : undefined,
      };
    });
    const page = await admin.listUsers({ limit: 500, paginationToken: 'this-page' });
    expect(sent[0]).toEqual({
      name: ListUsersCommand.name,
      input: { UserPoolId: 'eu-west-2_Pool', Limit: 60, PaginationToken: 'this-page' },
    });
    expect(page.paginationToken).toBe('next-page');
    expect(page.users.map((u) => [u.username, u.status, u.totpVerified])).toEqual([
      ['u1', 'UNKNOWN', false],
      ['u2', 'CONFIRMED', true],
    ]);
  });
});
