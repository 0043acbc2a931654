import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';

export type SecurityOptions = {
  rateLimitMax: number;
  redisUrl: string | undefined;
  /** Extra origins the SPA talks to (AWS Cognito's endpoint when the pool is on AWS). */
  connectSources: string[];
  /** Google reCAPTCHA is configured: its script and frame must be allowed. */
  allowRecaptcha: boolean;
};

/**
 * Security headers and rate limiting. The CSP lets the SPA run from its own origin only:
 * scripts from 'self', styles inline (MUI's emotion injects <style> tags), fonts self-hosted.
 */
export const securityPlugin = fp<SecurityOptions>(
  async (app, options) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: [
            "'self'",
            ...(options.allowRecaptcha
              ? ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/']
              : []),
          ],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'https:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", ...options.connectSources],
          frameSrc: ["'self'", ...(options.allowRecaptcha ? ['https://www.google.com'] : [])],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      crossOriginEmbedderPolicy: false,
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
      ...(redis ? { redis, skipOnError: true } : {}),
    });
  },
  { name: 'security' },
);
