import { describe, expect, it } from 'vitest';
import type { TCreateTokenResponse, TProblem } from '@connect/shared';
import { newTokenUser, settled, useTokenSuite } from './test-support.ts';

/*
 * Credits are taken with the insert that creates the deployment (issue 27 §3), as the quota is:
 * concurrent deployments never spend more than the account has, and none of them ends UNPAID.
 * The requests are fired together; on PostgreSQL (DATABASE_URL) each has a connection of its own.
 */
describe('tokenise: concurrent deployments and the credits they cost', () => {
  const s = useTokenSuite();
  const { create, quant20, creditsOf, creditRows } = s;

  it('accepts exactly as many platform deployments as the credits pay for, all ACTIVE and charged', async () => {
    const user = await newTokenUser(s.t, { networks: [s.ids.ethTest], quota: null, credits: 30 }); // 3 × 10
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create(user, quant20('base', { name: `Race ${i}`, unit: `R${i}` }))),
    );
    const accepted = responses.filter((r) => r.statusCode === 201);
    expect(accepted).toHaveLength(3);
    const refused = responses.filter((r) => r.statusCode !== 201);
    expect(refused.map((r) => [r.statusCode, r.json<TProblem>().code])).toEqual(
      Array(17).fill([409, 'INSUFFICIENT_CREDITS']),
    );
    const ended = await Promise.all(
      accepted.map((r) => settled(s.t, user, r.json<TCreateTokenResponse>().token.id, 60_000)),
    );
    expect(ended.map((token) => [token.status, token.creditsCharged])).toEqual(Array(3).fill(['ACTIVE', 10]));
    expect(await creditsOf(user.accountId)).toBe(0);
    expect((await creditRows(user.accountId)).filter((e) => e.reference.startsWith('token:'))).toHaveLength(3);
  });

  it('accepts exactly as many wallet deployments as the credits pay for', async () => {
    const user = await newTokenUser(s.t, { networks: [s.ids.ethTest], quota: null, credits: 15 }); // 3 × 5
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => create(user, { ...quant20('base'), deploymentType: 'META_MASK' })),
    );
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(3);
    expect(responses.filter((r) => r.statusCode === 409)).toHaveLength(17);
    // The bytecode was handed over with each answer: its credits are taken then.
    expect(await creditsOf(user.accountId)).toBe(0);
    // One more, one at a time, is refused as well.
    const another = await create(user, { ...quant20('base'), deploymentType: 'META_MASK' });
    expect(another.statusCode).toBe(409);
  });
});
