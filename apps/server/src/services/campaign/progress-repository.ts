import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { rewardCampaigns, rewardTasks, type CampaignStatus, type Database } from '@connect/db';
import type { TActivityType } from '@connect/shared';
import type { CampaignRecord, TaskRow } from './campaign-repository.ts';

/** How many of an activity one account did (one event, or one account's share of a gateway flush). */
export type ActivityCount = { accountId: string; count: number };

/** A task whose progress the recording moved; `done`: it reached its threshold with it (granted once: activities.ts). */
export type ProgressWritten = {
  taskId: string;
  accountId: string;
  campaignId: string;
  done: boolean;
  valueWei: bigint;
  taskName: string;
  campaignName: string;
};

/** What an opt-in did: the statuses of POST /campaigns/optins/{id}, or why it could not be tried. */
export type OptinOutcome = 'OPTED_IN' | 'ALREADY_OPTED_IN' | 'FULL' | 'NOT_OPEN' | 'NOT_FOUND';

/** A campaign open to customers (PUBLISHED or ACTIVE), with its published tasks. */
export type OpenCampaign = CampaignRecord & { tasks: TaskRow[] };

/** An opted-in account's task: how far it got, and what it was granted (the ledger's entry). */
export type TaskProgressRow = {
  campaignId: string;
  taskId: string;
  threshold: number;
  count: number;
  doneAt: Date | null;
  grantedWei: bigint;
};

export type CampaignHistoryRow = {
  campaignId: string;
  visibleName: string;
  startDate: string;
  endDate: string;
  qntValueWei: bigint;
  earnedWei: bigint;
  tasksDone: number;
  taskCount: number;
};

/** The most a progress count holds (an integer column); a task's threshold is far below it. */
const MAX_COUNT = 2_147_483_647;

const rowsOf = async <R>(db: Database, query: SQL): Promise<R[]> =>
  ((await db.execute(query)) as unknown as { rows: R[] }).rows;

/** The ledger reference of a task's grant: the same task never pays one account twice. */
export const taskGrantReference = (taskId: string, accountId: string) => `reward-task:${taskId}:${accountId}`;

/** A task's grant in ledger_entries, joined by its reference (unique: one index seek). */
const GRANT_JOIN = sql`left join ledger_entries le on le.reference = 'reward-task:' || p.task_id || ':' || p.account_id`;

/**
 * The customer's side of rewards (issue 34 §1, §2), owned by the campaign service: opt-ins, the
 * progress the activity recorders write, and the reads of the customer's screens. Built over the
 * database or a transaction.
 *
 * Every read and write starts from the account (reward_optins_account_idx, reward_progress's
 * primary key and its account index), never from a campaign's opt-ins: recording one event costs
 * the same with 100 or 10,000 customers opted in (bench/rewards.ts measures it).
 */
export class RewardProgressRepository {
  constructor(private readonly db: Database) {}

  /**
   * Adds `counts` of `activity` that happened at `occurredAt` to every PUBLISHED task of that
   * activity in each campaign ACTIVE on that UTC day which the account opted in to by then, in one
   * statement; answers the tasks it moved, `done` for those that reached their threshold with it
   * (done_at set now, once: a done task's row is never updated again). A count is kept at most at
   * the threshold (progress reads "20 of 20", never "35 of 20").
   *
   * The opt-in time is compared at the millisecond (`occurredAt` is a JavaScript date): an
   * activity in the same millisecond as the opt-in counts, as the two cannot be told apart.
   */
  async record(
    activity: TActivityType,
    counts: readonly ActivityCount[],
    occurredAt: Date,
  ): Promise<ProgressWritten[]> {
    const totals = new Map<string, number>();
    for (const { accountId, count } of counts) {
      if (count > 0) totals.set(accountId, Math.min(MAX_COUNT, (totals.get(accountId) ?? 0) + count));
    }
    if (totals.size === 0) return [];
    const input = JSON.stringify([...totals].map(([accountId, n]) => ({ accountId, n })));
    const day = occurredAt.toISOString().slice(0, 10);
    return (
      await rowsOf<{
        taskId: string;
        accountId: string;
        campaignId: string;
        done: boolean;
        valueWei: string;
        taskName: string;
        campaignName: string;
      }>(
        this.db,
        sql`with input as (
          select * from jsonb_to_recordset(${input}::jsonb) as x("accountId" uuid, n int)
        ), hits as (
          -- Each account's opt-ins by its index (reward_optins_account_idx): the lateral subquery,
          -- kept apart by 'offset 0', is run per account; joined plainly, the planner guesses the
          -- input at 100 rows and hashes a scan of every opt-in instead.
          select i."accountId" as account_id, t.id as task_id, t.campaign_id, least(i.n, t.threshold) as n, t.threshold
          from input i
          cross join lateral (
            select o.campaign_id from reward_optins o
            where o.account_id = i."accountId"
              and date_trunc('milliseconds', o.opted_in_at) <= ${occurredAt.toISOString()}::timestamptz
            offset 0
          ) o
          join reward_campaigns c on c.id = o.campaign_id and c.status = 'ACTIVE'
            and c.start_date <= ${day}::date and c.end_date >= ${day}::date
          join reward_tasks t on t.campaign_id = c.id and t.status = 'PUBLISHED' and t.activity_type = ${activity}
        ), written as (
          insert into reward_progress as p (task_id, account_id, campaign_id, count, done_at, updated_at)
          -- In key order: two flushes that share accounts lock their rows in the same order.
          select task_id, account_id, campaign_id, n, case when n >= threshold then now() end, now() from hits
          order by account_id, task_id
          on conflict (task_id, account_id) do update set
            count = least(p.count::bigint + excluded.count,
              (select t.threshold from reward_tasks t where t.id = p.task_id)),
            done_at = case
              when p.count::bigint + excluded.count >= (select t.threshold from reward_tasks t where t.id = p.task_id)
              then now() end,
            updated_at = now()
          where p.done_at is null
          returning p.task_id, p.account_id, p.campaign_id, p.done_at
        )
        select w.task_id as "taskId", w.account_id as "accountId", w.campaign_id as "campaignId",
          w.done_at is not null as done, t.value_wei::text as "valueWei", t.name as "taskName",
          c.visible_name as "campaignName"
        from written w
        join reward_tasks t on t.id = w.task_id
        join reward_campaigns c on c.id = w.campaign_id`,
      )
    ).map((row) => ({ ...row, valueWei: BigInt(row.valueWei) }));
  }

  /**
   * Opts the account in (spec §2): the room check and the count's increment are one statement on
   * the campaign's row (`opted_in < participants`), so of two opt-ins for the last place the
   * second waits for the first's row lock, finds no room left and answers FULL. Runs in a
   * transaction of its own: an account that opted in meanwhile (its own second request) rolls the
   * increment back and answers ALREADY_OPTED_IN.
   */
  async optIn(campaignId: string, accountId: string, userId: string | null): Promise<OptinOutcome> {
    if (await this.hasOptedIn(campaignId, accountId)) return 'ALREADY_OPTED_IN';
    const already = new Error('already opted in');
    try {
      return (
        (await this.db.transaction(async (tx) => {
          const [taken] = await rowsOf<{ id: string }>(
            tx as unknown as Database,
            sql`update reward_campaigns set opted_in = opted_in + 1, updated_at = now()
          where id = ${campaignId} and status in ('PUBLISHED', 'ACTIVE') and opted_in < participants
          returning id`,
          );
          if (!taken) return null;
          const [inserted] = await rowsOf<{ campaignId: string }>(
            tx as unknown as Database,
            sql`insert into reward_optins (campaign_id, account_id, user_id) values (${campaignId}, ${accountId}, ${userId})
          on conflict do nothing returning campaign_id as "campaignId"`,
          );
          if (!inserted) throw already;
          return 'OPTED_IN' as const;
        })) ?? (await this.whyNot(campaignId, accountId))
      );
    } catch (error) {
      if (error === already) return 'ALREADY_OPTED_IN';
      throw error;
    }
  }

  /** Why an opt-in took no place: opted in already, no such campaign, not open, or full. */
  private async whyNot(campaignId: string, accountId: string): Promise<OptinOutcome> {
    if (await this.hasOptedIn(campaignId, accountId)) return 'ALREADY_OPTED_IN';
    const [campaign] = await rowsOf<{ status: CampaignStatus }>(
      this.db,
      sql`select status from reward_campaigns where id = ${campaignId}`,
    );
    if (!campaign) return 'NOT_FOUND';
    return campaign.status === 'PUBLISHED' || campaign.status === 'ACTIVE' ? 'FULL' : 'NOT_OPEN';
  }

  private async hasOptedIn(campaignId: string, accountId: string): Promise<boolean> {
    const rows = await rowsOf<{ one: number }>(
      this.db,
      sql`select 1 as one from reward_optins where campaign_id = ${campaignId} and account_id = ${accountId}`,
    );
    return rows.length > 0;
  }

  /** The account's opt-ins, every campaign's, oldest first. */
  optins(accountId: string): Promise<{ campaignId: string; status: CampaignStatus; optedInAt: Date }[]> {
    return rowsOf(
      this.db,
      sql`select o.campaign_id as "campaignId", c.status, o.opted_in_at as "optedInAt"
      from reward_optins o join reward_campaigns c on c.id = o.campaign_id
      where o.account_id = ${accountId} order by o.opted_in_at, o.campaign_id`,
    ).then((rows) =>
      (rows as { campaignId: string; status: CampaignStatus; optedInAt: Date | string }[]).map((row) => ({
        ...row,
        optedInAt: new Date(row.optedInAt),
      })),
    );
  }

  /**
   * The campaigns open to customers (PUBLISHED, ACTIVE) that have a published task, each with its
   * published tasks (and their totals, as presentCampaign shows them); by start date.
   */
  async openCampaigns(): Promise<OpenCampaign[]> {
    const campaigns = await this.db
      .select()
      .from(rewardCampaigns)
      .where(inArray(rewardCampaigns.status, ['PUBLISHED', 'ACTIVE']))
      .orderBy(asc(rewardCampaigns.startDate), asc(rewardCampaigns.createdAt), asc(rewardCampaigns.id));
    if (campaigns.length === 0) return [];
    const tasks = await this.db
      .select()
      .from(rewardTasks)
      .where(
        and(
          inArray(
            rewardTasks.campaignId,
            campaigns.map((c) => c.id),
          ),
          eq(rewardTasks.status, 'PUBLISHED'),
        ),
      )
      .orderBy(asc(rewardTasks.createdAt), asc(rewardTasks.id));
    return campaigns
      .map((campaign) => {
        const own = tasks.filter((task) => task.campaignId === campaign.id);
        const qntValueWei = own.reduce((sum, task) => sum + task.valueWei, 0n);
        return { ...campaign, qntValueWei, taskCount: own.length, tasks: own };
      })
      .filter((campaign) => campaign.tasks.length > 0);
  }

  /**
   * The account's tasks in the open campaigns it opted in to: the published ones, and any it has
   * done since turned back to draft (its grant stands). `grantedWei`: the ledger's entry of the task's grant.
   */
  async progress(accountId: string): Promise<TaskProgressRow[]> {
    const rows = await rowsOf<{
      campaignId: string;
      taskId: string;
      threshold: number;
      count: number;
      doneAt: Date | string | null;
      grantedWei: string | null;
    }>(
      this.db,
      sql`select o.campaign_id as "campaignId", t.id as "taskId", t.threshold, coalesce(p.count, 0) as count,
        p.done_at as "doneAt", le.amount::text as "grantedWei"
      from reward_optins o
      join reward_campaigns c on c.id = o.campaign_id and c.status in ('PUBLISHED', 'ACTIVE')
      join reward_tasks t on t.campaign_id = c.id
      left join reward_progress p on p.task_id = t.id and p.account_id = o.account_id
      ${GRANT_JOIN}
      where o.account_id = ${accountId} and (t.status = 'PUBLISHED' or p.done_at is not null)
      order by c.start_date, c.created_at, c.id, t.created_at, t.id`,
    );
    return rows.map((row) => ({
      ...row,
      count: Number(row.count),
      doneAt: row.doneAt === null ? null : new Date(row.doneAt),
      grantedWei: BigInt(row.grantedWei ?? '0'),
    }));
  }

  /** The COMPLETED campaigns the account opted in to, latest ended first: one page, and how many in all. */
  async completed(accountId: string, offset: number, limit: number) {
    const [rows, [total]] = await Promise.all([
      rowsOf<{
        campaignId: string;
        visibleName: string;
        startDate: string;
        endDate: string;
        qntValueWei: string;
        earnedWei: string;
        tasksDone: number;
        taskCount: number;
      }>(
        this.db,
        sql`select c.id as "campaignId", c.visible_name as "visibleName", c.start_date::text as "startDate",
          c.end_date::text as "endDate",
          (select coalesce(sum(t.value_wei), 0)::text from reward_tasks t
            where t.campaign_id = c.id and t.status = 'PUBLISHED') as "qntValueWei",
          (select count(*)::int from reward_tasks t where t.campaign_id = c.id and t.status = 'PUBLISHED') as "taskCount",
          done."tasksDone", done."earnedWei"
        from reward_optins o
        join reward_campaigns c on c.id = o.campaign_id and c.status = 'COMPLETED'
        cross join lateral (
          select count(*)::int as "tasksDone", coalesce(sum(le.amount), 0)::text as "earnedWei"
          from reward_progress p ${GRANT_JOIN}
          where p.account_id = o.account_id and p.campaign_id = c.id and p.done_at is not null
        ) done
        where o.account_id = ${accountId}
        order by c.end_date desc, c.start_date desc, c.id
        offset ${offset} limit ${limit}`,
      ),
      rowsOf<{ n: number }>(
        this.db,
        sql`select count(*)::int as n from reward_optins o
        join reward_campaigns c on c.id = o.campaign_id and c.status = 'COMPLETED'
        where o.account_id = ${accountId}`,
      ),
    ]);
    const content: CampaignHistoryRow[] = rows.map((row) => ({
      ...row,
      qntValueWei: BigInt(row.qntValueWei),
      earnedWei: BigInt(row.earnedWei),
      tasksDone: Number(row.tasksDone),
      taskCount: Number(row.taskCount),
    }));
    return { content, total: Number(total?.n ?? 0) };
  }

  /** What the account's claims hold until paid or rejected (PENDING, PAYING), in wei. */
  async heldWei(accountId: string): Promise<bigint> {
    const [row] = await rowsOf<{ held: string }>(
      this.db,
      sql`select coalesce(sum(amount_wei), 0)::text as held from reward_claims
      where account_id = ${accountId} and status in ('PENDING', 'PAYING')`,
    );
    return BigInt(row?.held ?? '0');
  }

  /** The network's type in the catalogue (a token's deployment: testnet or mainnet); null when unknown. */
  async networkType(networkId: string): Promise<'testnet' | 'mainnet' | null> {
    const [row] = await rowsOf<{ type: 'testnet' | 'mainnet' }>(
      this.db,
      sql`select network_type as type from networks where id = ${networkId}`,
    );
    return row?.type ?? null;
  }
}
