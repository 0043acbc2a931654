import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, networks, notifications, platformTransactions, rewardClaims } from '@connect/db';
import { ClaimRepository } from './claim-repository.ts';
import {
  qntToWei,
  ZClaim,
  ZClaimDetail,
  ZClaimHistoryResponse,
  ZManagementClaimsResponse,
  type TClaim,
} from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { newPlanUser, type PlanUser } from '../account-plan/testing.ts';
import { newRewardsCustomer } from './test-support.ts';

type Session = { headers: { authorization: string } };
const API = '/api/campaign';
/** A lower-case address (always accepted) and the same in its EIP-55 form. */
const ADDRESS = '0x52908400098527886e0f7030069857d2e4169ee7';
const CHECKSUMMED = '0x52908400098527886E0F7030069857D2E4169EE7';

/** Issue 34 §2–3: claims of REWARD_QNT — the rules, the customer's history, the staff list and rejection. */
/** A claim PAYING with a stored transfer of `status` (the sender's row), as a payout leaves it. */
async function payingClaim(t: TestContext, accountId: string, status: 'SIGNED' | 'FAILED') {
  const [network] = await t.db.db.select({ id: networks.id }).from(networks).limit(1);
  const txHash = `0x${randomUUID().replaceAll('-', '')}${randomUUID().replaceAll('-', '')}`;
  await t.db.db.insert(platformTransactions).values({
    networkId: network!.id,
    fromAddress: ADDRESS,
    nonce: 1,
    txHash,
    rawTx: '0x00',
    reference: 'reward-claim:test',
    status,
  });
  const [row] = await t.db.db
    .insert(rewardClaims)
    .values({
      trackingCode: `CLM-T${randomUUID().slice(0, 7)}`,
      accountId,
      address: ADDRESS,
      amountWei: 1n,
      status: 'PAYING',
      txHash,
    })
    .returning();
  return row!;
}

describe('reward claims', () => {
  let t: TestContext;
  let admin: Session & { sub: string };
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signInAs(t, { role: 'QUANT_ADMIN' });
  });
  afterAll(() => t?.close());

  const call = (session: Session, method: 'GET' | 'POST', url: string, body?: object) =>
    t.app.inject({ method, url: `${API}${url}`, headers: session.headers, ...(body ? { payload: body } : {}) });
  const ledger = () => new LedgerRepository(t.db.db);
  const balance = async (user: PlanUser) => (await ledger().balance(user.accountId, 'REWARD_QNT')).balance;
  /** A customer with rewards access and `qnt` REWARD_QNT earned. */
  const earner = async (qnt: string) => {
    const user = await newRewardsCustomer(t);
    await ledger().grant(user.accountId, 'REWARD_QNT', qntToWei(qnt)!, {
      reason: 'test reward',
      reference: `test-grant:${user.accountId}`,
    });
    return user;
  };
  const claim = async (user: PlanUser, qnt: string, address = ADDRESS) => {
    const res = await call(user, 'POST', '/reward', { address, qnt });
    expect(res.statusCode, res.body).toBe(201);
    return ZClaim.parse(res.json());
  };
  const codeOf = (res: { json: () => unknown }) => (res.json() as { code: string }).code;

  describe('POST /reward', () => {
    it('holds the amount at once, answers a PENDING claim with its tracking code, and tells the customer', async () => {
      const user = await earner('5');
      const made = await claim(user, '2.5', CHECKSUMMED);
      expect(made).toMatchObject({ status: 'PENDING', amountClaimed: '2.5', address: CHECKSUMMED, txHash: null });
      expect(made.trackingCode).toMatch(/^CLM-[2-9A-Z]{8}$/);
      expect(await balance(user)).toBe(qntToWei('2.5'));
      const entries = await ledger().entries(user.accountId, 'REWARD_QNT');
      expect(entries.at(-1)).toMatchObject({
        kind: 'claim',
        amount: -qntToWei('2.5')!,
        reference: `reward-claim:${made.id}`,
      });

      const detail = ZClaimDetail.parse((await call(admin, 'GET', `/management/reward/claims/${made.id}`)).json());
      expect(detail.history.map((h) => h.status)).toEqual(['PENDING']);

      // The bell and an email, once, whatever the customer's email setting.
      await t.app.events.drain();
      await t.app.events.drain();
      const bell = await t.db.db.select().from(notifications).where(eq(notifications.userId, user.sub));
      expect(bell.filter((n) => n.kind === 'reward.claim_received')).toHaveLength(1);
      expect(bell[0]!.title).toBe(`Claim ${made.trackingCode} received`);
      const mails = await t.db.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email));
      expect(mails.filter((m) => m.subject === `Claim ${made.trackingCode} received`)).toHaveLength(1);
    });

    it('refuses amounts that are zero, negative, not a number or beyond 18 decimals, and bad addresses (400)', async () => {
      const user = await earner('5');
      const cases: [object, string][] = [
        [{ address: ADDRESS, qnt: '0' }, 'qnt'],
        [{ address: ADDRESS, qnt: '-1' }, 'qnt'],
        [{ address: ADDRESS, qnt: 'two' }, 'qnt'],
        [{ address: ADDRESS, qnt: '1.0000000000000000001' }, 'qnt'],
        [{ address: ADDRESS, qnt: 2 }, 'qnt'],
        [{ address: '0x1234', qnt: '1' }, 'address'],
        [{ address: `${ADDRESS}00`, qnt: '1' }, 'address'],
        [{ address: ADDRESS.replace('0x', '1x'), qnt: '1' }, 'address'],
        // Mixed case with one letter's case flipped: its checksum is wrong.
        [{ address: CHECKSUMMED.replace('E0F', 'e0F'), qnt: '1' }, 'address'],
        [{ qnt: '1' }, 'address'],
        // Syntactically an address, but the token would refuse the transfer: never payable.
        [{ address: `0x${'0'.repeat(40)}`, qnt: '1' }, 'address'],
      ];
      for (const [body, field] of cases) {
        const res = await call(user, 'POST', '/reward', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        const problem = res.json<{ code: string; invalidParams: { name: string }[] }>();
        expect(problem.code).toBe('INVALID_REQUEST');
        expect(problem.invalidParams.map((p) => p.name)).toContain(field);
      }
      expect(await balance(user)).toBe(qntToWei('5'));
      expect(await t.db.db.select().from(rewardClaims).where(eq(rewardClaims.accountId, user.accountId))).toEqual([]);
    });

    it('refuses a claim below the smallest one, or above the balance, and takes nothing', async () => {
      const user = await earner('3');
      const below = await call(user, 'POST', '/reward', { address: ADDRESS, qnt: '0.5' });
      expect(below.statusCode).toBe(409);
      expect(codeOf(below)).toBe('CLAIM_BELOW_MINIMUM');
      expect(below.json<{ detail: string }>().detail).toBe('The smallest claim is 1 QNT.');
      const above = await call(user, 'POST', '/reward', { address: ADDRESS, qnt: '3.000000000000000001' });
      expect(above.statusCode).toBe(409);
      expect(codeOf(above)).toBe('CLAIM_ABOVE_BALANCE');
      expect(await balance(user)).toBe(qntToWei('3'));
      // The whole balance, to the last wei, is fine.
      await claim(user, '3');
      expect(await balance(user)).toBe(0n);
      expect(await t.db.db.select().from(rewardClaims).where(eq(rewardClaims.accountId, user.accountId))).toHaveLength(
        1,
      );
    });

    it('of two claims for the whole balance at once, one is made and the other refused', async () => {
      const user = await earner('4');
      const results = await Promise.all([
        call(user, 'POST', '/reward', { address: ADDRESS, qnt: '4' }),
        call(user, 'POST', '/reward', { address: ADDRESS, qnt: '4' }),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      expect(codeOf(results.find((r) => r.statusCode === 409)!)).toBe('CLAIM_ABOVE_BALANCE');
      expect(await balance(user)).toBe(0n);
      expect(await t.db.db.select().from(rewardClaims).where(eq(rewardClaims.accountId, user.accountId))).toHaveLength(
        1,
      );
    });

    it('keeps the address with its checksum, whatever case it was typed in (all upper case too)', async () => {
      const user = await earner('4');
      for (const typed of [
        ADDRESS,
        ADDRESS.replace(/[a-f]/g, (c) => c.toUpperCase()).replace('0X', '0x'),
        CHECKSUMMED,
      ]) {
        expect((await claim(user, '1', typed)).address).toBe(CHECKSUMMED);
      }
    });

    it('answers the first claim to a request sent again with its idempotency key, at once or later; takes once', async () => {
      const user = await earner('10');
      const body = { address: ADDRESS, qnt: '2', idempotencyKey: randomUUID() };
      const together = await Promise.all([1, 2, 3].map(() => call(user, 'POST', '/reward', body)));
      expect(together.map((r) => r.statusCode)).toEqual([201, 201, 201]);
      const ids = new Set(together.map((r) => ZClaim.parse(r.json()).id));
      expect(ids.size).toBe(1);
      const again = await call(user, 'POST', '/reward', body);
      expect(ZClaim.parse(again.json()).id).toBe([...ids][0]);
      expect(await balance(user)).toBe(qntToWei('8'));
      // Another form (another key) is another claim; so is the same key of another account.
      await call(user, 'POST', '/reward', { ...body, idempotencyKey: randomUUID() });
      expect(await balance(user)).toBe(qntToWei('6'));
      const other = await earner('5');
      expect((await call(other, 'POST', '/reward', body)).statusCode).toBe(201);
      expect(await balance(other)).toBe(qntToWei('3'));
      expect(await t.db.db.select().from(rewardClaims).where(eq(rewardClaims.accountId, user.accountId))).toHaveLength(
        2,
      );
    });

    it('goes back to PENDING when its transfer is lost (FAILED), never when a later payout is in flight', async () => {
      const user = await earner('1');
      const repo = new ClaimRepository(t.db.db);
      // A second node's recovery telling of the first, lost transfer after staff paid again: the
      // claim points at the new transfer (SIGNED), and stays PAYING.
      const inFlight = await payingClaim(t, user.accountId, 'SIGNED');
      expect(await repo.lost(inFlight.id, 'nonce taken')).toBe(false);
      expect((await repo.find(inFlight.id))!.status).toBe('PAYING');
      const lost = await payingClaim(t, user.accountId, 'FAILED');
      expect(await repo.lost(lost.id, 'nonce taken')).toBe(true);
      expect((await repo.find(lost.id))!).toMatchObject({ status: 'PENDING', txHash: null });
    });

    it('is for customers with rewards: others get 409 REWARDS_NEED_QNT_PLAN', async () => {
      const user = await newPlanUser(t);
      await ledger().grant(user.accountId, 'REWARD_QNT', qntToWei('5')!, {
        reason: 'x',
        reference: `x:${user.accountId}`,
      });
      const res = await call(user, 'POST', '/reward', { address: ADDRESS, qnt: '2' });
      expect(res.statusCode).toBe(409);
      expect(codeOf(res)).toBe('REWARDS_NEED_QNT_PLAN');
      expect(codeOf(await call(user, 'GET', '/reward/transactions'))).toBe('REWARDS_NEED_QNT_PLAN');
      expect(await balance(user)).toBe(qntToWei('5'));
    });
  });

  it("GET /reward/transactions: the account's own claims, newest first, paged; never another account's", async () => {
    const user = await earner('10');
    const other = await earner('10');
    const made: TClaim[] = [];
    for (const qnt of ['1', '2', '3']) made.push(await claim(user, qnt));
    await claim(other, '5');
    const first = ZClaimHistoryResponse.parse((await call(user, 'GET', '/reward/transactions?page=0&size=2')).json());
    expect(first).toMatchObject({ totalElements: 3, totalPages: 2, number: 0, size: 2 });
    expect(first.content.map((c) => c.amountClaimed)).toEqual(['3', '2']);
    const second = ZClaimHistoryResponse.parse((await call(user, 'GET', '/reward/transactions?page=1&size=2')).json());
    expect(second.content.map((c) => c.id)).toEqual([made[0]!.id]);
    const theirs = ZClaimHistoryResponse.parse((await call(other, 'GET', '/reward/transactions')).json());
    expect(theirs.content.map((c) => c.amountClaimed)).toEqual(['5']);
    // The staff routes are not the customer's.
    expect((await call(user, 'GET', `/management/reward/claims/${made[0]!.id}`)).statusCode).toBe(403);
    expect(
      (await call(user, 'POST', `/management/reward/claims/${made[0]!.id}/reject`, { reason: 'x' })).statusCode,
    ).toBe(403);
  });

  describe('staff', () => {
    it('list claims by status and account, sorted by accountId or createdAt (field,order)', async () => {
      const a = await earner('10');
      const b = await earner('10');
      const a1 = await claim(a, '1');
      const b1 = await claim(b, '2');
      const a2 = await claim(a, '3');
      const rejected = await call(admin, 'POST', `/management/reward/claims/${a2.id}/reject`, { reason: 'Duplicate' });
      expect(rejected.statusCode).toBe(200);
      const list = async (query: string) => {
        const res = await call(admin, 'GET', `/management/reward/transactions?${query}`);
        expect(res.statusCode, res.body).toBe(200);
        return ZManagementClaimsResponse.parse(res.json());
      };
      const ofA = await list(`accountId=${a.accountId}&size=10`);
      expect(ofA.content.map((c) => c.id)).toEqual([a2.id, a1.id]); // createdAt,desc by default
      const ascending = await list(`accountId=${a.accountId}&sort=createdAt,asc`);
      expect(ascending.content.map((c) => c.id)).toEqual([a1.id, a2.id]);
      const pending = await list(`accountId=${a.accountId}&status=PENDING&status=PAYING`);
      expect(pending.content.map((c) => c.id)).toEqual([a1.id]);
      const done = await list(`accountId=${a.accountId}&status=COMPLETED&status=REJECTED`);
      expect(done.content.map((c) => [c.id, c.status])).toEqual([[a2.id, 'REJECTED']]);

      const both = [a.accountId, b.accountId].sort();
      const byAccount = await list('sort=accountId,asc&size=100&status=PENDING');
      const ours = byAccount.content.filter((c) => both.includes(c.accountId)).map((c) => c.accountId);
      expect(ours).toEqual([...ours].sort());
      const byAccountDesc = await list('sort=accountId,desc&size=100&status=PENDING');
      const oursDesc = byAccountDesc.content.filter((c) => both.includes(c.accountId)).map((c) => c.accountId);
      expect(oursDesc).toEqual([...oursDesc].sort().reverse());
      expect(byAccount.content.some((c) => c.id === b1.id)).toBe(true);

      for (const bad of ['sort=amount,asc', 'sort=createdAt', 'sort=createdAt,up', 'accountId=nope', 'status=LOST']) {
        const res = await call(admin, 'GET', `/management/reward/transactions?${bad}`);
        expect(res.statusCode, bad).toBe(400);
      }
      const sales = await signInAs(t, { role: 'QUANT_SALES' });
      expect((await call(sales, 'GET', '/management/reward/transactions')).statusCode).toBe(403);
    });

    it('reject a PENDING claim: its amount is back in the balance, once; audited and told', async () => {
      const user = await earner('5');
      const made = await claim(user, '5');
      expect(await balance(user)).toBe(0n);
      const res = await call(admin, 'POST', `/management/reward/claims/${made.id}/reject`, {
        reason: 'The address is an exchange',
      });
      expect(res.statusCode, res.body).toBe(200);
      const detail = ZClaimDetail.parse(res.json());
      expect(detail.status).toBe('REJECTED');
      expect(detail.history.map((h) => [h.status, h.note])).toEqual([
        ['PENDING', null],
        ['REJECTED', 'The address is an exchange'],
      ]);
      expect(await balance(user)).toBe(qntToWei('5'));
      const entries = await ledger().entries(user.accountId, 'REWARD_QNT');
      expect(entries.at(-1)).toMatchObject({ kind: 'refund', reference: `reward-claim-release:${made.id}` });

      // A second rejection, or a payment, of a claim no longer PENDING: 409, nothing moves.
      const again = await call(admin, 'POST', `/management/reward/claims/${made.id}/reject`, { reason: 'again' });
      expect(again.statusCode).toBe(409);
      expect(codeOf(again)).toBe('CLAIM_NOT_PENDING');
      const pay = await call(admin, 'POST', `/management/reward/claims/${made.id}/pay`);
      expect(codeOf(pay)).toBe('CLAIM_NOT_PENDING');
      expect(await balance(user)).toBe(qntToWei('5'));

      const audit = await t.db.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.recordId, made.id), eq(auditLog.action, 'CLAIM_REJECTED')));
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ actorId: admin.sub, recordType: 'reward_claim' });
      await t.app.events.drain();
      const bell = await t.db.db.select().from(notifications).where(eq(notifications.userId, user.sub));
      expect(bell.find((n) => n.kind === 'reward.claim_rejected')?.body).toContain('The address is an exchange.');
    });

    it('answer 404 for an unknown claim and 400 for a blank reason', async () => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      expect(codeOf(await call(admin, 'GET', `/management/reward/claims/${unknown}`))).toBe('CLAIM_NOT_FOUND');
      expect(codeOf(await call(admin, 'POST', `/management/reward/claims/${unknown}/pay`))).toBe('CLAIM_NOT_FOUND');
      const user = await earner('2');
      const made = await claim(user, '2');
      const blank = await call(admin, 'POST', `/management/reward/claims/${made.id}/reject`, { reason: '  ' });
      expect(blank.statusCode).toBe(400);
    });

    it('without a treasury (no QNT network here), paying and the treasury answer 503 TREASURY_UNAVAILABLE', async () => {
      const user = await earner('2');
      const made = await claim(user, '2');
      const pay = await call(admin, 'POST', `/management/reward/claims/${made.id}/pay`);
      expect(pay.statusCode).toBe(503);
      expect(codeOf(pay)).toBe('TREASURY_UNAVAILABLE');
      expect(codeOf(await call(admin, 'GET', '/management/reward/treasury'))).toBe('TREASURY_UNAVAILABLE');
      const detail = ZClaimDetail.parse((await call(admin, 'GET', `/management/reward/claims/${made.id}`)).json());
      expect(detail.status).toBe('PENDING');
    });
  });
});
