import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import { useTheme } from '@mui/material/styles';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useQuery } from '@tanstack/react-query';
import { startTransition, useEffect, useId, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { userRoutesQuery } from '../../../lib/current-user.ts';
import { useLiveChanges } from '../../../lib/live-changes.ts';
import { useOutsideTools } from '../../../lib/outside-tools/index.ts';
import { session } from '../../../lib/storage.ts';
import { Logo } from '../../logo.tsx';
import { AppBreadcrumbs } from './app-breadcrumbs.tsx';
import { BackToTop } from './back-to-top.tsx';
import { CookieBanner } from './cookie-banner.tsx';
import { Footer } from './footer.tsx';
import { LowCreditsBanner } from './low-credits-banner.tsx';
import {
  CONTENT_MAX_WIDTH,
  MAIN_CONTENT_ID,
  MENU_COLLAPSE_MS,
  SIDE_MENU_COLLAPSED_WIDTH,
  SIDE_MENU_WIDTH,
  TOP_BAR_HEIGHT,
} from './layout-constants.ts';
import { readMenuCollapsed, writeMenuCollapsed } from './menu-collapsed.ts';
import { SideMenu } from './side-menu.tsx';
import { TopBar } from './top-bar.tsx';

/** The first element in the tab order: jumps past the top bar and menu to the page content. */
function SkipLink() {
  const { t } = useTranslation('layout');
  // Focus is moved by hand: a `#main-content` hash in the URL would count as a navigation.
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    const main = document.getElementById(MAIN_CONTENT_ID);
    main?.focus();
    main?.scrollIntoView?.();
  };
  return (
    <Box
      component="a"
      href={`#${MAIN_CONTENT_ID}`}
      onClick={handleClick}
      sx={{
        position: 'absolute',
        left: 8,
        top: -48,
        zIndex: (theme) => theme.zIndex.tooltip + 1,
        px: 2,
        py: 1,
        borderRadius: 1,
        bgcolor: 'primary.main',
        color: 'primary.contrastText',
        fontWeight: 600,
        textDecoration: 'none',
        '&:focus': { top: 8, outline: '2px solid', outlineColor: 'primary.dark', outlineOffset: 2 },
      }}
    >
      {t('skipToContent')}
    </Box>
  );
}

/**
 * Whether the page waits for the next task on the frame's first mount (issue 30). Committed with
 * the frame, the page's MUI styles (emotion compiles and inserts each in the commit) made the
 * signed-in start's longest task, ~110 ms on /dashboard; split in two commits, the main thread's
 * blocking time after the first paint of a signed-in start fell from 464 to 186 ms (medians of four
 * traces each, alternating, at load 7–9). Meanwhile the content area keeps a window's height, as
 * the start's placeholder did: the cookie banner stays at the bottom edge and the footer below the
 * fold, so nothing shifts when the page arrives.
 */
function useIsPageDeferred(): boolean {
  const [isDeferred, setIsDeferred] = useState(true);
  useEffect(() => {
    const timer = setTimeout(() => startTransition(() => setIsDeferred(false)), 0);
    return () => clearTimeout(timer);
  }, []);
  return isDeferred;
}

/**
 * The signed-in frame of spec §2.2 and shared/UI.md: skip link, 64 px top bar, a 260 px side menu
 * (collapsible to icons on large screens, a drawer on small ones), breadcrumbs above the page's
 * own title, content up to 1280 px wide, footer, back-to-top button and cookie banner.
 */
export function MainLayout() {
  const theme = useTheme();
  const isDesktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [isCollapsed, setIsCollapsed] = useState(readMenuCollapsed);
  const [isMobileOpen, setIsMobileOpen] = useState(false);
  const menuId = useId();
  const isPageDeferred = useIsPageDeferred();
  // The account's changes pushed to the page while signed in (closed on sign-out).
  useLiveChanges();
  // The configured outside tools (help widget, recording, analytics, onboarding), as consent allows.
  useOutsideTools();

  // The gate loaded the route list before this frame rendered; this reads the cached copy.
  const userUuid = session.userUuid();
  const { data: routes = [] } = useQuery({ ...userRoutesQuery(userUuid ?? ''), enabled: Boolean(userUuid) });

  const handleMenuButton = () => {
    if (isDesktop) {
      setIsCollapsed((collapsed) => {
        writeMenuCollapsed(!collapsed);
        return !collapsed;
      });
    } else {
      setIsMobileOpen((open) => !open);
    }
  };

  const menuWidth = isCollapsed ? SIDE_MENU_COLLAPSED_WIDTH : SIDE_MENU_WIDTH;
  const widthTransition = theme.transitions.create('width', {
    duration: MENU_COLLAPSE_MS,
    easing: theme.transitions.easing.sharp,
  });

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <SkipLink />
      <TopBar
        isDesktop={isDesktop}
        isMenuCollapsed={isCollapsed}
        isMobileMenuOpen={isMobileOpen}
        menuId={menuId}
        onMenuButton={handleMenuButton}
      />
      {isDesktop ? (
        <Drawer
          variant="permanent"
          // The menu's column paints the background and the border: stretched by the flex row, it is
          // as long as the page however long that is. The menu itself sticks to the viewport's height
          // (scrolling on its own when taller), where MUI would fix it: a fixed paper is one viewport
          // high and ends there in a full-page view.
          sx={{
            width: menuWidth,
            flexShrink: 0,
            transition: widthTransition,
            bgcolor: 'background.paper',
            borderRight: 1,
            borderColor: 'divider',
          }}
          slotProps={{
            paper: {
              id: menuId,
              sx: {
                position: 'sticky',
                top: 0,
                height: '100vh',
                width: '100%',
                overflowX: 'hidden',
                border: 0,
                bgcolor: 'transparent',
              },
            },
          }}
        >
          <Toolbar sx={{ minHeight: { xs: TOP_BAR_HEIGHT }, height: TOP_BAR_HEIGHT }} />
          <SideMenu routes={routes} isCollapsed={isCollapsed} />
        </Drawer>
      ) : (
        <Drawer
          variant="temporary"
          open={isMobileOpen}
          onClose={() => setIsMobileOpen(false)}
          ModalProps={{ keepMounted: true }}
          // A modal drawer: over the top bar and the cookie banner, like any other dialog.
          sx={{ zIndex: (t) => t.zIndex.modal }}
          slotProps={{ paper: { id: menuId, sx: { width: SIDE_MENU_WIDTH, bgcolor: 'background.paper' } } }}
        >
          <Toolbar
            sx={{ minHeight: { xs: TOP_BAR_HEIGHT }, height: TOP_BAR_HEIGHT, borderBottom: 1, borderColor: 'divider' }}
          >
            <Box onClick={() => setIsMobileOpen(false)}>
              <Logo to={paths.dashboard} />
            </Box>
          </Toolbar>
          <SideMenu routes={routes} onNavigate={() => setIsMobileOpen(false)} />
        </Drawer>
      )}
      <Box sx={{ flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Toolbar sx={{ minHeight: { xs: TOP_BAR_HEIGHT }, height: TOP_BAR_HEIGHT }} />
        <Box
          component="main"
          id={MAIN_CONTENT_ID}
          tabIndex={-1}
          sx={{
            flexGrow: 1,
            width: '100%',
            maxWidth: CONTENT_MAX_WIDTH,
            mx: 'auto',
            px: { xs: 3, md: 4 },
            py: 3,
            '&:focus': { outline: 'none' },
            ...(isPageDeferred ? { minHeight: '100vh' } : {}),
          }}
        >
          <LowCreditsBanner />
          <AppBreadcrumbs routes={routes} />
          {isPageDeferred ? null : <Outlet />}
        </Box>
        <Footer />
        {/* Last in the column: its sticky bar's height is kept free below the footer. */}
        <CookieBanner />
      </Box>
      <BackToTop />
    </Box>
  );
}
