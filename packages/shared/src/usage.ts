import { z } from 'zod';

/*
 * Usage (issue 17): every credit traced to what used it — per application, network and JSON-RPC
 * method, per UTC hour — its price, the month's prediction, and the applications' spending caps.
 * Credits on the wire are numbers with up to six decimals (micro-credits / 1,000,000): a read call
 * costs a ten-thousandth of a credit.
 */

/** Micro-credits in one credit: the unit the counters, records and caps are kept in. */
export const MICRO_PER_CREDIT = 1_000_000;

/** The price classes of JSON-RPC methods (docs/decisions/usage-and-invoices.md, "Usage metering (issue 17)"). */
export const METHOD_CLASSES = ['read', 'log', 'send', 'deployment'] as const;
export type TMethodClass = (typeof METHOD_CLASSES)[number];

/** Where a usage record comes from. */
export const USAGE_SOURCES = ['GATEWAY', 'DEPLOYMENT'] as const;
export type TUsageSource = (typeof USAGE_SOURCES)[number];

/**
 * Micro-credits per gateway call, by class: reads 0.0001 credit (10,000 per credit), log queries
 * 0.0005 (2,000 per credit: they scan up to 10,000 blocks), sending a signed transaction 0.001
 * (1,000 per credit). A deployment's price is its tier's credits.
 */
export const METHOD_PRICES_MICRO = { read: 100, log: 500, send: 1_000 } as const satisfies Record<
  Exclude<TMethodClass, 'deployment'>,
  number
>;

const LOG_METHODS: ReadonlySet<string> = new Set([
  'eth_getLogs',
  'eth_newFilter',
  'eth_getFilterLogs',
  'eth_getFilterChanges',
]);
const SEND_METHODS: ReadonlySet<string> = new Set(['eth_sendRawTransaction']);

/** The price class of a gateway method: send, log, or read (every other method the gateway forwards). */
export function methodClass(method: string): Exclude<TMethodClass, 'deployment'> {
  if (SEND_METHODS.has(method)) return 'send';
  if (LOG_METHODS.has(method)) return 'log';
  return 'read';
}

/** The spending-cap alerts: percentages of the cap used. At 100 the gateway refuses the application's calls. */
export const CAP_ALERT_THRESHOLDS = [85, 100] as const;
/** Minutes a closed hour waits before it is charged, so every node's last flush is in. */
export const USAGE_CLOSE_GRACE_MINUTES = 5;
/** The longest range the usage report answers: hourly buckets for up to 31 days, daily for up to 366. */
export const USAGE_MAX_DAYS = { hour: 31, day: 366 } as const;

const ZDay = z.iso.date();

/** Both days are well-formed (their own issues say so otherwise: the range rules then stay quiet). */
const isDay = (value: string) => ZDay.safeParse(value).success;
/** Days from `from` to `to` (0 for one day). */
const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;

/**
 * GET /usage/report and GET /usage/export.csv: a range of UTC days (both included). Named
 * ZUsageReportQuery, not ZUsageQuery: that name is the per-application daily usage's query
 * (applications.ts), and two star-exports of one name make both unusable.
 */
export const ZUsageReportQuery = z
  .object({
    from: ZDay,
    to: ZDay,
    granularity: z.enum(['hour', 'day']).default('day'),
    applicationId: z.uuid().optional(),
  })
  .refine((q) => !isDay(q.from) || !isDay(q.to) || q.from <= q.to, {
    path: ['to'],
    message: 'The end of the range is before its start.',
  })
  .refine((q) => !isDay(q.from) || !isDay(q.to) || daysBetween(q.from, q.to) < USAGE_MAX_DAYS[q.granularity ?? 'day'], {
    path: ['from'],
    message: 'The range is too long for this granularity: at most 31 days by hour, 366 by day.',
  })
  .meta({ id: 'UsageReportQuery' });
export type TUsageReportQuery = z.infer<typeof ZUsageReportQuery>;

/** GET /usage/balance-history: a range of UTC days (both included), at most 366 days. */
export const ZBalanceHistoryQuery = z
  .object({ from: ZDay, to: ZDay })
  .refine((q) => !isDay(q.from) || !isDay(q.to) || q.from <= q.to, {
    path: ['to'],
    message: 'The end of the range is before its start.',
  })
  .refine((q) => !isDay(q.from) || !isDay(q.to) || daysBetween(q.from, q.to) < USAGE_MAX_DAYS.day, {
    path: ['from'],
    message: 'The range is too long: at most 366 days.',
  })
  .meta({ id: 'BalanceHistoryQuery' });
export type TBalanceHistoryQuery = z.infer<typeof ZBalanceHistoryQuery>;

/** One bucket of use: what one application (or the account, for deployments) used of one method on one network. */
export const ZUsageBucket = z
  .object({
    /** The bucket's start (ISO, UTC): the hour or the day. */
    start: z.string(),
    applicationId: z.uuid().nullable(),
    networkId: z.uuid().nullable(),
    method: z.string(),
    methodClass: z.enum(METHOD_CLASSES),
    calls: z.number().int(),
    credits: z.number(),
  })
  .meta({ id: 'UsageBucket' });
export type TUsageBucket = z.infer<typeof ZUsageBucket>;

/** The month so far and where the trend leads (a straight line through the month's use so far). */
export const ZUsageForecast = z
  .object({
    /** The first day of the UTC month. */
    month: z.string(),
    usedCredits: z.number(),
    predictedCredits: z.number(),
    /** Pay as you go: what the predicted credits will cost at the plan's credit price; null on prepaid plans. */
    predictedCostUsdCents: z.number().int().nullable(),
    creditPriceUsdCents: z.number().int().nullable(),
    /** Prepaid plans: the day (ISO) the available credits run out at this rate, null when they last the month. */
    creditsRunOutOn: z.string().nullable(),
  })
  .meta({ id: 'UsageForecast' });
export type TUsageForecast = z.infer<typeof ZUsageForecast>;

export const ZUsageReport = z
  .object({
    from: z.string(),
    to: z.string(),
    granularity: z.enum(['hour', 'day']),
    /** Every bucket with use, oldest first; the SPA fills the empty ones. */
    buckets: z.array(ZUsageBucket),
    /** Names of the applications and networks the buckets name (deleted ones included, as "Deleted application"). */
    applications: z.array(z.object({ id: z.uuid(), name: z.string() })),
    networks: z.array(z.object({ id: z.uuid(), name: z.string() })),
    totals: z.object({ calls: z.number().int(), credits: z.number() }),
    forecast: ZUsageForecast,
  })
  .meta({ id: 'UsageReport' });
export type TUsageReport = z.infer<typeof ZUsageReport>;

/** GET /usage/balance-history: the CREDIT balance from the ledger, one point per entry in the range. */
export const ZBalanceHistory = z
  .object({
    from: z.string(),
    to: z.string(),
    /** The balance before the range began. */
    opening: z.number().int(),
    points: z.array(
      z.object({ at: z.string(), balance: z.number().int(), amount: z.number().int(), reason: z.string() }),
    ),
    balance: z.number().int(),
    available: z.number().int(),
    floor: z.number().int(),
  })
  .meta({ id: 'BalanceHistory' });
export type TBalanceHistory = z.infer<typeof ZBalanceHistory>;

/** A monthly cap in credits: at least 0.01, two decimals at most; null removes it. */
export const ZSpendingCapRequest = z
  .object({
    monthlyCapCredits: z
      .number()
      .min(0.01, 'A cap is at least 0.01 credits.')
      .max(10_000_000, 'A cap is at most 10,000,000 credits.')
      .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, 'A cap has at most two decimals.')
      .nullable(),
  })
  .meta({ id: 'SpendingCapRequest' });
export type TSpendingCapRequest = z.infer<typeof ZSpendingCapRequest>;

/** An application's month against its cap. REACHED: its calls are refused (429) until the cap is raised or the month turns. */
export const ZApplicationSpend = z
  .object({
    applicationId: z.uuid(),
    name: z.string(),
    monthlyCapCredits: z.number().nullable(),
    usedCredits: z.number(),
    state: z.enum(['OK', 'WARNING', 'REACHED']),
  })
  .meta({ id: 'ApplicationSpend' });
export type TApplicationSpend = z.infer<typeof ZApplicationSpend>;

/** GET /usage/caps: every application of the account, this month. */
export const ZSpendingCaps = z
  .object({ month: z.string(), applications: z.array(ZApplicationSpend) })
  .meta({ id: 'SpendingCaps' });
export type TSpendingCaps = z.infer<typeof ZSpendingCaps>;

/**
 * Where an application's month stands against its cap: REACHED at 100 % or more (the gateway
 * refuses its calls), WARNING from the first alert threshold (85 %), OK below it or without a cap.
 * Integers only (micro-credits), so the edge is exact.
 */
export function capState(usedMicro: number, capMicro: number | null): TApplicationSpend['state'] {
  if (capMicro === null) return 'OK';
  if (usedMicro >= capMicro) return 'REACHED';
  return usedMicro * 100 >= capMicro * CAP_ALERT_THRESHOLDS[0] ? 'WARNING' : 'OK';
}

/** Micro-credits as credits (exact to six decimals). */
export function microToCredits(micro: number): number {
  return micro / MICRO_PER_CREDIT;
}

/** Credits (two decimals at most, as caps are) as micro-credits. */
export function creditsToMicro(credits: number): number {
  return Math.round(credits * 100) * (MICRO_PER_CREDIT / 100);
}
