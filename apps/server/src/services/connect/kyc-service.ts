import type { FastifyBaseLogger } from 'fastify';
import {
  canStartKycCheck,
  FIELD_MESSAGES,
  KYC_MESSAGES,
  kycNameMatches,
  type KycFailureReason,
  type KycSandboxOutcome,
  type TCreateKycCheckRequest,
  type TKycCheck,
  type TKycStatusResponse,
  type TKycSdkToken,
} from '@connect/shared';
import { KycProviderError, type KycProvider, type ProviderCheck, type StoredCheck } from '../../adapters/kyc/port.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { badRequest, fieldProblem, notFound, problem, ProblemError } from '../../lib/errors.ts';
import type { PortalUser } from '../../lib/portal-users.ts';
import type { KycCheckRow, KycRepository } from './kyc-repository.ts';

/** How often a status read may ask Onfido about a pending check (webhooks are the fast path). */
const ONFIDO_POLL_INTERVAL_MS = 60_000;

/** The job that settles a sandbox check at its time (kyc-settle-job.ts). */
export const KYC_SETTLE_JOB = 'kyc-settle';

const providerUnavailable = () => problem('KYC_PROVIDER_UNREACHABLE');

function storedCheckOf(row: KycCheckRow): StoredCheck {
  return {
    checkId: row.checkId,
    createdAt: row.createdAt,
    sandboxOutcome: (row.sandboxOutcome as KycSandboxOutcome | null) ?? null,
    documentFirstName: row.documentFirstName,
    documentLastName: row.documentLastName,
  };
}

function toCheck(row: KycCheckRow): TKycCheck {
  return {
    id: row.id,
    status: row.status,
    provider: row.provider,
    reason: (row.reason as KycFailureReason | null) ?? null,
    documentFirstName: row.documentFirstName,
    documentLastName: row.documentLastName,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

declare module '../../types.ts' {
  interface Runtime {
    /** Identity checks: resumed at start-up (src/startup), a sandbox check settled by its job (kyc-settle-job.ts). */
    kyc?: Pick<KycService, 'resume' | 'settleDue'>;
  }
}

/**
 * Identity verification (spec §4, §5, §7): UNVERIFIED → PENDING → VERIFIED or FAILED, FAILED
 * may start again. A check's result arrives later — by Onfido's webhook, by asking Onfido on a
 * status read, or, for the sandbox, at a known time (a delayed job, kyc-settle-job.ts, so a
 * restart loses nothing) — and every path settles it through `settle`, which writes a result once. VERIFIED needs a clear result AND the document's names
 * equal to the profile's; the names are then locked (ConnectService.updateProfile).
 */
export class KycService {
  private readonly lastPolled = new Map<string, number>();

  constructor(
    private readonly repo: KycRepository,
    private readonly provider: KycProvider,
    private readonly jobs: Pick<JobQueue, 'send'>,
    private readonly log: FastifyBaseLogger,
    /**
     * False in production unless KYC_SANDBOX=on: there the sandbox would let anyone verify
     * themselves (and so reach mainnets), so without Onfido no check can start.
     */
    private readonly options: { sandboxAllowed: boolean } = { sandboxAllowed: true },
  ) {}

  private get isAvailable(): boolean {
    return !this.provider.isSandbox || this.options.sandboxAllowed;
  }

  private requireAvailable(): void {
    if (!this.isAvailable) {
      throw problem('KYC_UNAVAILABLE');
    }
  }

  /** The caller's status and latest check; a check whose result is due is settled first. */
  async status(caller: PortalUser): Promise<TKycStatusResponse> {
    const latest = await this.repo.latestCheck(caller.id);
    if (latest?.status === 'PENDING') await this.refresh(latest, { isStatusRead: true });
    return this.view(caller.id);
  }

  /**
   * GET /kyc/token: the applicant is created at the provider on first use (with the profile's
   * names, which the document will be compared with), then a short-lived SDK token is issued.
   */
  async sdkToken(caller: PortalUser): Promise<TKycSdkToken> {
    this.requireAvailable();
    const user = await this.requireNamedUser(caller.id);
    if (user.kycStatus === 'VERIFIED') throw problem('KYC_ALREADY_VERIFIED');
    const applicantId = await this.ensureApplicant(user);
    try {
      const { token } = await this.provider.sdkToken(applicantId);
      return {
        provider: this.provider.name,
        isSandbox: this.provider.isSandbox,
        applicantId,
        token,
        ...(this.provider.region ? { region: this.provider.region } : {}),
      };
    } catch (error) {
      throw this.providerFailure(error, 'sdk token');
    }
  }

  /** POST /kyc/create-check: starts a check; the user is PENDING until its result arrives. */
  async createCheck(caller: PortalUser, input: TCreateKycCheckRequest): Promise<TKycStatusResponse> {
    this.requireAvailable();
    const sandbox = input.sandbox;
    if (this.provider.isSandbox && !sandbox) {
      throw badRequest([
        { name: 'sandbox.documentFirstName', reason: FIELD_MESSAGES.required },
        { name: 'sandbox.documentLastName', reason: FIELD_MESSAGES.required },
        { name: 'sandbox.outcome', reason: FIELD_MESSAGES.required },
      ]);
    }
    if (!this.provider.isSandbox && sandbox) throw fieldProblem('KYC_SANDBOX_ONLY', 'sandbox');

    const user = await this.requireNamedUser(caller.id);
    if (!canStartKycCheck(user.kycStatus)) throw this.cannotStart(user.kycStatus);
    const applicantId = await this.ensureApplicant(user);

    // Claim the PENDING status first: of two concurrent requests only one starts a check.
    if (!(await this.repo.moveUserStatus(user.id, ['UNVERIFIED', 'FAILED'], 'PENDING'))) {
      const now = await this.repo.findUser(user.id);
      throw this.cannotStart(now?.kycStatus ?? 'PENDING');
    }
    let checkId: string;
    try {
      ({ checkId } = await this.provider.createCheck({ applicantId, ...(sandbox ? { sandbox } : {}) }));
    } catch (error) {
      await this.repo.moveUserStatus(user.id, ['PENDING'], user.kycStatus);
      throw this.providerFailure(error, 'create check');
    }
    const row = await this.repo.insertCheck({
      userId: user.id,
      provider: this.provider.name,
      checkId,
      documentFirstName: sandbox?.documentFirstName ?? null,
      documentLastName: sandbox?.documentLastName ?? null,
      sandboxOutcome: sandbox?.outcome ?? null,
    });
    await this.schedule(row);
    return this.view(user.id);
  }

  /**
   * POST /kyc/webhook: Onfido's delivery, accepted only with a valid `X-SHA2-Signature`. The event
   * says which check changed; its result is read from the API rather than trusted from the body.
   */
  async handleWebhook(rawBody: string, signature: string | undefined): Promise<{ received: true }> {
    const event = this.provider.verifyWebhook(rawBody, signature);
    if (!event) {
      throw problem('KYC_WEBHOOK_SIGNATURE');
    }
    if (event.resourceType === 'check' && event.checkId) {
      const row = await this.repo.findCheckByProviderId(this.provider.name, event.checkId);
      // A check this portal did not start (another integration on the same Onfido account): ignore.
      // When Onfido cannot be read right now, a 502 makes Onfido deliver the event again later.
      if (row?.status === 'PENDING') {
        await this.refresh(row, { isStatusRead: false }).catch((error: unknown) => {
          throw this.providerFailure(error, 'webhook');
        });
      }
    }
    return { received: true };
  }

  /**
   * At start-up: sandbox checks whose time passed while the server was down are settled now; the
   * others get their job (one sent before the restart is still queued: its key refuses a twin, and
   * sending starts this node's queue, whose worker takes it). Onfido checks wait for their webhook
   * or the next status read.
   */
  async resume(): Promise<void> {
    const pending = await this.repo.pendingChecks(this.provider.name);
    for (const row of pending) {
      const dueAt = this.provider.dueAt(storedCheckOf(row));
      if (dueAt && dueAt.getTime() <= Date.now()) await this.refresh(row, { isStatusRead: false });
      else await this.schedule(row);
    }
  }

  /**
   * The job (kyc-settle-job.ts): settles a pending check whose time has come. Throws while it is
   * not due (a job taken early, by a clock a little ahead), so pg-boss tries again.
   */
  async settleDue(checkId: string): Promise<void> {
    const row = await this.repo.findCheck(checkId);
    if (row?.status !== 'PENDING') return;
    const dueAt = row.provider === this.provider.name ? this.provider.dueAt(storedCheckOf(row)) : null;
    if (dueAt && dueAt.getTime() > Date.now()) {
      throw new Error(`Verification check ${checkId} is not due before ${dueAt.toISOString()}`);
    }
    await this.refresh(row, { isStatusRead: false });
  }

  /**
   * A check that settles at a known time (the sandbox) gets a job due then, one per check. Should
   * the queue refuse it, the check still settles on its user's next status read or at start-up.
   */
  private async schedule(row: KycCheckRow): Promise<void> {
    const dueAt = this.provider.dueAt(storedCheckOf(row));
    if (!dueAt) return;
    try {
      await this.jobs.send(KYC_SETTLE_JOB, { checkId: row.id }, { singletonKey: row.id, startAfter: dueAt });
    } catch (error) {
      this.log.error({ err: error, checkId: row.id }, 'could not queue the settling of a verification check');
    }
  }

  /** Asks the provider about a pending check and settles it when it has finished. */
  private async refresh(row: KycCheckRow, options: { isStatusRead: boolean }): Promise<void> {
    if (row.provider !== this.provider.name) {
      // The provider was switched (sandbox → Onfido) while this check was pending: nobody can
      // finish it any more, so it ends and the user may start again with the current provider.
      await this.settle(row, {
        status: 'FAILED',
        reason: 'CHECK_WITHDRAWN',
        documentFirstName: null,
        documentLastName: null,
      });
      return;
    }
    const stored = storedCheckOf(row);
    const dueAt = this.provider.dueAt(stored);
    if (dueAt && dueAt.getTime() > Date.now()) return;
    if (!dueAt && options.isStatusRead) {
      const last = this.lastPolled.get(row.id) ?? 0;
      if (Date.now() - last < ONFIDO_POLL_INTERVAL_MS) return;
      this.lastPolled.set(row.id, Date.now());
    }
    let result: ProviderCheck;
    try {
      result = await this.provider.retrieveCheck(stored);
    } catch (error) {
      // A status read still answers (the check stays PENDING); the next read or webhook retries.
      this.log.warn({ err: error, checkId: row.id }, 'could not read a verification check from the provider');
      if (!options.isStatusRead) throw error;
      return;
    }
    if (result.status === 'in_progress') return;
    this.lastPolled.delete(row.id);
    if (result.status === 'withdrawn') {
      await this.settle(row, {
        status: 'FAILED',
        reason: 'CHECK_WITHDRAWN',
        documentFirstName: null,
        documentLastName: null,
      });
      return;
    }
    await this.settle(row, {
      status: result.result === 'clear' ? 'VERIFIED' : 'FAILED',
      reason: result.result === 'clear' ? null : 'DOCUMENT_REJECTED',
      documentFirstName: result.documentFirstName,
      documentLastName: result.documentLastName,
    });
  }

  /**
   * Writes a check's result and the user's status together, under the user's row lock, and
   * announces identity.verified with them. A clear result becomes VERIFIED only when the
   * document's names equal the profile's as stored now (spec §5); otherwise FAILED with
   * NAME_MISMATCH, and the user may correct the profile and retry.
   */
  private async settle(
    row: KycCheckRow,
    outcome: { status: 'VERIFIED' | 'FAILED'; reason: KycFailureReason | null } & Pick<
      KycCheckRow,
      'documentFirstName' | 'documentLastName'
    >,
  ): Promise<void> {
    await this.repo.transaction(async (repo) => {
      const user = await repo.findUser(row.userId, { forUpdate: true });
      if (!user) return;
      let { status, reason } = outcome;
      if (
        status === 'VERIFIED' &&
        !(
          kycNameMatches(user.firstName, outcome.documentFirstName) &&
          kycNameMatches(user.lastName, outcome.documentLastName)
        )
      ) {
        status = 'FAILED';
        reason = 'NAME_MISMATCH';
      }
      const completed = await repo.completeCheck(row.id, {
        status,
        reason,
        documentFirstName: outcome.documentFirstName,
        documentLastName: outcome.documentLastName,
      });
      if (!completed) return;
      const latest = await repo.latestCheck(row.userId);
      if (latest?.id !== row.id) return;
      await repo.setUserStatus(row.userId, status);
      if (status === 'VERIFIED') {
        await repo.announce('identity.verified', { userId: user.id, accountId: user.accountId });
      }
    });
  }

  private async view(userId: string): Promise<TKycStatusResponse> {
    const [user, latest] = await Promise.all([this.repo.findUser(userId), this.repo.latestCheck(userId)]);
    return {
      status: user?.kycStatus ?? 'UNVERIFIED',
      provider: this.provider.name,
      isSandbox: this.provider.isSandbox,
      isAvailable: this.isAvailable,
      check: latest ? toCheck(latest) : null,
    };
  }

  /** The user, fresh, with both profile names: the applicant and the comparison need them. */
  private async requireNamedUser(userId: string) {
    const user = await this.repo.findUser(userId);
    // The row can vanish between authentication and here (an administrator removed the user).
    if (!user) throw notFound('USER_NOT_FOUND');
    if (!user.firstName || !user.lastName) {
      throw problem('KYC_NAMES_MISSING', {
        invalidParams: [
          ...(user.firstName ? [] : [{ name: 'firstName', reason: KYC_MESSAGES.namesMissing }]),
          ...(user.lastName ? [] : [{ name: 'lastName', reason: KYC_MESSAGES.namesMissing }]),
        ],
      });
    }
    return { ...user, firstName: user.firstName, lastName: user.lastName };
  }

  /** Applicants being created, per user: concurrent requests of this node share one. */
  private readonly applicantsInFlight = new Map<string, Promise<string>>();

  private ensureApplicant(user: { id: string; email: string; firstName: string; lastName: string }): Promise<string> {
    let pending = this.applicantsInFlight.get(user.id);
    if (!pending) {
      pending = this.findOrCreateApplicant(user).finally(() => this.applicantsInFlight.delete(user.id));
      this.applicantsInFlight.set(user.id, pending);
    }
    return pending;
  }

  private async findOrCreateApplicant(user: { id: string; email: string; firstName: string; lastName: string }) {
    const existing = await this.repo.findApplicant(user.id);
    if (existing && existing.provider === this.provider.name) return existing.applicantId;
    let created: string;
    try {
      ({ applicantId: created } = await this.provider.createApplicant({
        firstName: user.firstName,
        lastName: user.lastName,
        email: user.email,
      }));
    } catch (error) {
      throw this.providerFailure(error, 'create applicant');
    }
    const stored = await this.repo.saveApplicant(user.id, this.provider.name, created);
    if (stored.applicantId !== created) {
      // Another node created one at the same moment and stored it first: that one is used.
      this.log.warn(
        { userId: user.id, unused: created },
        'identity verification applicant created twice; one is unused',
      );
    }
    return stored.applicantId;
  }

  private cannotStart(status: string): ProblemError {
    return problem(status === 'VERIFIED' ? 'KYC_ALREADY_VERIFIED' : 'KYC_CHECK_IN_PROGRESS');
  }

  private providerFailure(error: unknown, step: string): Error {
    if (error instanceof ProblemError) return error;
    if (error instanceof KycProviderError) {
      this.log.error({ err: error, step }, 'identity verification provider failed');
      return providerUnavailable();
    }
    return error instanceof Error ? error : new Error(String(error));
  }
}
