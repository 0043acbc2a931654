import { z } from 'zod';
import {
  ZClosePeriodResult,
  ZProblem,
  ZRuntimeConfig,
  type TClosePeriodResult,
  type TRuntimeConfig,
} from '@connect/shared';
import { isLoopbackClient } from '../lib/client-address.ts';
import { problem, ProblemError } from '../lib/errors.ts';
import { MailOutboxRepository } from '../repositories/mail-outbox.ts';
import { monthStartOf } from '../lib/months.ts';
import type { App, Deps } from '../types.ts';

const ZHealth = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  database: z.object({ status: z.enum(['up', 'down']), kind: z.enum(['pglite', 'postgres']) }),
  services: z.array(z.string()),
  // Which of the installation's background work runs on this node (issue 31): read from memory,
  // no query, so that a load balancer may ask as often as it likes.
  node: z
    .object({
      jobs: z
        .boolean()
        .describe(
          'Whether this node runs background jobs: its job queue started with workers, which take jobs from the queue every node of the installation shares.',
        ),
      followers: z
        .array(
          z.object({
            name: z.string().describe('The follower, e.g. `qnt-deposits` (QNT transfers to deposit addresses).'),
            chainId: z.number().int(),
            isHeld: z
              .boolean()
              .describe(
                'Whether this node follows the chain now: it holds the follower’s lock, which one node of the installation holds at a time.',
              ),
          }),
        )
        .describe('The chain followers this node may run (none on a node that serves no payments), one per chain.'),
    })
    .describe('What of the background work runs on this node.'),
});

const ZOutboxMessage = z.object({
  id: z.uuid(),
  to: z.string(),
  kind: z.string(),
  subject: z.string(),
  text: z.string(),
  code: z.string().nullable(),
  createdAt: z.string(),
});

/** The SPA's configuration; `devMailbox` only for a client the dev mailbox answers (development, this machine). */
export function runtimeConfigOf(deps: Deps, options: { isLoopbackClient: boolean }): TRuntimeConfig {
  const { config, pool } = deps;
  return {
    productName: config.productName,
    productSlug: config.productSlug,
    version: config.version,
    identity: {
      region: pool.region,
      userPoolId: pool.poolId,
      userPoolClientId: pool.clientId,
      ...(pool.endpoint ? { userPoolEndpoint: pool.endpoint } : {}),
    },
    services: config.services,
    sandboxes: {
      identity: config.identity.mode === 'embedded',
      mail: deps.mailer.isSandbox,
      kyc: deps.kyc.isSandbox,
    },
    captcha: config.recaptcha ? { provider: 'recaptcha', siteKey: config.recaptcha.siteKey } : { provider: 'altcha' },
    devMailbox: config.devHelpers.mailbox && options.isLoopbackClient,
    documentationUrl: config.documentationUrl,
    // Public by design: every browser is given them (docs/decisions/shell-and-web.md "The product catalogue").
    productCatalogue: config.productCatalogue,
    outsideTools: config.outsideTools,
  };
}

/** Health, runtime configuration and, outside production and for this machine only, the development helpers. */
export async function systemRoutes(app: App, deps: Deps) {
  app.get(
    '/api/health',
    {
      config: { access: 'public', rateLimit: false },
      schema: {
        tags: ['system'],
        summary: 'Liveness, database reachability, and the background work this node runs',
        response: { 200: ZHealth, 503: ZHealth },
      },
    },
    async (_request, reply) => {
      let database: 'up' | 'down' = 'up';
      try {
        await deps.dbh.query('select 1');
      } catch {
        database = 'down';
      }
      return reply.code(database === 'up' ? 200 : 503).send({
        status: database === 'up' ? 'ok' : 'degraded',
        version: deps.config.version,
        database: { status: database, kind: deps.dbh.kind },
        services: deps.config.services,
        node: {
          jobs: deps.jobs.hasWorkers,
          followers: deps.followers.list().map((follower) => ({
            name: follower.name,
            chainId: follower.network.chainId,
            isHeld: deps.followers.isHeld(follower),
          })),
        },
      });
    },
  );

  app.get(
    '/runtime-config.json',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Configuration the SPA loads before it starts',
        response: { 200: ZRuntimeConfig },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-cache');
      return runtimeConfigOf(deps, { isLoopbackClient: isLoopbackClient(request) });
    },
  );

  // Never in production: config.devHelpers is off there, and the production list refuses it on.
  const { mailbox, billingClock } = deps.config.devHelpers;
  if (mailbox || billingClock) await app.register(async (scope) => devRoutes(scope as App, deps));
}

/**
 * Development helpers (/api/dev/*): the mailbox, where sign-up and password-reset codes can be
 * read, and the billing clock. Never mounted in production; in development they answer clients on
 * this machine only, judged by the socket's peer (lib/client-address.ts), since the server listens
 * on every interface by default: anyone else is answered as if they did not exist.
 */
async function devRoutes(app: App, deps: Deps) {
  app.addHook('onRequest', (request, reply, done) => {
    if (isLoopbackClient(request)) done();
    else reply.callNotFound();
  });

  if (deps.config.devHelpers.mailbox) {
    app.get(
      '/api/dev/outbox',
      {
        config: { access: 'public' },
        schema: {
          tags: ['system'],
          summary:
            'Development mailbox: messages sent to an address, newest last (not in production; this machine only)',
          querystring: z.object({ to: z.string().trim().toLowerCase().min(1).max(320) }),
          response: { 200: z.object({ messages: z.array(ZOutboxMessage) }) },
        },
      },
      async (request) => {
        const rows = await new MailOutboxRepository(deps.db).sentTo(request.query.to);
        return {
          messages: rows.map((row) => ({
            id: row.id,
            to: row.toAddress,
            kind: row.kind,
            subject: row.subject,
            text: row.textBody,
            code: row.code,
            createdAt: row.createdAt.toISOString(),
          })),
        };
      },
    );
  }

  if (deps.config.devHelpers.billingClock) {
    app.post(
      '/api/dev/billing/run',
      {
        config: { access: 'public' },
        schema: {
          tags: ['system'],
          summary:
            'Development clock: close the gateway’s hours, run the plans’ periods and the card charges as of a time (not in production; this machine only)',
          description:
            'Runs what the usage-close, hourly plan-periods, invoice-close and card-charges jobs would run at `at` (default now): first the gateway hours ended by then become usage records and ledger consumption, then trial ends, period ends with their renewals, failed renewals, then the close of the UTC month that ended last (drafts, numbered once the grace window has passed; null while its usage is not all charged), then the saved cards’ charges due by then. Lets a tester see a month end without waiting for it.',
          body: z.object({ at: z.iso.datetime({ offset: true }).optional() }),
          response: {
            200: z.object({
              usage: z.object({ records: z.number().int(), charges: z.number().int() }),
              periods: z.object({
                reminded: z.number().int(),
                trialsEnded: z.number().int(),
                periodsEnded: z.number().int(),
                renewalsFailed: z.number().int(),
              }),
              invoices: ZClosePeriodResult.nullable(),
              charges: z.object({ charged: z.number().int(), failed: z.number().int() }),
            }),
          },
        },
      },
      async (request) => {
        const at = request.body.at ? new Date(request.body.at) : new Date();
        const { accountPlan, cards, invoices: close, usage: metering } = deps.runtime;
        const usage = metering ? await metering.closeHours(at) : { records: 0, charges: 0 };
        const periods = accountPlan
          ? await accountPlan.sweep(at)
          : { reminded: 0, trialsEnded: 0, periodsEnded: 0, renewalsFailed: 0 };
        const invoices = close ? await closeIfClosable(close, { periodEnd: monthStartOf(at), now: at }) : null;
        // The month's bills are scheduled by a subscriber of their `order.placed`: delivered first.
        await deps.events.drain();
        const charges = cards ? await cards.chargeDue(at) : { charged: 0, failed: 0 };
        return { usage, periods, invoices, charges };
      },
    );

    app.post(
      '/api/dev/billing/close-period',
      {
        config: { access: 'public' },
        schema: {
          tags: ['system'],
          summary: 'Development: close the current period now into invoices (not in production; this machine only)',
          description:
            'The “current period now” of issue 18: every gateway call counted before `at` (default now) is charged, its unfinished hour too (calls of that hour counted later are charged by the next close), then every pay-as-you-go account’s use from the start of the UTC month (or its last month’s invoice) to `at` is drafted and numbered at once, without the grace window. The same `at` again makes nothing.',
          body: z.object({ at: z.iso.datetime({ offset: true }).optional() }),
          response: { 200: ZClosePeriodResult, '4xx': ZProblem, 503: ZProblem },
        },
      },
      async (request) => {
        const at = request.body.at ? new Date(request.body.at) : new Date();
        const { invoices, usage } = deps.runtime;
        if (!invoices || !usage) throw problem('SERVICE_UNAVAILABLE');
        // Every call counted before `at` is charged, `at`'s unfinished hour too (services/usage/close.ts).
        await usage.closeUntil(at);
        const result = await invoices.closePeriod({ periodEnd: at, now: at, finaliseNow: true });
        await deps.events.drain();
        return result;
      },
    );
  }
}

/** The close of a month, or null while its usage is not all charged (PERIOD_NOT_CLOSABLE). */
async function closeIfClosable(
  close: NonNullable<Deps['runtime']['invoices']>,
  input: { periodEnd: Date; now: Date },
): Promise<TClosePeriodResult | null> {
  try {
    return await close.closePeriod(input);
  } catch (error) {
    if (error instanceof ProblemError && error.code === 'PERIOD_NOT_CLOSABLE') return null;
    throw error;
  }
}
