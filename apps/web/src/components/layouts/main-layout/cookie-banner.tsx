import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadChunk } from '../../../app/lazy.ts';
import {
  ALL_CATEGORIES,
  COOKIE_CATEGORIES,
  onCookieChoicesRequest,
  readConsent,
  writeConsent,
  type CookieCategory,
} from './cookie-consent.ts';

/** MUI's dialog and switches load when the visitor first asks to manage their choices. */
const CookieDialog = lazy(() =>
  loadChunk(() => import('./cookie-dialog.tsx')).then((module) => ({ default: module.CookieDialog })),
);

/**
 * The cookie banner (spec §2.2, categories of §9): a bar at the bottom edge of the content column
 * that never covers the page for good (the main layout places it after the footer). It stays until
 * the visitor chooses: accept all, necessary only, or pick categories in a dialog. The choice is
 * remembered in the `cookie_consent` cookie for a year (see cookie-consent.ts). The footer's
 * "Cookie settings" opens the dialog again later, with the current choice, to change or withdraw it.
 *
 * Plain elements (styles/plain-frame.css, drawn like MUI's Paper, Typography and small buttons),
 * so the frame's placeholder can paint it before MUI has loaded (frame-placeholder.tsx): on a
 * signed-in start it is the first screen's largest text, and so its Largest Contentful Paint.
 */
export function CookieBanner() {
  const { t } = useTranslation('layout');
  const [consent, setConsent] = useState(() => readConsent());
  const [isDialogOpen, setIsDialogOpen] = useState(false);
  // Each opening starts from the choice stored then (the dialog is remounted with this key).
  const [dialogOpenings, setDialogOpenings] = useState(0);
  const titleId = useId();

  const openDialog = () => {
    setDialogOpenings((count) => count + 1);
    setIsDialogOpen(true);
  };
  useEffect(
    () =>
      onCookieChoicesRequest(() => {
        setConsent(readConsent());
        setDialogOpenings((count) => count + 1);
        setIsDialogOpen(true);
      }),
    [],
  );

  const choose = (categories: CookieCategory[]) => {
    setIsDialogOpen(false);
    setConsent(writeConsent(categories));
  };

  const dialog =
    dialogOpenings > 0 ? (
      <Suspense fallback={null}>
        <CookieDialog
          key={dialogOpenings}
          isOpen={isDialogOpen}
          initial={consent ?? [COOKIE_CATEGORIES.necessary]}
          onClose={() => setIsDialogOpen(false)}
          onChoose={choose}
        />
      </Suspense>
    ) : null;

  if (consent) return dialog;

  return (
    <>
      <section className="c-cookie-banner" aria-labelledby={titleId}>
        <div className="c-cookie-banner-row">
          <div className="c-cookie-banner-text">
            <h2 id={titleId} className="c-cookie-banner-title">
              {t('cookies.title')}
            </h2>
            <p className="c-body2">{t('cookies.description')}</p>
          </div>
          <div className="c-cookie-banner-actions">
            <button type="button" className="c-button c-button-small" onClick={() => choose(ALL_CATEGORIES)}>
              {t('cookies.acceptAll')}
            </button>
            <button
              type="button"
              className="c-button c-button-small c-button-outlined"
              onClick={() => choose([COOKIE_CATEGORIES.necessary])}
            >
              {t('cookies.necessaryOnly')}
            </button>
            <button
              type="button"
              className="c-button c-button-small c-button-text"
              aria-haspopup="dialog"
              onClick={openDialog}
            >
              {t('cookies.manage')}
            </button>
          </div>
        </div>
      </section>
      {dialog}
    </>
  );
}
