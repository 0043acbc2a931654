import { z } from 'zod';
import { FEATURES } from './constants.ts';
import { TOKEN_TYPES } from './tokens/constants.ts';

/**
 * The product catalogue (spec §7 "Product catalogue"): `GET /jsons/products.json` and
 * `GET /jsons/{name}.json`, served from the site's own origin behind HTTP basic authentication.
 * The content is kept in the repository (apps/server/src/services/connect/catalogue/) and is
 * public-safe: the credentials the SPA sends reach every browser (docs/decisions/shell-and-web.md
 * "The product catalogue").
 */

/** A product's name: the `{name}` of `/jsons/{name}.json` (lower case, digits and hyphens; never a path). */
export const CATALOGUE_NAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
export const ZCatalogueName = z
  .string()
  .regex(CATALOGUE_NAME_PATTERN, 'A product name is lower case letters, digits and hyphens.');

/** Where a product shows: a product area of the portal, or a use case of the token flow (spec §2.5 tiles). */
export const CATALOGUE_AREAS = ['product-area', 'token-use-case'] as const;

export const ZCatalogueProduct = z
  .object({
    name: ZCatalogueName,
    area: z.enum(CATALOGUE_AREAS),
    title: z.string().min(1),
    summary: z.string().min(1),
    /** A Material Symbols name (`token`, `payments`); the SPA draws a generic icon for one it does not know. */
    icon: z.string().min(1),
    /** The portal path it opens; `{product}` stands for the product slug (`/{product}-flows/token-flow`). */
    path: z.string().regex(/^\/[a-z0-9{}/-]*$/, 'A portal path.'),
    /** The account feature it needs (spec §6): shown only to accounts that have it. */
    feature: z.enum(FEATURES).nullable(),
    /** The token type a use case deploys (spec §9: QRC20 fungible, QRC721 non-fungible). */
    tokenType: z.enum(TOKEN_TYPES).nullable(),
    /** Its place in the dashboard's features list (smaller first); null: not listed there. */
    dashboardOrder: z.number().int().nullable(),
    /** Whether `/jsons/{name}.json` holds its page. */
    hasPage: z.boolean(),
  })
  .meta({ id: 'CatalogueProduct' });
export type TCatalogueProduct = z.infer<typeof ZCatalogueProduct>;

/** `GET /jsons/products.json`: every product, in display order. */
export const ZProductCatalogue = z.object({ products: z.array(ZCatalogueProduct) }).meta({ id: 'ProductCatalogue' });
export type TProductCatalogue = z.infer<typeof ZProductCatalogue>;

/** `GET /jsons/{name}.json`: a product's page (the token use-case pages of spec §2.3). */
export const ZProductPage = z
  .object({
    name: ZCatalogueName,
    heading: z.string().min(1),
    description: z.string().min(1),
    tokenType: z.enum(TOKEN_TYPES).nullable(),
    /** What it is good for, one sentence each. */
    points: z.array(z.string().min(1)).min(1),
    /** How to start. */
    how: z.string().min(1),
  })
  .meta({ id: 'ProductPage' });
export type TProductPage = z.infer<typeof ZProductPage>;

/** The catalogue's query: `v`, the SPA's version, so that a new release never reads an older copy from a cache. */
export const ZCatalogueQuery = z.object({
  v: z.string().max(64).optional().describe('Any value (the SPA sends its version); the answer does not depend on it.'),
});

/** A product path with the product slug in place of `{product}`. */
export function catalogueHref(path: string, productSlug: string): string {
  return path.replaceAll('{product}', productSlug);
}
