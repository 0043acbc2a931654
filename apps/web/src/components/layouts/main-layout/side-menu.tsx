import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { alpha, type Theme } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import { useId, useMemo, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import type { RouteItem } from '@connect/shared';
import { ComingSoonDescription, comingSoonMarkSx } from '../../coming-soon.tsx';
import { visuallyHidden } from '../../visually-hidden.ts';
import { MENU_COLLAPSE_MS, TOOLTIP_ENTER_DELAY_MS } from './layout-constants.ts';
import { menuIconFor } from './menu-icons.ts';
import { isEntryActive, menuSections, type MenuEntry, type RouteCategory } from './menu-model.ts';

const CATEGORY_KEYS: Record<RouteCategory, string> = {
  Core: 'menu.categories.core',
  'Developer Hub': 'menu.categories.developerHub',
  'Connect Admin': 'menu.categories.connectAdmin',
};

/**
 * Props that mark an entry whose area is not built yet: the "Soon" mark (shown only where the title
 * is, and not again under a parent that has it) and the "Coming soon" description.
 */
function comingSoonProps(entry: MenuEntry, descriptionId: string, mark: string, isMarkShown: boolean) {
  if (!entry.isComingSoon) return {};
  return { 'aria-describedby': descriptionId, ...(isMarkShown ? { 'data-coming-soon': mark } : {}) };
}

/** How this menu marks coming areas: its one "Coming soon" description, the mark and the tooltip. */
type ComingSoon = { descriptionId: string; mark: string; tooltip: (title: string) => string };

function useComingSoon(): ComingSoon {
  const { t } = useTranslation('common');
  const descriptionId = useId();
  return { descriptionId, mark: t('comingSoon.mark'), tooltip: (title) => t('comingSoon.tooltip', { title }) };
}

type SideMenuProps = {
  routes: RouteItem[];
  isCollapsed?: boolean;
  /** Called after an item is chosen (the small-screen drawer closes). */
  onNavigate?: () => void;
};

const focusRing = (theme: Theme) => ({
  outline: `2px solid ${theme.palette.primary.main}`,
  outlineOffset: -2,
});

/** A top-level item: 44 px, icon and title, a left bar and bold title when active (not colour alone). */
const itemSx = (isCollapsed: boolean) => (theme: Theme) => ({
  minHeight: 44,
  mx: 1,
  px: isCollapsed ? 0 : 1.5,
  borderRadius: 1,
  justifyContent: isCollapsed ? 'center' : 'flex-start',
  color: theme.palette.text.secondary,
  '& .MuiListItemIcon-root': { minWidth: isCollapsed ? 0 : 36, color: 'inherit', justifyContent: 'center' },
  '&:hover': { bgcolor: theme.palette.action.hover, color: theme.palette.text.primary },
  '&.Mui-selected, &.Mui-selected:hover': {
    bgcolor: alpha(theme.palette.primary.main, 0.08),
    color: theme.palette.primary.main,
    boxShadow: `inset 3px 0 0 ${theme.palette.primary.main}`,
  },
  '&.Mui-focusVisible': focusRing(theme),
});

/** A sub-menu item: 40 px high (spec §2.2), indented under its parent's title. */
const subItemSx = (theme: Theme) => ({
  height: 40,
  mx: 1,
  pl: 6.5,
  borderRadius: 1,
  color: theme.palette.text.secondary,
  '&:hover': { bgcolor: theme.palette.action.hover, color: theme.palette.text.primary },
  '&.Mui-selected, &.Mui-selected:hover': {
    bgcolor: alpha(theme.palette.primary.main, 0.08),
    color: theme.palette.primary.main,
    boxShadow: `inset 3px 0 0 ${theme.palette.primary.main}`,
  },
  '&.Mui-focusVisible': focusRing(theme),
});

const textSlotProps = (isActive: boolean) => ({
  primary: { sx: { fontSize: 14, fontWeight: isActive ? 600 : 500, lineHeight: 1.4 } },
});

/** Link props for an entry: the router for portal pages, a new tab (rel noopener) for external ones. */
function linkProps(entry: MenuEntry) {
  return entry.isExternal
    ? ({ component: 'a', href: entry.to, target: '_blank', rel: 'noopener noreferrer' } as const)
    : ({ component: RouterLink, to: entry.to } as const);
}

/**
 * In the collapsed menu every item is an icon: its tooltip names it (shown on hover and keyboard
 * focus) and the same name is the control's accessible name.
 */
function WithTooltip({ title, isShown, children }: { title: string; isShown: boolean; children: ReactElement }) {
  if (!isShown) return children;
  return (
    <Tooltip
      title={title}
      placement="right"
      enterDelay={TOOLTIP_ENTER_DELAY_MS}
      enterNextDelay={TOOLTIP_ENTER_DELAY_MS}
    >
      {children}
    </Tooltip>
  );
}

/** A collapsed item's tooltip: its name, and that it is coming when it is. */
function tooltipOf(entry: MenuEntry, comingSoon: ComingSoon): string {
  const title = entry.tooltip ?? entry.title;
  return entry.isComingSoon ? comingSoon.tooltip(title) : title;
}

function LeafItem({
  entry,
  isCollapsed,
  comingSoon,
  onNavigate,
}: {
  entry: MenuEntry;
  isCollapsed: boolean;
  comingSoon: ComingSoon;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation('layout');
  const { pathname } = useLocation();
  const isActive = isEntryActive(entry, pathname);
  const Icon = menuIconFor(entry.icon);
  const newTab = t('menu.opensInNewTab');
  return (
    <li>
      <WithTooltip title={tooltipOf(entry, comingSoon)} isShown={isCollapsed}>
        <ListItemButton
          {...linkProps(entry)}
          selected={isActive}
          aria-current={isActive ? 'page' : undefined}
          {...(isCollapsed ? { 'aria-label': entry.isExternal ? `${entry.title} ${newTab}` : entry.title } : {})}
          {...comingSoonProps(entry, comingSoon.descriptionId, comingSoon.mark, !isCollapsed)}
          onClick={onNavigate}
          sx={[itemSx(isCollapsed), comingSoonMarkSx]}
        >
          <ListItemIcon>
            <Icon fontSize="small" aria-hidden />
          </ListItemIcon>
          {isCollapsed ? null : (
            <>
              <ListItemText primary={entry.title} slotProps={textSlotProps(isActive)} />
              {entry.isExternal ? (
                <>
                  <OpenInNewIcon sx={{ fontSize: 16, ml: 1 }} aria-hidden />
                  <Box component="span" sx={visuallyHidden}>
                    {newTab}
                  </Box>
                </>
              ) : null}
            </>
          )}
        </ListItemButton>
      </WithTooltip>
    </li>
  );
}

function SubItem({
  entry,
  comingSoon,
  isMarkShown,
  onNavigate,
}: {
  entry: MenuEntry;
  comingSoon: ComingSoon;
  isMarkShown: boolean;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation('layout');
  const { pathname } = useLocation();
  const isActive = isEntryActive(entry, pathname);
  return (
    <li>
      <ListItemButton
        {...linkProps(entry)}
        selected={isActive}
        aria-current={isActive ? 'page' : undefined}
        {...comingSoonProps(entry, comingSoon.descriptionId, comingSoon.mark, isMarkShown)}
        onClick={onNavigate}
        sx={[subItemSx, comingSoonMarkSx]}
      >
        <ListItemText primary={entry.title} slotProps={textSlotProps(isActive)} />
        {entry.isExternal ? (
          <Box component="span" sx={visuallyHidden}>
            {t('menu.opensInNewTab')}
          </Box>
        ) : null}
      </ListItemButton>
    </li>
  );
}

/**
 * An item with a sub-menu. Expanded, it is a disclosure button that shows its children below it
 * (open while one of them is the current page). Collapsed to icons, there is no room below, so
 * the same button opens the children in a menu beside it.
 */
function GroupItem({
  entry,
  isCollapsed,
  comingSoon,
  onNavigate,
}: {
  entry: MenuEntry;
  isCollapsed: boolean;
  comingSoon: ComingSoon;
  onNavigate?: () => void;
}) {
  const { pathname } = useLocation();
  const submenuId = useId();
  const buttonId = useId();
  const containsActive = entry.children.some((child) => isEntryActive(child, pathname));
  const [isOpen, setIsOpen] = useState(containsActive);
  // A navigation into the group (a link elsewhere on the page) opens it, so the active item shows.
  const [openedFor, setOpenedFor] = useState(containsActive ? pathname : null);
  if (containsActive && openedFor !== pathname) {
    setOpenedFor(pathname);
    setIsOpen(true);
  }
  const [flyoutAnchor, setFlyoutAnchor] = useState<HTMLElement | null>(null);
  const Icon = menuIconFor(entry.icon);

  if (isCollapsed) {
    const isFlyoutOpen = Boolean(flyoutAnchor);
    return (
      <li>
        <WithTooltip title={tooltipOf(entry, comingSoon)} isShown={!isFlyoutOpen}>
          <ListItemButton
            id={buttonId}
            aria-label={entry.title}
            aria-haspopup="menu"
            aria-expanded={isFlyoutOpen}
            aria-controls={isFlyoutOpen ? submenuId : undefined}
            {...comingSoonProps(entry, comingSoon.descriptionId, comingSoon.mark, false)}
            selected={containsActive}
            onClick={(event) => setFlyoutAnchor(event.currentTarget)}
            sx={itemSx(true)}
          >
            <ListItemIcon>
              <Icon fontSize="small" aria-hidden />
            </ListItemIcon>
          </ListItemButton>
        </WithTooltip>
        <Menu
          id={submenuId}
          anchorEl={flyoutAnchor}
          open={isFlyoutOpen}
          onClose={() => setFlyoutAnchor(null)}
          anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'left' }}
          slotProps={{ list: { 'aria-labelledby': buttonId, dense: true } }}
        >
          {entry.children.map((child) => {
            const isActive = isEntryActive(child, pathname);
            return (
              <MenuItem
                key={child.key}
                {...linkProps(child)}
                selected={isActive}
                aria-current={isActive ? 'page' : undefined}
                {...comingSoonProps(child, comingSoon.descriptionId, comingSoon.mark, !entry.isComingSoon)}
                onClick={() => {
                  setFlyoutAnchor(null);
                  onNavigate?.();
                }}
                sx={[{ minHeight: 40, fontSize: 14, fontWeight: isActive ? 600 : 500 }, comingSoonMarkSx]}
              >
                {child.title}
              </MenuItem>
            );
          })}
        </Menu>
      </li>
    );
  }

  return (
    <li>
      <ListItemButton
        aria-expanded={isOpen}
        aria-controls={submenuId}
        {...comingSoonProps(entry, comingSoon.descriptionId, comingSoon.mark, true)}
        onClick={() => setIsOpen((open) => !open)}
        sx={[itemSx(false), comingSoonMarkSx]}
      >
        <ListItemIcon>
          <Icon fontSize="small" aria-hidden />
        </ListItemIcon>
        <ListItemText primary={entry.title} slotProps={textSlotProps(containsActive)} />
        {/* After the "Soon" mark (order 0), which CSS draws last in the button. */}
        {isOpen ? (
          <ExpandLessIcon fontSize="small" aria-hidden sx={{ order: 1 }} />
        ) : (
          <ExpandMoreIcon fontSize="small" aria-hidden sx={{ order: 1 }} />
        )}
      </ListItemButton>
      <Collapse in={isOpen} timeout={MENU_COLLAPSE_MS} unmountOnExit>
        <List id={submenuId} disablePadding aria-label={entry.title}>
          {entry.children.map((child) => (
            <SubItem
              key={child.key}
              entry={child}
              comingSoon={comingSoon}
              isMarkShown={!entry.isComingSoon}
              onNavigate={onNavigate}
            />
          ))}
        </List>
      </Collapse>
    </li>
  );
}

/**
 * The side menu of spec §2.2: the server's route list grouped by category and ordered, with
 * sub-menus, tooltips when collapsed to icons, and external links opening in a new tab.
 */
export function SideMenu({ routes, isCollapsed = false, onNavigate }: SideMenuProps) {
  const { t } = useTranslation('layout');
  const sections = useMemo(() => menuSections(routes), [routes]);
  const baseId = useId();
  const comingSoon = useComingSoon();
  return (
    <Box component="nav" aria-label={t('menu.label')} sx={{ py: 1 }}>
      <ComingSoonDescription id={comingSoon.descriptionId} />
      {sections.map((section, index) => {
        const headingId = `${baseId}-${index}`;
        return (
          <List
            key={section.category}
            aria-labelledby={headingId}
            dense
            sx={{
              py: 0.5,
              display: 'flex',
              flexDirection: 'column',
              gap: 0.25,
              ...(index > 0 && isCollapsed ? { borderTop: 1, borderColor: 'divider', mt: 0.5, pt: 1 } : {}),
            }}
            subheader={
              <ListSubheader
                id={headingId}
                disableSticky
                sx={
                  isCollapsed
                    ? visuallyHidden
                    : {
                        bgcolor: 'transparent',
                        lineHeight: '32px',
                        fontSize: 12,
                        fontWeight: 600,
                        letterSpacing: '0.04em',
                        textTransform: 'uppercase',
                        color: 'text.secondary',
                        px: 2.5,
                        mt: index > 0 ? 1 : 0,
                      }
                }
              >
                {t(CATEGORY_KEYS[section.category])}
              </ListSubheader>
            }
          >
            {section.entries.map((entry) =>
              entry.children.length > 0 ? (
                <GroupItem
                  key={entry.key}
                  entry={entry}
                  isCollapsed={isCollapsed}
                  comingSoon={comingSoon}
                  onNavigate={onNavigate}
                />
              ) : (
                <LeafItem
                  key={entry.key}
                  entry={entry}
                  isCollapsed={isCollapsed}
                  comingSoon={comingSoon}
                  onNavigate={onNavigate}
                />
              ),
            )}
          </List>
        );
      })}
    </Box>
  );
}
