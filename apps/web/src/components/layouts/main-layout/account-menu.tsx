import BadgeOutlinedIcon from '@mui/icons-material/BadgeOutlined';
import LogoutOutlinedIcon from '@mui/icons-material/LogoutOutlined';
import PersonOutlinedIcon from '@mui/icons-material/PersonOutlined';
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined';
import SupportAgentOutlinedIcon from '@mui/icons-material/SupportAgentOutlined';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { signOutEverywhere } from '../../../lib/auth.ts';
import { openHelpInstead } from '../../../lib/outside-tools/index.ts';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { session } from '../../../lib/storage.ts';
import { ComingSoonDescription, comingSoonMarkSx } from '../../coming-soon.tsx';
import { UserAvatar } from '../../user-avatar.tsx';

/**
 * The account menu of spec §2.2. Support opens the help widget: the configured provider's widget
 * when it runs, else the portal's own help page, its embedded default (lib/outside-tools).
 */
const LINKS = [
  { key: 'myAccount', to: paths.myAccount, Icon: PersonOutlinedIcon, isComingSoon: false },
  { key: 'profile', to: paths.myAccount, Icon: BadgeOutlinedIcon, isComingSoon: false },
  { key: 'invoices', to: paths.invoices, Icon: ReceiptLongOutlinedIcon, isComingSoon: false },
  { key: 'support', to: paths.supportHelp, Icon: SupportAgentOutlinedIcon, isComingSoon: false },
] as const;

export function AccountMenu() {
  const { t } = useTranslation('layout');
  const { t: tc } = useTranslation('common');
  const comingSoonId = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const userUuid = session.userUuid();
  const { data: user } = useQuery({ ...currentUserQuery(userUuid ?? ''), enabled: Boolean(userUuid) });
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [isSigningOut, setIsSigningOut] = useState(false);
  const menuId = useId();
  const buttonId = useId();

  const fullName = [user?.firstName, user?.lastName].filter(Boolean).join(' ');
  const displayName = fullName || user?.email || '';
  const isOpen = Boolean(anchor);
  const close = () => setAnchor(null);

  // Spec §2.2: sign out locally (storage cleared by signOutEverywhere), then /login. The cache is
  // cleared after leaving the frame: cleared while the frame is still mounted, its queries would
  // refetch at once without a session.
  const handleLogout = async () => {
    close();
    setIsSigningOut(true);
    try {
      await signOutEverywhere();
    } finally {
      await navigate(paths.login, { replace: true });
      queryClient.clear();
    }
  };

  return (
    <>
      <IconButton
        id={buttonId}
        aria-label={displayName ? t('accountMenu.open', { name: displayName }) : t('accountMenu.openUnnamed')}
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={isOpen ? menuId : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        disabled={isSigningOut}
        sx={{ p: 0.5 }}
      >
        <UserAvatar firstName={user?.firstName} lastName={user?.lastName} email={user?.email} size="small" />
      </IconButton>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={isOpen}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: { sx: { mt: 1, minWidth: 240, border: 1, borderColor: 'divider' } },
          list: { 'aria-labelledby': buttonId },
        }}
      >
        <Box component="li" role="none" sx={{ px: 2, pt: 1, pb: 1.5 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>
            {fullName || user?.email}
          </Typography>
          {fullName ? (
            <Typography variant="body2" color="text.secondary" noWrap>
              {user?.email}
            </Typography>
          ) : null}
        </Box>
        <Divider component="li" role="separator" />
        {LINKS.map(({ key, to, Icon, isComingSoon }) => (
          <MenuItem
            key={key}
            component={RouterLink}
            to={to}
            onClick={(event) => {
              if (key === 'support') openHelpInstead(event);
              close();
            }}
            {...(isComingSoon ? { 'aria-describedby': comingSoonId, 'data-coming-soon': tc('comingSoon.mark') } : {})}
            sx={comingSoonMarkSx}
          >
            <ListItemIcon>
              <Icon fontSize="small" aria-hidden />
            </ListItemIcon>
            <ListItemText>{t(`accountMenu.${key}`)}</ListItemText>
          </MenuItem>
        ))}
        <Divider component="li" role="separator" />
        <ComingSoonDescription id={comingSoonId} component="li" />
        <MenuItem onClick={() => void handleLogout()}>
          <ListItemIcon>
            <LogoutOutlinedIcon fontSize="small" aria-hidden />
          </ListItemIcon>
          <ListItemText>{t('accountMenu.logout')}</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}
