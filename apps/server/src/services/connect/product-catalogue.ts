import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import {
  catalogueHref,
  CATALOGUE_NAME_PATTERN,
  isFeatureAvailable,
  ZProductCatalogue,
  ZProductPage,
  type TAvailableFeatures,
  type TContentFeature,
  type TProductCatalogue,
} from '@connect/shared';

/**
 * The product catalogue (spec §7): the JSON files of `catalogue/` beside this file, kept in the
 * repository and public-safe (docs/decisions/shell-and-web.md "The product catalogue"). Read and
 * checked once per process: a file that does not fit its schema, a product whose page is missing
 * or a page no product names refuses the start, naming it, rather than answering it broken.
 */

/** One answer of `/jsons`: the file's content as its schema reads it, and its strong ETag. */
export type CatalogueDocument = { body: string; etag: string };

export type ProductCatalogue = {
  catalogue: TProductCatalogue;
  /** `products` and every product page, by name. */
  documents: ReadonlyMap<string, CatalogueDocument>;
};

export const CATALOGUE_DIR = path.join(import.meta.dirname, 'catalogue');
/** The file listing the products; every other file is one product's page. */
export const PRODUCTS = 'products';

function documentOf(value: unknown): CatalogueDocument {
  const body = JSON.stringify(value);
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` };
}

function readJson(dir: string, file: string): unknown {
  try {
    return JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
  } catch (error) {
    throw new Error(`The product catalogue's ${file} could not be read: ${(error as Error).message}`);
  }
}

function parsed<T>(file: string, result: z.ZodSafeParseResult<T>): T {
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new Error(`The product catalogue's ${file} does not fit its schema: ${issues.join('; ')}`);
}

/** Reads and checks the catalogue of `dir`; throws an Error naming the first file or product that is wrong. */
export function loadProductCatalogue(dir: string = CATALOGUE_DIR): ProductCatalogue {
  const files = readdirSync(dir).filter((file) => file.endsWith('.json'));
  const catalogue = parsed(`${PRODUCTS}.json`, ZProductCatalogue.safeParse(readJson(dir, `${PRODUCTS}.json`)));
  const documents = new Map<string, CatalogueDocument>([[PRODUCTS, documentOf(catalogue)]]);
  const names = new Set<string>();
  for (const product of catalogue.products) {
    if (product.name === PRODUCTS || names.has(product.name)) {
      throw new Error(`The product catalogue names the product ${product.name} twice (or names it products).`);
    }
    names.add(product.name);
    const file = `${product.name}.json`;
    if (!product.hasPage) continue;
    if (!files.includes(file))
      throw new Error(`The product catalogue's ${product.name} has a page but ${file} is missing.`);
    const page = parsed(file, ZProductPage.safeParse(readJson(dir, file)));
    if (page.name !== product.name || page.tokenType !== product.tokenType) {
      throw new Error(`The product catalogue's ${file} names another product or token type than products.json.`);
    }
    documents.set(product.name, documentOf(page));
  }
  const strays = files.filter((file) => !documents.has(file.slice(0, -'.json'.length)));
  if (strays.length) throw new Error(`The product catalogue's ${strays.join(', ')} belong to no product with a page.`);
  for (const name of documents.keys()) {
    if (!CATALOGUE_NAME_PATTERN.test(name)) throw new Error(`The product catalogue's ${name} is not a product name.`);
  }
  return { catalogue, documents };
}

let loaded: ProductCatalogue | undefined;

/** The repository's catalogue, read once per process (the files change only with a release). */
export function productCatalogue(): ProductCatalogue {
  loaded ??= loadProductCatalogue();
  return loaded;
}

/**
 * The dashboard's features list (`GET /content/features`, spec §2.3): the catalogue's products
 * that have a dashboard place, by it, without those that need a feature the account lacks.
 */
export function dashboardFeatures(
  catalogue: TProductCatalogue,
  productSlug: string,
  features: TAvailableFeatures,
): TContentFeature[] {
  return catalogue.products
    .filter((product) => product.dashboardOrder !== null)
    .filter((product) => !product.feature || isFeatureAvailable(features, product.feature))
    .sort((a, b) => a.dashboardOrder! - b.dashboardOrder!)
    .map((product) => ({
      id: product.name,
      title: product.title,
      description: product.summary,
      icon: product.icon,
      linkUrl: catalogueHref(product.path, productSlug),
      order: product.dashboardOrder!,
    }));
}
