import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { StripeApiError, invalidApiKey } from './errors.ts';
import { FormReader, parseForm, type FormObject } from './form.ts';
import type { SandboxContext } from './intents.ts';
import { publicJson, type IntentJson, type LastError } from './objects.ts';
import { SandboxOperations } from './operations.ts';
import { confirmInputOf, enumOf, paymentMethodsOf, refuseUnknown } from './params.ts';
import type { CardSandboxRepository, StoredAnswer } from './repository.ts';

/*
 * The subset of Stripe's REST API the card gateway uses, answered as Stripe answers it: form
 * bodies in bracket notation, `Authorization: Bearer <secret key>`, `Idempotency-Key` (the same
 * key on the same path answers the first response again), JSON objects and Stripe's error bodies.
 * It listens on 127.0.0.1 only, on a Fastify instance of its own, so the real stripe SDK runs
 * against it unchanged (host, port and protocol are its only settings that differ).
 */

export type StripeApiOptions = {
  repo: CardSandboxRepository;
  secretKey: string;
  context: () => SandboxContext;
  log: FastifyBaseLogger;
};

type Answer = { status: number; body: unknown };
type Handler = (ops: SandboxOperations, form: FormReader, params: Record<string, string>) => Promise<Answer>;

const ok = (body: unknown): Answer => ({ status: 200, body: publicJson(body as object) });

/** A confirmation that ended in a decline: Stripe's 402 card error, carrying the intent as it now is. */
function attempted(result: { intent: IntentJson; failure: LastError | null }): Answer {
  if (!result.failure) return ok(result.intent);
  return { status: 402, body: { error: { ...result.failure, [result.intent.object]: result.intent } } };
}

/** Another request stored an answer under the same key while this one ran: its work is rolled back. */
class AnsweredElsewhere extends Error {}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const CONFIRM_PARAMS = ['payment_method', 'payment_method_data', 'return_url', 'off_session'] as const;

/** Each call: its method and path, the parameters it takes (others are refused), what it does. */
const ROUTES: { method: 'GET' | 'POST'; path: string; params?: readonly string[]; handle: Handler }[] = [
  {
    method: 'POST',
    path: '/v1/customers',
    params: ['email', 'name', 'description', 'metadata'],
    handle: async (ops, form) =>
      ok(
        await ops.createCustomer({
          email: form.string('email'),
          name: form.string('name'),
          description: form.string('description'),
          metadata: form.metadata(),
        }),
      ),
  },
  {
    method: 'POST',
    path: '/v1/payment_intents',
    params: [
      'amount',
      'currency',
      'customer',
      'description',
      'metadata',
      'setup_future_usage',
      'automatic_payment_methods',
      'allowed_payment_method_types',
      'confirm',
      ...CONFIRM_PARAMS,
    ],
    handle: async (ops, form) =>
      attempted(
        await ops.createPaymentIntent({
          amount: form.requiredInteger('amount'),
          currency: form.requiredString('currency'),
          customer: form.string('customer'),
          description: form.string('description'),
          metadata: form.metadata(),
          setupFutureUsage: enumOf(form, 'setup_future_usage', ['off_session', 'on_session'] as const),
          paymentMethods: paymentMethodsOf(form),
          confirm: form.boolean('confirm'),
          confirmWith: confirmInputOf(form),
        }),
      ),
  },
  {
    method: 'GET',
    path: '/v1/payment_intents/:id',
    handle: async (ops, _form, p) => ok(await ops.intent('payment_intent', p.id!)),
  },
  {
    method: 'POST',
    path: '/v1/payment_intents/:id/confirm',
    params: CONFIRM_PARAMS,
    handle: async (ops, form, p) => attempted(await ops.confirm('payment_intent', p.id!, confirmInputOf(form))),
  },
  {
    method: 'POST',
    path: '/v1/setup_intents',
    params: [
      'customer',
      'description',
      'metadata',
      'usage',
      'automatic_payment_methods',
      'allowed_payment_method_types',
    ],
    handle: async (ops, form) =>
      ok(
        await ops.createSetupIntent({
          customer: form.string('customer'),
          description: form.string('description'),
          metadata: form.metadata(),
          usage: enumOf(form, 'usage', ['off_session', 'on_session'] as const),
          paymentMethods: paymentMethodsOf(form),
        }),
      ),
  },
  {
    method: 'GET',
    path: '/v1/setup_intents/:id',
    handle: async (ops, _form, p) => ok(await ops.intent('setup_intent', p.id!)),
  },
  {
    method: 'POST',
    path: '/v1/setup_intents/:id/confirm',
    params: ['payment_method', 'payment_method_data', 'return_url'],
    handle: async (ops, form, p) => attempted(await ops.confirm('setup_intent', p.id!, confirmInputOf(form))),
  },
  {
    method: 'GET',
    path: '/v1/payment_methods/:id',
    handle: async (ops, _form, p) => ok(await ops.paymentMethod(p.id!)),
  },
  {
    method: 'POST',
    path: '/v1/refunds',
    params: ['payment_intent', 'charge', 'amount', 'metadata', 'reason'],
    handle: async (ops, form) =>
      ok(
        await ops.createRefund({
          paymentIntent: form.string('payment_intent'),
          charge: form.string('charge'),
          amount: form.integer('amount'),
          metadata: form.metadata(),
          reason: enumOf(form, 'reason', ['duplicate', 'fraudulent', 'requested_by_customer'] as const),
        }),
      ),
  },
];

export function buildStripeApi(options: StripeApiOptions): FastifyInstance {
  const { repo } = options;
  const api = Fastify({
    loggerInstance: options.log,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 65_536,
  });
  api.removeAllContentTypeParsers();
  api.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseForm(String(body)));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  const expected = Buffer.from(`Bearer ${options.secretKey}`);
  api.addHook('onRequest', async (request, reply) => {
    reply.header('request-id', `req_${randomBytes(9).toString('base64url')}`);
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidApiKey();
  });
  api.setErrorHandler((error, request, reply) => {
    if (error instanceof StripeApiError) return reply.code(error.status).send({ error: error.body });
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status < 500) {
      return reply.code(status).send({ error: { type: 'invalid_request_error', message: (error as Error).message } });
    }
    request.log.error({ err: error }, 'card sandbox: request failed');
    return reply
      .code(500)
      .send({ error: { type: 'api_error', message: 'An unknown error occurred in the card sandbox.' } });
  });
  api.setNotFoundHandler((request, reply) =>
    reply.code(404).send({
      error: {
        type: 'invalid_request_error',
        message: `Unrecognized request URL (${request.method}: ${request.url.split('?')[0]}). The card sandbox answers a subset of Stripe's API.`,
      },
    }),
  );

  const replay = (stored: StoredAnswer, requestHash: string, key: string): Answer =>
    stored.requestHash === requestHash
      ? { status: stored.status, body: stored.body }
      : {
          status: 400,
          body: {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            },
          },
        };

  /**
   * Runs a POST in one transaction; with an idempotency key, stores its answer in the same
   * transaction, or answers the one stored first for that key and path. Two requests racing
   * with one key: the second's insert waits for the first's commit, conflicts, and its own work
   * is rolled back. Refusals thrown before any work (validation) are not stored, as with Stripe.
   */
  async function answerOnce(
    key: string | null,
    path: string,
    requestHash: string,
    work: (ops: SandboxOperations) => Promise<Answer>,
  ): Promise<{ answer: Answer; isReplay: boolean }> {
    const keyId = key && `idem_${sha256(`POST ${path} ${key}`).slice(0, 40)}`;
    const stored = keyId ? await repo.findAnswer(keyId) : null;
    if (keyId && stored) return { answer: replay(stored, requestHash, key), isReplay: true };
    try {
      const answer = await repo.transaction(async (tx) => {
        const result = await work(new SandboxOperations(tx, options.context()));
        if (keyId && !(await tx.saveAnswer(keyId, { method: 'POST', path, requestHash, ...result }))) {
          throw new AnsweredElsewhere();
        }
        return result;
      });
      return { answer, isReplay: false };
    } catch (error) {
      if (!(error instanceof AnsweredElsewhere) || !keyId) throw error;
      return { answer: replay((await repo.findAnswer(keyId))!, requestHash, key), isReplay: true };
    }
  }

  for (const route of ROUTES) {
    api.route({
      method: route.method,
      url: route.path,
      handler: async (request, reply) => {
        const params = request.params as Record<string, string>;
        const form = new FormReader((request.body as FormObject | undefined) ?? {});
        refuseUnknown(form, route.params ?? []);
        if (route.method === 'GET') {
          const answer = await route.handle(new SandboxOperations(repo, options.context()), form, params);
          return reply.code(answer.status).send(answer.body);
        }
        const key = request.headers['idempotency-key'];
        const { answer, isReplay } = await answerOnce(
          typeof key === 'string' && key ? key : null,
          request.url.split('?')[0]!,
          sha256(JSON.stringify(request.body ?? {})),
          (ops) => route.handle(ops, form, params),
        );
        if (isReplay) reply.header('idempotent-replayed', 'true');
        if (typeof key === 'string') reply.header('idempotency-key', key);
        return reply.code(answer.status).send(answer.body);
      },
    });
  }
  return api;
}
