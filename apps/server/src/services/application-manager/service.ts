import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import {
  type ApplicationType,
  type SecretStatus,
  type TApplication,
  type TApplicationNetwork,
  type TApplicationsPage,
  type TApplicationRole,
  type TApplicationUsage,
  type TCreateApplicationResponse,
  type TRotateSecretResponse,
} from '@connect/shared';
import type { Config } from '../../config.ts';
import { fieldProblem, notFound, problem } from '../../lib/errors.ts';
import type { PortalUser } from '../../lib/portal-users.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { hashSecret } from '../../lib/secret-hash.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { requireVerifiedIdentity } from '../entitlements/index.ts';
import type { ApplicationRepository, ApplicationRow, NetworkRow, SecretRow } from './repository.ts';

type CreateInput = {
  name: string;
  callbackUrl: string;
  applicationType: ApplicationType;
  networkIds: string[];
  testnetSigning: boolean;
  /** What the application is for; a customer's own registration is DEVELOPER (the column's default). */
  roleName?: TApplicationRole | undefined;
};

/**
 * More work inside a creation's transaction, after the application is written (staff creation's
 * audit entry and email event): it commits with the application or not at all.
 */
export type CreationHook = (repo: ApplicationRepository, application: TApplication) => Promise<void>;

type UpdateInput = {
  id: string;
  name: string;
  callbackUrl: string;
  networkIds: string[];
  testnetSigning: boolean;
  applicationType?: ApplicationType | undefined;
};

/** How many of an application's secrets the portal lists (the newest; older ones are long dead). */
const SECRETS_SHOWN = 10;
const DAY_MS = 86_400_000;

function newClientSecret(): { secret: string; hash: string; hint: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: hashSecret(secret), hint: secret.slice(-4) };
}

/** Lower-case letters and digits, like the identity pool's app client ids. */
function newClientId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(26), (b) => alphabet[b % alphabet.length]).join('');
}

/** A fresh secp256k1 key pair: 32-byte private key and uncompressed public key, both 0x-hex. */
export function newSigningKey(): { privateKey: string; publicKey: string } {
  const ecdh = createECDH('secp256k1');
  ecdh.generateKeys();
  return {
    privateKey: `0x${ecdh.getPrivateKey('hex').padStart(64, '0')}`,
    publicKey: `0x${ecdh.getPublicKey('hex', 'uncompressed')}`,
  };
}

export function secretStatus(row: Pick<SecretRow, 'revokedAt' | 'expiresAt'>, now = new Date()): SecretStatus {
  if (row.revokedAt) return 'REVOKED';
  if (!row.expiresAt) return 'ACTIVE';
  return row.expiresAt.getTime() > now.getTime() ? 'EXPIRING' : 'EXPIRED';
}

/**
 * A network as the application forms list it; `rateLimit` is what the gateway enforces for the
 * account on it (the plan's requests a second per network, shared by its applications), not the
 * network's own `rate_limit` column, which is not enforced.
 */
function toNetwork(row: NetworkRow, rateLimit: number): TApplicationNetwork {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    networkType: row.networkType,
    technology: row.technology,
    chainId: row.chainId,
    rateLimit,
    isLocal: row.isLocal,
  };
}

function toApplication(
  row: ApplicationRow,
  networks: NetworkRow[],
  secrets: SecretRow[],
  rateLimit: number,
  now: Date,
): TApplication {
  return {
    id: row.id,
    accountId: row.accountId,
    name: row.name,
    callbackUrl: row.callbackUrl,
    applicationType: row.applicationType,
    testnetSigning: row.testnetSigning,
    clientId: row.clientId,
    signingServiceName: row.signingServiceName,
    signingKeyId: row.signingKeyId,
    signingPublicKey: row.signingPublicKey,
    networks: networks.map((network) => toNetwork(network, rateLimit)),
    secrets: secrets.slice(0, SECRETS_SHOWN).map((secret) => ({
      id: secret.id,
      hint: secret.hint,
      status: secretStatus(secret, now),
      createdAt: secret.createdAt.toISOString(),
      expiresAt: secret.expiresAt?.toISOString() ?? null,
      revokedAt: secret.revokedAt?.toISOString() ?? null,
    })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Two requests may pass the name check together; the unique index refuses the second write.
 * Answer that as the same 409 the check gives, not a 500.
 */
async function onNameRace<T>(
  code: 'APPLICATION_EXISTS' | 'APPLICATION_NAME_EXISTS',
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldProblem(code, 'name');
    throw error;
  }
}

/**
 * The rules of the application manager (spec §3, §5, §7): an account's API applications, their
 * client secrets and signing keys, the applications:create allowance and usage figures.
 */
export class ApplicationService {
  constructor(
    private readonly repo: ApplicationRepository,
    private readonly box: SecretBox,
    private readonly config: Pick<Config, 'productSlug'>,
    private readonly onSecretsChanged: (applicationId: string) => void = () => undefined,
  ) {}

  async list(
    caller: PortalUser,
    query: {
      page: number;
      size: number;
      search?: string | undefined;
      networkId?: string | undefined;
      applicationType?: ApplicationType | undefined;
    },
  ): Promise<TApplicationsPage> {
    const filter = {
      accountId: caller.accountId,
      search: query.search || undefined,
      networkId: query.networkId,
      applicationType: query.applicationType,
    };
    const [{ rows, total }, quota] = await Promise.all([
      this.repo.page(filter, query.page * query.size, query.size),
      this.repo.entitlements().quota(caller.accountId, 'applications'),
    ]);
    const content = await this.views(rows);
    return {
      content,
      totalElements: total,
      totalPages: Math.ceil(total / query.size),
      number: query.page,
      size: query.size,
      quota: { used: quota?.used ?? 0, total: quota ? quota.total : 0 },
    };
  }

  async get(caller: PortalUser, id: string): Promise<TApplication> {
    const row = await this.repo.findApplication(caller.accountId, id);
    if (!row) throw notFound('APPLICATION_NOT_FOUND');
    const [view] = await this.views([row]);
    return view!;
  }

  /** Networks an application of `type` could use: those the account activated, of that type. */
  async availableNetworks(
    caller: Pick<PortalUser, 'accountId'>,
    type?: ApplicationType,
  ): Promise<TApplicationNetwork[]> {
    const [networks, rateLimits] = await Promise.all([
      this.repo.activatedNetworks(caller.accountId, type),
      this.repo.entitlements().rateLimits([caller.accountId]),
    ]);
    const rateLimit = rateLimits.get(caller.accountId) ?? 0;
    return networks.map((network) => toNetwork(network, rateLimit));
  }

  /** The networks the application's edit dialog offers: activated, of the application's type. */
  async networksForApplication(caller: PortalUser, id: string): Promise<TApplicationNetwork[]> {
    const row = await this.repo.findApplication(caller.accountId, id);
    if (!row) throw notFound('APPLICATION_NOT_FOUND');
    return this.availableNetworks(caller, row.applicationType);
  }

  /** POST /validate: format problems are 400s from the schema; a taken name is a 409. */
  async validateName(caller: PortalUser, name: string, exceptId?: string): Promise<{ valid: true }> {
    if (await this.repo.nameTaken(caller.accountId, name.toLowerCase(), exceptId)) {
      throw fieldProblem('APPLICATION_NAME_EXISTS', 'name');
    }
    return { valid: true };
  }

  /**
   * Registers the application for `caller` (the user it belongs to), within the account's plan
   * allowances. Staff creation (management-service.ts) calls it for the user it names, with a
   * role and `within` for its audit entry and email.
   */
  async create(caller: PortalUser, input: CreateInput, within?: CreationHook): Promise<TCreateApplicationResponse> {
    // Spec §5: mainnet use of applications requires completed identity verification.
    if (input.applicationType === 'mainnet') requireVerifiedIdentity(caller);
    const secret = newClientSecret();
    const key = newSigningKey();
    const result = await onNameRace('APPLICATION_EXISTS', () =>
      this.repo.transaction(async (repo) => {
        await this.requireNetworks(repo, caller.accountId, input.applicationType, input.networkIds);
        const nameKey = input.name.toLowerCase();
        if (await repo.nameTaken(caller.accountId, nameKey)) {
          throw fieldProblem('APPLICATION_EXISTS', 'name');
        }
        const taken = await repo.entitlements().take(caller.accountId, 'applications');
        if (taken === 'inactive') throw problem('PLAN_INACTIVE');
        if (taken === 'quota') throw problem('APPLICATION_QUOTA_REACHED');
        const row = await repo.insertApplication({
          accountId: caller.accountId,
          createdBy: caller.id,
          name: input.name,
          nameKey,
          callbackUrl: input.callbackUrl,
          applicationType: input.applicationType,
          testnetSigning: input.testnetSigning,
          ...(input.roleName ? { roleName: input.roleName } : {}),
          clientId: newClientId(),
          signingServiceName: `${this.config.productSlug}-${input.applicationType}-signing`,
          signingKeyId: `key-${randomUUID()}`,
          signingPublicKey: key.publicKey,
          signingPrivateKey: this.box.seal(key.privateKey),
        });
        await repo.setNetworks(row.id, input.networkIds);
        await repo.insertSecret({ applicationId: row.id, secretHash: secret.hash, hint: secret.hint });
        await repo.announce('application.registered', {
          accountId: caller.accountId,
          userId: caller.id,
          applicationId: row.id,
          clientId: row.clientId,
          name: row.name,
          applicationType: row.applicationType,
        });
        const [view] = await this.views([row], repo);
        await within?.(repo, view!);
        return view!;
      }),
    );
    return { ...result, clientSecret: secret.secret };
  }

  async update(caller: PortalUser, input: UpdateInput): Promise<TApplication> {
    return onNameRace('APPLICATION_NAME_EXISTS', () =>
      this.repo.transaction(async (repo) => {
        const row = await repo.findApplication(caller.accountId, input.id, { forUpdate: true });
        if (!row) throw notFound('APPLICATION_NOT_FOUND');
        if (input.applicationType && input.applicationType !== row.applicationType) {
          throw fieldProblem('APPLICATION_TYPE_FIXED', 'applicationType');
        }
        await this.requireNetworks(repo, caller.accountId, row.applicationType, input.networkIds);
        const nameKey = input.name.toLowerCase();
        if (await repo.nameTaken(caller.accountId, nameKey, row.id)) {
          throw fieldProblem('APPLICATION_NAME_EXISTS', 'name');
        }
        await repo.updateApplication(row.id, {
          name: input.name,
          nameKey,
          callbackUrl: input.callbackUrl,
          testnetSigning: input.testnetSigning,
        });
        await repo.setNetworks(row.id, input.networkIds);
        const updated = await repo.findApplication(caller.accountId, row.id);
        const [view] = await this.views([updated!], repo);
        return view!;
      }),
    ).finally(() => this.onSecretsChanged(input.id));
  }

  async delete(caller: PortalUser, id: string): Promise<void> {
    await this.repo.transaction(async (repo) => {
      const row = await repo.findApplication(caller.accountId, id, { forUpdate: true });
      if (!row) throw notFound('APPLICATION_NOT_FOUND');
      await repo.deleteApplication(row.id);
      await repo.entitlements().release(caller.accountId, 'applications');
    });
    this.onSecretsChanged(id);
  }

  /**
   * Issues a new client secret. The secrets in use keep working for `gracePeriodMinutes` (their
   * callers move over meanwhile) and are refused after; 0 revokes them now.
   */
  async rotateSecret(caller: PortalUser, id: string, gracePeriodMinutes: number): Promise<TRotateSecretResponse> {
    const secret = newClientSecret();
    const application = await this.repo.transaction(async (repo) => {
      const row = await repo.findApplication(caller.accountId, id, { forUpdate: true });
      if (!row) throw notFound('APPLICATION_NOT_FOUND');
      const now = new Date();
      const graceEndsAt = gracePeriodMinutes > 0 ? new Date(now.getTime() + gracePeriodMinutes * 60_000) : null;
      await repo.retireSecrets(row.id, graceEndsAt, now);
      await repo.insertSecret({ applicationId: row.id, secretHash: secret.hash, hint: secret.hint });
      await repo.announce('application.secret_rotated', {
        accountId: caller.accountId,
        userId: caller.id,
        applicationId: row.id,
        graceEndsAt: graceEndsAt?.toISOString() ?? null,
      });
      const [view] = await this.views([row], repo);
      return view!;
    });
    this.onSecretsChanged(id);
    return { application, clientSecret: secret.secret };
  }

  /** Revokes one secret at once (e.g. the old one before its grace period ends). */
  async revokeSecret(caller: PortalUser, id: string, secretId: string): Promise<TApplication> {
    const view = await this.repo.transaction(async (repo) => {
      const row = await repo.findApplication(caller.accountId, id, { forUpdate: true });
      if (!row) throw notFound('APPLICATION_NOT_FOUND');
      const secret = await repo.findSecret(row.id, secretId);
      if (!secret) throw notFound('CLIENT_SECRET_NOT_FOUND');
      await repo.revokeSecret(row.id, secretId, new Date());
      const [result] = await this.views([row], repo);
      return result!;
    });
    this.onSecretsChanged(id);
    return view;
  }

  async keyIds(caller: PortalUser) {
    const rows = await this.repo.allApplications(caller.accountId);
    return {
      keyIds: rows.map((row) => ({
        applicationId: row.id,
        name: row.name,
        signingServiceName: row.signingServiceName,
        keyId: row.signingKeyId,
        publicKey: row.signingPublicKey,
      })),
    };
  }

  async usage(caller: PortalUser, id: string, days: number, now = new Date()): Promise<TApplicationUsage> {
    const row = await this.repo.findApplication(caller.accountId, id);
    if (!row) throw notFound('APPLICATION_NOT_FOUND');
    const to = utcDay(now);
    const from = utcDay(new Date(now.getTime() - (days - 1) * DAY_MS));
    const rows = await this.repo.usage(row.id, from, to);
    const byDay = new Map<string, number>();
    const byNetwork = new Map<string, { networkId: string; name: string; requests: number }>();
    for (const r of rows) {
      byDay.set(r.day, (byDay.get(r.day) ?? 0) + r.requests);
      const network = byNetwork.get(r.networkId) ?? { networkId: r.networkId, name: r.name, requests: 0 };
      network.requests += r.requests;
      byNetwork.set(r.networkId, network);
    }
    const series = Array.from({ length: days }, (_, i) => {
      const day = utcDay(new Date(Date.parse(`${from}T00:00:00Z`) + i * DAY_MS));
      return { day, requests: byDay.get(day) ?? 0 };
    });
    return {
      from,
      to,
      total: series.reduce((sum, d) => sum + d.requests, 0),
      days: series,
      networks: [...byNetwork.values()].sort((a, b) => b.requests - a.requests),
    };
  }

  /** Every chosen network must be activated by the account and of the application's type. */
  private async requireNetworks(
    repo: ApplicationRepository,
    accountId: string,
    type: ApplicationType,
    networkIds: string[],
  ): Promise<void> {
    if (!networkIds.length) {
      throw fieldProblem('NETWORKS_REQUIRED', 'networkIds');
    }
    const allowed = new Set((await repo.activatedNetworks(accountId, type)).map((n) => n.id));
    const refused = networkIds.findIndex((id) => !allowed.has(id));
    if (refused >= 0) {
      throw fieldProblem('APPLICATION_NETWORK_UNAVAILABLE', `networkIds.${refused}`);
    }
  }

  private async views(rows: ApplicationRow[], repo: ApplicationRepository = this.repo): Promise<TApplication[]> {
    const ids = rows.map((row) => row.id);
    const [networks, secrets, rateLimits] = await Promise.all([
      repo.networksOf(ids),
      repo.secretsOf(ids),
      repo.entitlements().rateLimits(rows.map((row) => row.accountId)),
    ]);
    const now = new Date();
    return rows.map((row) =>
      toApplication(
        row,
        networks.get(row.id) ?? [],
        secrets.get(row.id) ?? [],
        rateLimits.get(row.accountId) ?? 0,
        now,
      ),
    );
  }
}
