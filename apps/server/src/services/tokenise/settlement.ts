import type { Hex } from 'viem';
import type { PlatformTxStatus } from '@connect/db';
import { MICRO_PER_CREDIT, tierCreditAmount } from '@connect/shared';
import type { TokenRepository, TokenRow, TokenWithRefs } from './repository.ts';
import { chargeReason, tokenTxReference } from './repository-insert.ts';

/*
 * How a deployment ends in the database: ACTIVE, UNPAID, FAILED or MISSING. A deployment's credits
 * are taken when it is created, in the statement that inserts it (repository-insert.ts, issue 27),
 * so ACTIVE needs no charge; whatever ends without a contract on chain (FAILED, lost, MISSING, an
 * unsent one deleted) gives them back, once. Every change is conditional on the status it starts
 * from, so attempts on several nodes settle a token once; the charge and the refund are ledger
 * movements keyed by the token (`token:<id>`, `refund:token:<id>`), traced as usage records in the
 * same transaction (`deployment:<id>`, `deployment:<id>:refund`, issue 17; the usage close never
 * charges them again), and `token.deployed` or `token.failed` is announced in the same transaction
 * as the status change. Tokens created before issue 27 were not charged at creation: they are
 * charged when they deploy (UNPAID when the balance no longer covers it), as they were then.
 */

/** What the chain showed of a successful deployment. */
export type DeployResult = { txHash: Hex; contractAddress: Hex; blockNumber: bigint; from: Hex; confirmedAt: Date };

/**
 * PENDING → ACTIVE, the platform's transaction marked mined. A token charged at creation is paid;
 * one from before (nothing charged) is charged the tier's amount now, UNPAID when the balance no
 * longer covers it. Answers the new status, or null when the token had been settled before
 * (another attempt, another node).
 */
export async function settleDeployed(
  repo: TokenRepository,
  token: TokenRow,
  tier: TokenWithRefs['tier'],
  result: DeployResult,
): Promise<'ACTIVE' | 'UNPAID' | null> {
  return repo.transaction(async (repo) => {
    await repo.settleTx(token, result.txHash, 'MINED');
    const updated = await repo.markDeployed(token.id, {
      contractAddress: result.contractAddress,
      blockNumber: result.blockNumber.toString(),
      deployerAddress: result.from,
      deployedAt: result.confirmedAt,
    });
    if (!updated) return null;
    const paid = updated.creditsCharged;
    const amount = paid > 0 ? 0 : (tierCreditAmount(tier, token.deploymentType) ?? 0);
    const charged = amount > 0 ? await chargeToken(repo, updated, amount) : null;
    const status = charged === false ? 'UNPAID' : 'ACTIVE';
    await repo.announce('token.deployed', {
      ...tokenFacts(updated),
      status,
      contractAddress: result.contractAddress,
      creditsCharged: charged ? amount : paid,
    });
    return status;
  });
}

/**
 * FAILED with a reason (only from PENDING); the credits taken at creation and the tokens:create
 * unit are given back. `sent`: what became of the deployment transaction the platform stored.
 */
export async function settleFailed(
  repo: TokenRepository,
  token: TokenRow,
  rawReason: string,
  sent?: { txHash: Hex; status: PlatformTxStatus },
): Promise<void> {
  const reason = cleanReason(rawReason);
  await repo.transaction(async (repo) => {
    if (sent) await repo.settleTx(token, sent.txHash, sent.status);
    const updated = await repo.markFailed(token.id, reason);
    if (!updated) return;
    await refundCharge(repo, token, 'failed');
    await repo.releaseQuota(token.accountId);
    await repo.announce('token.failed', { ...tokenFacts(updated), reason });
  });
}

/**
 * A token whose deployment transaction can never be mined now: FAILED whatever it was, its charge
 * refunded through the ledger (reference `refund:token:<id>`, once) and its tokens:create unit
 * given back. Answers whether it failed now.
 */
export async function settleLost(repo: TokenRepository, token: TokenRow, reason: string): Promise<boolean> {
  return repo.transaction(async (repo) => {
    const cleaned = cleanReason(`The deployment was lost by the network. ${reason}`);
    const updated = await repo.markLost(token, cleaned);
    if (!updated) return false;
    await refundCharge(repo, token, 'lost');
    await repo.releaseQuota(token.accountId);
    await repo.announce('token.failed', { ...tokenFacts(updated), reason: cleaned });
    return true;
  });
}

/**
 * A settled token whose contract the chain no longer has (chain-recovery.ts): MISSING, and the
 * credits it was charged given back — nothing it paid for is on chain. Answers whether it became
 * MISSING now (a token already MISSING, FAILED or refunded is left alone).
 */
export async function settleMissing(repo: TokenRepository, token: TokenRow): Promise<boolean> {
  return repo.transaction(async (repo) => {
    const updated = await repo.markMissing(token);
    if (!updated) return false;
    await refundCharge(repo, token, 'missing on chain');
    return true;
  });
}

/**
 * Gives back what a token was charged (`token.creditsCharged`, read with the status it settles
 * from), once whatever path ends it: the ledger's reference `refund:token:<id>` and the usage
 * record's id decide, so a second recovery or a later failure moves nothing. The caller's status
 * change sets `creditsCharged` to 0 in the same transaction. Exported for the deletion of an
 * unsent deployment (service.ts).
 */
export async function refundCharge(repo: TokenRepository, token: TokenRow, why: string): Promise<void> {
  if (token.creditsCharged <= 0) return;
  const { outcome } = await repo.ledger.refund(token.accountId, 'CREDIT', BigInt(token.creditsCharged), {
    reason: `Refund: token deployment ${why}: ${token.name} (${token.unit})`,
    reference: `refund:token:${token.id}`,
  });
  if (outcome === 'applied') await recordDeployment(repo, token, -token.creditsCharged, ':refund');
}

/**
 * Charges a token's deployment once (reference `token:<id>`): answers false when the credits the
 * account may spend do not cover it, and then marks the token UNPAID. Runs inside the caller's
 * transaction.
 */
export async function chargeToken(repo: TokenRepository, token: TokenRow, amount: number): Promise<boolean> {
  const { outcome } = await repo.ledger.consume(token.accountId, 'CREDIT', BigInt(amount), {
    reason: chargeReason(token),
    reference: tokenTxReference(token.id),
  });
  if (outcome === 'insufficient') {
    await repo.markUnpaid(token.id);
    return false;
  }
  await repo.markCharged(token.id, amount);
  await recordDeployment(repo, token, amount, '');
  return true;
}

/**
 * A deployment's credits as a usage record (source DEPLOYMENT, one "call" in the hour it was
 * charged; its refund takes the call and the credits back: −1 and negative), stored once by its
 * id: a repeated settlement stores nothing.
 */
async function recordDeployment(repo: TokenRepository, token: TokenRow, credits: number, suffix: '' | ':refund') {
  const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
  await repo.usage.add([
    {
      id: `deployment:${token.id}${suffix}`,
      accountId: token.accountId,
      source: 'DEPLOYMENT',
      applicationId: null,
      networkId: token.networkId,
      method: 'deployment',
      methodClass: 'deployment',
      hour,
      billedHour: hour,
      calls: suffix === ':refund' ? -1 : 1,
      microCredits: credits * MICRO_PER_CREDIT,
    },
  ]);
}

/** What both token events say of the token. */
function tokenFacts(token: TokenRow) {
  const { accountId, id: tokenId, networkId, createdBy, name, unit, tokenType, tierType } = token;
  return { accountId, tokenId, networkId, createdBy, name, unit, tokenType, tierType };
}

/** Node error texts may carry raw revert bytes (NUL is not storable as text): printable and short. */
function cleanReason(text: string): string {
  const printable = Array.from(text, (ch) => (ch < ' ' || ch === '\u007f' ? ' ' : ch))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  return printable.length > 500 ? `${printable.slice(0, 497)}...` : printable;
}
