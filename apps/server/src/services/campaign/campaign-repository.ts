import { and, asc, desc, eq, inArray, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { rewardCampaigns, rewardTasks, type CampaignStatus, type Database } from '@connect/db';
import type { TCampaignStatus } from '@connect/shared';
import { likeEscaped } from '../../lib/staff-list.ts';

export type CampaignRow = typeof rewardCampaigns.$inferSelect;
export type TaskRow = typeof rewardTasks.$inferSelect;
/** A campaign with what its published tasks add up to: one participant's most (wei) and how many. */
export type CampaignRecord = CampaignRow & { qntValueWei: bigint; taskCount: number };
export type CampaignValues = Pick<CampaignRow, 'name' | 'visibleName' | 'startDate' | 'endDate' | 'participants'>;
export type TaskValues = Pick<TaskRow, 'name' | 'description' | 'activityType' | 'threshold' | 'valueWei' | 'status'>;
export type CampaignSortField = 'name' | 'startDate' | 'endDate' | 'status' | 'createdAt';
export type CampaignListFilter = { statuses?: TCampaignStatus[] | undefined; searchTerm?: string | undefined };
/** A status the status job moved: the campaign and the status it left. */
export type StatusMove = { id: string; from: CampaignStatus; to: CampaignStatus };

/** The advisory lock of publishing ('RCPB'): one publication's budget check at a time, platform-wide. */
const PUBLISH_LOCK = 0x52435042;

const SORT_KEYS: Record<CampaignSortField, AnyColumn> = {
  name: rewardCampaigns.name,
  startDate: rewardCampaigns.startDate,
  endDate: rewardCampaigns.endDate,
  status: rewardCampaigns.status,
  createdAt: rewardCampaigns.createdAt,
};

/**
 * The campaign's published tasks, read beside each row (a campaign has a handful of tasks). The
 * outer column is named in full: Drizzle leaves a single table's columns unqualified in the select
 * list, where `id` would be the task's.
 */
const QNT_VALUE = sql<string>`(select coalesce(sum(t.value_wei), 0)::text from reward_tasks t
  where t.campaign_id = reward_campaigns.id and t.status = 'PUBLISHED')`;
const TASK_COUNT = sql<number>`(select count(*)::int from reward_tasks t
  where t.campaign_id = reward_campaigns.id and t.status = 'PUBLISHED')`;

const rowsOf = async <R>(db: Database, query: SQL): Promise<R[]> =>
  ((await db.execute(query)) as unknown as { rows: R[] }).rows;

/**
 * The campaigns and tasks staff manage (issue 34 §1), owned by the campaign service. Built over the
 * database or a transaction (`transaction` gives one over a new one).
 */
export class CampaignRepository {
  constructor(readonly db: Database) {}

  transaction<T>(work: (repo: CampaignRepository, tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => {
      const db = tx as unknown as Database;
      return work(new CampaignRepository(db), db);
    });
  }

  /**
   * One page of the campaign list. Campaigns are monthly (a few dozen a year), so the page is an
   * OFFSET over the sorted table: the keyset machinery of the big staff lists buys nothing here.
   */
  async page(
    filter: CampaignListFilter,
    sort: { field: CampaignSortField; direction: 'asc' | 'desc' },
    offset: number,
    limit: number,
  ): Promise<{ rows: CampaignRecord[]; total: number }> {
    const where = this.where(filter);
    const order = sort.direction === 'asc' ? asc : desc;
    const rows = await this.db
      .select({ campaign: rewardCampaigns, qntValue: QNT_VALUE, taskCount: TASK_COUNT })
      .from(rewardCampaigns)
      .where(where)
      .orderBy(order(SORT_KEYS[sort.field]), order(rewardCampaigns.createdAt), order(rewardCampaigns.id))
      .offset(offset)
      .limit(limit);
    const [count] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(rewardCampaigns)
      .where(where);
    return { rows: rows.map(toRecord), total: count?.n ?? 0 };
  }

  private where(filter: CampaignListFilter): SQL | undefined {
    const term = filter.searchTerm ? `%${likeEscaped(filter.searchTerm)}%` : undefined;
    return and(
      filter.statuses ? inArray(rewardCampaigns.status, filter.statuses) : undefined,
      term
        ? or(sql`lower(${rewardCampaigns.name}) like ${term}`, sql`lower(${rewardCampaigns.visibleName}) like ${term}`)
        : undefined,
    );
  }

  /** One campaign with its published tasks' totals, or null; `lock` holds its row to the transaction's end. */
  async find(id: string, { lock = false } = {}): Promise<CampaignRecord | null> {
    if (lock) {
      const [locked] = await this.db
        .select({ id: rewardCampaigns.id })
        .from(rewardCampaigns)
        .where(eq(rewardCampaigns.id, id))
        .for('update');
      if (!locked) return null;
    }
    const [row] = await this.db
      .select({ campaign: rewardCampaigns, qntValue: QNT_VALUE, taskCount: TASK_COUNT })
      .from(rewardCampaigns)
      .where(eq(rewardCampaigns.id, id));
    return row ? toRecord(row) : null;
  }

  /** Every task of the campaign, drafts included, oldest first. */
  tasks(campaignId: string): Promise<TaskRow[]> {
    return this.db
      .select()
      .from(rewardTasks)
      .where(eq(rewardTasks.campaignId, campaignId))
      .orderBy(asc(rewardTasks.createdAt), asc(rewardTasks.id));
  }

  async findTask(taskId: string): Promise<TaskRow | null> {
    const [row] = await this.db.select().from(rewardTasks).where(eq(rewardTasks.id, taskId));
    return row ?? null;
  }

  async insert(values: CampaignValues & { createdBy: string | null }): Promise<CampaignRow> {
    const [row] = await this.db.insert(rewardCampaigns).values(values).returning();
    return row!;
  }

  /** Changes a draft (the caller holds its row); false when it is no longer one. */
  async update(id: string, values: CampaignValues): Promise<boolean> {
    const rows = await this.db
      .update(rewardCampaigns)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(rewardCampaigns.id, id), eq(rewardCampaigns.status, 'DRAFT')))
      .returning({ id: rewardCampaigns.id });
    return rows.length > 0;
  }

  /** Deletes a draft and its tasks; false when it is no longer one. */
  async delete(id: string): Promise<boolean> {
    const rows = await this.db
      .delete(rewardCampaigns)
      .where(and(eq(rewardCampaigns.id, id), eq(rewardCampaigns.status, 'DRAFT')))
      .returning({ id: rewardCampaigns.id });
    return rows.length > 0;
  }

  /**
   * Moves the campaign from `from` to `to` if it still is `from` (and, back to draft, if nobody
   * opted in: the opt-in's own statement checks the status, so one of the two wins).
   */
  async setStatus(id: string, from: CampaignStatus, to: CampaignStatus): Promise<boolean> {
    const rows = await this.db
      .update(rewardCampaigns)
      .set({ status: to, updatedAt: sql`now()` })
      .where(
        and(
          eq(rewardCampaigns.id, id),
          eq(rewardCampaigns.status, from),
          to === 'DRAFT' ? eq(rewardCampaigns.optedIn, 0) : undefined,
        ),
      )
      .returning({ id: rewardCampaigns.id });
    return rows.length > 0;
  }

  async insertTask(campaignId: string, values: TaskValues): Promise<TaskRow> {
    const [row] = await this.db
      .insert(rewardTasks)
      .values({ campaignId, ...values })
      .returning();
    return row!;
  }

  async updateTask(taskId: string, values: TaskValues): Promise<TaskRow> {
    const [row] = await this.db.update(rewardTasks).set(values).where(eq(rewardTasks.id, taskId)).returning();
    return row!;
  }

  async deleteTask(taskId: string): Promise<void> {
    await this.db.delete(rewardTasks).where(eq(rewardTasks.id, taskId));
  }

  /**
   * Waits for any other publication to commit, and holds the lock to this transaction's end: two
   * campaigns published side by side would each find the treasury's budget without the other.
   */
  async lockPublications(): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(${PUBLISH_LOCK}::int)`);
  }

  /**
   * The status job's moves on `today` (a UTC day, YYYY-MM-DD), each a conditional update so a
   * second node or a repeated run moves nothing again: PUBLISHED or ACTIVE whose end date has
   * passed become COMPLETED, then PUBLISHED whose start date has come become ACTIVE.
   */
  async moveStatuses(today: string): Promise<StatusMove[]> {
    const moves: StatusMove[] = [];
    const move = async (from: CampaignStatus, to: CampaignStatus, when: SQL | undefined) => {
      const rows = await this.db
        .update(rewardCampaigns)
        .set({ status: to, updatedAt: sql`now()` })
        .where(and(eq(rewardCampaigns.status, from), when))
        .returning({ id: rewardCampaigns.id });
      moves.push(...rows.map(({ id }) => ({ id, from, to })));
    };
    const ended = sql`${rewardCampaigns.endDate} < ${today}::date`;
    await move('PUBLISHED', 'COMPLETED', ended);
    await move('ACTIVE', 'COMPLETED', ended);
    await move('PUBLISHED', 'ACTIVE', sql`${rewardCampaigns.startDate} <= ${today}::date`);
    return moves;
  }
}

function toRecord(row: { campaign: CampaignRow; qntValue: string; taskCount: number }): CampaignRecord {
  return { ...row.campaign, qntValueWei: BigInt(row.qntValue), taskCount: Number(row.taskCount) };
}

/**
 * What the treasury has already promised, in wei of QNT (issue 34 §1): what the published and
 * running campaigns may still grant (each one's budget — its published tasks' values × its
 * participants — less what its tasks have granted so far), what customers have earned and not
 * claimed (every account's REWARD_QNT), and the claims not yet paid (PENDING, PAYING). A
 * publication needs the treasury to hold its own budget on top of this; the treasury screen shows it.
 */
export async function promisedWei(db: Database): Promise<bigint> {
  const [row] = await rowsOf<{ promised: string }>(
    db,
    sql`select (
      coalesce((select sum(greatest(0, c.participants * coalesce(v.value, 0) - coalesce(g.granted, 0)))
        from reward_campaigns c
        left join lateral (select sum(t.value_wei) as value from reward_tasks t
          where t.campaign_id = c.id and t.status = 'PUBLISHED') v on true
        left join lateral (select sum(t.value_wei) as granted from reward_progress p
          join reward_tasks t on t.id = p.task_id
          where p.campaign_id = c.id and p.done_at is not null) g on true
        where c.status in ('PUBLISHED', 'ACTIVE')), 0)
      + coalesce((select sum(b.balance) from ledger_balances b where b.asset = 'REWARD_QNT'), 0)
      + coalesce((select sum(r.amount_wei) from reward_claims r where r.status in ('PENDING', 'PAYING')), 0)
    )::text as promised`,
  );
  return BigInt(row?.promised ?? '0');
}
