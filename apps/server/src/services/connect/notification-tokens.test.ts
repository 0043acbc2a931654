import { describe, expect, it } from 'vitest';
import { ZNotificationsResponse, type TCreateTokenResponse } from '@connect/shared';
import { settled, useTokenSuite } from '../tokenise/test-support.ts';

/** A real deployment on a local chain, announced by the tokenise settlement, reaches its creator's bell. */
describe('notifications of token deployments', () => {
  const s = useTokenSuite();

  const bell = async () => {
    await s.t.app.events.drain();
    const res = await s.t.app.inject({ method: 'GET', url: '/api/connect/notifications', headers: s.owner.headers });
    expect(res.statusCode, res.body).toBe(200);
    return ZNotificationsResponse.parse(res.json());
  };

  it('tells the creator that the token is deployed, with a link to its page', async () => {
    const created = await s.create(s.owner, s.quant20('base', { name: 'Notified Coin', unit: 'NTC' }));
    expect(created.statusCode, created.body).toBe(201);
    const { token } = created.json<TCreateTokenResponse>();
    expect((await settled(s.t, s.owner, token.id)).status).toBe('ACTIVE');
    const deployed = (await bell()).items.find((n) => n.link?.endsWith(`?id=${token.id}`));
    expect(deployed).toMatchObject({
      kind: 'token.deployed',
      title: 'Token deployed',
      link: `/quant-flows/token-flow/qrc20/base?id=${token.id}`,
      readAt: null,
    });
    expect(deployed!.body).toMatch(/^Notified Coin \(NTC\) is deployed on .+ at 0x[0-9a-fA-F]{40}\.$/);
  });

  it('tells the creator that a deployment failed, with the reason', async () => {
    const created = await s.create(s.owner, s.quant20('base', { deploymentType: 'META_MASK', name: 'Denied Coin' }));
    expect(created.statusCode, created.body).toBe(201);
    const { token } = created.json<TCreateTokenResponse>();
    const cancelled = await s.t.app.inject({
      method: 'PUT',
      url: '/api/tokenise/token/deploy/track/cancel',
      headers: s.owner.headers,
      payload: { externalId: token.externalId, reason: 'DENIED' },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const failed = (await bell()).items.find((n) => n.link?.endsWith(`?id=${token.id}`));
    expect(failed).toMatchObject({ kind: 'token.failed', title: 'Token deployment failed' });
    expect(failed!.body).toMatch(
      /^Denied Coin \(GRB\) could not be deployed on .+: .+ You have not been charged for it\.$/,
    );
  });
});
