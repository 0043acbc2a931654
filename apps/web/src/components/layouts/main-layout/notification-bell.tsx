import NotificationsIcon from '@mui/icons-material/Notifications';
import NotificationsNoneOutlinedIcon from '@mui/icons-material/NotificationsNoneOutlined';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notificationsQuery, useMarkNotificationsRead } from '../../../lib/notifications/queries.ts';
import { QueryState } from '../../query-state.tsx';
import { NotificationEmailSwitch } from './notification-email-switch.tsx';
import { NOTIFICATION_ITEM, NotificationList, NotificationListSkeleton } from './notification-list.tsx';

/** Arrow keys, Home and End move between the list's items (Tab does too, as usual). */
function moveBetweenItems(event: KeyboardEvent<HTMLElement>) {
  const keys = ['ArrowDown', 'ArrowUp', 'Home', 'End'];
  if (!keys.includes(event.key)) return;
  const items = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(`[${NOTIFICATION_ITEM}]`));
  if (items.length === 0) return;
  event.preventDefault();
  const current = items.indexOf(document.activeElement as HTMLElement);
  const last = items.length - 1;
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? last
        : event.key === 'ArrowDown'
          ? current === -1 || current === last
            ? 0
            : current + 1
          : current <= 0
            ? last
            : current - 1;
  items[next]?.focus();
}

/**
 * The notification centre of issue 13 §5: a bell with the unread count (polled while the tab is
 * visible) that opens the newest notifications. Escape closes it and focus returns to the bell
 * (MUI's modal restores it).
 */
export function NotificationBell() {
  const { t } = useTranslation('layout');
  const notifications = useQuery(notificationsQuery());
  const markRead = useMarkNotificationsRead();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const paperRef = useRef<HTMLDivElement>(null);
  const popoverId = useId();
  const titleId = useId();

  const unread = notifications.data?.unread ?? 0;
  const isOpen = Boolean(anchor);
  const close = () => setAnchor(null);

  const markAllRead = () => {
    markRead.mutate(undefined);
    // The button is disabled once nothing is unread; focus stays in the popover.
    paperRef.current?.focus();
  };

  return (
    <>
      <IconButton
        aria-label={notifications.data ? t('notifications.openWithCount', { count: unread }) : t('notifications.open')}
        aria-haspopup="dialog"
        aria-expanded={isOpen}
        aria-controls={isOpen ? popoverId : undefined}
        onClick={(event) => {
          setAnchor(event.currentTarget);
          // The poll may be up to a period old; opening shows what is there now.
          void notifications.refetch();
        }}
      >
        <Badge
          badgeContent={unread}
          max={99}
          color="primary"
          invisible={unread === 0}
          overlap="circular"
          slotProps={{ badge: { 'aria-hidden': true } }}
        >
          {unread > 0 ? <NotificationsIcon /> : <NotificationsNoneOutlinedIcon />}
        </Badge>
      </IconButton>
      <Popover
        id={popoverId}
        open={isOpen}
        anchorEl={anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: {
            ref: paperRef,
            role: 'dialog',
            'aria-labelledby': titleId,
            onKeyDown: moveBetweenItems,
            sx: {
              mt: 1,
              // The popover keeps 16 px from each edge of the screen.
              width: { xs: 'calc(100vw - 32px)', sm: 400 },
              maxWidth: 'calc(100vw - 32px)',
              border: 1,
              borderColor: 'divider',
              display: 'flex',
              flexDirection: 'column',
              overflow: 'hidden',
            },
          },
        }}
      >
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: 1,
            pl: 2,
            pr: 1,
            py: 1,
            borderBottom: 1,
            borderColor: 'divider',
          }}
        >
          <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {t('notifications.title')}
          </Typography>
          <Button size="small" onClick={markAllRead} disabled={unread === 0 || markRead.isPending}>
            {t('notifications.markAllRead')}
          </Button>
        </Box>
        <Box sx={{ overflowY: 'auto', maxHeight: { xs: 'calc(100vh - 200px)', sm: 440 } }}>
          <QueryState
            query={notifications}
            loading={<NotificationListSkeleton />}
            errorMessage={t('notifications.loadFailed')}
            errorVariant="row"
            errorSx={{ px: 2 }}
          >
            {(data) => (
              <NotificationList
                items={data.items}
                onOpen={(item) => {
                  if (item.readAt === null) markRead.mutate([item.id]);
                  if (item.link) close();
                }}
              />
            )}
          </QueryState>
        </Box>
        <NotificationEmailSwitch />
      </Popover>
    </>
  );
}
