import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  ORGANISATION_SEARCH,
  organisationStaticData,
  ZOrganisationSearchQuery,
  ZOrganisationSearchResponse,
  ZOrganisationStaticData,
  ZProblem,
} from '@connect/shared';
import type { App, Deps } from '../../types.ts';
import { ConnectRepository } from './repository.ts';

const docs = { tags: ['connect'], security: [{ bearerAuth: [] }] };
const problems = { '4xx': ZProblem };

/** How many organisation searches one address may send a minute (typing is debounced: one per pause). */
export const ORGANISATION_SEARCHES_PER_MINUTE = 120;

/**
 * The organisation lists and the organisation search (spec §7: GET /static-data/organisations,
 * GET /organisations; issue 35 §2). Both need a signed-in user only — the /user-details form
 * uses them before the profile is complete.
 */
export async function organisationRoutes(app: App, deps: Deps) {
  const repo = new ConnectRepository(deps.db);
  // The lists change only with a release: one body and one entity tag for the process's life.
  const staticData = organisationStaticData();
  const etag = `"${createHash('sha256').update(JSON.stringify(staticData)).digest('base64url').slice(0, 27)}"`;

  app.get(
    '/static-data/organisations',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'The lists of the profile and onboarding forms: industries, company sizes, how they heard about us',
        description:
          'The values the profile schemas accept (labels are the client’s). No organisation types: the user has no such field (spec §3). Cached for an hour (Cache-Control) and tagged (ETag): a request with a matching If-None-Match answers 304 without a body.',
        response: { 200: ZOrganisationStaticData, 304: z.null().describe('Not modified'), ...problems },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, max-age=3600').header('etag', etag);
      if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send(null);
      return staticData;
    },
  );

  app.get(
    '/organisations',
    {
      config: {
        access: 'user',
        rateLimit: { max: ORGANISATION_SEARCHES_PER_MINUTE, timeWindow: '1 minute' },
      },
      schema: {
        ...docs,
        summary: 'Search the organisations already registered (for the organisation name autocomplete)',
        description: `Organisation names of live customer accounts that contain \`search\` (${ORGANISATION_SEARCH.minLength}–${ORGANISATION_SEARCH.maxLength} characters; with ${ORGANISATION_SEARCH.minLength} only names starting with it), ignoring case: one entry per name, those starting with the term first, at most ${ORGANISATION_SEARCH.limit}. Names only — no account ids, locations or people. At most ${ORGANISATION_SEARCHES_PER_MINUTE} searches a minute from one address (429).`,
        querystring: ZOrganisationSearchQuery,
        response: { 200: ZOrganisationSearchResponse, ...problems },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, max-age=60');
      const names = await repo.searchOrganisations(request.query.search, ORGANISATION_SEARCH.limit);
      return { organisations: names.map((name) => ({ name })) };
    },
  );
}

/** If-None-Match holds the tag (or `*`); weak tags compare equal too (RFC 9110 §13.1.2). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value.replace(/^W\//, '') === etag;
  });
}
