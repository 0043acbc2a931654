import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';

/**
 * The text areas of spec §1, plus common and auth, and two for the shell: layout (menu, top bar,
 * footer) and account (onboarding, dashboard, profile, support). English is the only locale.
 */
export const NAMESPACES = [
  'common',
  'auth',
  'layout',
  'account',
  'applicationManager',
  'bill',
  'integrate',
  'quantPortfolio',
  'accountPlan',
  'bridge',
  'authoriseFlow',
  'reward',
  'kyc',
  'usage',
  'staff',
  'beta',
] as const;
export type Namespace = (typeof NAMESPACES)[number];

// Each namespace is its own chunk: a page loads only the text it shows.
const files = import.meta.glob<{ default: Record<string, unknown> }>('../locales/en/*.json');

const lazyLocales: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, callback) {
    const load = files[`../locales/${language}/${namespace}.json`];
    if (!load) {
      callback(new Error(`No ${language} texts for ${namespace}`), null);
      return;
    }
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

export async function initI18n(initialNamespaces: Namespace[] = ['common', 'auth']) {
  await i18next
    .use(lazyLocales)
    .use(initReactI18next)
    .init({
      lng: 'en',
      fallbackLng: 'en',
      supportedLngs: ['en'],
      ns: initialNamespaces,
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      react: { useSuspense: true },
      returnNull: false,
    });
  return i18next;
}

export { i18next };
