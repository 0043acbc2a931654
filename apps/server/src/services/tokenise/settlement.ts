import type { Hex } from 'viem';
import type { PlatformTxStatus } from '@connect/db';
import { MICRO_PER_CREDIT, tierCreditAmount } from '@connect/shared';
import type { TokenRepository, TokenRow, TokenWithRefs } from './repository.ts';

/*
 * How a deployment ends in the database: ACTIVE and charged once, UNPAID, or FAILED with its
 * tokens:create unit given back. Every change is conditional on the status it starts from, so
 * attempts on several nodes settle a token once; the charge and the refund are ledger movements
 * keyed by the token (`token:<id>`, `refund:token:<id>`), traced as usage records in the same
 * transaction (`deployment:<id>`, `deployment:<id>:refund`, issue 17; the usage close never
 * charges them again), and `token.deployed` or `token.failed` is announced in the same transaction
 * as the status change.
 */

/** What the chain showed of a successful deployment. */
export type DeployResult = { txHash: Hex; contractAddress: Hex; blockNumber: bigint; from: Hex; confirmedAt: Date };

/**
 * PENDING → ACTIVE, charged the tier's amount (UNPAID when the balance no longer covers it), the
 * platform's transaction marked mined. Answers the new status, or null when the token had been
 * settled before (another attempt, another node).
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
    const amount = tierCreditAmount(tier, token.deploymentType) ?? 0;
    const charged = amount > 0 ? await chargeToken(repo, updated, amount) : null;
    const status = charged === false ? 'UNPAID' : 'ACTIVE';
    await repo.announce('token.deployed', {
      ...tokenFacts(updated),
      status,
      contractAddress: result.contractAddress,
      creditsCharged: charged ? amount : 0,
    });
    return status;
  });
}

/**
 * FAILED with a reason (only from PENDING); the tokens:create unit is given back, nothing is
 * charged. `sent`: what became of the deployment transaction the platform stored.
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
    if (token.creditsCharged > 0) {
      await repo.ledger.refund(token.accountId, 'CREDIT', BigInt(token.creditsCharged), {
        reason: `Refund: token deployment lost: ${token.name} (${token.unit})`,
        reference: `refund:token:${token.id}`,
      });
      await recordDeployment(repo, token, -token.creditsCharged, ':refund');
    }
    await repo.releaseQuota(token.accountId);
    await repo.announce('token.failed', { ...tokenFacts(updated), reason: cleaned });
    return true;
  });
}

/**
 * Charges a token's deployment once (reference `token:<id>`): answers false when the credits the
 * account may spend do not cover it, and then marks the token UNPAID. Runs inside the caller's
 * transaction.
 */
export async function chargeToken(repo: TokenRepository, token: TokenRow, amount: number): Promise<boolean> {
  const { outcome } = await repo.ledger.consume(token.accountId, 'CREDIT', BigInt(amount), {
    reason: `Token deployment: ${token.name} (${token.unit})`,
    reference: `token:${token.id}`,
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
