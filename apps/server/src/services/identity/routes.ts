import type { FastifyError, FastifyReply } from 'fastify';
import { z } from 'zod';
import { signUpCaptchaVerifier } from '../../lib/captcha.ts';
import {
  COGNITO_MESSAGES,
  CognitoError,
  invalidParameter,
  type CognitoExceptionName,
} from '../../lib/cognito-errors.ts';
import { resolveSecretKey } from '../../lib/secret-box.ts';
import type { App, Deps } from '../../types.ts';
import { createIdentityService, type Clock, type IdentityService, type MfaConfiguration } from './service.ts';
import {
  ZAccessTokenOnly,
  ZAssociateSoftwareToken,
  ZChangePassword,
  ZConfirmForgotPassword,
  ZConfirmSignUp,
  ZForgotPassword,
  ZGetTokensFromRefreshToken,
  ZInitiateAuth,
  ZResendConfirmationCode,
  ZRespondToAuthChallenge,
  ZRevokeToken,
  ZSetUserMFAPreference,
  ZSignUp,
  ZVerifySoftwareToken,
} from './wire.ts';

const CONTENT_TYPE = 'application/x-amz-json-1.1';
const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';

export type IdentityRouteOptions = {
  /** Tests pass a clock they move, to check lockouts and expiries without waiting. */
  clock?: Clock;
  mfaConfiguration?: MfaConfiguration;
};

type Operation = (body: unknown) => Promise<object>;

/** Every refusal of the pool, in Cognito's shape: the exception name and its message. */
const ZWireError = z.object({ __type: z.string(), message: z.string() });
const wire = (description: string, schema: z.ZodType) => ({ description, content: { [CONTENT_TYPE]: { schema } } });

/** Validates the body against the operation's schema, refusing as Cognito does, then runs it. */
function operation<S extends z.ZodType>(schema: S, run: (input: z.infer<S>) => Promise<object>): Operation {
  return async (body) => {
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw invalidParameter(validationMessage(zodIssues(parsed.error)));
    return run(parsed.data);
  };
}

/** Cognito's wording of a refused request: each field (camel-cased, as Cognito names it) and why. */
function validationMessage(issues: { path: string; message: string }[]): string {
  const described = issues.map(({ path, message }) => {
    const at = path ? path.charAt(0).toLowerCase() + path.slice(1) : 'body';
    return `Value at '${at}' failed to satisfy constraint: ${message}`;
  });
  const count = described.length === 1 ? '1 validation error' : `${described.length} validation errors`;
  return `${count} detected: ${described.join('; ')}`;
}

const zodIssues = (error: z.ZodError) =>
  error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));

function operationsOf(service: IdentityService): Map<string, Operation> {
  return new Map<string, Operation>([
    ['SignUp', operation(ZSignUp, (input) => service.signUp(input))],
    ['ConfirmSignUp', operation(ZConfirmSignUp, (input) => service.confirmSignUp(input))],
    ['ResendConfirmationCode', operation(ZResendConfirmationCode, (input) => service.resendConfirmationCode(input))],
    ['InitiateAuth', operation(ZInitiateAuth, (input) => service.initiateAuth(input))],
    [
      'GetTokensFromRefreshToken',
      operation(ZGetTokensFromRefreshToken, (input) => service.getTokensFromRefreshToken(input)),
    ],
    ['RespondToAuthChallenge', operation(ZRespondToAuthChallenge, (input) => service.respondToAuthChallenge(input))],
    ['AssociateSoftwareToken', operation(ZAssociateSoftwareToken, (input) => service.associateSoftwareToken(input))],
    ['VerifySoftwareToken', operation(ZVerifySoftwareToken, (input) => service.verifySoftwareToken(input))],
    ['SetUserMFAPreference', operation(ZSetUserMFAPreference, (input) => service.setUserMfaPreference(input))],
    ['GetUser', operation(ZAccessTokenOnly, (input) => service.getUser(input))],
    ['ChangePassword', operation(ZChangePassword, (input) => service.changePassword(input))],
    ['ForgotPassword', operation(ZForgotPassword, (input) => service.forgotPassword(input))],
    ['ConfirmForgotPassword', operation(ZConfirmForgotPassword, (input) => service.confirmForgotPassword(input))],
    ['GlobalSignOut', operation(ZAccessTokenOnly, (input) => service.globalSignOut(input))],
    ['RevokeToken', operation(ZRevokeToken, (input) => service.revokeToken(input))],
  ]);
}

function sendWireError(reply: FastifyReply, status: number, type: CognitoExceptionName, message: string) {
  return reply
    .code(status)
    .header('x-amzn-errortype', type)
    .header('x-amzn-requestid', reply.request.id)
    .type(CONTENT_TYPE)
    .send(JSON.stringify({ __type: type, message }));
}

/** Fastify's own refusals (body parsing, size, rate limit) in Cognito's terms. */
function frameworkError(error: FastifyError): { status: number; type: CognitoExceptionName; message: string } {
  if (error.statusCode === 429) return { status: 400, type: 'TooManyRequestsException', message: 'Rate exceeded' };
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return { status: 400, type: 'InvalidParameterException', message: `Send the request as ${CONTENT_TYPE}.` };
  }
  // A value the API refuses wherever it comes (plugins/input-guard.ts: a NUL character).
  if (error.validation) {
    const issues = error.validation.map((issue) => ({
      path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
      message: issue.message ?? 'Invalid value.',
    }));
    return { status: 400, type: 'InvalidParameterException', message: validationMessage(issues) };
  }
  if (error.statusCode === 413) {
    return { status: 400, type: 'InvalidParameterException', message: 'The request body is too large.' };
  }
  return { status: 400, type: 'InvalidParameterException', message: 'The request body is not valid JSON.' };
}

/**
 * The embedded user pool, mounted at /idp: Cognito's JSON protocol (one POST endpoint, the
 * operation named by `x-amz-target`), its JWKS and OpenID discovery document. Errors here are
 * Cognito's `{__type, message}`, never problem details: Amplify reads only that shape.
 */
export async function identityRoutes(app: App, deps: Deps, options: IdentityRouteOptions = {}) {
  if (!deps.keys) throw new Error('The embedded identity pool needs its signing keys');
  const keys = deps.keys;
  const service = createIdentityService({
    db: deps.db,
    keys,
    pool: deps.pool,
    mailer: deps.mailer,
    box: deps.box,
    revocations: deps.revocations,
    product: { productName: deps.config.productName, publicUrl: deps.config.publicUrl },
    codePepper: resolveSecretKey(deps.config.secretKey, deps.config.dataDir),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.mfaConfiguration ? { mfaConfiguration: options.mfaConfiguration } : {}),
    ...(deps.config.signUpCaptcha ? { captcha: signUpCaptchaVerifier(deps.config) } : {}),
  });
  const operations = operationsOf(service);

  // Fastify's JSON parser, so the same protection against prototype poisoning applies.
  app.addContentTypeParser(CONTENT_TYPE, { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof CognitoError) return sendWireError(reply, error.status, error.type, error.message);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const { status, type, message } = frameworkError(error);
      return sendWireError(reply, status, type, message);
    }
    request.log.error({ err: error }, 'identity operation failed');
    return sendWireError(reply, 500, 'InternalErrorException', COGNITO_MESSAGES.internal);
  });

  app.setNotFoundHandler((request, reply) =>
    sendWireError(reply, 404, 'UnknownOperationException', `No route ${request.method} ${request.url.split('?')[0]}.`),
  );

  app.post(
    '/',
    {
      config: { access: 'public', rateLimit: { max: deps.config.idpRateLimitMax, timeWindow: '1 minute' } },
      schema: {
        tags: ['identity'],
        summary: 'Cognito Identity Provider JSON protocol (the operation is named by x-amz-target)',
        description: `Send \`content-type: ${CONTENT_TYPE}\` and \`x-amz-target: ${TARGET_PREFIX}<Operation>\`. Supported operations: ${[...operations.keys()].join(', ')}. Errors are HTTP 400 \`{"__type": "<ExceptionName>", "message": "..."}\`.`,
        response: {
          200: wire("The operation's answer, as Cognito gives it", z.record(z.string(), z.unknown())),
          400: wire('Refused: `__type` names the Cognito exception (the client decides from it)', ZWireError),
          500: wire('`InternalErrorException`: the pool could not complete the operation', ZWireError),
        },
      },
    },
    async (request, reply) => {
      const target = request.headers['x-amz-target'];
      const name =
        typeof target === 'string' && target.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : '';
      const run = operations.get(name);
      if (!run) {
        throw new CognitoError(
          'UnknownOperationException',
          name
            ? `The operation ${name} is not supported by this user pool.`
            : `Missing or invalid x-amz-target header.`,
        );
      }
      const result = await run(request.body ?? {});
      return reply.header('x-amzn-requestid', request.id).type(CONTENT_TYPE).send(JSON.stringify(result));
    },
  );

  app.get(
    `/${deps.pool.poolId}/.well-known/jwks.json`,
    {
      config: { access: 'public', rateLimit: false },
      schema: {
        tags: ['identity'],
        // The path holds the pool id, which differs per installation; the id must not.
        operationId: 'getIdpJwks',
        summary: 'Public keys that verify the pool’s JWTs',
        response: { 200: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return keys.jwks() as { keys: Record<string, unknown>[] };
    },
  );

  app.get(
    `/${deps.pool.poolId}/.well-known/openid-configuration`,
    {
      config: { access: 'public', rateLimit: false },
      schema: {
        tags: ['identity'],
        operationId: 'getIdpOpenidConfiguration',
        summary: 'OpenID discovery document: the issuer and where its keys are',
        response: {
          200: z.object({
            issuer: z.string(),
            jwks_uri: z.string(),
            subject_types_supported: z.array(z.string()),
            id_token_signing_alg_values_supported: z.array(z.string()),
          }),
        },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      // Only what token verifiers read: the pool has no hosted sign-in (authorize/token endpoints).
      return {
        issuer: deps.pool.issuer,
        jwks_uri: deps.pool.jwksUrl,
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      };
    },
  );
}
