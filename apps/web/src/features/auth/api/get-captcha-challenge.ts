import { ZCaptchaChallenge, type TCaptchaChallenge } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** GET /api/connect/captcha/challenge: a signed proof-of-work challenge for sign-up (no session). */
export function getCaptchaChallenge(): Promise<TCaptchaChallenge> {
  return api.connect.get('/captcha/challenge', { anonymous: true, schema: ZCaptchaChallenge });
}
