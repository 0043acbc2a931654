import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { seedReferenceData, type DbHandle } from '@connect/db';
import { outsideToolSources } from '@connect/shared/light';
import { createCardGateway } from './adapters/cards/create-gateway.ts';
import type { CardGateway } from './adapters/cards/port.ts';
import { cardSandboxBrowserRoutes } from './adapters/cards/sandbox/index.ts';
import { syncNetworkCatalogue } from './adapters/chains/catalogue-sync.ts';
import { FollowerRegistry } from './adapters/chains/follower/index.ts';
import { createNetworkMonitor } from './adapters/chains/monitor.ts';
import { withLocalDeployer } from './adapters/chains/platform-deployer.ts';
import { PlatformSender } from './adapters/chains/sender/index.ts';
import { createIdentityAdmin } from './adapters/identity-admin/create-identity-admin.ts';
import type { IdentityAdmin } from './adapters/identity-admin/port.ts';
import { createKycProvider } from './adapters/kyc/create-provider.ts';
import type { KycProvider } from './adapters/kyc/port.ts';
import { createSmtpTransport, OutboxMailer } from './adapters/mail/outbox-mailer.ts';
import type { Mailer } from './adapters/mail/port.ts';
import type { Config } from './config.ts';
import { openConfiguredDatabase } from './database.ts';
import { logging, type Logging } from './lib/logger.ts';
import { KeyStore } from './lib/pool-keys.ts';
import { ACCESS_JWT_SECONDS, resolvePoolSettings } from './lib/pool-settings.ts';
import { resolveSecretKey, SecretBox, secretKeyFile } from './lib/secret-box.ts';
import { SessionRevocations } from './lib/session-revocations.ts';
import { PlatformKeyRepository } from './repositories/platform.ts';
import { OutboxEventBus } from './events/bus.ts';
import type { EventBus } from './events/port.ts';
import { registerJobs } from './jobs/index.ts';
import { JobQueue } from './jobs/queue.ts';
import { accessPlugin } from './plugins/access.ts';
import { authPlugin } from './plugins/auth.ts';
import { inputGuardPlugin } from './plugins/input-guard.ts';
import { openapiPlugin } from './plugins/openapi.ts';
import { problemPlugin, routerProblem } from './plugins/problem.ts';
import { securityPlugin } from './plugins/security.ts';
import { spaPlugin } from './plugins/spa.ts';
import { systemRoutes } from './routes/system.ts';
import { runStartup } from './startup/index.ts';
import { assertSealedDataOpens } from './sealed-data.ts';
import { MODULES } from './services/index.ts';
import type { App, Deps, RawHandler } from './types.ts';

export type BuildOptions = {
  config: Config;
  /** An open, migrated database (tests pass a fresh one); otherwise opened from config and closed with the app. */
  db?: DbHandle;
  /** The configured database as server.ts began opening it, first thing; owned like one opened here. */
  openingDb?: Promise<DbHandle>;
  logger?: FastifyServerOptions['logger'];
  /** Replaces the mail adapter (tests that need SMTP behaviour). */
  mailer?: Mailer;
  /** Replaces the identity-verification adapter (tests). */
  kyc?: KycProvider;
  /** Replaces the card adapter (tests); null: no card payments. */
  cards?: CardGateway | null;
  /** How often this node reads the session revocations other nodes recorded (tests shorten it); 1 s. */
  revocationRefreshMs?: number;
};

/** AWS Cognito lets a pool's access tokens live up to a day; the embedded pool's live an hour. */
const COGNITO_MAX_ACCESS_TOKEN_MS = 24 * 3_600_000;

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
    /** The typed domain event bus (events/port.ts). */
    events: EventBus;
  }
}

/** Builds the whole product as one Fastify app; server.ts only listens. */
export async function buildApp(options: BuildOptions): Promise<App> {
  const { config } = options;
  // Raw handlers (services register them in deps.rawHandlers) see a request before Fastify does;
  // not while closing, so every answer then carries Fastify's connection: close.
  const rawHandlers: RawHandler[] = [];
  let isClosing = false;
  // JSON lines, or in development one readable line per request (lib/logger.ts).
  const logs: Logging = options.logger === undefined ? logging(config) : { logger: options.logger };
  const app = Fastify({
    serverFactory: (handler) =>
      createServer((req, res) => {
        if (!isClosing) for (const raw of rawHandlers) if (raw(req, res, handler)) return;
        handler(req, res);
      }),
    ...logs,
    // Accept a caller's request id (a load balancer's) when it looks like one; otherwise mint one.
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // Who the client is (request.ip: logs, rate limits): the socket's peer, unless it is one of the
    // proxies TRUST_PROXY names; then the address that proxy put in X-Forwarded-For. Trusting
    // everyone let any client choose the address it is logged and rate-limited as.
    trustProxy: config.trustProxy,
    bodyLimit: 1_048_576,
    // The onReady work (start-up tasks, pg-boss installing its schema on first start) may take
    // longer than Fastify's default 10 s on a busy two-core machine; it is bounded by its own tasks.
    pluginTimeout: 120_000,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: routerProblem,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Callback-style hooks: an async hook costs a promise and a microtask on every request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // Graceful shutdown: responses finished while closing tell keep-alive clients to hang up, so
  // close() does not wait for idle sockets until the keep-alive timeout.
  app.addHook('preClose', async () => {
    isClosing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (isClosing) reply.header('connection', 'close');
    done(null, payload);
  });

  const ownsDb = !options.db;
  const dbh = options.db ?? (await (options.openingDb ?? openConfiguredDatabase(config)));
  if (ownsDb) {
    await dbh.migrate();
    await seedReferenceData(dbh.db);
  }
  // The seeded network catalogue with the RPC URLs and QNT token of this configuration, added to
  // what other nodes recorded, never clearing it (local chains are started by server.ts, never
  // here, so tests pass their own chains' URLs). Read back before any service is assembled: the
  // QNT payments of a node without QNT_TOKEN_ADDRESS take the recorded token.
  const qntToken = await syncNetworkCatalogue(dbh.db, config.chains.networks, config.qnt, app.log);
  const chains: Deps['chains'] = {
    qntToken,
    monitor: createNetworkMonitor({
      dbh,
      intervalMs: config.chains.healthIntervalMs,
      stallAfterMs: config.chains.stallAfterMs,
      rpcTimeoutMs: config.chains.rpcTimeoutMs,
      log: app.log,
    }),
  };
  app.addHook('onClose', async () => {
    await chains.monitor.stop(); // before the database closes
    if (ownsDb) await dbh.close();
  });

  const box = new SecretBox(resolveSecretKey(config.secretKey, config.dataDir));
  // A SECRET_KEY that changed is refused here, naming everything it no longer opens.
  await assertSealedDataOpens(dbh.db, box, {
    isSet: Boolean(config.secretKey),
    file: secretKeyFile(config.dataDir),
  });
  const pool = await resolvePoolSettings(config, dbh.db);
  if (pool.installationUrl !== config.publicUrl) {
    app.log.warn(
      { installationUrl: pool.installationUrl, publicUrl: config.publicUrl },
      'tokens name the address recorded at the installation’s first start, not this node’s PUBLIC_URL (docs/operations.md, "Changing the public address")',
    );
  }
  const keys = config.identity.mode === 'embedded' ? await KeyStore.load(dbh.db, box) : undefined;
  const revocations = new SessionRevocations(dbh.db, {
    accessJwtLifetimeMs: config.identity.mode === 'embedded' ? ACCESS_JWT_SECONDS * 1000 : COGNITO_MAX_ACCESS_TOKEN_MS,
    refreshMs: options.revocationRefreshMs ?? 1000,
    log: app.log,
  });
  // Loaded before the first request is served; stopped before the database closes (onClose).
  app.addHook('onReady', async () => {
    await revocations.start();
  });
  app.addHook('preClose', async () => {
    await revocations.stop();
  });
  const mailer =
    options.mailer ??
    new OutboxMailer(
      dbh.db,
      config.mailFrom,
      app.log,
      config.smtpUrl ? await createSmtpTransport(config.smtpUrl) : undefined,
    );
  const identityAdmin: IdentityAdmin = createIdentityAdmin({ config, db: dbh.db, mailer, revocations });
  const kyc = options.kyc ?? createKycProvider(config);
  // Card payments (issue 16): Stripe, or the embedded sandbox that speaks Stripe's API on
  // 127.0.0.1 and delivers its signed webhooks to this app's own webhook route. Its webhook loop
  // runs once the app is ready and stops, with its listener, before the database closes.
  const cards =
    options.cards !== undefined
      ? { gateway: options.cards, sandbox: null }
      : await createCardGateway(config, {
          dbh,
          box,
          log: app.log,
          deliver: async (payload, signature) =>
            (
              await app.inject({
                method: 'POST',
                url: '/api/payment/card/webhook',
                headers: { 'content-type': 'application/json', 'stripe-signature': signature },
                payload,
              })
            ).statusCode,
        });
  const cardSandbox = cards.sandbox;
  if (cardSandbox) {
    app.addHook('onReady', async () => cardSandbox.start());
    app.addHook('preClose', async () => cardSandbox.stop());
  }
  const jobs = new JobQueue(dbh, app.log);
  // On PostgreSQL the bus is woken when an emitting transaction commits (pg_notify), on every node.
  const events = new OutboxEventBus(dbh.db, app.log, { handle: dbh });
  // Everything the platform signs goes through this one sender, with the platform's keys (on the
  // local chains, the installation's own: platform-deployer.ts).
  const sender = new PlatformSender({
    db: dbh.db,
    networks: await withLocalDeployer(config.chains.networks, new PlatformKeyRepository(dbh.db), box),
    log: app.log,
  });
  // Its own calls (fee bumps, the start-up recovery) end once the jobs have stopped (preClose).
  app.addHook('onClose', async () => sender.stop());
  const deps: Deps = {
    config,
    chains,
    dbh,
    db: dbh.db,
    mailer,
    identityAdmin,
    pool,
    keys,
    box,
    revocations,
    kyc,
    cards: cards.gateway,
    events,
    jobs,
    sender,
    followers: new FollowerRegistry(),
    runtime: {},
    rawHandlers,
  };
  app.decorate('deps', deps);
  app.decorate('events', events as EventBus);

  await app.register(problemPlugin);
  await app.register(inputGuardPlugin);
  await app.register(authPlugin, {
    dbh,
    identityAdmin,
    issuer: pool.issuer,
    clientId: pool.clientId,
    keys: keys?.verificationKeys,
    jwksUrl: pool.jwksUrl,
    userCacheMs: config.userCacheMs,
    revocations,
  });
  await app.register(accessPlugin);
  await app.register(securityPlugin, {
    rateLimitMax: config.rateLimitMax,
    redisUrl: config.redisUrl,
    connectSources:
      config.identity.mode === 'cognito' ? [`https://cognito-idp.${config.identity.region}.amazonaws.com`] : [],
    allowRecaptcha: Boolean(config.recaptcha),
    allowOnfido: Boolean(config.kyc.onfido),
    allowStripe: Boolean(config.cards.stripe),
    outsideTools: outsideToolSources(config.outsideTools),
  });
  await app.register(openapiPlugin, { productName: config.productName, version: config.version });

  await app.register(async (scope) => systemRoutes(scope as App, deps));
  // The app is assembled from the module list (services/index.ts; the steps: modules.ts). The
  // services this node serves (SERVICES), in their order, each under /api/<service>:
  for (const service of config.services) {
    const plugin = MODULES.find((module) => module.service === service)?.routes;
    if (plugin) await app.register(async (scope) => plugin(scope as App, deps), { prefix: `/api/${service}` });
  }
  // The modules' other route scopes, where this node serves them (identity's /idp, the platform API).
  for (const scope of MODULES.flatMap((module) => module.scopes ?? [])) {
    if (!scope.when(config)) continue;
    await app.register(async (child) => scope.plugin(child as App, deps), scope.prefix ? { prefix: scope.prefix } : {});
  }
  if (cardSandbox) {
    await app.register(async (scope) => cardSandboxBrowserRoutes(scope as App, cardSandbox.browser), {
      prefix: '/api/card-sandbox',
    });
  }
  const context = { deps, log: app.log };
  // Subscribers are registered on every node, whatever SERVICES it serves: the emitting node writes
  // an event nobody subscribes to as delivered, so every node must know the same subscribers.
  for (const module of MODULES) module.subscribe?.(context);
  // The runtime faces the routes do not publish (the plans' periods, usage).
  for (const module of MODULES) await module.assemble?.(context);
  await app.register(spaPlugin, { root: config.webDist });
  // The modules are assembled and their runtime faces published: the jobs this node has work for.
  registerJobs(jobs, deps);
  // Start-up work runs before the workers start (a deployment's lost transaction is sent again
  // before its job follows it); the workers stop before the database closes, and what the modules
  // run stops after them.
  app.addHook('onReady', async () => {
    await runStartup(deps, app.log);
    if (jobs.hasWorkers) await jobs.start();
    events.start();
    for (const module of MODULES) await module.start?.(context);
  });
  app.addHook('preClose', async () => {
    await events.stop();
    await jobs.stop();
    for (const module of [...MODULES].reverse()) await module.stop?.(context);
  });
  return app as App;
}
