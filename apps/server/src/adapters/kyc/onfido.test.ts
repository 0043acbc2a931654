import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KycProviderError } from './port.ts';
import { OnfidoKycProvider, onfidoBaseUrl, onfidoSignature } from './onfido.ts';
import { FakeOnfido } from './testing/fake-onfido.ts';

const stored = (checkId: string) => ({
  checkId,
  createdAt: new Date(),
  sandboxOutcome: null,
  documentFirstName: null,
  documentLastName: null,
});

describe('Onfido adapter (API v3.6) against a local fake', () => {
  const fake = new FakeOnfido('api_sandbox.test-token');
  let onfido: OnfidoKycProvider;
  beforeAll(async () => {
    await fake.start();
    onfido = new OnfidoKycProvider({
      apiToken: 'api_sandbox.test-token',
      region: 'eu',
      webhookToken: 'webhook-secret',
      baseUrl: fake.baseUrl,
      referrer: 'https://connect.example.com/*',
    });
  });
  afterAll(() => fake.stop());

  it('uses the regional v3.6 host by default', () => {
    expect(onfidoBaseUrl('EU')).toBe('https://api.eu.onfido.com/v3.6');
    expect(onfidoBaseUrl('us')).toBe('https://api.us.onfido.com/v3.6');
    expect(new OnfidoKycProvider({ apiToken: 't', region: 'ca', webhookToken: undefined, referrer: '*' }).region).toBe(
      'CA',
    );
  });

  it('creates an applicant, an SDK token and a check with the document and facial reports', async () => {
    const { applicantId } = await onfido.createApplicant({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
    });
    const { token } = await onfido.sdkToken(applicantId);
    const { checkId } = await onfido.createCheck({ applicantId });

    expect(token).toMatch(new RegExp(`^sdk\\.${applicantId}\\.`));
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v3.6/applicants',
      'POST /v3.6/sdk_token',
      'POST /v3.6/checks',
    ]);
    for (const request of fake.requests) {
      expect(request.authorization).toBe('Token token=api_sandbox.test-token');
      expect(request.contentType).toBe('application/json');
    }
    expect(fake.requests[0]!.body).toEqual({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
    expect(fake.requests[1]!.body).toEqual({ applicant_id: applicantId, referrer: 'https://connect.example.com/*' });
    expect(fake.requests[2]!.body).toEqual({
      applicant_id: applicantId,
      report_names: ['document', 'facial_similarity_photo'],
    });
    expect(fake.checks.get(checkId)?.applicant_id).toBe(applicantId);
  });

  it('reports a check in progress, then its result with the names from the document report', async () => {
    const { applicantId } = await onfido.createApplicant({ firstName: 'Ada', lastName: 'Lovelace', email: 'a@b.c' });
    const { checkId } = await onfido.createCheck({ applicantId });
    expect(await onfido.retrieveCheck(stored(checkId))).toEqual({
      checkId,
      status: 'in_progress',
      result: null,
      documentFirstName: null,
      documentLastName: null,
    });

    fake.complete(checkId, { result: 'clear', firstName: 'ADA', lastName: 'LOVELACE' });
    fake.requests.length = 0;
    expect(await onfido.retrieveCheck(stored(checkId))).toEqual({
      checkId,
      status: 'complete',
      result: 'clear',
      documentFirstName: 'ADA',
      documentLastName: 'LOVELACE',
    });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v3.6/checks/${checkId}`,
      `GET /v3.6/reports?check_id=${checkId}`,
    ]);
  });

  it('refuses sandbox input: Onfido reads the document from its SDK upload', async () => {
    await expect(
      onfido.createCheck({
        applicantId: 'x',
        sandbox: { documentFirstName: 'A', documentLastName: 'B', outcome: 'clear' },
      }),
    ).rejects.toBeInstanceOf(KycProviderError);
  });

  it('turns Onfido errors and a wrong token into a provider error with the status', async () => {
    const wrong = new OnfidoKycProvider({
      apiToken: 'wrong',
      region: 'EU',
      webhookToken: undefined,
      baseUrl: fake.baseUrl,
      referrer: '*',
    });
    await expect(wrong.createApplicant({ firstName: 'A', lastName: 'B', email: 'c@d.e' })).rejects.toMatchObject({
      name: 'KycProviderError',
      status: 401,
    });
    fake.failWith = 503;
    try {
      await expect(onfido.sdkToken('anything')).rejects.toMatchObject({ status: 503 });
    } finally {
      fake.failWith = undefined;
    }
    const unreachable = new OnfidoKycProvider({
      apiToken: 't',
      region: 'EU',
      webhookToken: undefined,
      baseUrl: 'http://127.0.0.1:9/v3.6',
      referrer: '*',
    });
    await expect(unreachable.sdkToken('x')).rejects.toBeInstanceOf(KycProviderError);
  });

  describe('webhook signatures (X-SHA2-Signature)', () => {
    const body = JSON.stringify({
      payload: {
        resource_type: 'check',
        action: 'check.completed',
        object: { id: 'check-1', status: 'complete', href: 'https://api.eu.onfido.com/v3.6/checks/check-1' },
      },
    });

    it('accepts the HMAC-SHA256 of the raw body with the webhook token', () => {
      const signature = onfidoSignature(body, 'webhook-secret');
      expect(signature).toMatch(/^[0-9a-f]{64}$/);
      expect(onfido.verifyWebhook(body, signature)).toEqual({
        action: 'check.completed',
        resourceType: 'check',
        checkId: 'check-1',
      });
      expect(onfido.verifyWebhook(body, signature.toUpperCase())).not.toBeNull();
    });

    it('refuses a missing, wrong or other-token signature, and a changed body', () => {
      expect(onfido.verifyWebhook(body, undefined)).toBeNull();
      expect(onfido.verifyWebhook(body, 'not-hex')).toBeNull();
      expect(onfido.verifyWebhook(body, onfidoSignature(body, 'another-secret'))).toBeNull();
      expect(onfido.verifyWebhook(`${body} `, onfidoSignature(body, 'webhook-secret'))).toBeNull();
    });

    it('refuses every delivery when no webhook token is configured', () => {
      const noToken = new OnfidoKycProvider({ apiToken: 't', region: 'EU', webhookToken: undefined, referrer: '*' });
      expect(noToken.verifyWebhook(body, onfidoSignature(body, 'webhook-secret'))).toBeNull();
    });
  });
});
