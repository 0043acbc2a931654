import { ZContactAuthoriseRequest, ZContactReceipt, ZContactUsRequest, ZProblem } from '@connect/shared';
import type { App, Deps } from '../../types.ts';
import { ContactRepository } from './contact-repository.ts';
import { ContactService } from './contact-service.ts';
import { callerOf } from '../../lib/caller.ts';

const docs = { tags: ['connect'], security: [{ bearerAuth: [] }] };
const problems = { '4xx': ZProblem };

/** Support and authorise enquiries (POST /contact-us-form, POST /contact-us-authorise). */
export async function contactRoutes(app: App, deps: Deps) {
  const service = new ContactService(new ContactRepository(deps.db), deps.mailer, deps.config);

  app.post(
    '/contact-us-form',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Send a support enquiry',
        description:
          'Stores the enquiry with the caller’s user id and emails the support team. The answer carries a short reference the customer can quote.',
        body: ZContactUsRequest,
        response: { 200: ZContactReceipt, ...problems },
      },
    },
    async (request) => service.submitSupport(callerOf(request), request.body),
  );

  app.post(
    '/contact-us-authorise',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Ask about the authorise product',
        description: 'Stores the enquiry with the caller’s user id and emails the team. Answers a short reference.',
        body: ZContactAuthoriseRequest,
        response: { 200: ZContactReceipt, ...problems },
      },
    },
    async (request) => service.submitAuthorise(callerOf(request), request.body),
  );
}
