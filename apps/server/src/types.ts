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
import type { RecordedQntToken } from './adapters/chains/catalogue-sync.ts';
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
import type { KeyStore } from './lib/pool-keys.ts';
import type { PoolSettings } from './lib/pool-settings.ts';

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
 * The services' runtime faces: what a service publishes while the app is built, for the jobs,
 * the start-up work and the platform's routes that use it (each field is optional: a service that
 * is off, or off on this node, leaves it out). Empty here on purpose: each service declares its own
 * field in its module.ts (`declare module '../../types.ts' { interface Runtime { ... } }`), so the
 * face's type lives with the service and this file never imports one.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface Runtime {}

/**
 * What services need from the platform; built once in app.ts and handed to each service module.
 * Only platform things: a service's own types stay in its folder (see Runtime).
 */
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
  /**
   * Chains: the network health monitor (started by server.ts; tests call checkOnce()), and the QNT
   * token the network catalogue recorded once this node's start wrote its configuration (payments
   * take QNT there when this node has no QNT_TOKEN_ADDRESS of its own).
   */
  chains: { monitor: NetworkMonitor; qntToken: RecordedQntToken | null };
  /** Identity verification: Onfido, or the embedded sandbox when Onfido is not configured. */
  kyc: KycProvider;
  /** Card payments: Stripe, or the embedded sandbox that speaks Stripe; null where neither is allowed. */
  cards: CardGateway | null;
  /** Domain events (the outbox): services emit in the transaction of the change; subscribers register while the app is built. */
  events: EventBus;
  /** Background jobs (pg-boss): services send; the workers are the platform's (src/jobs) and the modules' jobs (registered in app.ts). */
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
