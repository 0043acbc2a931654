import type { Hex } from 'viem';
import type { PlatformTxStatus } from '@connect/db';
import { tierCreditAmount } from '@connect/shared';
import type { TokenRepository, TokenRow, TokenWithRefs } from './repository.ts';

/*
 * How a deployment ends in the database: ACTIVE and charged once, UNPAID, or FAILED with its
 * tokens:create unit given back. Every change is conditional on the status it starts from, so
 * attempts on several nodes settle a token once.
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
    if (amount <= 0) return 'ACTIVE';
    const charged = await chargeToken(repo, updated, amount);
    return charged ? 'ACTIVE' : 'UNPAID';
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
    if (updated) await repo.releaseQuota(token.accountId);
  });
}

/**
 * A token whose deployment transaction can never be mined now: FAILED whatever it was, its charge
 * refunded through the ledger (reference `refund:token:<id>`, once) and its tokens:create unit
 * given back. Answers whether it failed now.
 */
export async function settleLost(repo: TokenRepository, token: TokenRow, reason: string): Promise<boolean> {
  return repo.transaction(async (repo) => {
    const updated = await repo.markLost(token, cleanReason(`The deployment was lost by the network. ${reason}`));
    if (!updated) return false;
    if (token.creditsCharged > 0) {
      await repo.applyCredits(
        token.accountId,
        token.creditsCharged,
        `Refund: token deployment lost: ${token.name} (${token.unit})`,
        `refund:token:${token.id}`,
      );
    }
    await repo.releaseQuota(token.accountId);
    return true;
  });
}

/**
 * Charges a token's deployment once (reference `token:<id>`): answers false when the balance does
 * not cover it, and then marks the token UNPAID. Runs inside the caller's transaction.
 */
export async function chargeToken(repo: TokenRepository, token: TokenRow, amount: number): Promise<boolean> {
  const result = await repo.applyCredits(
    token.accountId,
    -amount,
    `Token deployment: ${token.name} (${token.unit})`,
    `token:${token.id}`,
  );
  if (result === 'insufficient') {
    await repo.markUnpaid(token.id);
    return false;
  }
  await repo.markCharged(token.id, amount);
  return true;
}

/** Node error texts may carry raw revert bytes (NUL is not storable as text): printable and short. */
function cleanReason(text: string): string {
  const printable = Array.from(text, (ch) => (ch < ' ' || ch === '\u007f' ? ' ' : ch))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  return printable.length > 500 ? `${printable.slice(0, 497)}...` : printable;
}
