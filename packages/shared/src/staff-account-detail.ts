import { z } from 'zod';
import { PLAN_STATUSES, USER_STATUSES } from './constants.ts';
import { INVOICE_STATUSES } from './invoices.ts';
import { PAYMENT_METHODS } from './plans.ts';
import { ZAuditEntry } from './staff.ts';
import { staffListQuery, ZStaffListPaging } from './staff-list.ts';
import { ACCOUNT_PLAN_TYPES, ORDER_KINDS, ORDER_STATUSES, PLAN_STATUS_REASONS } from './subscriptions.ts';

/*
 * The account panel of /account-management (issue 33 §1; spec §3 Account detail), for
 * management-sales: GET /api/connect/management/accounts/{accountId}. Money in pence (orders,
 * invoices, payments) and the ledger's integers as decimal strings (credits; QNT in wei).
 */

const ZIso = z.iso.datetime({ offset: true });

/** How many of the account's latest orders, invoices, payments and audit entries the panel lists. */
export const ACCOUNT_DETAIL_LIMITS = { orders: 20, invoices: 20, payments: 20, creditNotes: 20, audit: 10 } as const;

export const ZAccountDetailOrder = z.object({
  id: z.uuid(),
  reference: z.string(),
  kind: z.enum(ORDER_KINDS),
  status: z.enum(ORDER_STATUSES),
  paymentMethod: z.enum(PAYMENT_METHODS),
  planName: z.string().nullable(),
  credits: z.number().int(),
  totalGbpMinor: z.number().int(),
  /** Received so far (bank transfers add up to the total). */
  paidGbpMinor: z.number().int(),
  /** Refunded so far (credit notes): to the card, or paid back by bank transfer. */
  refundedGbpMinor: z.number().int(),
  /** How its payments were made (a refund goes back the same way: card or bank transfer). */
  paidBy: z.array(z.enum(PAYMENT_METHODS)),
  createdAt: ZIso,
  dueAt: ZIso,
  paidAt: ZIso.nullable(),
  invoiceId: z.uuid().nullable(),
  invoiceNumber: z.string().nullable(),
});
export type TAccountDetailOrder = z.infer<typeof ZAccountDetailOrder>;

export const ZManagementAccountDetail = z
  .object({
    accountId: z.uuid(),
    organisationName: z.string().nullable(),
    status: z.enum(USER_STATUSES),
    createdAt: ZIso,
    owner: z
      .object({
        userId: z.uuid(),
        email: z.string(),
        name: z.string().nullable(),
        /** The telephone of the account's billing details. */
        phone: z.string().nullable(),
      })
      .nullable(),
    /** The business as the profile describes it. */
    business: z.object({ industry: z.string().nullable(), companySize: z.string().nullable() }),
    /** The organisation's location (profile), else the billing country. */
    location: z.string().nullable(),
    plan: z
      .object({
        name: z.string(),
        type: z.enum(ACCOUNT_PLAN_TYPES),
        status: z.enum(PLAN_STATUSES),
        statusReason: z.enum(PLAN_STATUS_REASONS).nullable(),
        trialEndsAt: ZIso.nullable(),
        periodEnd: ZIso.nullable(),
        cancelAtPeriodEnd: z.boolean(),
        /** The plan chosen for the next period (a downgrade). */
        nextPlanName: z.string().nullable(),
        /** How the last order was paid: a renewal is offered the same way. */
        paymentPreference: z.enum(PAYMENT_METHODS).nullable(),
      })
      .nullable(),
    /** Trial extensions so far, counted from the audit log. */
    trialExtensions: z.number().int(),
    /** From the ledger: credits, QNT held for the customer and QNT earned in rewards (wei). */
    balances: z.object({ credits: z.string(), qntWei: z.string(), rewardQntWei: z.string() }),
    orders: z.array(ZAccountDetailOrder),
    invoices: z.array(
      z.object({
        id: z.uuid(),
        number: z.string().nullable(),
        status: z.enum(INVOICE_STATUSES),
        totalMinor: z.number().int(),
        currency: z.string(),
        issuedAt: ZIso,
        dueAt: ZIso,
        paidAt: ZIso.nullable(),
      }),
    ),
    payments: z.array(
      z.object({
        id: z.uuid(),
        orderId: z.uuid(),
        orderReference: z.string(),
        method: z.enum(PAYMENT_METHODS),
        /** The bank's transaction id, the chain transaction or the card provider's id. */
        externalId: z.string(),
        amountGbpMinor: z.number().int(),
        receivedAt: ZIso,
      }),
    ),
    creditNotes: z.array(
      z.object({
        id: z.uuid(),
        number: z.string().nullable(),
        invoiceId: z.uuid(),
        amountMinor: z.number().int(),
        reason: z.string(),
        issuedAt: ZIso,
      }),
    ),
    /** The latest audit entries about the account, its users and its orders. */
    recentAudit: z.array(ZAuditEntry),
  })
  .meta({ id: 'ManagementAccountDetail' });
export type TManagementAccountDetail = z.infer<typeof ZManagementAccountDetail>;

// ── A plan change by staff (issue 33 §1: through the plans' own transitions) ─────────────────

/**
 * What staff may do to an account's plan. An upgrade is an order the customer pays (staff record
 * a bank transfer against it); these change the plan without money:
 * DISABLE / ENABLE (the plan's DISABLED state), CANCEL (at the period's end) / KEEP (withdraw the
 * cancellation), DOWNGRADE (to a lower plan from the next period; `ratePlanId` null keeps the plan).
 */
export const STAFF_PLAN_ACTIONS = ['DISABLE', 'ENABLE', 'CANCEL', 'KEEP', 'DOWNGRADE'] as const;
export type TStaffPlanAction = (typeof STAFF_PLAN_ACTIONS)[number];

const ZReason = z
  .string({ error: 'A reason is required.' })
  .trim()
  .min(1, { message: 'A reason is required.' })
  .max(500, { message: 'Must be at most 500 characters.' });

/** POST /api/account-plan/management/accounts/{accountId}/plan-change */
export const ZStaffPlanChangeRequest = z
  .discriminatedUnion('action', [
    z.object({ action: z.enum(['DISABLE', 'ENABLE', 'CANCEL', 'KEEP']), reason: ZReason }).strict(),
    z.object({ action: z.literal('DOWNGRADE'), ratePlanId: z.uuid().nullable(), reason: ZReason }).strict(),
  ])
  .meta({ id: 'StaffPlanChangeRequest' });
export type TStaffPlanChangeRequest = z.input<typeof ZStaffPlanChangeRequest>;

export const ZStaffPlanChange = z
  .object({
    accountId: z.uuid(),
    planStatus: z.enum(PLAN_STATUSES),
    statusReason: z.enum(PLAN_STATUS_REASONS).nullable(),
    cancelAtPeriodEnd: z.boolean(),
    nextPlanName: z.string().nullable(),
  })
  .meta({ id: 'StaffPlanChange' });
export type TStaffPlanChange = z.infer<typeof ZStaffPlanChange>;

// ── Orders across accounts (issue 33 §5: the staff's orders screen, management-admin) ──────────

export const MANAGEMENT_ORDER_SORT_FIELDS = ['createdAt'] as const;
export type TManagementOrderSortField = (typeof MANAGEMENT_ORDER_SORT_FIELDS)[number];

/** GET /api/account-plan/management/order-list: the shared staff list, by status, searched by reference or account. */
export const ZManagementOrdersQuery = staffListQuery(MANAGEMENT_ORDER_SORT_FIELDS).extend({
  status: z.enum(ORDER_STATUSES).optional(),
});
export type TManagementOrdersQuery = {
  page?: number;
  size?: number;
  sort?: string;
  searchTerm?: string;
  cursor?: string;
  status?: (typeof ORDER_STATUSES)[number];
};

/** An order of the staff's list: the panel's order with the account it belongs to. */
export const ZManagementOrder = ZAccountDetailOrder.extend({
  accountId: z.uuid(),
  organisationName: z.string().nullable(),
  ownerEmail: z.string().nullable(),
}).meta({ id: 'ManagementOrder' });
export type TManagementOrder = z.infer<typeof ZManagementOrder>;

export const ZManagementOrdersResponse = ZStaffListPaging.extend({
  orderList: z.array(ZManagementOrder),
}).meta({ id: 'ManagementOrdersResponse' });
export type TManagementOrdersResponse = z.infer<typeof ZManagementOrdersResponse>;
