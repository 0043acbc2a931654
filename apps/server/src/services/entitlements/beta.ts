import type { Database } from '@connect/db';
import type {
  TBetaFeature,
  TBetaFeatureForm,
  TBetaParticipant,
  TManagedBetaFeature,
  TBetaFeatureList,
} from '@connect/shared';
import { fieldProblem, notFound } from '../../lib/errors.ts';
import { isUniqueViolation, pgErrorCode } from '../../lib/db-errors.ts';
import { AuditLogRepository, type AuditActor } from '../../repositories/audit-log.ts';
import { BetaParticipantsReadModel, type BetaParticipantRecord } from '../../read-models/beta-participants.ts';
import {
  BetaRepository,
  type BetaFeatureRow,
  type ManagedBetaFeatureRow,
  type VisibleBetaFeatureRow,
} from './beta-repository.ts';
import { Entitlements } from './service.ts';

const PG_FOREIGN_KEY_VIOLATION = '23503';
const FEATURE_RECORD = 'beta_feature';
/** Opt-ins and invitations are about an account: the staff console's account panel lists them. */
const ACCOUNT_RECORD = 'account';

/** The customer: who acts, for which account. */
export type BetaCaller = AuditActor & { id: string; accountId: string };

type BetaFeatureKey = TBetaFeature['featureKey'];

const notFoundFeature = () => notFound('BETA_FEATURE_NOT_FOUND');

/** What customers and staff both see of a feature. */
function presentFeature(row: ManagedBetaFeatureRow | VisibleBetaFeatureRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    featureKey: row.featureKey as BetaFeatureKey,
    access: row.access,
  };
}

function presentManaged(row: ManagedBetaFeatureRow): TManagedBetaFeature {
  return {
    ...presentFeature(row),
    optIns: row.optIns,
    invitations: row.invitations,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function presentParticipant(row: BetaParticipantRecord): TBetaParticipant {
  return { ...row, optedInAt: row.optedInAt?.toISOString() ?? null };
}

/** What the audit log keeps of a catalogue entry: what staff set. */
const audited = (row: BetaFeatureRow) => ({
  name: row.name,
  description: row.description,
  featureKey: row.featureKey,
  access: row.access,
});

/** What an opt-in's or an invitation's audit entry names: the feature, as it is now. */
const featureOf = (row: BetaFeatureRow) => ({ betaFeatureId: row.id, name: row.name, featureKey: row.featureKey });

/** The keys whose values differ, before and after (the audit log keeps what an action changed). */
function changes(before: Record<string, unknown>, after: Record<string, unknown>) {
  const keys = Object.keys(after).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  return {
    before: Object.fromEntries(keys.map((key) => [key, before[key]])),
    after: Object.fromEntries(keys.map((key) => [key, after[key]])),
  };
}

/**
 * Connect Beta (issue 35 §1): the catalogue staff keep, their invitations, and the accounts'
 * opt-ins. An opt-in turns the feature's key on for the account through the feature map
 * (service.ts featureMap) while the account may have it and has connectBeta; a staff override of
 * the key switched off wins. Every write is one transaction with its audit entry.
 */
export class ConnectBeta {
  private readonly repo: BetaRepository;

  constructor(private readonly db: Database) {
    this.repo = new BetaRepository(db);
  }

  // ---- customers ------------------------------------------------------------------------------

  async list(caller: BetaCaller): Promise<TBetaFeatureList> {
    const entitlements = new Entitlements(this.db);
    await entitlements.requireFeature(caller.accountId, 'connectBeta');
    const [rows, off] = await Promise.all([this.repo.visibleTo(caller.accountId), this.offKeys(caller.accountId)]);
    return { features: rows.map((row) => this.present(row, off)) };
  }

  /** Opts the caller's account in (again: the same answer, nothing written). */
  optIn(caller: BetaCaller, id: string): Promise<TBetaFeature> {
    return this.change(caller, id, true);
  }

  /** Opts the caller's account out (again: the same answer, nothing written). */
  optOut(caller: BetaCaller, id: string): Promise<TBetaFeature> {
    return this.change(caller, id, false);
  }

  private async change(caller: BetaCaller, id: string, optIn: boolean): Promise<TBetaFeature> {
    await new Entitlements(this.db).requireFeature(caller.accountId, 'connectBeta');
    const row = await this.repo.transaction(async (repo, tx) => {
      const feature = await repo.visibleFeature(id, caller.accountId);
      if (!feature) throw notFoundFeature();
      const changed = optIn
        ? await repo.optIn(id, caller.accountId, caller.id)
        : await repo.optOut(id, caller.accountId);
      if (changed) {
        await new AuditLogRepository(tx).record(caller, {
          action: optIn ? 'BETA_OPTED_IN' : 'BETA_OPTED_OUT',
          recordType: ACCOUNT_RECORD,
          recordId: caller.accountId,
          before: { ...featureOf(feature), optedIn: !optIn },
          after: { ...featureOf(feature), optedIn: optIn },
        });
      }
      return { ...feature, optedIn: optIn };
    });
    return this.present(row, await this.offKeys(caller.accountId));
  }

  /** The feature keys a staff override switched off for the account. */
  private async offKeys(accountId: string): Promise<Set<string>> {
    const overrides = await new Entitlements(this.db).overrides(accountId);
    return new Set(overrides.filter((o) => 'enabled' in o.value && !o.value.enabled).map((o) => o.key));
  }

  private present(row: VisibleBetaFeatureRow, off: Set<string>): TBetaFeature {
    return {
      ...presentFeature(row),
      optedIn: row.optedIn,
      overriddenOff: off.has(row.featureKey),
    };
  }

  // ---- staff ------------------------------------------------------------------------------------

  async catalogue(): Promise<TManagedBetaFeature[]> {
    return (await this.repo.list()).map(presentManaged);
  }

  async create(actor: AuditActor, form: TBetaFeatureForm): Promise<TManagedBetaFeature> {
    return this.repo.transaction(async (repo, tx) => {
      if (await repo.nameTaken(form.name)) throw nameExists();
      const row = await repo.create(form).catch(rethrowNameExists);
      await new AuditLogRepository(tx).record(actor, {
        action: 'BETA_FEATURE_CREATED',
        recordType: FEATURE_RECORD,
        recordId: row.id,
        after: audited(row),
      });
      return presentManaged({ ...row, optIns: 0, invitations: 0 });
    });
  }

  /**
   * Replaces the entry's fields. An OPEN feature that becomes INVITATION keeps the accounts that
   * opted in: they are invited by the same change (audited with it), so nobody's menu changes.
   */
  async update(actor: AuditActor, id: string, form: TBetaFeatureForm): Promise<TManagedBetaFeature> {
    return this.repo.transaction(async (repo, tx) => {
      const before = await repo.find(id, { forUpdate: true });
      if (!before) throw notFoundFeature();
      if (await repo.nameTaken(form.name, id)) throw nameExists();
      const row = (await repo.update(id, form).catch(rethrowNameExists))!;
      const invited =
        before.access === 'OPEN' && row.access === 'INVITATION' ? await repo.inviteOptedIn(id, actor.id) : [];
      const diff = changes(audited(before), audited(row));
      await new AuditLogRepository(tx).record(actor, {
        action: 'BETA_FEATURE_UPDATED',
        recordType: FEATURE_RECORD,
        recordId: id,
        before: diff.before,
        after: invited.length ? { ...diff.after, invitedParticipants: invited } : diff.after,
      });
      return presentManaged((await repo.find(id))!);
    });
  }

  /** Deletes the entry with its opt-ins and invitations: its key turns off for those accounts (unless they hold it otherwise). */
  async remove(actor: AuditActor, id: string): Promise<void> {
    await this.repo.transaction(async (repo, tx) => {
      const before = await repo.find(id, { forUpdate: true });
      if (!before) throw notFoundFeature();
      await repo.remove(id);
      await new AuditLogRepository(tx).record(actor, {
        action: 'BETA_FEATURE_DELETED',
        recordType: FEATURE_RECORD,
        recordId: id,
        before: { ...audited(before), optIns: before.optIns, invitations: before.invitations },
      });
    });
  }

  async participants(id: string): Promise<TBetaParticipant[]> {
    if (!(await this.repo.find(id))) throw notFoundFeature();
    return (await new BetaParticipantsReadModel(this.db).participants(id)).map(presentParticipant);
  }

  /** Invites an account (again: the same answer, nothing written). An unknown account answers 404 on accountId. */
  async invite(actor: AuditActor, id: string, accountId: string): Promise<TBetaParticipant> {
    await this.repo.transaction(async (repo, tx) => {
      const feature = await repo.find(id, { forUpdate: true });
      if (!feature) throw notFoundFeature();
      const invited = await repo.invite(id, accountId, actor.id).catch((error: unknown) => {
        if (pgErrorCode(error) === PG_FOREIGN_KEY_VIOLATION) {
          throw fieldProblem('ACCOUNT_NOT_FOUND', 'accountId', 'No account has this id.');
        }
        throw error;
      });
      if (!invited) return;
      await new AuditLogRepository(tx).record(actor, {
        action: 'BETA_INVITED',
        recordType: ACCOUNT_RECORD,
        recordId: accountId,
        after: { ...featureOf(feature), invited: true },
      });
    });
    const [participant] = await new BetaParticipantsReadModel(this.db).participants(id, accountId);
    return presentParticipant(participant!);
  }

  /**
   * Revokes an invitation (none: nothing written). Of an INVITATION feature the account's opt-in
   * goes with it: it may no longer have the feature, and the opt-in should not come back with a
   * later invitation.
   */
  async uninvite(actor: AuditActor, id: string, accountId: string): Promise<void> {
    await this.repo.transaction(async (repo, tx) => {
      const feature = await repo.find(id, { forUpdate: true });
      if (!feature) throw notFoundFeature();
      if (!(await repo.uninvite(id, accountId))) return;
      const optedOut = feature.access === 'INVITATION' && (await repo.optOut(id, accountId));
      await new AuditLogRepository(tx).record(actor, {
        action: 'BETA_INVITATION_REVOKED',
        recordType: ACCOUNT_RECORD,
        recordId: accountId,
        before: { ...featureOf(feature), invited: true, ...(optedOut ? { optedIn: true } : {}) },
        after: { ...featureOf(feature), invited: false, ...(optedOut ? { optedIn: false } : {}) },
      });
    });
  }
}

const nameExists = () => fieldProblem('BETA_FEATURE_NAME_EXISTS', 'name');

/** Two staff saving the same name at once: the unique constraint refuses the second. */
function rethrowNameExists(error: unknown): never {
  if (isUniqueViolation(error)) throw nameExists();
  throw error;
}
