import type { IncomingMessage, ServerResponse } from 'node:http';
import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { Redis } from 'ioredis';
import type { CspSources } from '@connect/shared/light';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the route answers without the browser security headers (machine-to-machine JSON). */
    securityHeaders?: false;
  }
}

export type SecurityOptions = {
  rateLimitMax: number;
  redisUrl: string | undefined;
  /** Extra origins the SPA talks to (AWS Cognito's endpoint when the pool is on AWS). */
  connectSources: string[];
  /** Google reCAPTCHA is configured: its script and frame must be allowed. */
  allowRecaptcha: boolean;
  /** Identity verification runs on Onfido: its web SDK's script, frames and API must be allowed. */
  allowOnfido?: boolean;
  /** Card payments run on Stripe: Stripe.js's script, frames (3D Secure) and API must be allowed. */
  allowStripe?: boolean;
  /** The configured outside tools' sources (`outsideToolSources`, @connect/shared); none: nothing added. */
  outsideTools?: CspSources;
};

/** Onfido's web SDK loads from sdk.onfido.com and talks to its regional API hosts. */
const ONFIDO_SOURCES = ['https://sdk.onfido.com', 'https://*.onfido.com'];

/** Stripe.js (https://docs.stripe.com/security/guide#content-security-policy): its script, its frames, its API. */
const STRIPE_SCRIPTS = ['https://js.stripe.com', 'https://*.js.stripe.com'];
const STRIPE_FRAMES = ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'];
const STRIPE_CONNECT = ['https://api.stripe.com', 'https://*.stripe.com'];

/**
 * The headers helmet sets with these options, computed once: helmet's own middleware run against
 * a response that only records them. Through @fastify/helmet, helmet built its middlewares and
 * parsed the CSP's directives again on every request, in two hooks (one async): 6.6–8.3 µs of CPU
 * per request against 1.6–1.8 µs to set the recorded headers (issue 30). They do not depend on the
 * request, so they are the same, in the same order, as helmet's (`X-Powered-By`, which helmet
 * removes, is never set by then).
 */
function helmetHeaders(options: HelmetOptions): [name: string, value: string][] {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string) => headers.push([name, value]),
    removeHeader: () => undefined,
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * Security headers and rate limiting. The CSP lets the SPA run from its own origin only:
 * scripts from 'self', styles inline (MUI's emotion injects <style> tags), fonts self-hosted.
 */
export const securityPlugin = fp<SecurityOptions>(
  async (app, options) => {
    const tools = options.outsideTools;
    const headers = helmetHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: [
            "'self'",
            ...(options.allowRecaptcha
              ? ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/']
              : []),
            ...(options.allowOnfido ? ONFIDO_SOURCES : []),
            ...(options.allowStripe ? STRIPE_SCRIPTS : []),
            ...(tools?.scriptSrc ?? []),
          ],
          styleSrc: ["'self'", "'unsafe-inline'", ...(tools?.styleSrc ?? [])],
          // Any https: image is allowed already; a tool adds only other schemes (blob:).
          imgSrc: [
            ...new Set([
              "'self'",
              'data:',
              'https:',
              ...(options.allowOnfido ? ['blob:'] : []),
              ...(tools?.imgSrc.filter((source) => !source.startsWith('https://')) ?? []),
            ]),
          ],
          fontSrc: ["'self'", 'data:', ...(tools?.fontSrc ?? [])],
          connectSrc: [
            "'self'",
            ...options.connectSources,
            ...(options.allowOnfido ? ONFIDO_SOURCES : []),
            ...(options.allowStripe ? STRIPE_CONNECT : []),
            ...(tools?.connectSrc ?? []),
          ],
          frameSrc: [
            "'self'",
            ...(options.allowRecaptcha ? ['https://www.google.com'] : []),
            ...(options.allowOnfido ? ONFIDO_SOURCES : []),
            ...(options.allowStripe ? STRIPE_FRAMES : []),
            ...(tools?.frameSrc ?? []),
          ],
          ...(options.allowOnfido ? { workerSrc: ["'self'", 'blob:'] } : {}),
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      crossOriginEmbedderPolicy: false,
    });
    // On the raw response when the request starts, as helmet did: what the later hooks refuse (the
    // rate limit's 429), the handlers' answers and their errors all carry them.
    app.addHook('onRequest', (request, reply, done) => {
      if (request.routeOptions.config.securityHeaders !== false) {
        for (const [name, value] of headers) reply.raw.setHeader(name, value);
      }
      done();
    });

    let redis: Redis | undefined;
    if (options.redisUrl) {
      const { Redis } = await import('ioredis');
      redis = new Redis(options.redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1, enableOfflineQueue: false });
      app.addHook('onClose', async () => {
        redis?.disconnect();
      });
    }
    await app.register(rateLimit, {
      global: true,
      max: options.rateLimitMax,
      timeWindow: '1 minute',
      // The build's hashed assets are immutable files a browser fetches once per deployment, some
      // forty on a first page load: counted, they would answer 429 to an office behind one address
      // after about 25 page loads a minute. Pages, the runtime configuration and the API still count.
      allowList: (request) => request.method === 'GET' && request.url.startsWith('/assets/'),
      ...(redis ? { redis, skipOnError: true } : {}),
    });
  },
  { name: 'security' },
);
