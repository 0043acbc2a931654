/**
 * The Onfido web SDK, loaded from Onfido's CDN only when the server's provider is Onfido (never
 * for the sandbox, so the bundle carries none of it). It needs the CSP to allow
 * https://sdk.onfido.com and Onfido's API hosts (docs/decisions/identity-and-sign-in.md, "Identity verification").
 */
export const ONFIDO_SDK_URL = 'https://sdk.onfido.com/v14';

export type OnfidoHandle = { tearDown: () => void };
type OnfidoGlobal = {
  init: (options: {
    token: string;
    containerId: string;
    steps: string[];
    onComplete: () => void;
    onError: (error: unknown) => void;
  }) => OnfidoHandle;
};

let loading: Promise<OnfidoGlobal> | undefined;

export function loadOnfidoSdk(): Promise<OnfidoGlobal> {
  const existing = (window as unknown as { Onfido?: OnfidoGlobal }).Onfido;
  if (existing) return Promise.resolve(existing);
  loading ??= new Promise<OnfidoGlobal>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = ONFIDO_SDK_URL;
    script.async = true;
    script.onload = () => {
      const sdk = (window as unknown as { Onfido?: OnfidoGlobal }).Onfido;
      if (sdk) resolve(sdk);
      else reject(new Error('The Onfido SDK did not start'));
    };
    script.onerror = () => {
      loading = undefined;
      script.remove();
      reject(new Error('The Onfido SDK could not be loaded'));
    };
    document.head.append(script);
  });
  return loading;
}
