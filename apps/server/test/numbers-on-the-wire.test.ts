import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TProblem } from '@connect/shared';
import {
  activate,
  addNetwork,
  createApplication,
  newAppUser,
  type TestUser,
} from '../src/services/application-manager/testing.ts';
import { createTestApp, type TestContext } from './helpers.ts';

/*
 * Numbers are numbers, or a 400 (issue 27 §3): a JSON body's number is never read from `""`,
 * `null`, `[]`, `false`, `"0x10"` or `"1e3"` (z.coerce made the first four 0 — a grace period of
 * 0 revokes the old secret at once); a query string's number is decimal digits.
 */
describe('numbers on the wire', () => {
  let t: TestContext;
  let owner: TestUser;
  let applicationId = '';
  beforeAll(async () => {
    t = await createTestApp();
    owner = await newAppUser(t);
    const network = await addNetwork(t);
    await activate(t, owner.accountId, network.id);
    applicationId = (await createApplication(t, owner, [network.id])).id;
  });
  afterAll(() => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: owner.headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const invalidNames = (res: { json: () => unknown }) =>
    ((res.json() as TProblem).invalidParams ?? []).map((p) => p.name);

  it.each([[''], [null], [[]], [false], ['60'], ['0x10'], ['1e3'], [1.5]])(
    'refuses gracePeriodMinutes %j and keeps the secret',
    async (grace) => {
      const res = await call('POST', `/api/application-manager/application/${applicationId}/rotate-secret`, {
        gracePeriodMinutes: grace,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(invalidNames(res)).toEqual(['gracePeriodMinutes']);
    },
  );

  it('takes a grace period that is a number', async () => {
    const res = await call('POST', `/api/application-manager/application/${applicationId}/rotate-secret`, {
      gracePeriodMinutes: 60,
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it.each(['days=0x10', 'days=1e1', 'days=', 'days=+7', 'days=%207', 'days=7.0'])(
    'refuses the query %s (decimal digits only)',
    async (query) => {
      const res = await call('GET', `/api/application-manager/application/${applicationId}/usage?${query}`);
      expect(res.statusCode, res.body).toBe(400);
    },
  );

  it('reads query numbers written in decimal digits, and still clamps a negative page to 0', async () => {
    expect((await call('GET', `/api/application-manager/application/${applicationId}/usage?days=7`)).statusCode).toBe(
      200,
    );
    const page = await call('GET', '/api/application-manager/applications/?page=-2&size=5');
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({ number: 0, size: 5 });
    for (const query of ['page=0x1', 'size=1e1', 'page=abc']) {
      expect((await call('GET', `/api/application-manager/applications/?${query}`)).statusCode, query).toBe(400);
    }
  });

  it.each([{ page: '1' }, { size: '10' }, { page: null }, { size: [] }])(
    'refuses the token list’s paging %j sent as anything but a number',
    async (paging) => {
      const res = await call('POST', '/api/tokenise/tokens', paging);
      expect(res.statusCode, res.body).toBe(400);
    },
  );
});
