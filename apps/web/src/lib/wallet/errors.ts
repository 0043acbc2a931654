import { QNT_MESSAGES } from '@connect/shared';

/*
 * This module imports nothing of wagmi or viem (viem's errors are recognised by their names and
 * fields), so a page that loads the wallet layer only when it pays (the QNT payment) can still
 * explain the wallet's failures from its own chunk.
 */

/**
 * Why a wallet action failed, as the screens tell it (spec §8 for the first two):
 * - NO_WALLET: no EIP-1193 provider in the page ('Please install and activate your MetaMask!');
 * - USER_REJECTED: the user declined in the wallet, EIP-1193 code 4001 ('User denied transaction signature.');
 * - CANCELLED: the user closed the wallet picker without choosing one (nothing was asked of a wallet);
 * - UNKNOWN_CHAIN: the wallet does not know the network (code 4902) and it cannot be added from here;
 * - REVERTED: the chain refused the transaction (e.g. minting by someone who is not the minter);
 * - UNKNOWN: anything else.
 */
export type WalletErrorCode = 'NO_WALLET' | 'USER_REJECTED' | 'CANCELLED' | 'UNKNOWN_CHAIN' | 'REVERTED' | 'UNKNOWN';

/**
 * The spec's words for a wallet failure in a QNT payment (§8, QNT_MESSAGES): a missing wallet, a
 * refusal, and anything else. A closed picker says nothing: the user chose not to go on.
 */
export function walletMessage(code: WalletErrorCode): string | null {
  switch (code) {
    case 'NO_WALLET':
      return QNT_MESSAGES.noWallet;
    case 'USER_REJECTED':
      return QNT_MESSAGES.denied;
    case 'CANCELLED':
      return null;
    default:
      return QNT_MESSAGES.failed;
  }
}

export class WalletError extends Error {
  /** What the wallet or chain said, when it said more than the code. */
  readonly detail: string | undefined;

  constructor(
    readonly code: WalletErrorCode,
    options?: { cause?: unknown; detail?: string },
  ) {
    super(options?.detail ?? walletMessage(code) ?? code, { cause: options?.cause });
    this.name = 'WalletError';
    this.detail = options?.detail;
  }
}

type Coded = { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; shortMessage?: unknown };

/** Walks an error and its causes (viem wraps provider errors several levels deep). */
function* chain(error: unknown): Generator<Coded> {
  let current: unknown = error;
  for (let depth = 0; depth < 10 && current && typeof current === 'object'; depth += 1) {
    yield current as Coded;
    current = (current as Coded).cause;
  }
}

/** The kind of a wallet failure, from whatever wagmi, viem or the provider threw. */
export function classifyWalletError(error: unknown): WalletErrorCode {
  if (error instanceof WalletError) return error.code;
  for (const link of chain(error)) {
    const name = typeof link.name === 'string' ? link.name : '';
    if (link.code === 4001 || name === 'UserRejectedRequestError') return 'USER_REJECTED';
    if (name === 'ProviderNotFoundError' || name === 'ConnectorNotFoundError') return 'NO_WALLET';
    if (link.code === 4902 || name === 'SwitchChainNotSupportedError') return 'UNKNOWN_CHAIN';
    if (name === 'ContractFunctionRevertedError' || name === 'ExecutionRevertedError') return 'REVERTED';
  }
  return 'UNKNOWN';
}

/** The most useful line of an unknown failure (viem's short message, not its multi-line dump). */
export function walletErrorDetail(error: unknown): string | undefined {
  if (error instanceof WalletError) return error.detail;
  const short = (error as Coded | null)?.shortMessage;
  if (error instanceof Error && typeof short === 'string') return short;
  if (error instanceof Error) return error.message;
  return undefined;
}
