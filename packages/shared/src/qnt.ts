import { z } from 'zod';

/*
 * QNT payments (issue 15; spec §2 success screens, §4 "QNT payments are not instant; access once
 * confirmed", §7 POST /confirm-payment, GET /management/account/{id}/eth-address,
 * GET /management/eth-address-stats, §8 the QNT messages). Amounts in wei as decimal strings.
 */

/** BTCPay Server's states: New → Processing → Settled, or Expired / Invalid. */
export const QNT_PAYMENT_STATUSES = ['NEW', 'PROCESSING', 'SETTLED', 'EXPIRED', 'INVALID'] as const;
export type TQntPaymentStatus = (typeof QNT_PAYMENT_STATUSES)[number];
/** Beside the status: paid less (within no tolerance), more, or after the quote expired. */
export const QNT_PAYMENT_REASONS = ['PAID_PARTIAL', 'PAID_OVER', 'PAID_LATE'] as const;
export type TQntPaymentReason = (typeof QNT_PAYMENT_REASONS)[number];

/** spec §8, quoted exactly. */
export const QNT_MESSAGES = {
  denied: 'User denied transaction signature.',
  failed: 'Something went wrong! please try again.',
  noWallet: 'Please install and activate your MetaMask!',
} as const;

const ZWei = z.string().regex(/^\d+$/);
export const ZTxHash = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, { message: 'A transaction hash is 0x and 64 hex digits.' });
export const ZEthAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, { message: 'An Ethereum address is 0x and 40 hex digits.' });

/** A QNT transfer to the account's deposit address, as the follower sees it. */
export const ZQntTransfer = z
  .object({
    txHash: z.string(),
    amount: ZWei,
    status: z.enum(['PROCESSING', 'CONFIRMED', 'REORGED']),
    confirmations: z.number().int().min(0),
    confirmationsRequired: z.number().int().min(1),
    seenAt: z.string(),
  })
  .meta({ id: 'QntTransfer' });

/** The QNT side of an order paid in QNT, live while the customer waits. */
export const ZQntPayment = z
  .object({
    status: z.enum(QNT_PAYMENT_STATUSES),
    reason: z.enum(QNT_PAYMENT_REASONS).nullable(),
    chainId: z.number().int(),
    /** The network's name in the catalogue (the wallet asks to switch to it). */
    networkName: z.string(),
    tokenAddress: ZEthAddress,
    depositAddress: ZEthAddress,
    amountDue: ZWei,
    /** Pounds per QNT the amount was quoted at, and when. */
    gbpPerQnt: z.string(),
    rateAt: z.string(),
    expiresAt: z.string(),
    /** QNT taken from the account's balance when the order settled (0 until then; what arrived is in `transfers`). */
    paid: ZWei,
    /** Transfers to the deposit address since the order was placed. */
    transfers: z.array(ZQntTransfer),
    settledAt: z.string().nullable(),
  })
  .meta({ id: 'QntPayment' });
export type TQntPayment = z.infer<typeof ZQntPayment>;

/** POST /confirm-payment: the wallet sent the transfer (the follower decides when it counts). */
export const ZConfirmPaymentRequest = z
  .object({ orderId: z.uuid(), txHash: ZTxHash })
  .meta({ id: 'ConfirmPaymentRequest' });
export type TConfirmPaymentRequest = z.infer<typeof ZConfirmPaymentRequest>;

/** QNT has 18 decimals, like ether. */
export const QNT_DECIMALS = 18;

/** QNT held for the customer (over-payments, payments without an order) and where to send QNT. */
export const ZQntHolding = z
  .object({
    held: ZWei,
    depositAddress: ZEthAddress.nullable(),
    chainId: z.number().int().nullable(),
    /** The network's name in the catalogue, and the QNT token's contract on it. */
    networkName: z.string().nullable().optional(),
    tokenAddress: ZEthAddress.nullable().optional(),
  })
  .meta({ id: 'QntHolding' });
export type TQntHolding = z.infer<typeof ZQntHolding>;

/** GET /management/account/{id}/eth-address (staff). */
export const ZAccountEthAddress = z
  .object({
    accountId: z.uuid(),
    address: ZEthAddress,
    derivationIndex: z.number().int().min(0),
    allocatedAt: z.string(),
    held: ZWei,
  })
  .meta({ id: 'AccountEthAddress' });
export type TAccountEthAddress = z.infer<typeof ZAccountEthAddress>;

/** GET /management/eth-address-stats (staff; the SPA reads it with page 0, size 1). */
export const ZEthAddressStats = z
  .object({ totalAddresses: z.number().int(), totalUnallocatedAddresses: z.number().int() })
  .meta({ id: 'EthAddressStats' });
export type TEthAddressStats = z.infer<typeof ZEthAddressStats>;
