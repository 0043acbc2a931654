import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ZCatalogueName, ZCatalogueQuery, ZProblem, ZProductCatalogue, ZProductPage } from '@connect/shared';
import { problem } from '../../lib/errors.ts';
import type { App, Deps } from '../../types.ts';
import { productCatalogue, PRODUCTS, type CatalogueDocument } from './product-catalogue.ts';

/**
 * The product catalogue (spec §7 "Product catalogue"): `GET /jsons/products.json` and
 * `GET /jsons/{name}.json`, on the site's own origin (every node, beside the SPA and its runtime
 * configuration), behind HTTP basic authentication with the configured credentials
 * (PRODUCT_CATALOGUE_USER, PRODUCT_CATALOGUE_PASSWORD).
 *
 * The SPA is given those credentials in /runtime-config.json, so every browser has them: they
 * protect nothing, and the content is kept public-safe. The check exists because the spec pins it
 * and keeps casual crawlers out (docs/decisions/shell-and-web.md "The product catalogue").
 */

export const CATALOGUE_REALM = 'product-catalogue';
const CHALLENGE = `Basic realm="${CATALOGUE_REALM}", charset="UTF-8"`;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether an Authorization header carries the configured credentials. Compared as SHA-256 digests
 * with timingSafeEqual: equal lengths whatever was sent, and no early exit on the first byte.
 */
export function hasCatalogueCredentials(
  header: string | undefined,
  expected: { username: string; password: string },
): boolean {
  const match = /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header ?? '');
  const given = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  return timingSafeEqual(sha256(given), sha256(`${expected.username}:${expected.password}`)) && match !== null;
}

/** Whether If-None-Match names the current copy (RFC 9110 §13.1.2: weak comparison, a list, or `*`). */
function isCurrent(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

function send(request: FastifyRequest, reply: FastifyReply, document: CatalogueDocument) {
  // Revalidated on every use (a 304 when unchanged): a release's new content is read at once.
  reply.header('etag', document.etag).header('cache-control', 'private, no-cache');
  if (isCurrent(request.headers['if-none-match'], document.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(document.body);
}

const ETAG = { type: 'string', description: 'A strong validator of the content; send it back in `If-None-Match`.' };
const documented = (schema: z.ZodType, description: string) => ({
  200: { description, headers: { ETag: ETAG }, content: { 'application/json': { schema } } },
  304: z.null().describe('Not Modified: the copy named by `If-None-Match` is current (no body)'),
  401: {
    description: 'No credentials or wrong ones (`CATALOGUE_CREDENTIALS_REQUIRED`)',
    headers: { 'WWW-Authenticate': { type: 'string', description: `\`${CHALLENGE}\`` } },
    content: { 'application/problem+json': { schema: ZProblem } },
  },
  '4xx': ZProblem,
});

const docs = {
  tags: ['product-catalogue'],
  security: [{ catalogueBasic: [] }],
  querystring: ZCatalogueQuery,
};

export async function catalogueRoutes(app: App, deps: Deps) {
  const { documents } = productCatalogue();
  const credentials = deps.config.productCatalogue;

  // Before the request is validated: a caller without the credentials learns nothing, not even
  // whether a name is well formed.
  app.addHook('onRequest', async (request, reply) => {
    if (hasCatalogueCredentials(request.headers.authorization, credentials)) return;
    reply.header('www-authenticate', CHALLENGE).header('cache-control', 'no-store');
    throw problem('CATALOGUE_CREDENTIALS_REQUIRED');
  });

  app.get(
    `/${PRODUCTS}.json`,
    {
      config: { access: 'public' },
      schema: {
        ...docs,
        summary: 'The product catalogue: every product, in display order',
        description:
          'The portal’s product areas and the token use cases (spec §2.5), each with its title, summary, icon, portal path (`{product}` stands for the product slug), the account feature it needs, its token type and its place in the dashboard’s features list. Public-safe content behind basic authentication whose credentials the SPA is given.',
        response: documented(ZProductCatalogue, 'The product catalogue'),
      },
    },
    async (request, reply) => send(request, reply, documents.get(PRODUCTS)!),
  );

  app.get(
    '/:name.json',
    {
      config: { access: 'public' },
      schema: {
        ...docs,
        summary: 'One product’s page (the token use-case pages)',
        params: z.object({ name: ZCatalogueName.describe('The product’s `name` in products.json.') }),
        response: documented(ZProductPage, 'The product’s page'),
      },
    },
    async (request, reply) => {
      const document = request.params.name === PRODUCTS ? undefined : documents.get(request.params.name);
      if (!document)
        throw problem('CATALOGUE_PRODUCT_NOT_FOUND', { detail: `There is no product ${request.params.name}.` });
      return send(request, reply, document);
    },
  );
}
