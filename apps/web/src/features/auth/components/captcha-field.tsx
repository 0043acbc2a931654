import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { AltchaCaptcha, type CaptchaInputProps } from './altcha-captcha.tsx';
import { RecaptchaCaptcha } from './recaptcha-captcha.tsx';

/** The sign-up captcha of spec §5, whichever the server verifies (runtime config). */
export function CaptchaField(props: CaptchaInputProps) {
  const { captcha } = runtimeConfig();
  if (captcha.provider === 'recaptcha' && captcha.siteKey)
    return <RecaptchaCaptcha siteKey={captcha.siteKey} {...props} />;
  return <AltchaCaptcha {...props} />;
}
