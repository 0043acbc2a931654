import { z } from 'zod';
import { ZCreateKycCheckRequest, ZKycStatusResponse, ZKycSdkToken, ZProblem } from '@connect/shared';
import type { App, Deps } from '../../types.ts';
import { KycRepository } from './kyc-repository.ts';
import { KycService } from './kyc-service.ts';
import { callerOf } from '../../lib/caller.ts';

const docs = { tags: ['connect'], security: [{ bearerAuth: [] }] };
const problems = { '4xx': ZProblem, '5xx': ZProblem };

/** Identity verification (spec §7 GET /kyc/token, POST /kyc/create-check; plus status and webhook). */
export async function kycRoutes(app: App, deps: Deps) {
  const service = new KycService(new KycRepository(deps.db, deps.events), deps.kyc, deps.jobs, app.log, {
    sandboxAllowed: deps.config.kyc.sandboxAllowed,
  });
  // Its checks left pending by a previous run are resumed by the start-up work (src/startup); a
  // sandbox check settles by its job (kyc-settle-job.ts).
  deps.runtime.kyc = service;

  app.get(
    '/kyc/token',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'An SDK token for identity verification',
        description:
          'Creates the caller’s applicant at the provider on first use (with the profile’s first and last name), then issues a short-lived SDK token for the Onfido web SDK. `provider`/`isSandbox` say whether the embedded sandbox answers. 400 when the profile has no first or last name; 409 when already verified.',
        response: { 200: ZKycSdkToken, ...problems },
      },
    },
    async (request) => service.sdkToken(callerOf(request)),
  );

  app.post(
    '/kyc/create-check',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Start an identity verification check',
        description:
          'Starts a check with the document and facial similarity reports; the caller’s onfidoApplicantStatus becomes PENDING (about 24 hours with Onfido). Allowed from UNVERIFIED and FAILED (retry); 409 while PENDING or once VERIFIED. The sandbox needs `sandbox` (the names on the document and the chosen outcome); Onfido refuses it.',
        body: ZCreateKycCheckRequest,
        response: { 200: ZKycStatusResponse, ...problems },
      },
    },
    async (request) => service.createCheck(callerOf(request), request.body),
  );

  app.get(
    '/kyc/status',
    {
      // Reading the status can settle a check whose result is due, which changes the user.
      config: { access: 'user', refreshesUser: true },
      schema: {
        ...docs,
        summary: 'The caller’s identity verification status and latest check',
        description:
          'Settles the latest check first when its result is due (sandbox) or available (Onfido, asked at most once a minute), so a restart never leaves a check PENDING for ever.',
        response: { 200: ZKycStatusResponse, ...problems },
      },
    },
    async (request) => service.status(callerOf(request)),
  );

  // The webhook needs the body exactly as sent (the signature is over its bytes), so this scope
  // keeps JSON as a string.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.post(
      '/kyc/webhook',
      {
        config: { access: 'public' },
        schema: {
          tags: ['connect'],
          summary: 'Onfido webhook (check.completed)',
          description:
            'Accepted only with a valid `X-SHA2-Signature` (hex HMAC-SHA256 of the raw body with ONFIDO_WEBHOOK_TOKEN); otherwise 401. The check’s result is then read from the Onfido API.',
          headers: z.object({ 'x-sha2-signature': z.string().max(200).optional() }),
          response: { 200: z.object({ received: z.literal(true) }), ...problems },
        },
      },
      async (request) =>
        service.handleWebhook(
          typeof request.body === 'string' ? request.body : '',
          [request.headers['x-sha2-signature']].flat()[0],
        ),
    );
  });
}
