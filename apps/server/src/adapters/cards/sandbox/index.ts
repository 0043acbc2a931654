import type { AddressInfo } from 'node:net';
import type { Database } from '@connect/db';
import type { FastifyBaseLogger } from 'fastify';
import Stripe from 'stripe';
import { buildStripeApi } from './api.ts';
import { CardSandboxBrowser } from './browser.ts';
import type { SandboxContext } from './intents.ts';
import { CardSandboxRepository } from './repository.ts';
import { WebhookDelivery, type Deliver } from './webhooks.ts';

export { CardSandboxBrowser } from './browser.ts';
export { cardSandboxBrowserRoutes } from './browser-routes.ts';
export { stripeSignature, type Deliver } from './webhooks.ts';

/**
 * The sandbox's API keys. They guard nothing secret (the API listens on 127.0.0.1, its state is
 * test cards): they exist because the stripe SDK needs keys. The webhook secret is not among them:
 * the webhook route is public, so whoever knows its secret can pay an order (issue 27). Each
 * installation generates its own (create-gateway.ts, sandboxWebhookSecret).
 */
export const SANDBOX_KEYS = {
  secretKey: 'sk_test_connect_sandbox',
  publishableKey: 'pk_test_connect_sandbox',
} as const;

export type CardSandboxOptions = {
  db: Database;
  log: FastifyBaseLogger;
  /** The installation's webhook secret (sandboxWebhookSecret): its webhooks are signed with it. */
  webhookSecret: string;
  /** Hands a signed webhook event to the platform (app.ts: its own webhook route). */
  deliver: Deliver;
  /** 127.0.0.1:<port> for the Stripe API; 0 takes any free port. */
  port: number;
  /** The portal's URL: the test authentication page is `${publicUrl}/card-sandbox/authenticate`. */
  publicUrl: string;
  /** How often the webhook loop looks for due events (500 ms). */
  pollMs?: number;
};

/**
 * The embedded card provider used when Stripe is not configured (issue 16): Stripe's API (a
 * subset) on its own listener, Stripe's test cards, and webhooks signed as Stripe signs them.
 * Its state is in the database (card_sandbox_objects, card_sandbox_events), so a restart loses
 * neither intents nor undelivered events. The platform reaches it only through the stripe SDK
 * (StripeCardGateway in mode 'sandbox'); the browser reaches it through `browser`
 * (cardSandboxBrowserRoutes).
 */
export class CardSandbox {
  readonly browser: CardSandboxBrowser;
  readonly webhookSecret: string;
  private readonly api: ReturnType<typeof buildStripeApi>;
  private readonly delivery: WebhookDelivery;
  private listening: Promise<number> | undefined;
  private readonly log: FastifyBaseLogger;

  constructor(private readonly options: CardSandboxOptions) {
    this.webhookSecret = options.webhookSecret;
    const repo = new CardSandboxRepository(options.db);
    const log = (this.log = options.log.child({ component: 'card-sandbox' }));
    const context = (): SandboxContext => ({
      publicUrl: options.publicUrl,
      apiVersion: Stripe.API_VERSION,
      now: new Date(),
    });
    this.api = buildStripeApi({ repo, secretKey: SANDBOX_KEYS.secretKey, context, log });
    this.browser = new CardSandboxBrowser(repo, context);
    this.delivery = new WebhookDelivery(repo, {
      deliver: options.deliver,
      webhookSecret: options.webhookSecret,
      log,
      ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
    });
  }

  /**
   * Starts the Stripe API listener (once); answers its port. Only this process's gateway calls it,
   * so when the configured port is taken (another server on this machine, a test's) any free one
   * serves as well: the node starts instead of failing.
   */
  listen(): Promise<number> {
    this.listening ??= (async () => {
      try {
        await this.api.listen({ host: '127.0.0.1', port: this.options.port });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || this.options.port === 0) throw error;
        this.log.warn({ port: this.options.port }, 'card sandbox: port in use; listening on a free port instead');
        await this.api.listen({ host: '127.0.0.1', port: 0 });
      }
      return (this.api.server.address() as AddressInfo).port;
    })();
    return this.listening;
  }

  /** Listens, and starts delivering webhook events (the app's onReady). */
  async start(): Promise<void> {
    await this.listen();
    this.delivery.start();
  }

  /** Stops the webhook loop (waiting for a delivery in progress) and the listener; before the database closes. */
  async stop(): Promise<void> {
    await this.delivery.stop();
    await this.api.close();
  }

  /** Delivers the events due now, at once (tests; the loop does it every pollMs). */
  deliverDue(): Promise<number> {
    return this.delivery.deliverDue();
  }
}
