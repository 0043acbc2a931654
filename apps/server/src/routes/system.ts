import { z } from 'zod';
import { ZRuntimeConfig, type TRuntimeConfig } from '@connect/shared';
import { MailOutboxRepository } from '../repositories/mail-outbox.ts';
import type { App, Deps } from '../types.ts';

const ZHealth = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  database: z.object({ status: z.enum(['up', 'down']), kind: z.enum(['pglite', 'postgres']) }),
  services: z.array(z.string()),
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

export function runtimeConfigOf(deps: Deps): TRuntimeConfig {
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
    devMailbox: !config.isProduction,
    documentationUrl: config.documentationUrl,
  };
}

/** Health, runtime configuration and, outside production, the dev mailbox. */
export async function systemRoutes(app: App, deps: Deps) {
  app.get(
    '/api/health',
    {
      config: { access: 'public', rateLimit: false },
      schema: {
        tags: ['system'],
        summary: 'Liveness and database reachability',
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
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return runtimeConfigOf(deps);
    },
  );

  if (!deps.config.isProduction) {
    app.get(
      '/api/dev/outbox',
      {
        config: { access: 'public' },
        schema: {
          tags: ['system'],
          summary: 'Development mailbox: messages sent to an address, newest last (not in production)',
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

    app.post(
      '/api/dev/billing/run',
      {
        config: { access: 'public' },
        schema: {
          tags: ['system'],
          summary:
            'Development clock: close the gateway’s hours, run the plans’ periods and the card charges as of a time (not in production)',
          description:
            'Runs what the usage-close, hourly plan-periods and card-charges jobs would run at `at` (default now): first the gateway hours ended by then become usage records and ledger consumption (so a month’s bill sees the metered calls), then trial ends, period ends with their renewals and month’s bills, failed renewals, then the saved cards’ charges due by then. Lets a tester see a month end without waiting for it.',
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
              charges: z.object({ charged: z.number().int(), failed: z.number().int() }),
            }),
          },
        },
      },
      async (request) => {
        const at = request.body.at ? new Date(request.body.at) : new Date();
        const { accountPlan, cards, usage: metering } = deps.runtime;
        const usage = metering ? await metering.closeHours(at) : { records: 0, charges: 0 };
        const periods = accountPlan
          ? await accountPlan.sweep(at)
          : { reminded: 0, trialsEnded: 0, periodsEnded: 0, renewalsFailed: 0 };
        // The month's bills are scheduled by a subscriber of their `order.placed`: delivered first.
        await deps.events.drain();
        const charges = cards ? await cards.chargeDue(at) : { charged: 0, failed: 0 };
        return { usage, periods, charges };
      },
    );
  }
}
