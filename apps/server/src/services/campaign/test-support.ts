import { eq } from 'drizzle-orm';
import { rewardCampaigns, rewardTasks, type CampaignStatus, type RewardTaskStatus } from '@connect/db';
import { qntToWei, type TActivityType } from '@connect/shared';
import type { TestContext } from '../../../test/helpers.ts';
import { putOnPlan } from '../../../test/plans.ts';
import { newPlanUser, type PlanUser } from '../account-plan/testing.ts';

/*
 * Test set-up shared by the campaign service's suites (not used by the app): a customer who may
 * use rewards, and campaigns with tasks written straight to their tables (the staff routes and the
 * treasury's budget check have their own tests).
 */

/** A signed-in customer on the annual standard plan bought with QNT: rewards are open to them. */
export async function newRewardsCustomer(t: TestContext): Promise<PlanUser> {
  const user = await newPlanUser(t);
  await putOnPlan(t.db.db, user.accountId, 'annual-standard', { lastPaymentMethod: 'QNT' });
  return user;
}

export type TestTask = { activityType: TActivityType; threshold?: number; value?: string; status?: RewardTaskStatus };

/** Today's UTC day, moved by `days`. */
export const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * A campaign (ACTIVE from yesterday to a week ahead, 10 places, unless `values` say otherwise)
 * with its tasks (PUBLISHED, threshold 1, worth 1 QNT unless they say otherwise), in that order.
 */
export async function insertCampaign(
  t: TestContext,
  tasks: TestTask[],
  values: Partial<{
    status: CampaignStatus;
    startDate: string;
    endDate: string;
    participants: number;
    optedIn: number;
    visibleName: string;
  }> = {},
) {
  const [campaign] = await t.db.db
    .insert(rewardCampaigns)
    .values({
      name: 'Test campaign',
      visibleName: 'Test Campaign',
      startDate: dayFromToday(-1),
      endDate: dayFromToday(7),
      participants: 10,
      status: 'ACTIVE',
      ...values,
    })
    .returning();
  const rows = [];
  for (const [i, task] of tasks.entries()) {
    const [row] = await t.db.db
      .insert(rewardTasks)
      .values({
        campaignId: campaign!.id,
        name: `Task ${i + 1}`,
        activityType: task.activityType,
        threshold: task.threshold ?? 1,
        valueWei: qntToWei(task.value ?? '1')!,
        status: task.status ?? 'PUBLISHED',
        // Distinct times: tasks are listed by creation.
        createdAt: new Date(Date.now() - (tasks.length - i) * 1_000),
      })
      .returning();
    rows.push(row!);
  }
  return { campaign: campaign!, tasks: rows };
}

/** Sets a campaign's status (the status job's or staff's change). */
export async function setCampaignStatus(t: TestContext, campaignId: string, status: CampaignStatus) {
  await t.db.db.update(rewardCampaigns).set({ status }).where(eq(rewardCampaigns.id, campaignId));
}
