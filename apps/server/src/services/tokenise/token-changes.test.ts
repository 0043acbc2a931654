import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TOKEN_MESSAGES, type TCreateTokenResponse, type TTokensPage } from '@connect/shared';
import { HOLDER, newTokenUser, qrc20Form, settled, useTokenSuite } from './test-support.ts';

/** Cancelling, status changes, other accounts’ tokens and the list (spec §2.5, §7). */
describe('tokenise: changes, other accounts and the list', () => {
  const s = useTokenSuite();
  const { tierId, create, quant20, problem, invalidNames } = s;

  describe('cancel, status changes and other accounts', () => {
    it('deletes a deployment not sent yet and gives its quota back', async () => {
      const user = await newTokenUser(s.t, { networks: [s.ids.ethTest], quota: 1 });
      const payload = { ...quant20('base'), deploymentType: 'META_MASK' };
      expect((await create(user, payload)).statusCode).toBe(201);
      // The one allowed token is taken.
      expect(problem(await create(user, { ...payload, externalId: randomUUID() })).detail).toBe(
        TOKEN_MESSAGES.quotaReached,
      );
      const del = await s.t.app.inject({
        method: 'DELETE',
        url: `/api/tokenise/token/${payload.externalId}`,
        headers: user.headers,
      });
      expect(del.statusCode).toBe(200);
      expect(
        (
          await s.t.app.inject({
            method: 'GET',
            url: `/api/tokenise/token/${payload.externalId}`,
            headers: user.headers,
          })
        ).statusCode,
      ).toBe(404);
      expect((await create(user, { ...payload, externalId: randomUUID() })).statusCode).toBe(201);
    });

    it('deprecates an active token and reactivates it; refuses other changes', async () => {
      const res = await create(s.owner, quant20('base', { name: 'Old Bond', unit: 'OLD' }));
      const token = await settled(s.t, s.owner, res.json<TCreateTokenResponse>().token.id);
      const put = (status: string) =>
        s.t.app.inject({
          method: 'PUT',
          url: '/api/tokenise/token',
          headers: s.owner.headers,
          payload: { id: token.id, status },
        });
      const deprecated = await put('DEPRECATED');
      expect(deprecated.statusCode).toBe(200);
      expect(deprecated.json<TCreateTokenResponse>().token.status).toBe('DEPRECATED');
      expect((await put('ACTIVE')).json<TCreateTokenResponse>().token.status).toBe('ACTIVE');
      const edit = await s.t.app.inject({
        method: 'PUT',
        url: '/api/tokenise/token',
        headers: s.owner.headers,
        payload: { id: token.id, ...qrc20Form() },
      });
      expect(edit.statusCode).toBe(409);
      expect(problem(edit).detail).toBe(TOKEN_MESSAGES.notEditable);
      expect(problem(edit).code).toBe('TOKEN_NOT_EDITABLE');
      const del = await s.t.app.inject({
        method: 'DELETE',
        url: `/api/tokenise/token/${token.externalId}`,
        headers: s.owner.headers,
      });
      expect(del.statusCode).toBe(409);
      expect(problem(del).detail).toBe(TOKEN_MESSAGES.cannotCancel);
      expect(problem(del).code).toBe('DEPLOYMENT_NOT_CANCELLABLE');
    });

    it('answers 404 for another account’s token on every endpoint', async () => {
      const res = await create(s.owner, { ...quant20('base'), deploymentType: 'META_MASK' });
      const { token } = res.json<TCreateTokenResponse>();
      const stranger = await newTokenUser(s.t, { networks: [s.ids.ethTest] });
      const calls = [
        { method: 'GET' as const, url: `/api/tokenise/token/${token.id}` },
        { method: 'GET' as const, url: `/api/tokenise/token/${token.externalId}` },
        { method: 'PUT' as const, url: '/api/tokenise/token', payload: { id: token.id, status: 'DEPRECATED' } },
        { method: 'DELETE' as const, url: `/api/tokenise/token/${token.externalId}` },
        {
          method: 'PUT' as const,
          url: '/api/tokenise/token/deploy/track',
          payload: { externalId: token.externalId, txHash: `0x${'ab'.repeat(32)}` },
        },
        {
          method: 'PUT' as const,
          url: '/api/tokenise/token/deploy/track/cancel',
          payload: { externalId: token.externalId },
        },
      ];
      for (const call of calls) {
        const answer = await s.t.app.inject({ ...call, headers: stranger.headers });
        expect(answer.statusCode, `${call.method} ${call.url}`).toBe(404);
        expect(problem(answer).code, `${call.method} ${call.url}`).toBe('TOKEN_NOT_FOUND');
      }
      // Its externalId cannot be reused by another account either.
      const reuse = await create(stranger, { ...quant20('base'), externalId: token.externalId });
      expect(reuse.statusCode).toBe(409);
      expect(problem(reuse)).toMatchObject({
        code: 'EXTERNAL_ID_TAKEN',
        invalidParams: [{ name: 'externalId', reason: TOKEN_MESSAGES.externalIdTaken }],
      });
      const list = await s.t.app.inject({
        method: 'POST',
        url: '/api/tokenise/tokens',
        headers: stranger.headers,
        payload: {},
      });
      expect(list.json<TTokensPage>().content).toEqual([]);
    });
  });

  it('stores the addresses of the form in their EIP-55 checksum form', async () => {
    const res = await create(s.owner, {
      ...quant20('base', { supplyHolderAddress: HOLDER.toLowerCase() }),
      deploymentType: 'META_MASK',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<TCreateTokenResponse>().token.supplyHolderAddress).toBe(HOLDER);
  });

  describe('list', () => {
    it('searches by name or unit, filters and pages, with the counter', async () => {
      const user = await newTokenUser(s.t, { networks: [s.ids.ethTest], quota: 10, credits: 1_000 });
      const made = [];
      for (const [name, unit, tokenType] of [
        ['Alpha Coin', 'ALP', 'QRC20'],
        ['Beta Coin', 'BET', 'QRC20'],
        ['Gamma Art', 'GAM', 'QRC721'],
      ] as const) {
        const tier = tokenType === 'QRC20' ? tierId(s.qrc20, 'base') : tierId(s.qrc721, 'base');
        const res = await create(user, {
          externalId: randomUUID(),
          networkId: s.ids.ethTest,
          tierId: tier,
          tokenType,
          deploymentType: 'META_MASK',
          name,
          unit,
          decimal: 0,
          initialSupply: 1,
          supplyHolderAddress: HOLDER,
          tokenUri: 'https://example.com/',
        });
        expect(res.statusCode, res.body).toBe(201);
        made.push(res.json<TCreateTokenResponse>().token);
      }
      const list = async (payload: Record<string, unknown>) => {
        const res = await s.t.app.inject({
          method: 'POST',
          url: '/api/tokenise/tokens',
          headers: user.headers,
          payload,
        });
        expect(res.statusCode, res.body).toBe(200);
        return res.json<TTokensPage>();
      };
      const all = await list({});
      expect(all.content.map((tk) => tk.tokenName)).toEqual(['Gamma Art', 'Beta Coin', 'Alpha Coin']);
      expect(all.quota).toEqual({ deployed: 3, allowed: 10 });
      expect(all.blockchains).toEqual(['Ethereum']);
      expect((await list({ search: 'coin' })).totalElements).toBe(2);
      expect((await list({ search: 'gam' })).content[0]!.tokenUnit).toBe('GAM');
      expect((await list({ tokenType: 'QRC721' })).totalElements).toBe(1);
      expect((await list({ status: 'ACTIVE' })).totalElements).toBe(0);
      expect((await list({ status: 'PENDING', blockchain: 'ethereum', tierType: 'base' })).totalElements).toBe(3);
      const page = await list({ size: 5, page: 0, search: '%' });
      expect(page.totalElements).toBe(0);
      const bad = await s.t.app.inject({
        method: 'POST',
        url: '/api/tokenise/tokens',
        headers: user.headers,
        payload: { size: 7, status: 'LOST' },
      });
      expect(bad.statusCode).toBe(400);
      expect(invalidNames(bad)).toEqual(['size', 'status']);
    });
  });
});
