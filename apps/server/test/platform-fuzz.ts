import fc from 'fast-check';
import { TEST_CLIENT_ID } from './helpers.ts';
import { hostileString, json, NUL, percentEncode, rawBody, wrongValue, type Body, type Probe } from './openapi-fuzz.ts';

/**
 * Hand-written generators for the three interfaces the OpenAPI document does not describe well
 * enough to generate from: the OAuth2 token endpoint, the JSON-RPC gateway and the /idp wire
 * protocol (malformed-input.test.ts).
 */

export type PlatformTargets = {
  /** A registered application's credentials. */
  client: { id: string; secret: string };
  /** The gateway's network, by id and by code. */
  networkRefs: string[];
  /** An access token from /oauth2/token for the client. */
  platformToken: string;
  /** A user of the identity pool with a session. */
  idpUser: { email: string; accessToken: string };
  /** Path segments to try as a network id. */
  pathValue: () => fc.Arbitrary<string>;
};

export const basic = (id: string, secret: string, encode = true) =>
  `Basic ${Buffer.from(`${encode ? percentEncode(id) : id}:${encode ? percentEncode(secret) : secret}`).toString('base64')}`;

export function tokenProbes({ client }: PlatformTargets): fc.Arbitrary<Probe> {
  const short = hostileString.filter((text) => text.length < 5_000);
  // Mostly requests that get as far as the credentials (the lookup is where a value meets the database).
  const grant = fc.oneof(
    { arbitrary: fc.constant('client_credentials'), weight: 4 },
    fc.constantFrom('password', ''),
    short,
  );
  const id = fc.oneof(fc.constant(client.id), short);
  const secret = fc.oneof(fc.constant(client.secret), fc.constant('wrong'), short);
  const form = (fields: Record<string, unknown>): Body => ({
    type: 'application/x-www-form-urlencoded',
    text: Object.entries(fields)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${key}=${percentEncode(String(value))}`)
      .join('&'),
  });
  const wellShaped = fc
    .record({
      grant: fc.option(grant, { nil: undefined, freq: 6 }),
      id,
      secret,
      sentIn: fc.constantFrom('basic', 'basic-unencoded', 'body', 'both', 'nowhere'),
      encoding: fc.constantFrom('form', 'json'),
      odd: fc.option(wrongValue, { nil: undefined, freq: 2 }),
    })
    .map(({ grant: grantType, id: clientId, secret: clientSecret, sentIn, encoding, odd }) => {
      const inBody = sentIn === 'body' || sentIn === 'both';
      const fields: Record<string, unknown> = {
        grant_type: grantType,
        ...(inBody ? { client_id: clientId, client_secret: clientSecret } : {}),
        // JSON may carry a value of the wrong type in place of one of them.
        ...(odd !== undefined && encoding === 'json' ? { client_id: odd } : {}),
      };
      const header =
        sentIn === 'basic' || sentIn === 'both'
          ? basic(clientId, clientSecret)
          : sentIn === 'basic-unencoded'
            ? basic(clientId, clientSecret, false)
            : undefined;
      return { body: encoding === 'form' ? form(fields) : json(fields), header };
    });
  const oddShaped = fc.record({
    body: fc.oneof(
      rawBody,
      fc
        .constantFrom(
          'grant_type=client_credentials&client_id=%zz',
          'client_id=%00',
          '&&=',
          `client_id=${'x'.repeat(20_000)}`,
        )
        .map((text): Body => ({ type: 'application/x-www-form-urlencoded', text })),
      fc.constant(undefined),
    ),
    header: fc.constantFrom(
      undefined,
      'Basic',
      'Basic !!!',
      'Basic Zm9v',
      `Basic ${'A'.repeat(10_000)}`,
      'Bearer x',
      'basic %zz',
      basic('%zz', 'x', false),
      basic(client.id, '%E0%A4%A', false),
    ),
  });
  return fc
    .oneof({ arbitrary: wellShaped, weight: 4 }, { arbitrary: oddShaped, weight: 1 })
    .map(({ body, header }): Probe => ({
      method: 'POST',
      url: '/oauth2/token',
      auth: 'none' as const,
      headers: header ? { authorization: header } : {},
      ...(body ? { body } : {}),
    }));
}

const RPC_METHODS = [
  'eth_chainId',
  'eth_blockNumber',
  'net_version',
  'eth_getBalance',
  'eth_call',
  'eth_getLogs',
  'eth_sendRawTransaction',
  'eth_sendTransaction',
  'eth_sign',
  'personal_unlockAccount',
  'anvil_setBalance',
  'evm_mine',
  'debug_traceTransaction',
  'admin_peers',
  '',
  NUL,
  'x'.repeat(5_000),
];

export function gatewayProbes({ networkRefs, platformToken, pathValue }: PlatformTargets): fc.Arbitrary<Probe> {
  const call = fc.record(
    {
      jsonrpc: fc.oneof(fc.constant('2.0'), wrongValue),
      id: fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.constant(null), wrongValue),
      method: fc.oneof(fc.constantFrom(...RPC_METHODS), wrongValue),
      params: fc.oneof(
        fc.constant([]),
        fc.constant([{ fromBlock: '0x0', toBlock: 'latest' }]),
        fc.constant([{ fromBlock: '0x0', toBlock: '0xffffffffffff' }]),
        fc.constant(['0x0000000000000000000000000000000000000000', 'latest']),
        wrongValue,
      ),
    },
    { requiredKeys: ['method'] },
  );
  const body = fc.oneof(
    { arbitrary: call.map(json), weight: 4 },
    { arbitrary: fc.array(call, { minLength: 0, maxLength: 5 }).map(json), weight: 2 },
    {
      arbitrary: fc.constantFrom(0, 100, 101).chain((n) => call.map((c) => json(Array.from({ length: n }, () => c)))),
      weight: 1,
    },
    { arbitrary: fc.array(wrongValue, { maxLength: 3 }).map(json), weight: 1 },
    { arbitrary: rawBody, weight: 2 },
  );
  const network = fc.oneof(
    { arbitrary: fc.constantFrom(...networkRefs), weight: 4 },
    { arbitrary: pathValue(), weight: 2 },
  );
  const authorization = fc.oneof(
    { arbitrary: fc.constant(`Bearer ${platformToken}`), weight: 4 },
    {
      arbitrary: fc.constantFrom(
        undefined,
        'Bearer x.y.z',
        'Bearer',
        `Bearer ${'a'.repeat(10_000)}`,
        'Basic Zm9vOmJhcg==',
      ),
      weight: 1,
    },
    { arbitrary: fc.constant('user'), weight: 1 },
  );
  return fc.record({ network, body, authorization }).map(({ network: ref, body: b, authorization: header }): Probe => ({
    method: 'POST',
    url: `/api/gateway/${ref}`,
    auth: header === 'user' ? ('user' as const) : ('none' as const),
    headers: header && header !== 'user' ? { authorization: header } : {},
    body: b,
  }));
}

const IDP_OPERATIONS = [
  'SignUp',
  'ConfirmSignUp',
  'ResendConfirmationCode',
  'InitiateAuth',
  'GetTokensFromRefreshToken',
  'RespondToAuthChallenge',
  'AssociateSoftwareToken',
  'VerifySoftwareToken',
  'SetUserMFAPreference',
  'GetUser',
  'ChangePassword',
  'ForgotPassword',
  'ConfirmForgotPassword',
  'GlobalSignOut',
  'RevokeToken',
];

/** Sets `a.b.0.c` in a copy of a JSON value (creating what is missing); `undefined` removes it. */
function setPath(target: unknown, path: string[], value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  const container = (target && typeof target === 'object' ? target : {}) as Record<string, unknown>;
  const copy: Record<string, unknown> = Array.isArray(container) ? ([...container] as never) : { ...container };
  const next = setPath(copy[head], rest, value);
  if (next === undefined) delete copy[head];
  else copy[head] = next;
  return copy;
}

export function idpProbes({ idpUser }: PlatformTargets): fc.Arbitrary<Probe> {
  const text = fc.oneof(fc.string({ maxLength: 20 }), hostileString, wrongValue);
  const email = fc.oneof(fc.constant(idpUser.email), fc.emailAddress());
  const password = fc.oneof(fc.constant('Correct-Horse-1'), fc.string({ minLength: 1, maxLength: 20 }));
  const code = fc.oneof(fc.constant('123456'), fc.stringMatching(/^\d{6}$/));
  const token = fc.oneof(fc.constant(idpUser.accessToken), fc.constantFrom('a.b.c', 'x'));
  // Bodies that would pass the operation's schema, so the one hostile value below reaches the pool.
  const plausibleFields = fc.record({
    ClientId: fc.constant(TEST_CLIENT_ID),
    Username: email,
    Password: password,
    ConfirmationCode: code,
    AuthFlow: fc.constantFrom('USER_PASSWORD_AUTH', 'USER_SRP_AUTH', 'REFRESH_TOKEN_AUTH', 'CUSTOM_AUTH'),
    AuthParameters: fc.record({ USERNAME: email, PASSWORD: password, REFRESH_TOKEN: token }),
    AccessToken: token,
    RefreshToken: token,
    Token: token,
    Session: fc.string({ minLength: 1, maxLength: 20 }),
    ChallengeName: fc.constantFrom('SOFTWARE_TOKEN_MFA', 'NEW_PASSWORD_REQUIRED', 'MFA_SETUP', 'SMS_MFA'),
    ChallengeResponses: fc.record({ USERNAME: email, SOFTWARE_TOKEN_MFA_CODE: code, NEW_PASSWORD: password }),
    UserAttributes: email.map((value) => [{ Name: 'email', Value: value }]),
    ValidationData: fc.constant([]),
    UserCode: code,
    PreviousPassword: password,
    ProposedPassword: password,
  });
  const places = [
    'ClientId',
    'Username',
    'Password',
    'ConfirmationCode',
    'AuthFlow',
    'AuthParameters',
    'AuthParameters.USERNAME',
    'AuthParameters.PASSWORD',
    'AuthParameters.REFRESH_TOKEN',
    'AccessToken',
    'RefreshToken',
    'Token',
    'Session',
    'ChallengeName',
    'ChallengeResponses',
    'ChallengeResponses.USERNAME',
    'ChallengeResponses.SOFTWARE_TOKEN_MFA_CODE',
    'UserAttributes',
    'UserAttributes.0.Name',
    'UserAttributes.0.Value',
    'ValidationData',
    'UserCode',
    'ProposedPassword',
  ];
  const fields = fc
    .tuple(plausibleFields, fc.constantFrom(...places), fc.option(text, { nil: undefined, freq: 5 }))
    .map(([body, place, value]) => setPath(body, place.split('.'), value));
  const target = fc.oneof(
    { arbitrary: fc.constantFrom(...IDP_OPERATIONS).map((op) => `AWSCognitoIdentityProviderService.${op}`), weight: 6 },
    {
      arbitrary: fc.constantFrom(
        undefined,
        '',
        'AWSCognitoIdentityProviderService.AdminCreateUser',
        'AWSCognitoIdentityProviderService.',
        'SignUp',
        'AWSCognitoIdentityProviderService.__proto__',
        'AWSCognitoIdentityProviderService.constructor',
      ),
      weight: 1,
    },
  );
  const body = fc.oneof(
    { arbitrary: fields.map((f) => ({ type: 'application/x-amz-json-1.1', text: JSON.stringify(f) })), weight: 6 },
    {
      arbitrary: wrongValue.map((v) => ({ type: 'application/x-amz-json-1.1', text: JSON.stringify(v) ?? '' })),
      weight: 1,
    },
    {
      arbitrary: rawBody.map((b) => (b.type === 'application/json' ? { ...b, type: 'application/x-amz-json-1.1' } : b)),
      weight: 2,
    },
  );
  return fc.record({ target, body }).map(({ target: op, body: b }): Probe => ({
    method: 'POST',
    url: '/idp',
    auth: 'none' as const,
    headers: op === undefined ? {} : { 'x-amz-target': op },
    body: b,
  }));
}
