import type { DbHandle } from '@connect/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { CardGateway } from './port.ts';
import { CardSandbox, SANDBOX_KEYS, type Deliver } from './sandbox/index.ts';
import { StripeCardGateway } from './stripe.ts';

/**
 * Stripe when its keys are set; otherwise, where the sandbox is allowed (everywhere but
 * production unless CARD_SANDBOX=on), the embedded sandbox — listening first, so the same
 * StripeCardGateway talks to it at 127.0.0.1; otherwise no card payments (both null).
 * The caller starts the sandbox's webhook loop when the app is ready and stops it before the
 * database closes.
 */
export async function createCardGateway(
  config: Pick<Config, 'cards' | 'publicUrl'>,
  env: { dbh: DbHandle; log: FastifyBaseLogger; deliver: Deliver },
): Promise<{ gateway: CardGateway | null; sandbox: CardSandbox | null }> {
  const { stripe, sandbox: sandboxConfig } = config.cards;
  if (stripe) return { gateway: new StripeCardGateway({ ...stripe, mode: 'stripe' }), sandbox: null };
  if (!sandboxConfig.allowed) return { gateway: null, sandbox: null };
  const sandbox = new CardSandbox({
    db: env.dbh.db,
    log: env.log,
    deliver: env.deliver,
    port: sandboxConfig.port,
    publicUrl: config.publicUrl,
  });
  const port = await sandbox.listen();
  const gateway = new StripeCardGateway({
    ...SANDBOX_KEYS,
    mode: 'sandbox',
    host: '127.0.0.1',
    port,
    protocol: 'http',
  });
  return { gateway, sandbox };
}
