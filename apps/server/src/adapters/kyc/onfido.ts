import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  KycProviderError,
  type KycProvider,
  type KycWebhookEvent,
  type ProviderCheck,
  type StoredCheck,
} from './port.ts';

export type OnfidoOptions = {
  apiToken: string;
  /** EU (default), US or CA: Onfido keeps each region's data apart, with its own API host. */
  region: string;
  /** The token Onfido signs webhook deliveries with (dashboard → Webhooks). */
  webhookToken: string | undefined;
  /** Replaces `https://api.<region>.onfido.com/v3.6` (tests, or an egress proxy). */
  baseUrl?: string;
  /** Where the SPA runs: SDK tokens are bound to this referrer. */
  referrer: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
};

/** The reports a check asks for: the identity document, and a selfie compared with its photo. */
export const ONFIDO_REPORT_NAMES = ['document', 'facial_similarity_photo'] as const;

const CHECK_STATUSES: Record<string, ProviderCheck['status']> = {
  in_progress: 'in_progress',
  awaiting_applicant: 'in_progress',
  paused: 'in_progress',
  reopened: 'in_progress',
  complete: 'complete',
  withdrawn: 'withdrawn',
};

type OnfidoCheck = { id: string; status: string; result: string | null };
type OnfidoReport = { name: string; properties?: { first_name?: string | null; last_name?: string | null } };

export function onfidoBaseUrl(region: string): string {
  return `https://api.${region.toLowerCase()}.onfido.com/v3.6`;
}

/** Hex HMAC-SHA256 of the raw body with the webhook token: Onfido's `X-SHA2-Signature`. */
export function onfidoSignature(rawBody: string, webhookToken: string): string {
  return createHmac('sha256', webhookToken).update(rawBody, 'utf8').digest('hex');
}

/**
 * Onfido API v3.6 over fetch (no SDK dependency: five calls). Documents and selfies are captured
 * in the browser by the Onfido web SDK with the token from `sdkToken`; this side creates the
 * applicant, starts the check and reads its result, and verifies webhook signatures.
 */
export class OnfidoKycProvider implements KycProvider {
  readonly name = 'onfido' as const;
  readonly isSandbox = false;
  readonly region: string;
  private readonly baseUrl: string;
  private readonly doFetch: typeof fetch;

  constructor(private readonly options: OnfidoOptions) {
    this.region = options.region.toUpperCase();
    this.baseUrl = (options.baseUrl ?? onfidoBaseUrl(options.region)).replace(/\/$/, '');
    this.doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  }

  async createApplicant(input: { firstName: string; lastName: string; email: string }) {
    const applicant = await this.request<{ id: string }>('POST', '/applicants', {
      first_name: input.firstName,
      last_name: input.lastName,
      email: input.email,
    });
    return { applicantId: applicant.id };
  }

  async sdkToken(applicantId: string) {
    const answer = await this.request<{ token: string }>('POST', '/sdk_token', {
      applicant_id: applicantId,
      referrer: this.options.referrer,
    });
    return { token: answer.token };
  }

  async createCheck(input: Parameters<KycProvider['createCheck']>[0]) {
    if (input.sandbox) throw new KycProviderError('Onfido takes the document from its SDK, not from the request', 422);
    const check = await this.request<OnfidoCheck>('POST', '/checks', {
      applicant_id: input.applicantId,
      report_names: ONFIDO_REPORT_NAMES,
    });
    return { checkId: check.id };
  }

  /** Onfido's results come by webhook or when asked; there is no known time to look again. */
  dueAt(): null {
    return null;
  }

  async retrieveCheck(stored: StoredCheck): Promise<ProviderCheck> {
    const id = encodeURIComponent(stored.checkId);
    const check = await this.request<OnfidoCheck>('GET', `/checks/${id}`);
    const status = CHECK_STATUSES[check.status] ?? 'in_progress';
    const result = check.result === 'clear' || check.result === 'consider' ? check.result : null;
    if (status !== 'complete') {
      return { checkId: check.id, status, result, documentFirstName: null, documentLastName: null };
    }
    // The names printed on the document are in the document report's extracted properties.
    const { reports } = await this.request<{ reports: OnfidoReport[] }>('GET', `/reports?check_id=${id}`);
    const document = reports.find((report) => report.name === 'document');
    return {
      checkId: check.id,
      status,
      result,
      documentFirstName: document?.properties?.first_name ?? null,
      documentLastName: document?.properties?.last_name ?? null,
    };
  }

  verifyWebhook(rawBody: string, signature: string | undefined): KycWebhookEvent | null {
    const token = this.options.webhookToken;
    if (!token || !signature) return null;
    const expected = Buffer.from(onfidoSignature(rawBody, token), 'hex');
    const given = Buffer.from(signature.trim().toLowerCase(), 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch {
      return null;
    }
    const payload = (body as { payload?: { resource_type?: unknown; action?: unknown; object?: { id?: unknown } } })
      .payload;
    if (!payload || typeof payload.action !== 'string') return null;
    return {
      action: payload.action,
      resourceType: typeof payload.resource_type === 'string' ? payload.resource_type : '',
      checkId: typeof payload.object?.id === 'string' ? payload.object.id : null,
    };
  }

  private async request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await this.doFetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Token token=${this.options.apiToken}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
      });
    } catch (error) {
      throw new KycProviderError(`Onfido ${method} ${path} failed: ${(error as Error).message}`);
    }
    const text = await response.text();
    if (!response.ok) {
      // Onfido's error body names the field at fault; it is logged, never shown to users.
      throw new KycProviderError(
        `Onfido ${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`,
        response.status,
      );
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new KycProviderError(`Onfido ${method} ${path} answered a body that is not JSON`, response.status);
    }
  }
}
