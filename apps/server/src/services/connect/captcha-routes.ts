import { ZCaptchaChallenge } from '@connect/shared';
import { captchaKey, createCaptchaChallenge } from '../../lib/captcha.ts';
import { resolveSecretKey } from '../../lib/secret-box.ts';
import type { App, Deps } from '../../types.ts';

/** The sign-up captcha's challenge endpoint (self-hosted proof of work). */
export async function captchaRoutes(app: App, deps: Deps) {
  const key = captchaKey(resolveSecretKey(deps.config.secretKey, deps.config.dataDir));
  app.get(
    '/captcha/challenge',
    {
      config: { access: 'public' },
      schema: {
        tags: ['connect'],
        summary: 'A proof-of-work challenge for the sign-up captcha (ALTCHA format)',
        description:
          'Find `number` in 0..maxnumber with SHA-256(salt + number) = challenge, then send base64(JSON {algorithm, challenge, number, salt, signature}) as the `captcha` entry of SignUp’s ValidationData. A challenge is valid for 10 minutes and its solution is accepted once. Nothing is stored when a challenge is issued.',
        response: { 200: ZCaptchaChallenge },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return createCaptchaChallenge(key);
    },
  );
}
