import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { kycChecks } from '@connect/db';
import { sandboxWebhookSecret } from '../src/adapters/cards/create-gateway.ts';
import { FakeOnfido } from '../src/adapters/kyc/testing/fake-onfido.ts';
import { liftPlanLimits } from '../src/services/application-manager/testing.ts';
import { setAllowances } from './plans.ts';
import { networkId, newTokenUser, settled } from '../src/services/tokenise/test-support.ts';
import { newRewardsCustomer } from '../src/services/campaign/test-support.ts';
import { ensureLocalQntToken } from '../src/adapters/chains/qnt-token.ts';
import { LedgerRepository } from '../src/repositories/ledger.ts';
import { StaffAlertsRepository } from '../src/repositories/staff-alerts.ts';
import { startTestChain } from './chains.ts';
import { createTestApp, signInAs, type TestContext } from './helpers.ts';
import {
  script,
  WEBHOOK_TOKEN,
  type Call,
  type Caller,
  type Helpers,
  type Request,
  type State,
} from './openapi-script.ts';

/**
 * Real answers of every operation of the OpenAPI document, recorded from a whole app (a local
 * chain behind the network catalogue, a fake Onfido behind identity verification): at least one
 * success per operation, and for each operation that needs credentials the same request without
 * them (401). openapi-document.test.ts holds the document against them; openapi-client.test.ts
 * type-checks them against a client generated from the document.
 */

export type Operation = { method: string; path: string; security?: Record<string, string[]>[] };
export type OpenApi = {
  paths: Record<string, Record<string, { operationId?: string; security?: Record<string, string[]>[] }>>;
};

/** One request and its answer, as a client would see them. */
export type Recording = {
  /** `GET /api/connect/user/{id}`: the document's operation. */
  operation: string;
  request: { method: string; url: string; body?: unknown };
  /** The status the script expects (a wrong one means the recording does not show what it says). */
  expected: number;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Without parameters (`; charset=utf-8`); undefined for an empty answer. */
  mediaType: string | undefined;
  /** The parsed JSON answer, the text of another one, undefined when empty. */
  body: unknown;
};

/** `application/json`, `application/problem+json`, Cognito's `application/x-amz-json-1.1` … */
export const isJson = (mediaType: string | undefined) => mediaType !== undefined && /\bjson\b/.test(mediaType);

export type Recorded = {
  t: TestContext;
  document: OpenApi;
  recordings: Recording[];
  close: () => Promise<void>;
};

const operationsOf = (document: OpenApi): Operation[] =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, spec]) => ({
      method: method.toUpperCase(),
      path,
      ...(spec.security ? { security: spec.security } : {}),
    })),
  );

/** The operations a client calls with a token: the same request without it must answer 401. */
export const needsToken = (operation: { security?: Record<string, string[]>[] }) =>
  operation.security?.some((requirement) => 'bearerAuth' in requirement || 'oauth2ClientCredentials' in requirement) ??
  false;

/** Builds the app, runs the script, then the 401 of every operation that needs a token. */
export async function recordEveryOperation(): Promise<Recorded> {
  const onfido = await new FakeOnfido('api_live.test').start();
  const chain = await startTestChain();
  const t = await createTestApp({
    NETWORK_RPC_ETHEREUM_TESTNET: chain.rpcUrl,
    NETWORK_CHAIN_ID_ETHEREUM_TESTNET: String(chain.chainId),
    QNT_TOKEN_ADDRESS: await ensureLocalQntToken(chain.rpcUrl),
    ONFIDO_API_TOKEN: 'api_live.test',
    ONFIDO_REGION: 'US',
    ONFIDO_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
    ONFIDO_API_URL: onfido.baseUrl,
  });
  const close = async () => {
    await t.close();
    await Promise.all([chain.stop(), onfido.stop()]);
  };
  try {
    const document = t.app.swagger() as OpenApi;
    const network = await networkId(t, 'ethereum-testnet');
    const user = await newTokenUser(t, { networks: [network], quota: null, credits: 10_000 });
    // Many applications, but the gateway at a plan's rate, so the script can record its 429.
    await liftPlanLimits(t, user.accountId);
    await setAllowances(t.db.db, user.accountId, { rateLimit: 25 });
    const admin = await signInAs(t, { role: 'QUANT_ADMIN' });
    const leaving = await signInAs(t);
    const s: State = {
      network,
      sub: user.sub,
      account: user.accountId,
      email: user.email,
      pooled: user.accessToken,
      leaving: leaving.headers.authorization,
    };
    const helpers: Helpers = {
      settle: async (tokenId) => {
        await settled(t, user, tokenId);
      },
      completeCheck: async () => {
        const [check] = await t.db.db.select().from(kycChecks).where(eq(kycChecks.userId, user.sub));
        onfido.complete(check!.checkId, { result: 'clear', firstName: 'Ada', lastName: 'Lovelace' });
        return check!.checkId;
      },
      deliverEvents: async () => {
        await t.app.events.drain();
      },
      cardWebhookSecret: () => sandboxWebhookSecret(t.db.db, t.app.deps.box),
      raiseStaffAlert: async () => {
        const alerts = new StaffAlertsRepository(t.db.db, t.app.events);
        const raised = await alerts.raise(
          {
            code: 'OPENAPI_RECORDING',
            message: 'Raised by the OpenAPI recordings.',
            record: { type: 'test', id: '1' },
          },
          t.app.deps.config.staffAlertEmail,
        );
        return raised!.id;
      },
      rewardsCustomer: async () => (await newRewardsCustomer(t)).headers.authorization,
      rewardClaimant: async () => {
        const customer = await newRewardsCustomer(t);
        await new LedgerRepository(t.db.db).grant(customer.accountId, 'REWARD_QNT', 10n * 10n ** 18n, {
          reason: 'OpenAPI recordings',
          reference: `openapi-rewards:${customer.accountId}`,
        });
        return customer.headers.authorization;
      },
    };
    const authorization: Record<Caller, () => string | undefined> = {
      user: () => user.headers.authorization,
      admin: () => admin.headers.authorization,
      application: () => `Bearer ${s.accessToken}`,
      none: () => undefined,
    };

    const recordings: Recording[] = [];
    const sent = new Map<string, Request>();
    const record = async (operation: string, request: Request, expected: number, burst = 1) => {
      const method = operation.split(' ')[0]!;
      const auth = authorization[request.as ?? 'user']();
      const headers: Record<string, string> = {
        ...(auth ? { authorization: auth } : {}),
        ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(request.raw ? { 'content-type': request.raw.type } : {}),
        ...request.headers,
      };
      const send = () =>
        t.app.inject({
          method: method as InjectOptions['method'],
          url: request.url,
          headers,
          ...(request.body !== undefined ? { payload: JSON.stringify(request.body) } : {}),
          ...(request.raw ? { payload: request.raw.text } : {}),
        });
      const answers = await Promise.all(Array.from({ length: burst }, send));
      const res = answers.find((answer) => answer.statusCode === expected) ?? answers[0]!;
      const contentType = res.headers['content-type'];
      const mediaType = res.body && contentType ? String(contentType).split(';')[0]!.trim() : undefined;
      const recording: Recording = {
        operation,
        request: { method, url: request.url, ...(request.body !== undefined ? { body: request.body } : {}) },
        expected,
        status: res.statusCode,
        headers: res.headers as Recording['headers'],
        mediaType,
        body: !res.body ? undefined : isJson(mediaType) ? (JSON.parse(res.body) as unknown) : res.body,
      };
      recordings.push(recording);
      return recording;
    };

    const calls = script(chain);
    // The invoices' calls come before the script's last one (it signs the session they use out).
    calls.splice(calls.length - 1, 0, ...invoiceCalls());
    for (const call of calls) {
      const request = await call.send(s, helpers);
      const { status, body } = await record(call.operation, request, call.status, call.burst);
      if (status === call.status && status < 300) {
        if (!sent.has(call.operation)) sent.set(call.operation, request);
        call.keep?.(body as never, s);
      }
    }
    for (const operation of operationsOf(document).filter(needsToken)) {
      const key = `${operation.method} ${operation.path}`;
      const request = sent.get(key);
      if (!request) continue;
      const { authorization: _dropped, ...headers } = request.headers ?? {};
      await record(key, { ...request, as: 'none', headers }, 401);
    }
    return { t, document, recordings, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The invoices' operations (issue 18), with the session of the script's orders (`leaving`): its
 * plan order paid by a staff receipt is a PAID invoice, its QNT credits order an OPEN one.
 */
function invoiceCalls(): Call[] {
  const as = (s: State) => ({ authorization: s.leaving! });
  const billing = {
    companyName: 'Analytical Engines Ltd',
    addressLine1: '12 Babbage Row',
    city: 'London',
    postcode: 'N1 9GU',
    country: 'GB',
    vatNumber: 'GB123456789',
  };
  return [
    {
      operation: 'GET /api/payment/user/invoices',
      send: (s) => ({ url: '/api/payment/user/invoices?page=0&size=10&sort=invoiceNumber:desc', headers: as(s) }),
      status: 200,
      keep: (body: { content: { id: string; status: string }[] }, s) => {
        s.paidInvoice = body.content.find((row) => row.status === 'PAID')!.id;
        s.openInvoice = body.content.find((row) => row.status === 'OPEN')!.id;
      },
    },
    {
      operation: 'GET /api/payment/user/invoices',
      send: (s) => ({ url: '/api/payment/user/invoices?sort=amount:up', headers: as(s) }),
      status: 400,
    },
    ...[true, false].map((isKnown): Call => ({
      operation: 'GET /api/payment/user/invoice/{id}',
      send: (s) => ({ url: `/api/payment/user/invoice/${isKnown ? s.paidInvoice : randomUUID()}`, headers: as(s) }),
      status: isKnown ? 200 : 404,
      keep: (body: { accountNumber: string }, s) => {
        s.invoiceAccount = body.accountNumber;
      },
    })),
    ...[200, 409].map((status): Call => ({
      operation: 'GET /api/payment/user/invoice/payment-rate/{id}',
      send: (s) => ({
        url: `/api/payment/user/invoice/payment-rate/${status === 200 ? s.openInvoice : s.paidInvoice}`,
        headers: as(s),
      }),
      status,
    })),
    ...[true, false].map((isKnown): Call => ({
      operation: 'POST /api/payment/user/invoice/{id}/pay-qnt',
      send: (s) => ({
        url: `/api/payment/user/invoice/${isKnown ? s.openInvoice : randomUUID()}/pay-qnt`,
        headers: as(s),
      }),
      status: isKnown ? 200 : 404,
    })),
    ...[true, false].map((isOwn): Call => ({
      operation: 'GET /api/payment/{accountId}/invoice/{invoiceId}/pdf',
      send: (s) => ({
        url: `/api/payment/${isOwn ? s.invoiceAccount : s.account}/invoice/${s.paidInvoice}/pdf`,
        headers: as(s),
      }),
      status: isOwn ? 200 : 404,
    })),
    {
      operation: 'GET /api/payment/user/invoice/{id}/csv',
      send: (s) => ({ url: `/api/payment/user/invoice/${s.paidInvoice}/csv`, headers: as(s) }),
      status: 200,
    },
    ...[409, 200].map((status): Call => ({
      operation: 'POST /api/connect/user/invoice/create-receipt',
      send: (s) => ({
        url: '/api/connect/user/invoice/create-receipt',
        headers: as(s),
        body: { invoiceId: status === 200 ? s.paidInvoice : s.openInvoice },
      }),
      status,
    })),
    ...[200, 404].map((status): Call => ({
      operation: 'GET /api/payment/user/invoice/{id}/receipt.pdf',
      send: (s) => ({
        url: `/api/payment/user/invoice/${status === 200 ? s.paidInvoice : s.openInvoice}/receipt.pdf`,
        headers: as(s),
      }),
      status,
    })),
    {
      operation: 'GET /api/connect/user/billing-details',
      send: (s) => ({ url: '/api/connect/user/billing-details', headers: as(s) }),
      status: 200,
    },
    ...[200, 422, 400].map((status): Call => ({
      operation: 'PUT /api/connect/user/billing-details',
      send: (s) => ({
        url: '/api/connect/user/billing-details',
        headers: as(s),
        body:
          status === 200
            ? billing
            : status === 422
              ? { ...billing, country: 'DE', vatNumber: 'DE123456000' }
              : { ...billing, country: 'Great Britain' },
      }),
      status,
    })),
  ];
}
