import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZProblem, ZProductCatalogue, ZProductPage, ZRuntimeConfig } from '@connect/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { CATALOGUE_REALM, hasCatalogueCredentials } from './catalogue-routes.ts';
import { CATALOGUE_DIR, loadProductCatalogue } from './product-catalogue.ts';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
/** The embedded development defaults (config.ts). */
const DEFAULT_AUTH = basic('catalogue', 'public-catalogue');

const fileOf = (name: string) => JSON.parse(readFileSync(path.join(CATALOGUE_DIR, `${name}.json`), 'utf8')) as unknown;

describe('the product catalogue (/jsons, spec §7)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const get = (url: string, headers: Record<string, string> = { authorization: DEFAULT_AUTH }) =>
    t.app.inject({ method: 'GET', url, headers });

  function expectChallenge(res: Awaited<ReturnType<typeof get>>) {
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe(`Basic realm="${CATALOGUE_REALM}", charset="UTF-8"`);
    expect(ZProblem.parse(res.json()).code).toBe('CATALOGUE_CREDENTIALS_REQUIRED');
    expect(res.body).not.toContain('settlements'); // no word of the content
  }

  it('refuses a request without credentials with a basic challenge', async () => {
    for (const url of ['/jsons/products.json', '/jsons/payments.json?v=1', '/jsons/no-such-product.json']) {
      expectChallenge(await get(url, {}));
    }
  });

  it('refuses wrong credentials, another scheme and malformed headers alike', async () => {
    const wrong = [
      basic('catalogue', 'wrong'),
      basic('someone', 'public-catalogue'),
      basic('catalogue', 'public-catalogue-and-more'),
      basic('', ''),
      'Basic',
      'Basic !!!',
      `Bearer ${Buffer.from('catalogue:public-catalogue').toString('base64')}`,
      `Basic ${Buffer.from('catalogue public-catalogue').toString('base64')}`,
    ];
    for (const authorization of wrong) expectChallenge(await get('/jsons/products.json', { authorization }));
  });

  it('serves products.json with the right credentials: the repository file as its schema reads it, with an ETag', async () => {
    const res = await get('/jsons/products.json?v=0.1.0');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    const catalogue = ZProductCatalogue.parse(res.json());
    expect(catalogue).toEqual(ZProductCatalogue.parse(fileOf('products')));
    // The spec's two token use cases (§2.3, §2.5 tiles), one per token type (§9).
    const useCases = catalogue.products.filter((product) => product.area === 'token-use-case');
    expect(useCases.map(({ name, tokenType, path: to, hasPage }) => ({ name, tokenType, to, hasPage }))).toEqual([
      { name: 'payments', tokenType: 'QRC20', to: '/{product}-flows/token-flow/payments', hasPage: true },
      { name: 'sustainability', tokenType: 'QRC721', to: '/{product}-flows/token-flow/sustainability', hasPage: true },
    ]);
    // The same credentials in another case of the scheme name (RFC 9110 §11.1).
    expect(
      (await get('/jsons/products.json', { authorization: DEFAULT_AUTH.replace('Basic', 'basic') })).statusCode,
    ).toBe(200);
  });

  it('serves each product page, whatever the query', async () => {
    for (const name of ['payments', 'sustainability']) {
      const res = await get(`/jsons/${name}.json?v=${encodeURIComponent('1.2.3+build')}`);
      expect(res.statusCode).toBe(200);
      const page = ZProductPage.parse(res.json());
      expect(page).toEqual(ZProductPage.parse(fileOf(name)));
      expect(page.name).toBe(name);
      expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    }
    const payments = await get('/jsons/payments.json');
    const sustainability = await get('/jsons/sustainability.json');
    expect(payments.headers.etag).not.toBe(sustainability.headers.etag);
    expect((await get('/jsons/payments.json?v=other')).headers.etag).toBe(payments.headers.etag);
  });

  it('answers 304 without a body when If-None-Match names the current copy', async () => {
    const { etag } = (await get('/jsons/products.json')).headers as { etag: string };
    for (const ifNoneMatch of [etag, `W/${etag}`, `"stale", ${etag}`, '*']) {
      const res = await get('/jsons/products.json', { authorization: DEFAULT_AUTH, 'if-none-match': ifNoneMatch });
      expect(res.statusCode, ifNoneMatch).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(etag);
    }
    const stale = await get('/jsons/products.json', { authorization: DEFAULT_AUTH, 'if-none-match': '"stale"' });
    expect(stale.statusCode).toBe(200);
    // A 304 never goes to someone without the credentials.
    expectChallenge(await get('/jsons/products.json', { 'if-none-match': etag }));
  });

  it('answers 404 for a product it does not have, and for a product without a page', async () => {
    for (const name of ['no-such-product', 'tokens', 'applications']) {
      const res = await get(`/jsons/${name}.json`);
      expect(res.statusCode, name).toBe(404);
      expect(ZProblem.parse(res.json()).code).toBe('CATALOGUE_PRODUCT_NOT_FOUND');
    }
  });

  it('never reads a path: a name that is not a product name is refused before anything is looked up', async () => {
    const attempts = [
      '/jsons/..%2Fpackage.json',
      '/jsons/..%2F..%2F..%2Fpackage.json',
      '/jsons/%2e%2e.json',
      '/jsons/..%5Cproducts.json',
      '/jsons/products%00.json',
      '/jsons/Payments.json',
      '/jsons/pay.ments.json',
    ];
    for (const url of attempts) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(ZProblem.parse(res.json()).code, url).toBe('INVALID_REQUEST');
      // Without the credentials, not even that.
      expectChallenge(await get(url, {}));
    }
    // A path that leaves /jsons, or names no file of it, is no catalogue answer and no SPA page.
    for (const url of ['/jsons/../package.json', '/jsons/payments', '/jsons/', '/jsons/products.json/x']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('"name":"@connect');
      expect(res.headers['content-type'], url).toMatch(/^application\/problem\+json/);
    }
  });

  it('compares the credentials whole', () => {
    const expected = { username: 'catalogue', password: 'public-catalogue' };
    expect(hasCatalogueCredentials(DEFAULT_AUTH, expected)).toBe(true);
    expect(hasCatalogueCredentials(`${DEFAULT_AUTH} `, expected)).toBe(true);
    expect(hasCatalogueCredentials(undefined, expected)).toBe(false);
    expect(hasCatalogueCredentials(basic('catalogue', 'public-catalogu'), expected)).toBe(false);
  });
});

describe('the product catalogue with configured credentials', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ PRODUCT_CATALOGUE_USER: 'acme-portal', PRODUCT_CATALOGUE_PASSWORD: 'not-a-secret' });
  });
  afterAll(() => t?.close());

  it('takes the configured credentials, not the defaults, and gives them to the SPA', async () => {
    const asked = (authorization: string) =>
      t.app.inject({ method: 'GET', url: '/jsons/products.json', headers: { authorization } });
    expect((await asked(basic('acme-portal', 'not-a-secret'))).statusCode).toBe(200);
    expect((await asked(DEFAULT_AUTH)).statusCode).toBe(401);
    const config = ZRuntimeConfig.parse((await t.app.inject('/runtime-config.json')).json());
    expect(config.productCatalogue).toEqual({ username: 'acme-portal', password: 'not-a-secret' });
  });
});

describe('reading the catalogue files', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  /** A copy of the repository's catalogue with `change` applied: file name → content (null removes it). */
  function catalogueWith(change: Record<string, unknown>): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'catalogue-'));
    dirs.push(dir);
    const files: Record<string, unknown> = {
      products: fileOf('products'),
      payments: fileOf('payments'),
      sustainability: fileOf('sustainability'),
      ...change,
    };
    for (const [name, content] of Object.entries(files)) {
      if (content !== null) writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(content));
    }
    return dir;
  }

  it('reads the repository catalogue: products.json and one page per product that has one', () => {
    const { catalogue, documents } = loadProductCatalogue();
    expect([...documents.keys()].sort()).toEqual(['payments', 'products', 'sustainability']);
    expect(catalogue.products.filter((product) => product.hasPage).map((product) => product.name)).toEqual([
      'payments',
      'sustainability',
    ]);
  });

  it('refuses a catalogue with a missing page, a stray page, a page of another product or a bad field', () => {
    expect(() => loadProductCatalogue(catalogueWith({ payments: null }))).toThrow(
      /payments has a page but payments\.json is missing/,
    );
    expect(() => loadProductCatalogue(catalogueWith({ extra: fileOf('payments') }))).toThrow(
      /extra\.json belong to no product/,
    );
    expect(() =>
      loadProductCatalogue(catalogueWith({ payments: { ...(fileOf('payments') as object), name: 'sustainability' } })),
    ).toThrow(/payments\.json names another product/);
    const products = fileOf('products') as { products: Record<string, unknown>[] };
    const broken = { products: products.products.map((p, i) => (i === 0 ? { ...p, name: '../etc' } : p)) };
    expect(() => loadProductCatalogue(catalogueWith({ products: broken }))).toThrow(
      /products\.json does not fit its schema: products\.0\.name/,
    );
    const twice = { products: [...products.products, products.products[0]] };
    expect(() => loadProductCatalogue(catalogueWith({ products: twice }))).toThrow(
      /names the product applications twice/,
    );
  });
});
