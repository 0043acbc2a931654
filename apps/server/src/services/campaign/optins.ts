import type { Database } from '@connect/db';
import {
  qntToWei,
  weiToQnt,
  type TActiveCampaignsResponse,
  type TCampaignHistoryResponse,
  type TOptinResponse,
  type TOptinsResponse,
  type TProgressResponse,
} from '@connect/shared';
import { problem } from '../../lib/errors.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { assertRewardsAccess, hasRewardsAccess } from './access.ts';
import { presentCampaign, presentTask } from './campaigns.ts';
import { RewardProgressRepository, type OpenCampaign } from './progress-repository.ts';

type Reason = TOptinsResponse['reason'];

/**
 * Whether the account may opt in now (spec §2 Reward state, allowedToOptIn), and why not: PLAN
 * without rewards access; NONE when no campaign is open; OPTED_IN when it is in every open one;
 * FULL when every open one it is not in has no room left.
 */
export function optInState(
  hasAccess: boolean,
  open: readonly Pick<OpenCampaign, 'id' | 'optedIn' | 'participants'>[],
  joined: ReadonlySet<string>,
): { allowedToOptIn: boolean; reason: Reason } {
  if (!hasAccess) return { allowedToOptIn: false, reason: 'PLAN' };
  if (open.length === 0) return { allowedToOptIn: false, reason: 'NONE' };
  const others = open.filter((campaign) => !joined.has(campaign.id));
  if (others.length === 0) return { allowedToOptIn: false, reason: 'OPTED_IN' };
  if (others.every((campaign) => campaign.optedIn >= campaign.participants)) {
    return { allowedToOptIn: false, reason: 'FULL' };
  }
  return { allowedToOptIn: true, reason: null };
}

/**
 * The customer's rewards (issue 34 §2; spec §7 user-facing rewards): the reward state, opting in,
 * the open campaigns, the progress on their tasks and the campaign history. Everything but the
 * reward state needs rewards access (409 REWARDS_NEED_QNT_PLAN, access.ts); the reward state
 * answers without it, with reason PLAN, so the Rewards page can say what is needed.
 */
export class RewardOptins {
  private readonly repo: RewardProgressRepository;

  constructor(
    private readonly db: Database,
    private readonly minClaimQnt: string,
  ) {
    this.repo = new RewardProgressRepository(db);
  }

  /** GET /campaigns/optins. */
  async state(accountId: string): Promise<TOptinsResponse> {
    const [hasAccess, open, optins, balance, heldWei] = await Promise.all([
      hasRewardsAccess({ db: this.db }, accountId),
      this.repo.openCampaigns(),
      this.repo.optins(accountId),
      new LedgerRepository(this.db).balance(accountId, 'REWARD_QNT'),
      this.repo.heldWei(accountId),
    ]);
    const current = optins.filter((optin) => optin.status === 'PUBLISHED' || optin.status === 'ACTIVE');
    return {
      ...optInState(hasAccess, open, new Set(current.map((optin) => optin.campaignId))),
      optins: current.map((optin) => ({ campaignId: optin.campaignId, optedInAt: optin.optedInAt.toISOString() })),
      everOptedIn: optins.length > 0,
      balance: weiToQnt(balance.available > 0n ? balance.available : 0n),
      held: weiToQnt(heldWei),
      // The configured minimum, as the claim form shows it ("1", not "1.0").
      minClaim: weiToQnt(qntToWei(this.minClaimQnt) ?? 0n),
    };
  }

  /** POST /campaigns/optins/{id}: OPTED_IN, ALREADY_OPTED_IN or FULL, and allowedToOptIn after it. */
  async optIn(caller: { id: string; accountId: string }, campaignId: string): Promise<TOptinResponse> {
    await assertRewardsAccess({ db: this.db }, caller.accountId);
    const status = await this.repo.optIn(campaignId, caller.accountId, caller.id);
    if (status === 'NOT_FOUND') throw problem('CAMPAIGN_NOT_FOUND');
    if (status === 'NOT_OPEN') throw problem('CAMPAIGN_NOT_OPEN');
    const [open, optins] = await Promise.all([this.repo.openCampaigns(), this.repo.optins(caller.accountId)]);
    const { allowedToOptIn } = optInState(true, open, new Set(optins.map((optin) => optin.campaignId)));
    return { status, allowedToOptIn };
  }

  /** GET /campaigns/active: the open campaigns with their published tasks, and whether each is full. */
  async active(accountId: string): Promise<TActiveCampaignsResponse> {
    await assertRewardsAccess({ db: this.db }, accountId);
    const open = await this.repo.openCampaigns();
    return {
      campaigns: open.map((campaign) => ({
        ...presentCampaign(campaign),
        tasks: campaign.tasks.map(presentTask),
        full: campaign.optedIn >= campaign.participants,
      })),
    };
  }

  /** GET /campaigns/progress: per open campaign the account opted in to, its tasks' progress and what it earned. */
  async progress(accountId: string): Promise<TProgressResponse> {
    await assertRewardsAccess({ db: this.db }, accountId);
    const campaigns = new Map<string, { earnedWei: bigint; tasks: TProgressResponse['campaigns'][number]['tasks'] }>();
    for (const row of await this.repo.progress(accountId)) {
      const campaign = campaigns.get(row.campaignId) ?? { earnedWei: 0n, tasks: [] };
      campaigns.set(row.campaignId, campaign);
      campaign.earnedWei += row.grantedWei;
      campaign.tasks.push({
        taskId: row.taskId,
        count: row.count,
        threshold: row.threshold,
        done: row.doneAt !== null,
        doneAt: row.doneAt?.toISOString() ?? null,
      });
    }
    return {
      campaigns: [...campaigns].map(([campaignId, { earnedWei, tasks }]) => ({
        campaignId,
        earned: weiToQnt(earnedWei),
        tasks,
      })),
    };
  }

  /** GET /campaigns/completed: the ended campaigns the account took part in, latest first. */
  async completed(accountId: string, page: number, size: number): Promise<TCampaignHistoryResponse> {
    await assertRewardsAccess({ db: this.db }, accountId);
    const { content, total } = await this.repo.completed(accountId, page * size, size);
    return {
      content: content.map((row) => ({
        campaignId: row.campaignId,
        visibleName: row.visibleName,
        startDate: row.startDate,
        endDate: row.endDate,
        qntValue: weiToQnt(row.qntValueWei),
        earned: weiToQnt(row.earnedWei),
        tasksDone: row.tasksDone,
        taskCount: row.taskCount,
      })),
      totalElements: total,
      totalPages: Math.ceil(total / size),
      number: page,
      size,
    };
  }
}
