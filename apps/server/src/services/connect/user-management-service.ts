import type { Database } from '@connect/db';
import {
  isStaffRole,
  LIMITS,
  mfaStatusOf,
  type TManagementUser,
  type TManagementUsersResponse,
  type UserStatus,
  type ZInviteUserRequest,
  type ZManagementUsersQuery,
  type ZUpdateManagedUserRequest,
} from '@connect/shared';
import type { z } from 'zod';
import type { IdentityAdmin } from '../../adapters/identity-admin/port.ts';
import type { EventBus } from '../../events/port.ts';
import { problem } from '../../lib/errors.ts';
import type { PortalUser } from '../../lib/portal-users.ts';
import { AuditLogRepository, SYSTEM_ACTOR, type AuditActor, type AuditRecord } from '../../repositories/audit-log.ts';
import { createPortalUser } from '../../repositories/portal-users.ts';
import { UserManagementRepository, type ListedUser } from './user-management-repository.ts';

type UsersQuery = z.output<typeof ZManagementUsersQuery>;
type InviteRequest = z.output<typeof ZInviteUserRequest>;
type UpdateRequest = z.output<typeof ZUpdateManagedUserRequest>;

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** The row details' MFA status (spec §8): an invited user who never signed in "will be active on first login". */
function managedMfaStatus(user: ListedUser): TManagementUser['mfaStatus'] {
  if (user.status === 'PENDING' && !user.firstLoginAt) return 'FIRST_LOGIN';
  return mfaStatusOf(user.mfaSetup, user.mfaConfirm);
}

export function presentManagedUser(user: ListedUser): TManagementUser {
  return {
    userId: user.userId,
    accountId: user.accountId,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    role: user.role,
    status: user.status,
    organisationName: user.organisationName,
    statusChangedAt: user.statusChangedAt.toISOString(),
    addedBy: user.addedBy,
    removedBy: user.removedBy,
    onfidoApplicantStatus: user.kycStatus,
    firstLoginAt: iso(user.firstLoginAt),
    lastLoginAt: iso(user.lastLoginAt),
    mfaStatus: managedMfaStatus(user),
  };
}

/** What an edit or removal records as the user's values. */
const snapshot = (user: ListedUser) => ({
  firstName: user.firstName,
  lastName: user.lastName,
  role: user.role,
  organisationName: user.organisationName,
  status: user.status,
});

/**
 * User management (issue 32 §3; spec §2 User management, §6 admin-only calls). Every action is
 * audited: changes in this database in their own transaction, identity-pool changes as an intent
 * before the call and its outcome after (repositories/audit-log.ts).
 */
export class UserManagementService {
  private readonly repo: UserManagementRepository;

  constructor(
    private readonly db: Database,
    private readonly identityAdmin: IdentityAdmin,
    private readonly events: EventBus,
    /** Told after a commit that closed or reopened an account, so the gateway forgets what it knew at once. */
    private readonly onAccountChanged: (accountId: string) => void = () => {},
  ) {
    this.repo = new UserManagementRepository(db);
  }

  async list(query: UsersQuery): Promise<TManagementUsersResponse> {
    const counts = await this.repo.statusCounts();
    const { paging, users } = await this.repo.list(
      { status: query.status, searchTerm: query.searchTerm },
      { page: query.page, size: query.size, sort: query.sort, cursor: query.cursor },
      counts[query.status],
    );
    return {
      ...paging,
      userList: users.map(presentManagedUser),
      statusesList: (Object.entries(counts) as [UserStatus, number][]).map(([userStatus, statusCount]) => ({
        userStatus,
        statusCount,
      })),
    };
  }

  private async existing(userId: string, repo = this.repo, forUpdate = false): Promise<ListedUser> {
    const user = await repo.find(userId, { forUpdate });
    if (!user) throw problem('USER_NOT_FOUND');
    return user;
  }

  /**
   * Invites a user: the identity pool creates them with a temporary password and mails the
   * invitation; the portal user is PENDING until their first sign-in. Staff join the inviting
   * staff member's organisation; a customer gets a new account named `organisationName`.
   */
  async invite(actor: PortalUser & AuditActor, input: InviteRequest): Promise<TManagementUser> {
    if (await this.repo.emailTaken(input.email)) throw problem('USER_EXISTS');
    const audit = new AuditLogRepository(this.db);
    const entry: AuditRecord = {
      action: 'USER_INVITED',
      recordType: 'user',
      recordId: input.email,
      after: { email: input.email, firstName: input.firstName, lastName: input.lastName, role: input.role },
    };
    const intent = await audit.intent(actor, entry);
    let created: Awaited<ReturnType<IdentityAdmin['createUser']>>;
    try {
      created = await this.identityAdmin.createUser({
        email: input.email,
        groups: isStaffRole(input.role) ? [input.role] : [],
      });
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      await audit.outcome(actor, intent, { ok: false, detail });
      if (/exist/i.test(detail)) throw problem('USER_EXISTS');
      throw problem('IDENTITY_POOL_FAILED', { detail: `Invite user failed: ${detail}` });
    }
    const userId = created.user.sub;
    await this.repo.transaction(async (repo, tx) => {
      if (isStaffRole(input.role)) {
        await repo.insertInvitedUser({
          id: userId,
          accountId: actor.accountId,
          email: input.email,
          role: input.role,
          firstName: input.firstName,
          lastName: input.lastName,
          addedBy: actor.email,
        });
      } else {
        await createPortalUser(tx, this.events, {
          id: userId,
          email: input.email,
          role: input.role,
          status: 'PENDING',
          addedBy: actor.email,
          firstName: input.firstName,
          lastName: input.lastName,
          ...(input.organisationName ? { organisationName: input.organisationName } : {}),
        });
      }
      await new AuditLogRepository(tx).outcome(actor, intent, {
        ok: true,
        after: { ...entry.after, userId, organisationName: input.organisationName ?? null },
      });
    });
    return presentManagedUser(await this.existing(userId));
  }

  /**
   * Edits names, role (within staff or within customer roles) and the customer's organisation.
   * Changed names reach the identity pool first, as the user's own edit does (decision "Names live
   * in the identity pool too"): a pool that fails leaves the portal as it was, and a refused edit
   * gives the pool its names back.
   */
  async update(actor: PortalUser & AuditActor, input: UpdateRequest): Promise<TManagementUser> {
    const before = await this.existing(input.userId);
    const isRenamed = before.firstName !== input.firstName || before.lastName !== input.lastName;
    if (isRenamed && before.status !== 'REMOVED') await this.writePoolNames(before.email, input);
    try {
      await this.edit(actor, input);
    } catch (error) {
      if (isRenamed && before.status !== 'REMOVED') {
        await this.writePoolNames(before.email, {
          firstName: before.firstName ?? '',
          lastName: before.lastName ?? '',
        }).catch(() => undefined);
      }
      throw error;
    }
    return presentManagedUser(await this.existing(input.userId));
  }

  private async writePoolNames(username: string, names: { firstName: string; lastName: string }): Promise<void> {
    try {
      await this.identityAdmin.updateAttributes(username, { given_name: names.firstName, family_name: names.lastName });
    } catch (error) {
      // A user the pool no longer holds (never signed up there, or deleted) keeps the portal's edit.
      if (error instanceof Error && error.name === 'UserNotFoundException') return;
      throw problem('IDENTITY_POOL_FAILED');
    }
  }

  private async edit(actor: PortalUser & AuditActor, input: UpdateRequest): Promise<void> {
    await this.repo.transaction(async (repo, tx) => {
      const user = await this.existing(input.userId, repo, true);
      if (user.status === 'REMOVED') throw problem('USER_ALREADY_REMOVED');
      if (isStaffRole(user.role) !== isStaffRole(input.role)) {
        throw problem('STAFF_ROLE_FOR_CUSTOMER', {
          invalidParams: [
            { name: 'role', reason: 'Staff roles are only for staff, and customer roles only for customers.' },
          ],
        });
      }
      if (input.role !== user.role) {
        if (user.userId === actor.id) throw problem('CANNOT_CHANGE_SELF');
        if (user.role === 'QUANT_ADMIN' && (await repo.otherLiveWithRole('QUANT_ADMIN', user.userId)) === 0) {
          throw problem('LAST_ADMIN');
        }
      }
      await repo.updateUser(user.userId, { firstName: input.firstName, lastName: input.lastName, role: input.role });
      const organisationName = isStaffRole(user.role) ? user.organisationName : (input.organisationName ?? null);
      if (organisationName !== user.organisationName) await repo.renameAccount(user.accountId, organisationName);
      const after = await this.existing(user.userId, repo);
      await new AuditLogRepository(tx).record(actor, {
        action: 'USER_UPDATED',
        recordType: 'user',
        recordId: user.userId,
        before: snapshot(user),
        after: snapshot(after),
      });
    });
  }

  /**
   * Removes the user (REMOVED, with who removed them) and ends their sessions at once. The account's
   * last user closes the account (its applications' credentials are refused by the gateway).
   */
  async remove(actor: PortalUser & AuditActor, userId: string): Promise<TManagementUser> {
    if (userId === actor.id) throw problem('CANNOT_CHANGE_SELF');
    const removed = await this.repo.transaction(async (repo, tx) => {
      const user = await this.existing(userId, repo, true);
      if (user.status === 'REMOVED') throw problem('USER_ALREADY_REMOVED');
      if (user.role === 'QUANT_ADMIN' && (await repo.otherLiveWithRole('QUANT_ADMIN', user.userId)) === 0) {
        throw problem('LAST_ADMIN');
      }
      const { accountClosed } = await repo.removeUser(user.userId, user.accountId, actor.email);
      await new AuditLogRepository(tx).record(actor, {
        action: 'USER_REMOVED',
        recordType: 'user',
        recordId: user.userId,
        before: snapshot(user),
        after: { ...snapshot(user), status: 'REMOVED', removedBy: actor.email, accountClosed },
      });
      return { ...user, accountClosed };
    });
    if (removed.accountClosed) this.onAccountChanged(removed.accountId);
    // As sign-out does: the pool ends the sessions and the API refuses their tokens from now on.
    await this.identityAdmin.signOut({ sub: removed.userId, username: removed.email });
    return presentManagedUser(await this.existing(userId));
  }

  /**
   * Restores a removed user: ACTIVE again, their account reopened (its applications' credentials
   * work again). Not when the address now belongs to another user, nor after the 90-day purge
   * deleted them from the identity pool (they are invited again instead).
   */
  async restore(actor: PortalUser & AuditActor, userId: string): Promise<TManagementUser> {
    const user = await this.existing(userId);
    if (user.status !== 'REMOVED') throw problem('USER_NOT_REMOVED');
    if (!(await this.identityAdmin.getUser(user.email))) throw problem('USER_NOT_RESTORABLE');
    const { accountReopened } = await this.repo.transaction(async (repo, tx) => {
      const current = await this.existing(userId, repo, true);
      if (current.status !== 'REMOVED') throw problem('USER_NOT_REMOVED');
      if (await repo.emailTaken(current.email)) throw problem('USER_EXISTS');
      const result = await repo.restoreUser(current.userId, current.accountId);
      await new AuditLogRepository(tx).record(actor, {
        action: 'USER_RESTORED',
        recordType: 'user',
        recordId: current.userId,
        before: snapshot(current),
        after: { ...snapshot(current), status: 'ACTIVE', accountReopened: result.accountReopened },
      });
      return result;
    });
    if (accountReopened) this.onAccountChanged(user.accountId);
    return presentManagedUser(await this.existing(userId));
  }

  /** Removes the user's authenticator at the identity pool; their next sign-in has no MFA step. */
  async resetMfa(actor: PortalUser & AuditActor, userId: string): Promise<TManagementUser> {
    const user = await this.existing(userId);
    if (user.status === 'REMOVED') throw problem('USER_ALREADY_REMOVED');
    const audit = new AuditLogRepository(this.db);
    const mfa = (setup: boolean, confirm: boolean) => ({ mfaStatus: mfaStatusOf(setup, confirm) });
    const intent = await audit.intent(actor, {
      action: 'USER_MFA_RESET',
      recordType: 'user',
      recordId: user.userId,
      before: mfa(user.mfaSetup, user.mfaConfirm),
      after: mfa(false, false),
    });
    try {
      await this.identityAdmin.resetMfa(user.email);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      await audit.outcome(actor, intent, { ok: false, detail });
      throw problem('IDENTITY_POOL_FAILED', { detail });
    }
    await this.repo.transaction(async (repo, tx) => {
      await repo.updateUser(user.userId, { mfaSetup: false, mfaConfirm: false });
      await new AuditLogRepository(tx).outcome(actor, intent, { ok: true });
    });
    return presentManagedUser(await this.existing(userId));
  }

  /**
   * The daily purge (spec §9: pending users are removed after 90 days): each pending user invited
   * longer ago is deleted from the identity pool (so the address can register again) and marked
   * REMOVED by 'system'. Answers how many were purged.
   */
  async purgePending(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - LIMITS.pendingUserRetentionDays * 86_400_000);
    const audit = new AuditLogRepository(this.db);
    let purged = 0;
    for (const pending of await this.repo.pendingSince(before, 500)) {
      const intent = await audit.intent(SYSTEM_ACTOR, {
        action: 'USER_PURGED',
        recordType: 'user',
        recordId: pending.id,
        before: { email: pending.email, status: 'PENDING' },
        after: { status: 'REMOVED', removedBy: 'system' },
      });
      try {
        // A crash after an earlier deletion left the pool without the user: nothing to delete.
        if (await this.identityAdmin.getUser(pending.email)) await this.identityAdmin.deleteUser(pending.email);
      } catch (error) {
        await audit.outcome(SYSTEM_ACTOR, intent, {
          ok: false,
          detail: error instanceof Error ? error.message : String(error),
        });
        continue;
      }
      const { accountClosed } = await this.repo.transaction(async (repo, tx) => {
        const result = await repo.removeUser(pending.id, pending.accountId, 'system');
        await new AuditLogRepository(tx).outcome(SYSTEM_ACTOR, intent, { ok: true });
        return result;
      });
      if (accountClosed) this.onAccountChanged(pending.accountId);
      purged += 1;
    }
    return purged;
  }
}
