import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useMatches } from 'react-router';
import { runtimeConfig } from '../lib/runtime-config.ts';

export type RouteHandle = { title?: string };

/** Sets the page title with the product suffix (spec §4 step 1, §9) and scrolls to the top. */
export function Root() {
  const matches = useMatches();
  const { t } = useTranslation('common');
  const titleKey = [...matches].reverse().find((match) => (match.handle as RouteHandle | undefined)?.title)?.handle as
    RouteHandle | undefined;
  const title = titleKey?.title ? t(titleKey.title) : '';
  const productName = runtimeConfig().productName;

  const { pathname } = useLocation();

  useEffect(() => {
    document.title = title ? `${title} | ${productName}` : productName;
  }, [title, productName]);

  // Every navigation starts at the top of the page (spec §2.1).
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);

  return <Outlet />;
}
