import type { FastifyReply } from 'fastify';
import type { App } from '../../types.ts';
import { bodyDocumentedOnly, TOKEN_SCHEMA, type OAuthError } from './schemas.ts';
import type { GatewayService } from './service.ts';

type OAuthRefusal = { status: 400 | 401; error: OAuthError; description: string };
type ClientCredentials = { clientId: string; clientSecret: string };

const refusal = (status: 400 | 401, error: OAuthError, description: string): OAuthRefusal => ({
  status,
  error,
  description,
});

/** RFC 6749 §2.3.1: HTTP Basic with the form-urlencoded client id and secret. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | 'malformed' | null {
  if (!header) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return /^Basic\b/i.test(header) ? 'malformed' : null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    const plus = (s: string) => decodeURIComponent(s.replaceAll('+', ' '));
    const credentials = { id: plus(decoded.slice(0, colon)), secret: plus(decoded.slice(colon + 1)) };
    // The input guard walks parsed bodies, not headers: a NUL decoded here would reach the
    // database (PostgreSQL text cannot hold it) and answer 500.
    if (credentials.id.includes('\u0000') || credentials.secret.includes('\u0000')) return 'malformed';
    return credentials;
  } catch {
    return 'malformed';
  }
}

function field(body: unknown, name: string): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The client credentials of a token request (RFC 6749 §4.4.2), or the OAuth2 error it earns. */
export function readTokenRequest(authorization: string | undefined, body: unknown): ClientCredentials | OAuthRefusal {
  const basic = basicCredentials(authorization);
  if (basic === 'malformed') return refusal(401, 'invalid_client', 'The Basic authorization header is malformed.');
  if (basic && field(body, 'client_secret')) {
    return refusal(400, 'invalid_request', 'Use one client authentication method, not two.');
  }
  const grantType = field(body, 'grant_type');
  if (!grantType) return refusal(400, 'invalid_request', 'grant_type is required.');
  if (grantType !== 'client_credentials') {
    return refusal(400, 'unsupported_grant_type', 'Only grant_type=client_credentials is supported.');
  }
  const clientId = basic?.id ?? field(body, 'client_id');
  const clientSecret = basic?.secret ?? field(body, 'client_secret');
  if (!clientId || !clientSecret) return refusal(401, 'invalid_client', 'Client authentication is required.');
  if (clientId.length > 100 || clientSecret.length > 200) {
    return refusal(401, 'invalid_client', 'The client id or secret is wrong.');
  }
  return { clientId, clientSecret };
}

/** RFC 6749 §5.2 error answer (not problem details: OAuth2 clients expect this shape). */
function sendOAuthError(reply: FastifyReply, { status, error, description }: OAuthRefusal) {
  if (status === 401) reply.header('www-authenticate', 'Basic realm="platform-api", charset="UTF-8"');
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .send({ error, error_description: description });
}

/** `POST /oauth2/token`: OAuth2 client credentials (RFC 6749 §4.4), form-encoded or JSON. */
export async function tokenRoute(app: App, service: GatewayService) {
  // OAuth2 clients send the token request form-encoded (RFC 6749 §4.4.2); JSON is accepted too.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16_384 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.post(
    '/oauth2/token',
    { config: { access: 'public' }, validatorCompiler: bodyDocumentedOnly, schema: TOKEN_SCHEMA },
    async (request, reply) => {
      const credentials = readTokenRequest(request.headers.authorization, request.body as unknown);
      if ('error' in credentials) return sendOAuthError(reply, credentials);
      const issue = await service.issueAccessToken(credentials.clientId, credentials.clientSecret);
      if (issue.kind === 'refused') {
        // The client is told what a revoked secret is told; why is for the operators only.
        if (issue.reason === 'account-not-active') {
          const { applicationId, accountId } = issue;
          request.log.info(
            { clientId: credentials.clientId, applicationId, accountId },
            "access token refused: the application's account is not active",
          );
        }
        return sendOAuthError(
          reply,
          refusal(401, 'invalid_client', 'The client id or secret is wrong, revoked or expired.'),
        );
      }
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(issue.token);
    },
  );
}
