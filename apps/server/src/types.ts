import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DbHandle, Database } from '@connect/db';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FollowerRegistry } from './adapters/chains/follower/index.ts';
import type { NetworkMonitor } from './adapters/chains/monitor.ts';
import type { PlatformSender } from './adapters/chains/sender/index.ts';
import type { IdentityAdmin } from './adapters/identity-admin/port.ts';
import type { CardGateway } from './adapters/cards/port.ts';
import type { KycProvider } from './adapters/kyc/port.ts';
import type { Mailer } from './adapters/mail/port.ts';
import type { Config } from './config.ts';
import type { EventBus } from './events/port.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { SecretBox } from './lib/secret-box.ts';
import type { SessionRevocations } from './lib/session-revocations.ts';
// The pool's types come from their own files, not identity's index.ts: the index also exports its
// routes, which import this file, and the two would form a circle.
import type { KeyStore } from './services/identity/keys.ts';
import type { PoolSettings } from './services/identity/pool.ts';
import type { AccountPlanRuntime } from './services/account-plan/periods.ts';
import type { KycService } from './services/connect/kyc-service.ts';
import type { PaymentRuntime } from './services/payment/sweep.ts';
import type { TokeniseRuntime } from './services/tokenise/assembly.ts';
import type { CloseResult } from './services/usage/close.ts';
import type { InvoicesRuntime } from './services/payment/invoices/close.ts';

/** The Fastify instance with zod schemas as its type provider. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/**
 * A handler that may take a request before Fastify's pipeline (a hot path: see
 * services/gateway/fast-path.ts). It answers false to leave the request to Fastify untouched, or
 * true when it has taken it — and then either answers it or hands it to `next` (Fastify) itself.
 */
export type RawHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (req: IncomingMessage, res: ServerResponse) => void,
) => boolean;

/**
 * What services publish while the app is built, for its jobs (src/jobs) and start-up work
 * (src/startup): each service fills its own entry; a service that is off leaves it out.
 */
export type Runtime = {
  tokenise?: TokeniseRuntime;
  kyc?: Pick<KycService, 'resume'>;
  /** The plans' periods: trial reminders and ends, period ends and renewals (jobs/plan-periods.ts). */
  accountPlan?: AccountPlanRuntime;
  /** QNT deposits swept to the treasury (jobs/qnt-sweep.ts); `sweeps` false where the operator sweeps. */
  payment?: PaymentRuntime;
  /** Monthly charges of saved cards and card intents read again (jobs/card-charges.ts), where cards are taken. */
  cards?: { chargeDue(now: Date): Promise<{ charged: number; failed: number }>; reconcile(now: Date): Promise<number> };
  /** The gateway's closed hours made usage records and ledger consumption (jobs/usage-close.ts). */
  usage?: { closeHours(now: Date): Promise<CloseResult>; closeUntil(at: Date): Promise<CloseResult> };
  /** The month's close of pay-as-you-go use into invoices (jobs/invoice-close.ts, the dev billing routes). */
  invoices?: InvoicesRuntime;
};

/** What services need from the platform; built once in app.ts and handed to each service plugin. */
export type Deps = {
  config: Config;
  dbh: DbHandle;
  db: Database;
  mailer: Mailer;
  identityAdmin: IdentityAdmin;
  pool: PoolSettings;
  /** The embedded pool's keys; undefined when the pool is AWS Cognito. */
  keys: KeyStore | undefined;
  box: SecretBox;
  /** Signed-out and revoked sessions, which the API refuses (record every sign-out here). */
  revocations: SessionRevocations;
  /** Chains: the network health monitor (started by server.ts; tests call checkOnce()). */
  chains: { monitor: NetworkMonitor };
  /** Identity verification: Onfido, or the embedded sandbox when Onfido is not configured. */
  kyc: KycProvider;
  /** Card payments: Stripe, or the embedded sandbox that speaks Stripe; null where neither is allowed. */
  cards: CardGateway | null;
  /** Domain events (the outbox): services emit in the transaction of the change; subscribers register while the app is built. */
  events: EventBus;
  /** Background jobs (pg-boss): services send; the workers are the jobs of src/jobs (registered in app.ts). */
  jobs: JobQueue;
  /** The platform's one transaction sender: every transaction the platform signs (adapters/chains/sender). */
  sender: PlatformSender;
  /** Chain followers (adapters/chains/follower): services add theirs while assembled; jobs/chain-follow.ts runs them. */
  followers: FollowerRegistry;
  /** The services' runtime faces (filled while the app is built; read by jobs and start-up work). */
  runtime: Runtime;
  /** Raw handlers tried, in order, before Fastify for every request that reaches the server's socket. */
  rawHandlers: RawHandler[];
};
