import type { DbHandle, Database } from '@connect/db';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { NetworkMonitor } from './adapters/chains/monitor.ts';
import type { IdentityAdmin } from './adapters/identity-admin/port.ts';
import type { KycProvider } from './adapters/kyc/port.ts';
import type { Mailer } from './adapters/mail/port.ts';
import type { Config } from './config.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { SecretBox } from './lib/secret-box.ts';
import type { KeyStore } from './services/identity/keys.ts';
import type { PoolSettings } from './services/identity/pool.ts';

/** The Fastify instance with zod schemas as its type provider. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

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
  /** Chains: the network health monitor (started by server.ts; tests call checkOnce()). */
  chains: { monitor: NetworkMonitor };
  /** Identity verification: Onfido, or the embedded sandbox when Onfido is not configured. */
  kyc: KycProvider;
  /** Background jobs (pg-boss): services register workers while the app is built. */
  jobs: JobQueue;
};
