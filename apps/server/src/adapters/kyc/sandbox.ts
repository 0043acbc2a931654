import { randomBytes, randomUUID } from 'node:crypto';
import { KycProviderError, type KycProvider, type ProviderCheck, type StoredCheck } from './port.ts';

/**
 * The embedded verifier used when Onfido is not configured. It follows Onfido's lifecycle —
 * applicant, SDK token, check, result some time later — but has no document capture: the tester
 * types the names "printed on the document" and chooses the outcome (`clear` or `consider`),
 * which the check reports once `delayMs` has passed since it was created. It keeps no state of its
 * own: the result is derived from what the service stored with the check, so a restart loses
 * nothing. The UI labels it "Sandbox".
 */
export class SandboxKycProvider implements KycProvider {
  readonly name = 'sandbox' as const;
  readonly isSandbox = true;
  readonly region = undefined;

  constructor(
    private readonly delayMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async createApplicant(): Promise<{ applicantId: string }> {
    return { applicantId: `sandbox-applicant-${randomUUID()}` };
  }

  async sdkToken(applicantId: string): Promise<{ token: string }> {
    if (!applicantId.startsWith('sandbox-applicant-')) throw new KycProviderError('Unknown sandbox applicant', 404);
    return { token: `sandbox-sdk-${randomBytes(24).toString('base64url')}` };
  }

  async createCheck(input: Parameters<KycProvider['createCheck']>[0]): Promise<{ checkId: string }> {
    if (!input.applicantId.startsWith('sandbox-applicant-')) {
      throw new KycProviderError('Unknown sandbox applicant', 404);
    }
    // The service validates the request first; this only keeps the contract honest.
    if (!input.sandbox) throw new KycProviderError('The sandbox needs the document names and an outcome', 422);
    return { checkId: `sandbox-check-${randomUUID()}` };
  }

  dueAt(check: StoredCheck): Date {
    return new Date(check.createdAt.getTime() + this.delayMs);
  }

  async retrieveCheck(check: StoredCheck): Promise<ProviderCheck> {
    if (this.now() < this.dueAt(check).getTime() || !check.sandboxOutcome) {
      return {
        checkId: check.checkId,
        status: 'in_progress',
        result: null,
        documentFirstName: null,
        documentLastName: null,
      };
    }
    return {
      checkId: check.checkId,
      status: 'complete',
      result: check.sandboxOutcome,
      documentFirstName: check.documentFirstName,
      documentLastName: check.documentLastName,
    };
  }

  /** The sandbox never calls back: its checks settle by time (a delayed job: services/connect/kyc-settle-job.ts). */
  verifyWebhook(): null {
    return null;
  }
}
