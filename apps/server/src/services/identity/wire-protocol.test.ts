import { describe, expect, it } from 'vitest';
import { TEST_CLIENT_ID, TEST_POOL_ID } from '../../../test/helpers.ts';
import type { Mailer } from '../../adapters/mail/port.ts';
import { createHarness, expectError, newEmail, PASSWORD, signUp, suiteHarness } from './testing.ts';

describe('identity pool wire protocol', () => {
  const h = suiteHarness();

  describe('protocol', () => {
    it('answers an unknown operation, a missing target and a malformed body with Cognito errors', async () => {
      const unknown = await h.call('AdminCreateUser', { UserPoolId: TEST_POOL_ID });
      expectError(unknown, 'UnknownOperationException', /AdminCreateUser/);
      expect(unknown.headers['content-type']).toContain('application/x-amz-json-1.1');

      const noTarget = await h.app.inject({
        method: 'POST',
        url: '/idp',
        headers: { 'content-type': 'application/x-amz-json-1.1' },
        payload: '{}',
      });
      expect(noTarget.statusCode).toBe(400);
      expect(noTarget.json()).toMatchObject({ __type: 'UnknownOperationException' });

      const malformed = await h.call('SignUp', '{"ClientId":');
      expectError(malformed, 'InvalidParameterException');
      expect(malformed.headers['content-type']).not.toContain('problem');

      expectError(await h.call('SignUp', '[1,2]'), 'InvalidParameterException', /validation error/);
      expectError(
        await h.call('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH' }),
        'InvalidParameterException',
        /clientId/,
      );
      const slash = await h.call('GetUser', { AccessToken: 'x' }, '/idp/');
      expectError(slash, 'NotAuthorizedException', 'Invalid Access Token');
      const elsewhere = await h.call('GetUser', { AccessToken: 'x' }, '/idp/elsewhere');
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.body.__type).toBe('UnknownOperationException');
      const poisoned = await h.call('GetUser', '{"AccessToken":"x","__proto__":{"admin":true}}');
      expectError(poisoned, 'InvalidParameterException');
    });

    it('refuses an unknown app client as Cognito does', async () => {
      const res = await h.call('InitiateAuth', {
        ClientId: 'someoneelse',
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: 'a@example.com', PASSWORD: PASSWORD },
      });
      expectError(res, 'ResourceNotFoundException', 'User pool client someoneelse does not exist.');
      expectError(
        await h.call('SignUp', { ClientId: 'nope', Username: newEmail(), Password: PASSWORD }),
        'ResourceNotFoundException',
      );
    });

    it('refuses flows the pool does not offer, naming the one to use', async () => {
      const res = await h.call('InitiateAuth', {
        ClientId: TEST_CLIENT_ID,
        AuthFlow: 'USER_SRP_AUTH',
        AuthParameters: { USERNAME: 'a@example.com', SRP_A: 'abc' },
      });
      expectError(res, 'InvalidParameterException', 'USER_SRP_AUTH is not enabled for the client.');
      const missing = await h.call('InitiateAuth', {
        ClientId: TEST_CLIENT_ID,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: 'a@example.com' },
      });
      expectError(missing, 'InvalidParameterException', 'Missing required parameter PASSWORD');
    });

    it('serves the JWKS and an OpenID discovery document naming the issuer', async () => {
      const discovery = await h.app.inject({
        method: 'GET',
        url: `/idp/${TEST_POOL_ID}/.well-known/openid-configuration`,
      });
      expect(discovery.statusCode).toBe(200);
      expect(discovery.json()).toMatchObject({
        issuer: `http://localhost/idp/${TEST_POOL_ID}`,
        jwks_uri: `http://localhost/idp/${TEST_POOL_ID}/.well-known/jwks.json`,
      });
      const jwks = await h.app.inject({ method: 'GET', url: `/idp/${TEST_POOL_ID}/.well-known/jwks.json` });
      expect((jwks.json() as { keys: { kid: string }[] }).keys[0]?.kid).toBeTruthy();
    });
  });
});

describe('identity pool under stress', () => {
  it('answers past the per-client limit with TooManyRequestsException', async () => {
    const h = await createHarness({ IDP_RATE_LIMIT_MAX: '3' });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await h.call('GetUser', { AccessToken: 'x' })).status);
      expect(statuses).toEqual([400, 400, 400]);
      const limited = await h.call('GetUser', { AccessToken: 'x' });
      expectError(limited, 'TooManyRequestsException');
      expect(limited.headers['content-type']).not.toContain('problem');
    } finally {
      await h.close();
    }
  });

  it('answers an unexpected failure with a generic InternalErrorException', async () => {
    const failing: Mailer = {
      isSandbox: true,
      send: async () => {
        throw new Error('connect ECONNREFUSED 10.0.0.7:587 secret-internal-detail');
      },
    };
    const h = await createHarness({}, { mailer: failing });
    try {
      const res = await signUp(h, newEmail());
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ __type: 'InternalErrorException', message: expect.any(String) });
      expect(JSON.stringify(res.body)).not.toContain('secret-internal-detail');
    } finally {
      await h.close();
    }
  });
});
