import {
  toChecksumAddress,
  qntToWei,
  REWARD_MESSAGES,
  weiToQnt,
  type TClaim,
  type TClaimDetail,
  type TClaimHistoryResponse,
  type TClaimRequest,
  type TManagementClaimsResponse,
  type TTreasury,
  type ZManagementClaimsQuery,
} from '@connect/shared';
import type { z } from 'zod';
import { notFound, problem } from '../../lib/errors.ts';
import type { PortalUser } from '../../lib/portal-users.ts';
import { AuditLogRepository, type AuditActor } from '../../repositories/audit-log.ts';
import type { Deps } from '../../types.ts';
import { assertRewardsAccess } from './access.ts';
import { promisedWei } from './campaign-repository.ts';
import { announceReceived, announceRejected } from './claim-notices.ts';
import { ClaimRepository, type ClaimEventRow, type ClaimRecord, type ClaimSort } from './claim-repository.ts';
import { rewardTreasury, treasuryBalanceWei, requireTreasury } from './treasury.ts';

/*
 * Claims (issue 34 §3; docs/decisions/rewards.md "Claims"): a customer claims REWARD_QNT to an
 * address; the amount leaves their balance at once (held: the same balance can never be claimed
 * twice), staff pay the claim (payouts.ts) or reject it (the hold comes back). Amounts are wei.
 */

type ClaimsDeps = Pick<Deps, 'db' | 'events' | 'config' | 'chains' | 'box'>;
export type ManagementClaimsQuery = z.output<typeof ZManagementClaimsQuery>;

const iso = (value: Date) => value.toISOString();

export function presentClaim(claim: ClaimRecord): TClaim {
  return {
    id: claim.id,
    trackingCode: claim.trackingCode,
    accountId: claim.accountId,
    address: claim.address,
    amountClaimed: weiToQnt(claim.amountWei),
    status: claim.status,
    createdAt: iso(claim.createdAt),
    completedAt: claim.completedAt ? iso(claim.completedAt) : null,
    txHash: claim.txHash,
    networkName: claim.networkName,
  };
}

function presentDetail(claim: ClaimRecord, history: ClaimEventRow[]): TClaimDetail {
  return {
    ...presentClaim(claim),
    history: history.map((event) => ({
      status: event.status,
      at: iso(event.at),
      txHash: event.txHash,
      note: event.note,
    })),
  };
}

const pageOf = (rows: ClaimRecord[], total: number, page: number, size: number) => ({
  content: rows.map(presentClaim),
  totalElements: total,
  totalPages: Math.ceil(total / size),
  number: page,
  size,
});

export class Claims {
  private readonly repo: ClaimRepository;

  constructor(private readonly deps: ClaimsDeps) {
    this.repo = new ClaimRepository(deps.db);
  }

  /** The smallest claim, in wei (REWARD_MIN_CLAIM_QNT). */
  get minClaimWei(): bigint {
    return qntToWei(this.deps.config.rewards.minClaimQnt)!;
  }

  /**
   * POST /reward: a PENDING claim whose amount leaves the account's REWARD_QNT in the same
   * transaction (409 CLAIM_ABOVE_BALANCE when the balance does not hold it, CLAIM_BELOW_MINIMUM
   * under the smallest claim), and the customer told. The form's `idempotencyKey` sent again
   * answers its first claim and moves nothing.
   */
  async make(caller: PortalUser, body: TClaimRequest): Promise<TClaim> {
    await assertRewardsAccess(this.deps, caller.accountId);
    const amountWei = qntToWei(body.qnt)!;
    if (amountWei < this.minClaimWei) {
      throw problem('CLAIM_BELOW_MINIMUM', {
        detail: REWARD_MESSAGES.amountBelowMinimum(this.deps.config.rewards.minClaimQnt),
      });
    }
    // The payout's network, when payouts are configured (a claim waits for staff either way).
    const treasury = await rewardTreasury(this.deps).catch(() => null);
    const id = await this.repo.transaction(async (repo, tx) => {
      const claim = await repo.create({
        accountId: caller.accountId,
        userId: caller.id,
        // With its EIP-55 checksum: mixed case passed it (ZClaimAddress); lower or upper case has
        // none, and an all-upper-case address is one viem's encoder refuses when the claim is paid.
        address: toChecksumAddress(body.address),
        amountWei,
        networkId: treasury?.network.id ?? null,
        idempotencyKey: body.idempotencyKey,
      });
      // Thrown inside the transaction: the claim's row goes with it.
      if (claim === 'insufficient') throw problem('CLAIM_ABOVE_BALANCE');
      if ('madeBefore' in claim) return claim.madeBefore;
      await announceReceived(this.deps.events, tx, claim);
      return claim.id;
    });
    return presentClaim((await this.repo.find(id))!);
  }

  /** GET /reward/transactions: the account's claims, newest first. */
  async ofAccount(accountId: string, page: number, size: number): Promise<TClaimHistoryResponse> {
    await assertRewardsAccess(this.deps, accountId);
    const sort = { field: 'createdAt', direction: 'desc' } as const;
    const { rows, total } = await this.repo.page({ accountId }, sort, page * size, size);
    return pageOf(rows, total, page, size);
  }

  /** GET /management/reward/transactions: the staff list (default: newest first). */
  async list(query: ManagementClaimsQuery): Promise<TManagementClaimsResponse> {
    const sort: ClaimSort = query.sort
      ? { field: query.sort.field, direction: query.sort.direction === 'asc' ? 'asc' : 'desc' }
      : { field: 'createdAt', direction: 'desc' };
    const { rows, total } = await this.repo.page(
      { statuses: query.status, accountId: query.accountId },
      sort,
      query.page * query.size,
      query.size,
    );
    return pageOf(rows, total, query.page, query.size);
  }

  async detail(id: string): Promise<TClaimDetail> {
    const claim = await this.repo.find(id);
    if (!claim) throw notFound('CLAIM_NOT_FOUND');
    return presentDetail(claim, await this.repo.history(id));
  }

  /**
   * Staff reject a PENDING claim (409 CLAIM_NOT_PENDING otherwise): its amount goes back to the
   * account's REWARD_QNT (`reward-claim-release:<id>`), audited and told, in one transaction.
   */
  async reject(id: string, reason: string, actor: AuditActor): Promise<TClaimDetail> {
    await this.repo.transaction(async (repo, tx) => {
      const before = await repo.find(id, { lock: true });
      if (!before) throw notFound('CLAIM_NOT_FOUND');
      const claim = await repo.reject(id, reason, actor.id);
      if (!claim) throw problem('CLAIM_NOT_PENDING');
      await new AuditLogRepository(tx).record(actor, {
        action: 'CLAIM_REJECTED',
        recordType: 'reward_claim',
        recordId: id,
        before: { status: before.status },
        after: { status: claim.status, reason, amount: weiToQnt(claim.amountWei), accountId: claim.accountId },
      });
      await announceRejected(this.deps.events, tx, claim, reason);
    });
    return this.detail(id);
  }

  /** GET /management/reward/treasury: where claims are paid from, what it holds and what is promised. */
  async treasury(): Promise<TTreasury> {
    const treasury = await requireTreasury(this.deps);
    const [balance, promised] = await Promise.all([treasuryBalanceWei(this.deps), promisedWei(this.deps.db)]);
    return {
      address: treasury.address,
      networkName: treasury.networkName,
      balance: weiToQnt(balance),
      promised: weiToQnt(promised),
    };
  }
}
