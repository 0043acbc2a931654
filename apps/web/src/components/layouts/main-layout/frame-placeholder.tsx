import { Logo } from '../../logo.tsx';
import { CookieBanner } from './cookie-banner.tsx';
import { SIDE_MENU_COLLAPSED_WIDTH, SIDE_MENU_WIDTH } from './layout-constants.ts';
import { readMenuCollapsed } from './menu-collapsed.ts';

/**
 * The signed-in frame's outline — top bar with the logo, the menu's column, the content column
 * with the cookie banner at its bottom edge — in plain elements (styles/plain-frame.css), shown by
 * a signed-in start while the session is restored and the frame's chunks load (app/router.tsx,
 * `HydrateFallback`). The banner is the first screen's largest text, so painting it here, before
 * MUI, Amplify and the gate's requests, is what sets /dashboard's Largest Contentful Paint (issue
 * 30; the figures are in docs/benchmarks.md). The real frame replaces it with the same geometry.
 */
export function FramePlaceholder() {
  const menuWidth = readMenuCollapsed() ? SIDE_MENU_COLLAPSED_WIDTH : SIDE_MENU_WIDTH;
  return (
    <div className="c-frame">
      <div className="c-frame-top-bar">
        <Logo />
      </div>
      <div className="c-frame-menu" style={{ width: menuWidth }} />
      <div className="c-frame-column">
        <main className="c-frame-main" aria-busy="true" />
        <CookieBanner />
      </div>
    </div>
  );
}
