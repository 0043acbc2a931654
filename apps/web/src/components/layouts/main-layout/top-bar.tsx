import MenuIcon from '@mui/icons-material/Menu';
import MenuOpenIcon from '@mui/icons-material/MenuOpen';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { Logo } from '../../logo.tsx';
import { AccountMenu } from './account-menu.tsx';
import { TOP_BAR_HEIGHT } from './layout-constants.ts';
import { NotificationBell } from './notification-bell.tsx';
import { PlanStatus } from './plan-status.tsx';

type TopBarProps = {
  /** Large screens collapse the side menu to icons; small screens open it as a drawer. */
  isDesktop: boolean;
  isMenuCollapsed: boolean;
  isMobileMenuOpen: boolean;
  menuId: string;
  onMenuButton: () => void;
};

/** The 64 px top bar of spec §2.2: menu control, logo, sandbox marker, plan, notifications, account menu. */
export function TopBar({ isDesktop, isMenuCollapsed, isMobileMenuOpen, menuId, onMenuButton }: TopBarProps) {
  const { t } = useTranslation('layout');
  const isSandbox = runtimeConfig().sandboxes.identity;
  const menuButtonLabel = isDesktop ? t(isMenuCollapsed ? 'menu.expand' : 'menu.collapse') : t('menu.open');

  return (
    <AppBar
      position="fixed"
      color="inherit"
      elevation={0}
      sx={{
        zIndex: (theme) => theme.zIndex.drawer + 1,
        bgcolor: 'background.paper',
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      <Toolbar
        disableGutters
        sx={{
          minHeight: { xs: TOP_BAR_HEIGHT },
          height: TOP_BAR_HEIGHT,
          px: { xs: 1, sm: 2 },
          gap: { xs: 1, sm: 1.5 },
        }}
      >
        <IconButton
          aria-label={menuButtonLabel}
          {...(isDesktop
            ? { 'aria-expanded': !isMenuCollapsed }
            : { 'aria-expanded': isMobileMenuOpen, 'aria-haspopup': 'dialog' as const })}
          aria-controls={menuId}
          onClick={onMenuButton}
          edge="start"
        >
          {isDesktop && !isMenuCollapsed ? <MenuOpenIcon /> : <MenuIcon />}
        </IconButton>
        {/* On narrow screens the product name is clipped rather than wrapped onto two lines. */}
        <Box
          sx={{
            display: 'flex',
            minWidth: 0,
            whiteSpace: 'nowrap',
            '& a, & a > *': { minWidth: 0, maxWidth: '100%' },
            '& svg': { flexShrink: 0 },
            '& .c-logo-name': { minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' },
          }}
        >
          <Logo to={paths.dashboard} />
        </Box>
        {isSandbox ? (
          <Tooltip title={t('topBar.sandboxHint')} describeChild>
            <Chip
              label={t('topBar.sandbox')}
              size="small"
              variant="outlined"
              color="warning"
              tabIndex={0}
              sx={{ fontWeight: 600, display: { xs: 'none', sm: 'inline-flex' } }}
            />
          </Tooltip>
        ) : null}
        <Box sx={{ flexGrow: 1 }} />
        <PlanStatus />
        <NotificationBell />
        <AccountMenu />
      </Toolbar>
    </AppBar>
  );
}
