import type { KycProviderName, KycSandboxOutcome } from '@connect/shared';

/** A check as the provider reports it. `documentFirstName`/`LastName` come from the document report. */
export type ProviderCheck = {
  checkId: string;
  /** `in_progress` until every report is done; `withdrawn` when the provider cancelled it. */
  status: 'in_progress' | 'complete' | 'withdrawn';
  /** The overall result once complete: `clear` passes, `consider` needs a human (treated as failed). */
  result: 'clear' | 'consider' | null;
  documentFirstName: string | null;
  documentLastName: string | null;
};

/**
 * What the service stored when the check was created. The sandbox keeps no state of its own (the
 * database is its memory, so a restart loses nothing); Onfido needs only the id.
 */
export type StoredCheck = {
  checkId: string;
  createdAt: Date;
  sandboxOutcome: KycSandboxOutcome | null;
  documentFirstName: string | null;
  documentLastName: string | null;
};

/** A verified webhook delivery: which check changed. */
export type KycWebhookEvent = { action: string; resourceType: string; checkId: string | null };

export type SandboxCheckInput = {
  documentFirstName: string;
  documentLastName: string;
  outcome: KycSandboxOutcome;
};

/**
 * Identity verification (spec §4, §7): an applicant per user, a short-lived SDK token for the
 * browser's capture, a check with document and facial reports, and its asynchronous result.
 * Two implementations: Onfido API v3.6 (onfido.ts) and the embedded sandbox (sandbox.ts).
 */
export interface KycProvider {
  readonly name: KycProviderName;
  readonly isSandbox: boolean;
  /** Onfido's data region (EU, US, CA); undefined for the sandbox. */
  readonly region: string | undefined;
  createApplicant(input: { firstName: string; lastName: string; email: string }): Promise<{ applicantId: string }>;
  sdkToken(applicantId: string): Promise<{ token: string }>;
  /** Starts a check. `sandbox` carries the tester's document names and outcome; Onfido refuses it. */
  createCheck(input: { applicantId: string; sandbox?: SandboxCheckInput }): Promise<{ checkId: string }>;
  retrieveCheck(check: StoredCheck): Promise<ProviderCheck>;
  /** When a pending check may be looked at again (the sandbox settles at a known time). */
  dueAt(check: StoredCheck): Date | null;
  /**
   * Checks a webhook delivery's signature over the raw body; the parsed event, or null when the
   * signature is missing or wrong (or the provider sends no webhooks).
   */
  verifyWebhook(rawBody: string, signature: string | undefined): KycWebhookEvent | null;
}

/** The provider answered something unexpected (network failure, 4xx/5xx); never shown verbatim. */
export class KycProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'KycProviderError';
  }
}
