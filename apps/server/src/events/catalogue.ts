import type { TierType, TokenType } from '@connect/db';
import type { ApplicationType, PlanStatus, Role, TApplicationRole, TPlanStatusReason } from '@connect/shared';

/** What changed a plan: the events of services/account-plan/transitions.ts. */
export type PlanChangeCause =
  | 'ORDER_PLACED'
  | 'ORDER_CANCELLED'
  | 'PLAN_PAID'
  | 'PERIOD_ENDED'
  | 'RENEWAL_FAILED'
  | 'BILL_PAID'
  | 'TRIAL_ENDED'
  | 'TRIAL_EXTENDED'
  | 'CANCEL_REQUESTED'
  | 'CANCEL_WITHDRAWN'
  | 'DOWNGRADE_CHOSEN'
  | 'DISABLED_BY_STAFF'
  | 'ENABLED_BY_STAFF'
  | 'PAYMENT_REVERSED';

/*
 * The domain events of the platform: what one service announces and others (notifications,
 * billing, rewards, webhooks) act upon. One entry per event type: its payload, JSON-safe (it is
 * stored in the outbox as jsonb), so amounts are strings and times ISO strings.
 * Adding one: docs/architecture.md, "Events — how to add one".
 */

/** What both token events tell of the token. */
export type TokenFacts = {
  accountId: string;
  tokenId: string;
  networkId: string;
  createdBy: string | null;
  name: string;
  unit: string;
  /** With the tier, names the token's page (its link in a notification). */
  tokenType: TokenType;
  tierType: TierType;
};

/** A QNT transfer to an account's deposit address (amount in wei, as a decimal string). */
export type QntTransferFacts = {
  accountId: string;
  chainId: number;
  txHash: string;
  logIndex: number;
  blockNumber: number;
  toAddress: string;
  amount: string;
};

export type DomainEvents = {
  /** A portal user and their account were created (first sign-in after confirming the email). */
  'user.signed_up': { userId: string; accountId: string; email: string; role: Role };
  /** A user's identity check (KYC) came back clear. */
  'identity.verified': { userId: string; accountId: string };
  /** An account activated catalogue networks. */
  'network.activated': { accountId: string; userId: string; networkIds: string[] };
  /** Staff approved or rejected a private network under review. */
  'network.review_decided': {
    accountId: string;
    networkId: string;
    networkName: string;
    /** Who submitted it (notified). */
    requestedBy: string | null;
    decision: 'APPROVED' | 'REJECTED';
    note: string | null;
  };
  /** An API application was registered. */
  'application.registered': {
    accountId: string;
    userId: string;
    applicationId: string;
    clientId: string;
    name: string;
    applicationType: ApplicationType;
  };
  /**
   * Staff created an application for a user (issue 33 §2), announced beside its
   * `application.registered`: the user is emailed (application-manager/staff-creation-mail.ts).
   */
  'application.created_by_staff': {
    accountId: string;
    userId: string;
    email: string;
    applicationId: string;
    clientId: string;
    name: string;
    applicationType: ApplicationType;
    roleName: TApplicationRole;
  };
  /** An application's client secret was rotated (the old one expires after its grace period). */
  'application.secret_rotated': {
    accountId: string;
    userId: string;
    applicationId: string;
    graceEndsAt: string | null;
  };
  /** A token's deployment is on the chain: ACTIVE (charged) or UNPAID (credits short at charge time). */
  'token.deployed': TokenFacts & {
    status: 'ACTIVE' | 'UNPAID';
    contractAddress: string;
    creditsCharged: number;
  };
  /** A token's deployment failed (nothing charged, or its charge refunded). */
  'token.failed': TokenFacts & { reason: string };
  /**
   * An account's plan changed (services/account-plan/lifecycle.ts): the event that caused it (the
   * transitions of transitions.ts), the plan and status before and after.
   */
  'plan.changed': {
    accountId: string;
    cause: PlanChangeCause;
    planName: string;
    /** The plan's type after the change (absent in events stored before it was added). */
    planType?: 'TRIAL' | 'PAY_AS_YOU_GO' | 'SUBSCRIPTION';
    previousPlanName: string;
    status: PlanStatus;
    previousStatus: PlanStatus;
    statusReason: TPlanStatusReason | null;
    periodEnd: string | null;
    orderId: string | null;
  };
  /** Staff recorded a payment (a bank transfer) for an order, or an order was paid in full. */
  'order.paid': {
    accountId: string;
    orderId: string;
    reference: string;
    kind: 'PLAN' | 'CREDITS' | 'RENEWAL' | 'USAGE';
    totalGbpMinor: number;
  };
  /** Staff recorded a bank transfer that pays part of an order (the order still awaits the rest). */
  'order.payment_received': {
    accountId: string;
    orderId: string;
    reference: string;
    amountGbpMinor: number;
    /** What the order still needs after it. */
    leftGbpMinor: number;
  };
  /** An order awaiting payment was withdrawn by its customer. */
  'order.cancelled': { accountId: string; orderId: string; reference: string };
  /**
   * A card intent that pays an order succeeded at the card provider (recorded once per intent,
   * from its webhook or a confirmation, whichever came first); the account-plan service settles.
   */
  'card.payment_succeeded': { accountId: string; orderId: string; intentId: string; amountGbpMinor: number };
  /** A card payment its order could no longer take (withdrawn, or paid already): to refund in full. */
  'card.refund_due': { accountId: string; orderId: string; intentId: string; amountGbpMinor: number };
  /** Staff refunded (part of) an order paid by card; a credit note was issued. */
  'card.refunded': {
    accountId: string;
    orderId: string;
    reference: string;
    amountGbpMinor: number;
    creditNoteId: string;
    /** How it was paid back: to the card (absent in events stored before bank refunds), or by a bank transfer. */
    method?: 'FIAT' | 'BANK_TRANSFER';
  };
  /** A monthly charge of the saved card failed; `nextAttemptAt` null: no attempt is left. */
  'card.charge_failed': {
    accountId: string;
    orderId: string;
    reference: string;
    amountGbpMinor: number;
    attempt: number;
    message: string;
    nextAttemptAt: string | null;
  };
  /** A plan order was placed and waits for its payment (the bank transfer's instructions are mailed). */
  'order.placed': {
    accountId: string;
    userId: string | null;
    orderId: string;
    reference: string;
    paymentMethod: string;
  };
  /**
   * A month's invoice was numbered and is due (the close, issue 18); its USAGE order collects it
   * (`order.placed` follows for the order). Mailed once to the account's members.
   */
  'invoice.finalised': {
    accountId: string;
    invoiceId: string;
    number: string;
    orderId: string;
    totalGbpMinor: number;
    dueAt: string;
  };
  /** A receipt was made for a paid invoice (POST /user/invoice/create-receipt); mailed once. */
  'invoice.receipt_created': {
    accountId: string;
    invoiceId: string;
    receiptId: string;
    number: string;
    userId: string | null;
  };
  /** A QNT transfer to a deposit address was seen in a block (not yet confirmed). */
  'qnt.transfer_seen': QntTransferFacts;
  /** A QNT transfer has its confirmations and was credited to the account's QNT in the ledger. */
  'qnt.transfer_confirmed': QntTransferFacts & { reference: string };
  /** A transfer's block was replaced and the transfer was not found again. */
  'qnt.transfer_reorged': QntTransferFacts;
  /**
   * A confirmed (credited) transfer's block was lost by the chain and the new chain does not have
   * it (issue 27 §4): its credit was taken back through the ledger (`reference`, the reversal's;
   * `balanceAfter`: the account's QNT after it, negative when already spent: a debt).
   */
  'qnt.transfer_reversed': QntTransferFacts & { reference: string; balanceAfter: string };
  /**
   * A staff alert was raised (repositories/staff-alerts.ts), in the transaction of its cause; `to`
   * is the address it is mailed to (STAFF_ALERT_EMAIL, resolved when it was raised).
   */
  'staff.alert_raised': {
    alertId: string;
    code: string;
    message: string;
    recordType: string | null;
    recordId: string | null;
    to: string;
  };
  /**
   * One flush of a node's gateway usage counters: the calls counted since its previous flush, per
   * application, network, method and UTC hour (the event's id is the flush's). Never one per call.
   */
  'gateway.usage_counted': {
    counts: {
      accountId: string;
      applicationId: string;
      networkId: string;
      method: string;
      /** ISO, the start of the UTC hour. */
      hour: string;
      calls: number;
      microCredits: number;
    }[];
  };
  /**
   * An application's calls this month crossed a share of its spending cap (85 or 100 %; at 100 its
   * calls are refused until the cap is raised or the month turns). Once per application, month, cap and threshold.
   */
  'usage.cap_crossed': {
    accountId: string;
    applicationId: string;
    applicationName: string;
    /** The first day of the UTC month. */
    month: string;
    threshold: 85 | 100;
    capCredits: number;
    usedCredits: number;
  };
  /**
   * A closed hour's metered use was charged to an account's credits (usage_records → ledger): the
   * credits taken and the available credits before and after, for the low-balance warnings.
   */
  'usage.charged': {
    accountId: string;
    /** ISO, the start of the UTC hour whose close charged it. */
    billedHour: string;
    credits: number;
    availableBefore: number;
    availableAfter: number;
  };
  /**
   * A reward task reached its threshold for an account (issue 34; services/campaign/activities.ts):
   * its value (QNT, a decimal string) was granted as REWARD_QNT in the same transaction. Once per
   * task and account. The bell's notice (connect).
   */
  'reward.task_done': {
    accountId: string;
    campaignId: string;
    campaignName: string;
    taskId: string;
    taskName: string;
    value: string;
  };
  /**
   * A customer claimed REWARD_QNT to an address (issue 34 §3; services/campaign/claims.ts): the
   * amount left their balance, held until staff pay or reject the claim. The bell and an email (connect).
   */
  'reward.claim_received': RewardClaimFacts;
  /** A claim's transfer is mined with its confirmations: the QNT is at the address. */
  'reward.claim_paid': RewardClaimFacts & { txHash: string; networkName: string | null };
  /** Staff rejected a claim: its amount is back in the account's reward balance. */
  'reward.claim_rejected': RewardClaimFacts & { reason: string };
};

/** What every claim event tells of the claim (amount: QNT, a decimal string). */
export type RewardClaimFacts = {
  accountId: string;
  /** Who made the claim (told first; every member when they have left the account). */
  userId: string | null;
  claimId: string;
  trackingCode: string;
  amount: string;
  address: string;
};

export type EventType = keyof DomainEvents;

/** An event as a subscriber receives it. `id` keys every outside effect (email, chain, webhook). */
export type DomainEvent<K extends EventType = EventType> = {
  id: string;
  type: K;
  payload: DomainEvents[K];
  accountId: string | null;
  occurredAt: Date;
};
