import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { OUTSIDE_TOOL_PROVIDERS, OUTSIDE_TOOLS } from '@connect/shared/light';
import {
  COOKIE_CATEGORIES,
  hasConsent,
  onConsentChange,
  readConsent,
} from '../../components/layouts/main-layout/cookie-consent.ts';
import { runtimeConfig } from '../runtime-config.ts';
import { session } from '../storage.ts';
import { createOutsideTools } from './controller.ts';

/**
 * The page's four outside tools (spec §1; docs/decisions, "The page's four outside tools"): a help
 * widget (Zendesk), session recording (Hotjar), product analytics (PostHog) and an onboarding tool
 * (Appcues), each on only when the runtime configuration names it. Their embedded defaults need no
 * outside service: the support page is the help widget, the getting-started checklist the
 * onboarding tool, and there is no recording or analytics.
 */
export const outsideTools = createOutsideTools();

/**
 * Props of an element whose text session recording and analytics must never capture (a client
 * secret shown once): Hotjar's `data-hj-suppress` and PostHog's `ph-no-capture`.
 */
export const NOT_RECORDED = { 'data-hj-suppress': true, className: 'ph-no-capture' } as const;

/**
 * Runs the configured tools while the signed-in frame is open (main-layout.tsx): started for the
 * signed-in user when the consent they need is given, stopped when it is withdrawn, told to forget
 * the user when the frame closes (sign-out). Nothing configured: nothing happens at all.
 */
export function useOutsideTools(): void {
  useEffect(() => {
    const tools = runtimeConfig().outsideTools ?? {};
    if (!OUTSIDE_TOOLS.some((tool) => tools[tool])) return;
    const userId = session.userUuid();
    outsideTools.sync({ tools, consent: readConsent(), userId });
    const stopListening = onConsentChange((consent) => outsideTools.sync({ tools, consent, userId }));
    return () => {
      stopListening();
      outsideTools.signOut();
    };
  }, []);
}

/**
 * The account menu's Support and the pages' help buttons are links to /support/help; when the help
 * widget runs, a click opens it instead and the link is not followed.
 */
export function openHelpInstead(event: { preventDefault: () => void }): void {
  if (outsideTools.openHelpWidget()) event.preventDefault();
}

/** Whether the getting-started checklist shows: yes, unless the onboarding tool is configured, allowed and not broken. */
function isChecklistShown(): boolean {
  const setting = runtimeConfig().outsideTools?.onboarding;
  if (!setting || outsideTools.state('onboarding') === 'failed') return true;
  return !hasConsent(COOKIE_CATEGORIES[OUTSIDE_TOOL_PROVIDERS[setting.provider].consent]);
}

/**
 * The onboarding tool's embedded default: the dashboard's getting-started checklist shows unless a
 * configured onboarding provider runs in its place (decided from the configuration and the consent,
 * not from the script's arrival, so the dashboard does not jump when it loads; a provider that fails
 * to load brings the checklist back).
 */
export function useShowsGettingStartedChecklist(): boolean {
  const subscribe = useCallback((onChange: () => void) => {
    const stopConsent = onConsentChange(onChange);
    const stopTools = outsideTools.subscribe(onChange);
    return () => {
      stopConsent();
      stopTools();
    };
  }, []);
  return useSyncExternalStore(subscribe, isChecklistShown);
}
