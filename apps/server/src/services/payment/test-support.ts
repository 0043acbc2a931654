import { eq } from 'drizzle-orm';
import { encodeFunctionData, erc20Abi, type Hex } from 'viem';
import { expect, vi } from 'vitest';
import { cardWebhookEvents, mailOutbox, payments } from '@connect/db';
import { ZCardConfirmation, ZCardIntent, ZOrder, type TCardIntent, type TOrder } from '@connect/shared';
import { startTestChain, type TestChain } from '../../../test/chains.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { CursorMovedError, followStep, type StepOptions } from '../../adapters/chains/follower/index.ts';
import { ensureLocalQntToken } from '../../adapters/chains/qnt-token.ts';
import { rpcCall } from '../../adapters/chains/rpc.ts';
import { planByCode, planOrder, type Session } from '../account-plan/test-support.ts';
import { qntPayments } from './index.ts';

/** Stripe's test cards the card tests use (docs/decisions/payments.md "Card payments"). */
export const CARDS = {
  ok: '4242424242424242',
  authenticate: '4000002500003155',
  declined: '4000000000000002',
  chargesDeclined: '4000000000000341',
} as const;

/**
 * A local chain with the QNT token deployed and an app taking QNT on it (its Ethereum testnet is
 * the chain), with the test file's settings (`env`: QNT_CONFIRMATIONS, …). Stop both with
 * stopQntTestApp in afterAll.
 */
export async function startQntTestApp(
  env: Record<string, string>,
): Promise<{ chain: TestChain; token: Hex; t: TestContext }> {
  const chain = await startTestChain();
  try {
    const token = await ensureLocalQntToken(chain.rpcUrl);
    const t = await createTestApp({
      NETWORK_RPC_ETHEREUM_TESTNET: chain.rpcUrl,
      NETWORK_CHAIN_ID_ETHEREUM_TESTNET: String(chain.chainId),
      QNT_TOKEN_ADDRESS: token,
      ...env,
    });
    return { chain, token, t };
  } catch (error) {
    await chain.stop();
    throw error;
  }
}

/** Closes what startQntTestApp started (either may be missing: its beforeAll failed). */
export async function stopQntTestApp(t: TestContext | undefined, chain: TestChain | undefined) {
  await t?.close();
  await chain?.stop();
}

/**
 * One step of the app's QNT follower (`options`: the app's hooks a test wants run), then the
 * subscribers (the settlement) on what it announced. The app's chain-follow job follows the same
 * chain meanwhile: a step it overtook is rolled back (CursorMovedError) and taken again from where
 * the job left the cursor.
 */
export async function followQnt(t: TestContext, options: Omit<StepOptions, 'maxBlocks'> = {}) {
  const follower = qntPayments(t.app.deps, t.app.log).follower()!;
  for (let attempt = 0; ; attempt++) {
    try {
      await followStep(t.db.db, follower, { maxBlocks: 1_000, ...options });
      break;
    } catch (error) {
      if (!(error instanceof CursorMovedError) || attempt >= 5) throw error;
    }
  }
  await t.app.events.drain();
}

/** `from` sends `amount` wei of the QNT `token` to `to`; answers its transaction once mined (anvil mines at once). */
export async function sendQnt(chain: TestChain, token: Hex, from: Hex, to: string, amount: bigint): Promise<Hex> {
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to as Hex, amount] });
  const hash = await rpcCall<Hex>(chain.rpcUrl, 'eth_sendTransaction', [{ from, to: token, data }]);
  await vi.waitFor(
    async () => {
      if (!(await rpcCall(chain.rpcUrl, 'eth_getTransactionReceipt', [hash]))) throw new Error('not mined');
    },
    { timeout: 5_000, interval: 20 },
  );
  return hash;
}

/**
 * What card tests do to an app with the embedded sandbox (`current()`: the test file's app, made in
 * its beforeAll): the customer's calls, the browser's side of the card form, and waits.
 */
export function cardTestKit(current: () => TestContext) {
  const pay = (session: Session | { headers: object } | null, url: string, body?: unknown) =>
    current().app.inject({
      method: body === undefined && url.startsWith('GET ') ? 'GET' : 'POST',
      url: `/api/payment${url.replace(/^GET /, '')}`,
      headers: { ...(session?.headers ?? {}) },
      ...(body !== undefined ? { payload: body as object } : {}),
    });

  /** The browser's side: the sandbox's card form confirms the intent with a card number. */
  async function confirmInBrowser(intent: TCardIntent, number: string) {
    const kind = intent.kind === 'PAYMENT' ? 'payment_intents' : 'setup_intents';
    const res = await current().app.inject({
      method: 'POST',
      url: `/api/card-sandbox/v1/${kind}/${intent.intentId}/confirm`,
      payload: {
        clientSecret: intent.clientSecret,
        card: { number, expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvc: '123' },
        returnUrl: 'http://localhost/account-plan/upgrade',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { status: string; lastError: { message: string } | null; redirectUrl: string | null };
  }

  async function authenticate(intent: TCardIntent, outcome: 'complete' | 'fail') {
    const kind = intent.kind === 'PAYMENT' ? 'payment_intents' : 'setup_intents';
    const res = await current().app.inject({
      method: 'POST',
      url: `/api/card-sandbox/v1/${kind}/${intent.intentId}/authenticate`,
      payload: { clientSecret: intent.clientSecret, outcome },
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  async function intentFor(session: Session, orderId: string, saveCard?: boolean): Promise<TCardIntent> {
    const res = await pay(session, '/card/order', { orderId, ...(saveCard === undefined ? {} : { saveCard }) });
    expect(res.statusCode, res.body).toBe(200);
    return ZCardIntent.parse(res.json());
  }

  async function confirm(session: Session, intent: TCardIntent) {
    const key = intent.kind === 'PAYMENT' ? 'paymentIntent' : 'setupIntent';
    const res = await pay(session, '/card/confirm', { [key]: intent.intentId });
    expect(res.statusCode, res.body).toBe(200);
    return ZCardConfirmation.parse(res.json());
  }

  /** The caller orders the plan `code` paid by card (in the app `on`, the test file's by default). */
  async function orderByCard(session: Session, code: string, on: TestContext = current()): Promise<TOrder> {
    const plan = await planByCode(on, code);
    const res = await on.app.inject({
      method: 'POST',
      url: '/api/account-plan/order/plan',
      headers: session.headers,
      payload: planOrder(plan.id, { paymentMethod: 'FIAT' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    return ZOrder.parse(res.json());
  }

  /** Waits until the sandbox has delivered its webhooks and the bus has settled what they caused. */
  async function settle(until: () => Promise<boolean>) {
    await vi.waitFor(
      async () => {
        await current().app.events.drain();
        if (!(await until())) throw new Error('not settled');
      },
      { timeout: 20_000, interval: 100 },
    );
  }

  /** The annual plan ordered and paid by card: the card form with a good card, then the confirmation. */
  async function annualPaidByCard(session: Session): Promise<TOrder> {
    const order = await annualByCard(session);
    const intent = await intentFor(session, order.id);
    await confirmInBrowser(intent, CARDS.ok);
    await confirm(session, intent);
    return order;
  }

  /** The customer saves a good card (a setup intent through the card form, then the confirmation). */
  async function saveCardFor(session: Session) {
    const setup = ZCardIntent.parse((await pay(session, '/card/setup', {})).json());
    await confirmInBrowser(setup, CARDS.ok);
    await confirm(session, setup);
  }

  const annualByCard = (session: Session) => orderByCard(session, 'annual-standard');
  const db = () => current().db.db;
  return {
    pay,
    confirmInBrowser,
    authenticate,
    intentFor,
    confirm,
    orderByCard,
    annualByCard,
    annualPaidByCard,
    saveCardFor,
    /** Staff refund (part of) the order's card payment. */
    refundOrder: (staff: { headers: object }, orderId: string, body: object) =>
      pay(staff, `/management/orders/${orderId}/refunds`, body),
    paymentsOf: (orderId: string) => db().select().from(payments).where(eq(payments.orderId, orderId)),
    mailsTo: (email: string) => db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)),
    webhooksOf: async (type: string) =>
      (await db().select().from(cardWebhookEvents).where(eq(cardWebhookEvents.type, type))).length,
    settle,
  };
}
