import type { z } from 'zod';
import type { Database } from '@connect/db';
import {
  ACTIVITIES,
  CAMPAIGN_STAFF_TRANSITIONS,
  qntToWei,
  weiToQnt,
  type TActivityType,
  type TAuditAction,
  type TCampaign,
  type TCampaignDetail,
  type TCampaignRequest,
  type TCampaignStatus,
  type TManagementCampaignsResponse,
  type TTask,
  type ZManagementCampaignsQuery,
  type ZTaskRequest,
} from '@connect/shared';
import { notFound, problem } from '../../lib/errors.ts';
import { AuditLogRepository, SYSTEM_ACTOR, type AuditActor } from '../../repositories/audit-log.ts';
import {
  CampaignRepository,
  promisedWei,
  type CampaignRecord,
  type StatusMove,
  type TaskRow,
  type TaskValues,
} from './campaign-repository.ts';

export type TCampaignListQuery = z.output<typeof ZManagementCampaignsQuery>;
export type TTaskInput = z.output<typeof ZTaskRequest>;

const CAMPAIGN_RECORD = 'campaign';
const TASK_RECORD = 'campaign_task';
const DEFAULT_SORT = { field: 'startDate', direction: 'desc' } as const;

/** The UTC day of `now` (YYYY-MM-DD): campaign dates are UTC days, both included. */
export const utcDay = (now: Date) => now.toISOString().slice(0, 10);

export function presentTask(row: TaskRow): TTask {
  const type = row.activityType as TActivityType;
  return {
    taskId: row.id,
    externalId: row.id,
    campaignId: row.campaignId,
    name: row.name,
    description: row.description,
    value: weiToQnt(row.valueWei),
    threshold: row.threshold,
    status: row.status,
    activity: { type, ...ACTIVITIES[type] },
  };
}

export function presentCampaign(record: CampaignRecord): TCampaign {
  return {
    id: record.id,
    name: record.name,
    visibleName: record.visibleName,
    qntValue: weiToQnt(record.qntValueWei),
    taskCount: record.taskCount,
    status: record.status,
    startDate: record.startDate,
    endDate: record.endDate,
    participants: record.participants,
    optedIn: record.optedIn,
    createdAt: record.createdAt.toISOString(),
  };
}

/** What the audit log keeps of a campaign: what staff set, and its status. */
const auditedCampaign = (c: CampaignRecord) => ({
  name: c.name,
  visibleName: c.visibleName,
  startDate: c.startDate,
  endDate: c.endDate,
  participants: c.participants,
  status: c.status,
});

const auditedTask = (task: TaskRow) => {
  const { taskId: _taskId, externalId: _externalId, activity, ...rest } = presentTask(task);
  return { ...rest, activityType: activity.type };
};

/** The keys whose values differ, before and after (the audit log keeps what an action changed). */
function changes(before: Record<string, unknown>, after: Record<string, unknown>) {
  const keys = Object.keys(after).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  return {
    before: Object.fromEntries(keys.map((key) => [key, before[key]])),
    after: Object.fromEntries(keys.map((key) => [key, after[key]])),
  };
}

function taskValues(input: TTaskInput): TaskValues {
  return {
    name: input.name,
    description: input.description,
    activityType: input.activityType,
    // A one-off activity is done once: its threshold is 1 whatever the form sent.
    threshold: ACTIVITIES[input.activityType].counted ? input.threshold : 1,
    valueWei: qntToWei(input.value)!,
    status: input.status,
  };
}

/**
 * Campaigns and their tasks, for staff (issue 34 §1): every change is one transaction with its
 * audit entry. A campaign is edited (and its tasks) only while it is a draft; its status moves
 * through CAMPAIGN_STAFF_TRANSITIONS (packages/shared rewards.ts), and the status job moves it
 * from PUBLISHED to ACTIVE at its start date and to COMPLETED after its end date.
 */
export class CampaignManagement {
  private readonly repo: CampaignRepository;

  /** `treasuryBalance`: the treasury's QNT on chain in wei (throws TREASURY_UNAVAILABLE). */
  constructor(
    db: Database,
    private readonly treasuryBalance: () => Promise<bigint>,
  ) {
    this.repo = new CampaignRepository(db);
  }

  async list(query: TCampaignListQuery): Promise<TManagementCampaignsResponse> {
    const { page, size, status, searchTerm } = query;
    const { rows, total } = await this.repo.page(
      { statuses: status, searchTerm },
      query.sort ?? DEFAULT_SORT,
      page * size,
      size,
    );
    return {
      content: rows.map(presentCampaign),
      totalElements: total,
      totalPages: Math.ceil(total / size),
      number: page,
      size,
    };
  }

  async detail(id: string, repo = this.repo): Promise<TCampaignDetail> {
    const campaign = await repo.find(id);
    if (!campaign) throw notFound('CAMPAIGN_NOT_FOUND');
    return { ...presentCampaign(campaign), tasks: (await repo.tasks(id)).map(presentTask) };
  }

  create(actor: AuditActor, input: TCampaignRequest): Promise<TCampaignDetail> {
    return this.repo.transaction(async (repo, tx) => {
      const row = await repo.insert({ ...input, createdBy: actor.id });
      const created = (await repo.find(row.id))!;
      await audit(tx, actor, 'CAMPAIGN_CREATED', CAMPAIGN_RECORD, row.id, {
        before: null,
        after: auditedCampaign(created),
      });
      return { ...presentCampaign(created), tasks: [] };
    });
  }

  update(actor: AuditActor, id: string, input: TCampaignRequest): Promise<TCampaignDetail> {
    return this.repo.transaction(async (repo, tx) => {
      const before = await lockedDraft(repo, id);
      await repo.update(id, input);
      const after = (await repo.find(id))!;
      const changed = changes(auditedCampaign(before), auditedCampaign(after));
      if (Object.keys(changed.after).length > 0) {
        await audit(tx, actor, 'CAMPAIGN_UPDATED', CAMPAIGN_RECORD, id, changed);
      }
      return this.detail(id, repo);
    });
  }

  remove(actor: AuditActor, id: string): Promise<void> {
    return this.repo.transaction(async (repo, tx) => {
      const before = await lockedDraft(repo, id);
      const tasks = await repo.tasks(id);
      await repo.delete(id);
      await audit(tx, actor, 'CAMPAIGN_DELETED', CAMPAIGN_RECORD, id, {
        before: { ...auditedCampaign(before), tasks: tasks.map(auditedTask) },
        after: null,
      });
    });
  }

  /**
   * update-status: only CAMPAIGN_STAFF_TRANSITIONS. Publishing needs a published task, an end
   * date not passed, and the treasury's QNT to cover this campaign's budget (its value ×
   * participants) beside what is already promised (promisedWei).
   */
  async changeStatus(actor: AuditActor, id: string, to: TCampaignStatus, now = new Date()): Promise<TCampaignDetail> {
    const current = await this.repo.find(id);
    if (!current) throw notFound('CAMPAIGN_NOT_FOUND');
    checkTransition(current, to, now);
    // The chain is asked before the transaction: on the embedded database a transaction holds the
    // only connection, and a node's answer may take seconds. A payout confirmed between this read
    // and the check below would be counted neither here nor as promised — but a payout is only
    // confirmed blocks after it leaves the treasury, so that window is closed in practice.
    const treasury = to === 'PUBLISHED' ? await this.treasuryBalance() : null;
    const changed = await this.repo.transaction(async (repo, tx) => {
      if (treasury !== null) await repo.lockPublications();
      const before = await repo.find(id, { lock: true });
      if (!before) throw notFound('CAMPAIGN_NOT_FOUND');
      checkTransition(before, to, now);
      const after: Record<string, unknown> = { status: to };
      if (treasury !== null) {
        const budget = before.qntValueWei * BigInt(before.participants);
        const promised = await promisedWei(tx);
        if (treasury < budget + promised) {
          throw problem('TREASURY_SHORT', {
            detail: `The treasury holds ${weiToQnt(treasury)} QNT: this campaign’s budget is ${weiToQnt(budget)} QNT (${weiToQnt(before.qntValueWei)} QNT × ${before.participants} participants) and ${weiToQnt(promised)} QNT is already promised.`,
          });
        }
        Object.assign(after, {
          budget: weiToQnt(budget),
          promised: weiToQnt(promised),
          treasury: weiToQnt(treasury),
        });
      }
      // The row is held, so the status read above is still the campaign's; the update re-checks it all the same.
      if (!(await repo.setStatus(id, before.status, to))) throw problem('CAMPAIGN_TRANSITION_REFUSED');
      await audit(tx, actor, 'CAMPAIGN_STATUS_CHANGED', CAMPAIGN_RECORD, id, {
        before: { status: before.status },
        after,
      });
      return this.detail(id, repo);
    });
    // A campaign published on or after its start date runs at once: the status job's own move
    // (one place decides when a campaign is ACTIVE), now rather than at the job's next minute.
    if (to === 'PUBLISHED' && changed.startDate <= utcDay(now)) {
      await moveCampaignStatuses(this.repo.db, now);
      return this.detail(id);
    }
    return changed;
  }

  createTask(actor: AuditActor, campaignId: string, input: TTaskInput): Promise<TTask> {
    return this.repo.transaction(async (repo, tx) => {
      await lockedDraft(repo, campaignId);
      const task = await repo.insertTask(campaignId, taskValues(input));
      await audit(tx, actor, 'TASK_CREATED', TASK_RECORD, task.id, { before: null, after: auditedTask(task) });
      return presentTask(task);
    });
  }

  /** A task of a draft campaign, replaced by `input` (its status too: publish or convert to draft). */
  updateTask(actor: AuditActor, campaignId: string, taskId: string, input: TTaskInput): Promise<TTask> {
    return this.repo.transaction(async (repo, tx) => {
      const campaign = await repo.find(campaignId, { lock: true });
      if (!campaign) throw notFound('CAMPAIGN_NOT_FOUND');
      const before = await repo.findTask(taskId);
      if (!before || before.campaignId !== campaignId) throw notFound('TASK_NOT_FOUND');
      if (campaign.status !== 'DRAFT') throw problem('CAMPAIGN_NOT_DRAFT');
      const after = await repo.updateTask(taskId, taskValues(input));
      const changed = changes(auditedTask(before), auditedTask(after));
      if (Object.keys(changed.after).length > 0) await audit(tx, actor, 'TASK_UPDATED', TASK_RECORD, taskId, changed);
      return presentTask(after);
    });
  }

  removeTask(actor: AuditActor, taskId: string): Promise<void> {
    return this.repo.transaction(async (repo, tx) => {
      const task = await repo.findTask(taskId);
      if (!task) throw notFound('TASK_NOT_FOUND');
      await lockedDraft(repo, task.campaignId);
      await repo.deleteTask(taskId);
      await audit(tx, actor, 'TASK_DELETED', TASK_RECORD, taskId, { before: auditedTask(task), after: null });
    });
  }
}

/** The campaign, its row locked to the transaction's end, refused unless it is a draft. */
async function lockedDraft(repo: CampaignRepository, id: string): Promise<CampaignRecord> {
  const campaign = await repo.find(id, { lock: true });
  if (!campaign) throw notFound('CAMPAIGN_NOT_FOUND');
  if (campaign.status !== 'DRAFT') throw problem('CAMPAIGN_NOT_DRAFT');
  return campaign;
}

/** Whether staff may move the campaign to `to` now (the budget aside). */
function checkTransition(campaign: CampaignRecord, to: TCampaignStatus, now: Date) {
  if (!CAMPAIGN_STAFF_TRANSITIONS[campaign.status].includes(to)) {
    throw problem('CAMPAIGN_TRANSITION_REFUSED', {
      detail: `A ${campaign.status} campaign cannot move to ${to}${
        CAMPAIGN_STAFF_TRANSITIONS[campaign.status].length
          ? `: it can move to ${CAMPAIGN_STAFF_TRANSITIONS[campaign.status].join(' or ')}`
          : ''
      }.`,
    });
  }
  if (to === 'PUBLISHED') {
    if (campaign.taskCount === 0) throw problem('CAMPAIGN_NO_TASKS');
    if (campaign.endDate < utcDay(now)) throw problem('CAMPAIGN_ENDED');
  }
  if (to === 'DRAFT' && campaign.optedIn > 0) throw problem('CAMPAIGN_HAS_PARTICIPANTS');
}

async function audit(
  tx: Database,
  actor: AuditActor,
  action: TAuditAction,
  recordType: string,
  recordId: string,
  values: { before: Record<string, unknown> | null; after: Record<string, unknown> | null },
) {
  await new AuditLogRepository(tx).record(actor, { action, recordType, recordId, ...values });
}

/**
 * The status job's work (campaign-status-job.ts): on `now`'s UTC day, published and running
 * campaigns whose end date has passed are COMPLETED, published ones whose start date has come are
 * ACTIVE; each move audited as CAMPAIGN_STATUS_CHANGED by 'system', in the moves' transaction.
 */
export function moveCampaignStatuses(db: Database, now: Date): Promise<StatusMove[]> {
  return new CampaignRepository(db).transaction(async (repo, tx) => {
    const moves = await repo.moveStatuses(utcDay(now));
    for (const { id, from, to } of moves) {
      await audit(tx, SYSTEM_ACTOR, 'CAMPAIGN_STATUS_CHANGED', CAMPAIGN_RECORD, id, {
        before: { status: from },
        after: { status: to },
      });
    }
    return moves;
  });
}
