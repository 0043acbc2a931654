import type { FastifyBaseLogger } from 'fastify';
import { decodeEventLog, erc20Abi, type Hex } from 'viem';
import type { Database } from '@connect/db';
import type {
  TAccountEthAddress,
  TConfirmPaymentRequest,
  TEthAddressStats,
  TQntHolding,
  TQntPayment,
} from '@connect/shared';
import type { ChainView, ConfirmedBlockLoss, Follower, FollowedLog } from '../../adapters/chains/follower/index.ts';
import type { RecordedQntToken } from '../../adapters/chains/catalogue-sync.ts';
import { LOCAL_QNT_ADDRESS, TRANSFER_TOPIC } from '../../adapters/chains/qnt-token.ts';
import { rpcCall } from '../../adapters/chains/rpc.ts';
import type { PriceQuote, PriceSource } from '../../adapters/prices/create.ts';
import type { Config } from '../../config.ts';
import type { EventBus } from '../../events/port.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { notFound, problem } from '../../lib/errors.ts';
import { penceToQntWei } from '../../lib/prices.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { PlatformKeyRepository } from '../../repositories/platform.ts';
import { loadDepositKeys, type DepositKeys } from './deposit-keys.ts';
import { markLostTransfers, reverseLostTransfer, transferFacts } from './qnt-lost-blocks.ts';
import { InvoicesRepository } from './invoices/repository.ts';
import { QntRepository, type QntPaymentRow, type QntTransferRow } from './qnt-repository.ts';

/** The follower's name (its cursor's key): never renamed. */
export const QNT_FOLLOWER = 'qnt-deposits';

export type QntNetwork = { code: string; chainId: number; name: string; rpcUrl: string; tokenAddress: Hex };

/**
 * The network QNT is taken on, or null when this installation takes no QNT (no token, or no RPC URL
 * for its network). The token is this node's QNT_TOKEN_ADDRESS (on QNT_NETWORK), else the one the
 * catalogue records (`recorded`: another node's, read after this node's start wrote its own), so
 * every node of an installation takes QNT where one is configured to (issue 31). The chain is
 * reached through this node's RPC URL for that network, else the catalogue's. In production a
 * recorded token is held to the rules a configured one is (production-checks.ts): on a mainnet,
 * never the local token's address.
 */
export function qntNetworkOf(
  config: Pick<Config, 'qnt' | 'chains' | 'isProduction'>,
  recorded: RecordedQntToken | null,
): QntNetwork | null {
  const configuredToken = config.qnt.tokenAddress;
  const code = configuredToken ? config.qnt.network : recorded?.network;
  const tokenAddress = configuredToken ?? recorded?.tokenAddress;
  if (!code || !tokenAddress) return null;
  const own = config.chains.networks.find((n) => n.code === code);
  const chain = own?.rpcUrl
    ? { chainId: own.chainId, name: own.localName ?? own.name, rpcUrl: own.rpcUrl }
    : recorded?.network === code && recorded.rpcUrl
      ? { chainId: recorded.chainId, name: recorded.name, rpcUrl: recorded.rpcUrl }
      : null;
  if (!chain) return null;
  if (!configuredToken && config.isProduction) {
    const networkType = own?.networkType ?? recorded?.networkType;
    if (networkType !== 'mainnet' || tokenAddress.toLowerCase() === LOCAL_QNT_ADDRESS.toLowerCase()) return null;
  }
  return { code, ...chain, tokenAddress: tokenAddress.toLowerCase() as Hex };
}

export type QntContext = {
  db: Database;
  config: Pick<Config, 'qnt' | 'chains' | 'staffAlertEmail' | 'isProduction'>;
  /** The QNT token the catalogue recorded at this node's start (deps.chains.qntToken). */
  recordedToken: RecordedQntToken | null;
  box: SecretBox;
  events: EventBus;
  prices: PriceSource;
  log: FastifyBaseLogger;
};

/** A decimal share ('0.005') of an amount, rounded down. */
function shareOf(amount: bigint, share: string): bigint {
  const [whole = '0', fraction = ''] = share.split('.');
  const scale = 10n ** BigInt(fraction.length);
  return (amount * BigInt(`${whole}${fraction}`)) / scale;
}

const iso = (value: Date | string) => new Date(value).toISOString();
/**
 * What is held for the customer: the QNT balance, never below 0. A balance below 0 is QNT the
 * chain took back after it was spent (issue 27 §4): a debt the notices and staff alerts state,
 * taken from the next QNT that arrives; none is held meanwhile.
 */
const held = ({ balance }: { balance: bigint }) => (balance > 0n ? balance : 0n);
/**
 * The ledger reference of a transfer's credit: `qnt-transfer:<chain>:<tx>:<log>`, so it is credited
 * once; a transfer whose credit was taken back (the chain lost it) and that is mined again later is
 * credited again under `…:<reversals>`.
 */
const transferReference = (t: Pick<QntTransferRow, 'chainId' | 'txHash' | 'logIndex' | 'reversals'>) =>
  `qnt-transfer:${t.chainId}:${t.txHash}:${t.logIndex}${t.reversals ? `:${t.reversals}` : ''}`;

/**
 * QNT payments (issue 15; docs/decisions/payments.md "QNT payments"): each account has its own deposit
 * address for good; the chain follower credits every confirmed transfer to it to the account's
 * QNT in the ledger (held for the customer), and open orders are settled from that balance,
 * oldest first, by the account-plan service (the `qnt.transfer_confirmed` subscriber). So a late,
 * repeated or extra payment is never orphaned. One instance per app (`qntPayments(deps)`).
 */
export class QntPayments {
  private keys: Promise<DepositKeys> | undefined;
  readonly network: QntNetwork | null;

  constructor(private readonly ctx: QntContext) {
    this.network = qntNetworkOf(ctx.config, ctx.recordedToken);
    const recorded = ctx.recordedToken;
    if (ctx.config.qnt.tokenAddress || !recorded) return;
    const where = { network: recorded.network, token: recorded.tokenAddress };
    if (this.network) {
      ctx.log.info(
        where,
        'QNT payments: QNT_TOKEN_ADDRESS is unset here; the token the network catalogue records is taken',
      );
    } else {
      ctx.log.warn(
        where,
        'QNT payments are off here: the network catalogue records a QNT token, but its network has no RPC URL, or (in production) it is not on a mainnet',
      );
    }
  }

  get isAvailable(): boolean {
    return this.network !== null;
  }

  /**
   * Loads the deposit keys while the service is assembled, outside any transaction: an order's
   * quote runs in the order's transaction, and the embedded seed (generated on first use) must be
   * stored for good before an address derived from it is handed out — and PGlite's one connection
   * would wait on that transaction for ever.
   */
  async prepare(): Promise<void> {
    if (this.network) await this.depositKeys();
  }

  /** The deposit keys (the configured xpub, or the installation's seed), loaded once. */
  depositKeys(): Promise<DepositKeys> {
    this.keys ??= loadDepositKeys(this.ctx.config.qnt, new PlatformKeyRepository(this.ctx.db), this.ctx.box).catch(
      (error: unknown) => {
        this.keys = undefined;
        throw error;
      },
    );
    return this.keys;
  }

  /** The account's deposit address, given on first need and kept for good. */
  async addressFor(accountId: string, db: Database = this.ctx.db) {
    const repo = new QntRepository(db);
    const existing = await repo.addressOf(accountId);
    if (existing) return existing;
    for (let attempt = 0; attempt < 3; attempt++) {
      const allocated = await repo.allocate(accountId).catch((error: unknown) => {
        // Two requests of one account at once: the other one's allocation is the answer.
        if (isUniqueViolation(error)) return null;
        throw error;
      });
      if (allocated) return allocated;
      const again = await repo.addressOf(accountId);
      if (again) return again;
      const keys = await this.depositKeys();
      await repo.refill((index) => keys.addressAt(index));
    }
    throw new Error('No deposit address could be allocated');
  }

  /**
   * The QNT side of an order paid in QNT, in the order's transaction: the amount due in wei at
   * the price of now (stored with its rate and time), until when the quote holds; or at `price`,
   * a read the caller already priced with (the month's close prices its invoices and their
   * orders at one read, so the invoice's QNT amount is the one the customer is asked for).
   */
  async quote(
    tx: Database,
    order: { id: string; accountId: string; totalGbpMinor: number },
    price?: PriceQuote,
  ): Promise<void> {
    if (!this.network) throw problem('QNT_PAYMENTS_UNAVAILABLE');
    const address = await this.addressFor(order.accountId, tx);
    price ??= await this.price();
    await new QntRepository(tx).insertPayment({
      orderId: order.id,
      accountId: order.accountId,
      depositAddress: address.address,
      amountDue: penceToQntWei(order.totalGbpMinor, price.gbpPerQnt),
      gbpPerQnt: price.gbpPerQnt,
      rateAt: price.at,
      expiresAt: this.expiry(),
    });
  }

  /** A new quote for a payment whose quote ran out (a late payment settles at today's price). */
  async requote(tx: Database, payment: QntPaymentRow, totalGbpMinor: number): Promise<bigint> {
    const price = await this.price();
    const amountDue = penceToQntWei(totalGbpMinor, price.gbpPerQnt);
    await new QntRepository(tx).update(payment.orderId, {
      amountDue,
      gbpPerQnt: price.gbpPerQnt,
      rateAt: price.at,
      expiresAt: this.expiry(),
    });
    return amountDue;
  }

  /** What settles a payment: the amount due less the configured tolerance. */
  enough(amountDue: bigint): bigint {
    return amountDue - shareOf(amountDue, this.ctx.config.qnt.underpayTolerance);
  }

  /** The account's payments still waiting for QNT, oldest first (locked by the caller's order lock). */
  openPayments(tx: Database, accountId: string): Promise<QntPaymentRow[]> {
    return new QntRepository(tx).openPayments(accountId);
  }

  /** The payment settled with `paid` wei taken from the balance; PAID_LATE / PAID_OVER beside it. */
  async markSettled(tx: Database, payment: QntPaymentRow, paid: bigint, at: Date, wasLate: boolean): Promise<void> {
    const repo = new QntRepository(tx);
    const received = await repo.confirmedSince(payment.accountId, payment.createdAt);
    const reason = wasLate ? 'PAID_LATE' : received > payment.amountDue ? 'PAID_OVER' : null;
    await repo.update(payment.orderId, { status: 'SETTLED', reason, paid, settledAt: at });
    // The order's invoice shows the QNT it was paid with: the quote as stored (a late one requoted).
    const settled = await repo.payment(payment.orderId);
    if (settled) await new InvoicesRepository(tx).recordQntPayment(payment.orderId, settled);
  }

  /** Something arrived but not enough: the payment says so (and keeps waiting, or stays expired). */
  async markPartial(tx: Database, payment: QntPaymentRow): Promise<void> {
    const status = payment.status === 'EXPIRED' ? 'EXPIRED' : 'PROCESSING';
    await new QntRepository(tx).update(payment.orderId, { status, reason: 'PAID_PARTIAL' });
  }

  /** The account's settled payments, newest first. */
  settledPayments(tx: Database, accountId: string): Promise<QntPaymentRow[]> {
    return new QntRepository(tx).settledPayments(accountId);
  }

  /** The order's payment was undone (the chain took its QNT back): it waits for QNT again. */
  async reopen(tx: Database, orderId: string): Promise<void> {
    await new QntRepository(tx).reopen(orderId);
  }

  /** The order was withdrawn: what arrived stays held for the customer. */
  async invalidate(tx: Database, orderId: string): Promise<void> {
    await new QntRepository(tx).invalidate(orderId);
  }

  /** The order's QNT payment as the API answers it, or null for an order not paid in QNT. */
  async view(orderId: string, db: Database = this.ctx.db): Promise<TQntPayment | null> {
    const repo = new QntRepository(db);
    const quoted = await repo.payment(orderId);
    if (!quoted || !this.network) return null;
    const { chainId, name, tokenAddress } = this.network;
    const [transfers, followed] = await Promise.all([
      repo.transfersTo(quoted.accountId, quoted.createdAt),
      repo.followedBlock(QNT_FOLLOWER, chainId),
    ]);
    // Read again after its transfers: a follower step that committed between the two reads (it
    // records a transfer and moves the payment to PROCESSING at once) showed a transfer beside a
    // payment still NEW ("Waiting for your transfer" over its confirmations).
    const payment = (await repo.payment(orderId)) ?? quoted;
    const required = this.ctx.config.qnt.confirmations;
    const isOpen = payment.status === 'NEW' || payment.status === 'PROCESSING';
    return {
      // A quote that ran out shows so at once, before the follower's next step records it.
      status: isOpen && payment.expiresAt.getTime() <= Date.now() ? 'EXPIRED' : payment.status,
      reason: payment.reason,
      chainId,
      networkName: name,
      tokenAddress,
      depositAddress: payment.depositAddress,
      amountDue: payment.amountDue.toString(),
      gbpPerQnt: payment.gbpPerQnt,
      rateAt: iso(payment.rateAt),
      expiresAt: iso(payment.expiresAt),
      paid: payment.paid.toString(),
      transfers: transfers.map((t) => ({
        txHash: t.txHash,
        amount: t.amount.toString(),
        // A transfer whose credit was taken back is, to the customer, one the chain replaced.
        status: t.status === 'REVERSED' ? 'REORGED' : t.status,
        confirmations:
          t.status === 'CONFIRMED'
            ? required
            : t.status === 'REORGED' || t.status === 'REVERSED' || followed === null
              ? 0
              : Math.max(0, Math.min(required, followed - Number(t.blockNumber) + 1)),
        confirmationsRequired: required,
        seenAt: iso(t.seenAt),
      })),
      settledAt: payment.settledAt ? iso(payment.settledAt) : null,
    };
  }

  /** QNT held for the customer and where to send QNT (GET /subscription). */
  async holding(accountId: string): Promise<TQntHolding> {
    const repo = new QntRepository(this.ctx.db);
    const balance = held(await repo.ledger.balance(accountId, 'QNT'));
    if (!this.network) return { held: balance.toString(), depositAddress: null, chainId: null };
    const address = await this.addressFor(accountId);
    return {
      held: balance.toString(),
      depositAddress: address.address,
      chainId: this.network.chainId,
      networkName: this.network.name,
      tokenAddress: this.network.tokenAddress,
    };
  }

  /**
   * POST /confirm-payment: the customer's wallet sent `txHash`. Recorded with the payment; when the
   * chain already has it, it must be a QNT transfer to the order's address (else
   * QNT_PAYMENT_INVALID). The follower alone decides when it counts.
   */
  async confirm(caller: { accountId: string }, body: TConfirmPaymentRequest): Promise<TQntPayment> {
    const repo = new QntRepository(this.ctx.db);
    const payment = await repo.payment(body.orderId);
    if (!payment || payment.accountId !== caller.accountId || !this.network) throw notFound('ORDER_NOT_FOUND');
    const txHash = body.txHash.toLowerCase();
    const receipt = await rpcCall<{ status: Hex; logs: { address: Hex; topics: Hex[]; data: Hex }[] } | null>(
      this.network.rpcUrl,
      'eth_getTransactionReceipt',
      [txHash],
      { timeoutMs: 5_000 },
    ).catch(() => null);
    if (receipt) {
      const paysTheAddress =
        receipt.status === '0x1' &&
        receipt.logs.some((log) => {
          const transfer = this.decodeTransfer(log);
          return transfer?.to === payment.depositAddress;
        });
      if (!paysTheAddress) throw problem('QNT_PAYMENT_INVALID');
    }
    await repo.addReportedTx(payment.orderId, txHash);
    return (await this.view(payment.orderId))!;
  }

  /** Staff: the account's deposit address (given now if it has none yet) and the QNT held. */
  async accountAddress(accountId: string): Promise<TAccountEthAddress> {
    if (!this.network) throw problem('QNT_PAYMENTS_UNAVAILABLE');
    const repo = new QntRepository(this.ctx.db);
    if (!(await repo.accountExists(accountId))) throw notFound('ACCOUNT_NOT_FOUND');
    const address = await this.addressFor(accountId);
    const balance = held(await repo.ledger.balance(accountId, 'QNT'));
    return {
      accountId,
      address: address.address,
      derivationIndex: address.derivationIndex,
      allocatedAt: iso(address.allocatedAt ?? address.createdAt),
      held: balance.toString(),
    };
  }

  /** Staff: how many addresses are derived, and how many wait for an account. */
  addressStats(): Promise<TEthAddressStats> {
    return new QntRepository(this.ctx.db).addressStats();
  }

  /** The follower of QNT transfers to deposit addresses, or null when QNT is not taken here. */
  follower(): Follower | null {
    const network = this.network;
    if (!network) return null;
    return {
      name: QNT_FOLLOWER,
      network: { code: network.code, chainId: network.chainId, rpcUrl: network.rpcUrl },
      confirmations: this.ctx.config.qnt.confirmations,
      // Every Transfer of the token, whoever receives it: the recipients are matched in the
      // database (one index probe per transfer), so the cost never grows with the addresses.
      filter: { address: network.tokenAddress, topics: [TRANSFER_TOPIC] },
      onLogs: (tx, logs) => this.onLogs(tx, logs),
      onReorg: (tx, fromBlock) => this.onReorg(tx, fromBlock),
      onConfirmed: (tx, upTo) => this.onConfirmed(tx, upTo),
    };
  }

  private async onLogs(tx: Database, logs: FollowedLog[]): Promise<void> {
    const transfers = logs
      .map((log) => ({ log, transfer: this.decodeTransfer(log) }))
      .filter((t): t is { log: FollowedLog; transfer: NonNullable<ReturnType<QntPayments['decodeTransfer']>> } =>
        Boolean(t.transfer && t.transfer.value > 0n),
      );
    if (transfers.length === 0) return;
    const repo = new QntRepository(tx);
    const owners = await repo.owners(transfers.map((t) => t.transfer.to));
    const rows = transfers
      .filter((t) => owners.has(t.transfer.to))
      .map(({ log, transfer }) => ({
        chainId: this.network!.chainId,
        txHash: log.txHash.toLowerCase(),
        logIndex: log.logIndex,
        blockNumber: Number(log.blockNumber),
        blockHash: log.blockHash.toLowerCase(),
        fromAddress: transfer.from,
        toAddress: transfer.to,
        accountId: owners.get(transfer.to)!,
        amount: transfer.value,
      }));
    const seen = await repo.recordTransfers(rows);
    await repo.markProcessing(seen.map((t) => t.accountId));
    for (const t of seen) await this.ctx.events.emit(tx, 'qnt.transfer_seen', transferFacts(t));
  }

  /**
   * The follower's confirmed-block-lost hook (registered with deps.followers where the follower is
   * added): qnt-lost-blocks.ts, in the transaction that rewinds the follower.
   */
  async onConfirmedBlockLost(tx: Database, loss: ConfirmedBlockLoss, chain: ChainView): Promise<void> {
    const network = this.network;
    if (!network || loss.follower !== QNT_FOLLOWER || loss.network.chainId !== network.chainId) return;
    await markLostTransfers(tx, network.chainId, loss, chain, {
      events: this.ctx.events,
      alertsTo: this.ctx.config.staffAlertEmail,
      log: this.ctx.log,
    });
  }

  private async onReorg(tx: Database, fromBlock: bigint): Promise<void> {
    const repo = new QntRepository(tx);
    const chainId = this.network!.chainId;
    const gone = await repo.markReorged(chainId, Number(fromBlock));
    await repo.unmarkProcessing(gone.map((t) => t.accountId));
    for (const t of gone) await this.ctx.events.emit(tx, 'qnt.transfer_reorged', transferFacts(t));
  }

  private async onConfirmed(tx: Database, upTo: bigint): Promise<void> {
    const repo = new QntRepository(tx);
    const now = new Date();
    const chainId = this.network!.chainId;
    for (const t of await repo.confirmable(chainId, Number(upTo))) {
      const reference = transferReference(t);
      const credited = await repo.ledger.payment(t.accountId, 'QNT', t.amount, {
        reason: `QNT received (transaction ${t.txHash})`,
        reference,
      });
      await repo.markConfirmed(t.id, now);
      // A transfer of a lost block mined again is credited already: nothing new to announce.
      if (credited.outcome === 'applied') {
        await this.ctx.events.emit(tx, 'qnt.transfer_confirmed', { ...transferFacts(t), reference });
      }
    }
    for (const t of await repo.lostFor(chainId, Number(upTo))) {
      await reverseLostTransfer(tx, repo, t, { events: this.ctx.events, alertsTo: this.ctx.config.staffAlertEmail });
    }
    await repo.expire(now);
  }

  private decodeTransfer(log: { address: Hex; topics: Hex[]; data: Hex }) {
    if (!this.network || log.address.toLowerCase() !== this.network.tokenAddress || log.topics[0] !== TRANSFER_TOPIC) {
      return null;
    }
    try {
      const { args } = decodeEventLog({
        abi: erc20Abi,
        eventName: 'Transfer',
        topics: log.topics as [Hex, ...Hex[]],
        data: log.data,
      });
      return { from: args.from.toLowerCase(), to: args.to.toLowerCase(), value: args.value };
    } catch {
      return null; // a Transfer of another shape (ERC-721 has the value indexed): not QNT
    }
  }

  /**
   * What a quote made now for `pence` would say, without making it (an invoice's payment rate
   * before the customer chooses to pay in QNT): this service's price read and quote lifetime, the
   * conversion of lib/prices.ts.
   */
  async preview(pence: number): Promise<{ amountDue: string; gbpPerQnt: string; rateAt: string; expiresAt: string }> {
    const price = await this.price();
    return {
      amountDue: penceToQntWei(pence, price.gbpPerQnt).toString(),
      gbpPerQnt: price.gbpPerQnt,
      rateAt: price.at.toISOString(),
      expiresAt: this.expiry().toISOString(),
    };
  }

  private async price() {
    try {
      return await this.ctx.prices.qntInGbp();
    } catch (error) {
      this.ctx.log.warn({ err: error }, 'no QNT price');
      throw problem('QNT_PAYMENTS_UNAVAILABLE');
    }
  }

  private expiry(): Date {
    return new Date(Date.now() + this.ctx.config.qnt.quoteMinutes * 60_000);
  }
}
