import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CaptchaInputProps } from './altcha-captcha.tsx';

/**
 * Google reCAPTCHA v2, used only when the server is configured with reCAPTCHA keys (runtime
 * config `captcha.provider === 'recaptcha'`). Google's script is loaded on demand, never
 * otherwise. Note the server's CSP must then allow www.google.com and www.gstatic.com.
 */
type Grecaptcha = {
  render: (
    container: HTMLElement,
    parameters: {
      sitekey: string;
      callback: (captchaResponse: string) => void;
      'expired-callback': () => void;
      'error-callback': () => void;
    },
  ) => number;
  reset: (widgetId?: number) => void;
};

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
    onConnectRecaptchaLoad?: () => void;
  }
}

let loading: Promise<Grecaptcha> | undefined;

function loadRecaptcha(): Promise<Grecaptcha> {
  loading ??= new Promise<Grecaptcha>((resolve, reject) => {
    window.onConnectRecaptchaLoad = () =>
      window.grecaptcha ? resolve(window.grecaptcha) : reject(new Error('no grecaptcha'));
    const script = document.createElement('script');
    script.src = 'https://www.google.com/recaptcha/api.js?onload=onConnectRecaptchaLoad&render=explicit';
    script.async = true;
    script.onerror = () => {
      loading = undefined;
      script.remove();
      reject(new Error('reCAPTCHA could not be loaded'));
    };
    document.head.append(script);
  });
  return loading;
}

export function RecaptchaCaptcha({ siteKey, value, onChange, error }: CaptchaInputProps & { siteKey: string }) {
  const { t } = useTranslation('auth');
  const containerRef = useRef<HTMLDivElement>(null);
  const widget = useRef<{ api: Grecaptcha; id: number } | null>(null);
  const onChangeRef = useRef(onChange);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');

  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  useEffect(() => {
    let isCancelled = false;
    // A fresh element per render: Google refuses to render twice into one (StrictMode mounts twice).
    const host = document.createElement('div');
    containerRef.current?.append(host);
    loadRecaptcha().then(
      (api) => {
        if (isCancelled) return;
        const id = api.render(host, {
          sitekey: siteKey,
          callback: (captchaResponse) => onChangeRef.current(captchaResponse),
          'expired-callback': () => onChangeRef.current(''),
          'error-callback': () => onChangeRef.current(''),
        });
        widget.current = { api, id };
        setState('ready');
      },
      () => !isCancelled && setState('failed'),
    );
    return () => {
      isCancelled = true;
      widget.current = null;
      host.remove();
    };
  }, [siteKey]);

  // The form clears the value after a failed sign-up: a captcha response is accepted once.
  useEffect(() => {
    if (!value && widget.current) widget.current.api.reset(widget.current.id);
  }, [value]);

  return (
    <Box>
      <Box ref={containerRef} sx={{ minHeight: 78 }} />
      {state !== 'ready' || error ? (
        <FormHelperText error={state === 'failed' || Boolean(error)} role={state === 'failed' ? 'alert' : undefined}>
          {state === 'loading'
            ? t('captcha.recaptchaLoading')
            : state === 'failed'
              ? t('captcha.recaptchaFailed')
              : error}
        </FormHelperText>
      ) : null}
    </Box>
  );
}
