import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PROBLEM_CODES, ZApplicationsQuery } from '@connect/shared';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { tidyComponents } from './openapi-components.ts';
import { operationIdOf, SECURITY_SCHEMES } from './openapi.ts';

type Response = { description: string; content?: Record<string, { schema?: { $ref?: string } }>; headers?: object };
type Operation = { operationId?: string; security?: Record<string, string[]>[]; responses: Record<string, Response> };
type Document = {
  info: { description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

const PROBLEM = { $ref: '#/components/schemas/Problem' };

describe('operationIdOf', () => {
  it.each([
    ['GET', '/api/connect/user/:id', 'getConnectUserById'],
    [
      'DELETE',
      '/api/application-manager/application/:id/secrets/:secretId',
      'deleteApplicationManagerApplicationByIdSecretsBySecretId',
    ],
    ['POST', '/api/gateway/:networkId', 'postGatewayByNetworkId'],
    ['POST', '/oauth2/token', 'postOauth2Token'],
    ['GET', '/runtime-config.json', 'getRuntimeConfigJson'],
    ['PUT', '/api/tokenise/token/deploy/track', 'putTokeniseTokenDeployTrack'],
  ])('%s %s → %s', (method, url, id) => {
    expect(operationIdOf(method, url)).toBe(id);
  });
});

describe('tidyComponents', () => {
  const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
  const document = (schemas: Record<string, unknown>, paths: unknown) => ({ paths, components: { schemas } });

  it('folds an input schema into its output twin when both say the same, and leaves out what no operation reaches', () => {
    const tidied = tidyComponents(
      document(
        {
          Item: { type: 'object', properties: { tag: ref('Tag') } },
          ItemInput: { type: 'object', properties: { tag: ref('TagInput') } },
          Tag: { type: 'string' },
          TagInput: { type: 'string' },
          Unused: { type: 'number' },
          UnusedInput: { type: 'number' },
        },
        { '/items': { post: { body: ref('ItemInput'), answer: ref('Item') } } },
      ),
    );
    expect(tidied.components.schemas).toEqual({
      Item: { type: 'object', properties: { tag: ref('Tag') } },
      Tag: { type: 'string' },
    });
    expect(tidied.paths).toEqual({ '/items': { post: { body: ref('Item'), answer: ref('Item') } } });
  });

  it('keeps both when a default makes the input differ, and names a schema only ever sent plainly', () => {
    const tidied = tidyComponents(
      document(
        {
          Page: { type: 'object', required: ['size'] },
          PageInput: { type: 'object' },
          Form: { type: 'object', required: ['kind'] },
          FormInput: { type: 'object' },
        },
        {
          '/pages': { post: { body: ref('PageInput'), answer: ref('Page') } },
          '/forms': { post: { body: ref('FormInput') } },
        },
      ),
    );
    expect(Object.keys(tidied.components.schemas)).toEqual(['Form', 'Page', 'PageInput']);
    expect(tidied.components.schemas.Form).toEqual({ type: 'object' });
    expect(tidied.paths).toMatchObject({ '/forms': { post: { body: ref('Form') } } });
  });
});

describe('the OpenAPI document', () => {
  let t: TestContext;
  let document: Document;
  const operations = () =>
    Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path}`,
        path,
        operation,
      })),
    );

  beforeAll(async () => {
    t = await createTestApp();
    document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<Document>();
  });
  afterAll(() => t?.close());

  it('says how errors are told apart: by `code`', () => {
    expect(document.info.description).toContain('`code`');
    expect(document.info.description).toContain('RFC 9457');
  });

  it('names the three ways to authenticate', () => {
    expect(document.components.securitySchemes).toEqual(SECURITY_SCHEMES);
    expect(document.components.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      clientBasic: { type: 'http', scheme: 'basic' },
      oauth2ClientCredentials: {
        type: 'oauth2',
        flows: { clientCredentials: { tokenUrl: '/oauth2/token', scopes: {} } },
      },
    });
  });

  it('gives every operation a unique, readable operationId', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(ids.every((id) => id && /^[a-z][A-Za-z0-9]*$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('asks for the bearer token exactly where the route is not public, and for nothing on public ones', () => {
    const declared = new Map(
      t.app.routeAccess.map((route) => [`${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`, route.access]),
    );
    for (const { key, operation } of operations()) {
      const access = declared.get(key);
      expect(access, key).toBeDefined();
      const names = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
      for (const name of names) expect(Object.keys(SECURITY_SCHEMES), key).toContain(name);
      if (access !== 'public') expect(operation.security, key).toEqual([{ bearerAuth: [] }]);
      else expect(names, key).not.toContain('bearerAuth');
    }
    expect(document.paths['/api/health']?.get?.security).toEqual([]);
    expect(document.paths['/oauth2/token']?.post?.security).toEqual([{ clientBasic: [] }, {}]);
    expect(document.paths['/api/gateway/{networkId}']?.post?.security).toEqual([{ oauth2ClientCredentials: [] }]);
  });

  it('answers problem details with the reusable Problem schema, whose code lists every code', () => {
    const problem = document.components.schemas.Problem as {
      properties: { code: { enum: string[] } };
      required: string[];
    };
    expect(problem.properties.code.enum).toEqual(PROBLEM_CODES);
    expect(problem.required).toEqual(expect.arrayContaining(['type', 'title', 'status', 'code']));
    for (const { key, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!/^[45]/.test(status) || !response.content) continue;
        expect(response.content['application/problem+json']?.schema ?? PROBLEM, `${key} ${status}`).toEqual(PROBLEM);
        expect(Object.keys(response.content), `${key} ${status}`).not.toContain('*/*');
      }
    }
  });

  it('adds the refusals every route of its kind can answer: 401, 403, 429 with Retry-After and 500 behind the bearer token', () => {
    for (const { key, path, operation } of operations()) {
      if (path.startsWith('/idp')) continue; // Cognito's wire protocol, not problem details
      expect(operation.responses['500']?.content?.['application/problem+json']?.schema, key).toEqual(PROBLEM);
      if (!operation.security?.some((requirement) => 'bearerAuth' in requirement)) continue;
      for (const status of ['401', '403', '429']) {
        expect(operation.responses[status]?.content?.['application/problem+json']?.schema, `${key} ${status}`).toEqual(
          PROBLEM,
        );
      }
      expect(operation.responses['429']?.headers, key).toHaveProperty('Retry-After');
    }
  });

  it('references the shared schemas as components instead of copying them', () => {
    const user = document.paths['/api/connect/user/{id}']?.get?.responses['200'];
    expect(user?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/User' });
    const schemas = Object.keys(document.components.schemas);
    expect(schemas).toEqual(expect.arrayContaining(['Application', 'CreateApplicationRequest', 'Problem', 'User']));
    // An input twin stays only where it differs from the output schema.
    for (const name of schemas.filter((id) => id.endsWith('Input'))) {
      expect(document.components.schemas[name], name).not.toEqual(document.components.schemas[name.slice(0, -5)]);
    }
  });
});

describe('a query schema with a registry id', () => {
  let t: TestContext;
  beforeAll(async () => {
    z.globalRegistry.add(ZApplicationsQuery, { id: 'ApplicationsQuery' });
    t = await createTestApp();
  });
  afterAll(async () => {
    z.globalRegistry.remove(ZApplicationsQuery);
    await t?.close();
  });

  it('is still listed field by field as the operation’s parameters', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
    }>();
    const parameters = document.paths['/api/application-manager/applications']?.get?.parameters ?? [];
    expect(parameters.map((p) => `${p.in}:${p.name}`)).toEqual(expect.arrayContaining(['query:page', 'query:search']));
  });
});

describe('the API reference at /api/docs (issue 11: a clean console)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('runs under the site’s CSP, which allows the style attributes Swagger UI sets as it renders', async () => {
    const site = (await t.app.inject('/login')).headers['content-security-policy'];
    for (const url of [
      '/api/docs',
      '/api/docs/',
      '/api/docs/static/swagger-ui-bundle.js',
      '/api/docs/static/index.css',
    ]) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBeLessThan(400);
      expect(res.headers['content-security-policy'], url).toBe(site);
    }
    expect(site).toMatch(/style-src 'self' 'unsafe-inline'/);
    // Scripts stay as strict as everywhere else.
    expect(site).toMatch(/script-src 'self'(;|$)/);
  });
});
