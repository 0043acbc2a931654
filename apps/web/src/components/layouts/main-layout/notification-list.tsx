import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import NotificationsNoneOutlinedIcon from '@mui/icons-material/NotificationsNoneOutlined';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { TNotification } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { formatDateTime } from '../../../lib/format.ts';
import { relativeTime } from '../../../lib/notifications/relative-time.ts';
import { toneOf, type NotificationTone } from '../../../lib/notifications/tone.ts';
import { visuallyHidden } from '../../visually-hidden.ts';

/** Marks the list's items, for the popover's arrow-key movement. */
export const NOTIFICATION_ITEM = 'data-notification-item';

const TONE_ICONS = {
  success: CheckCircleOutlineIcon,
  error: ErrorOutlineIcon,
  info: InfoOutlinedIcon,
} satisfies Record<NotificationTone, unknown>;

function When({ createdAt }: { createdAt: string }) {
  const { t } = useTranslation('layout');
  const when = relativeTime(createdAt, new Date());
  return (
    <Typography
      component="time"
      dateTime={createdAt}
      title={formatDateTime(createdAt)}
      variant="caption"
      color="text.secondary"
      sx={{ display: 'block', mt: 0.5 }}
    >
      {'date' in when ? when.date : t(`notifications.time.${when.key}`, { count: when.count })}
    </Typography>
  );
}

function NotificationRow({ item, onOpen }: { item: TNotification; onOpen: (item: TNotification) => void }) {
  const { t } = useTranslation('layout');
  const tone = toneOf(item.kind);
  const Icon = TONE_ICONS[tone];
  const isUnread = item.readAt === null;
  // A portal path opens in the app; anything else is not followed (the server only writes paths).
  const to = item.link?.startsWith('/') ? item.link : null;
  const linkProps = to ? { component: RouterLink, to } : {};

  return (
    <ListItem disablePadding divider>
      <ListItemButton
        {...linkProps}
        {...{ [NOTIFICATION_ITEM]: '' }}
        onClick={() => onOpen(item)}
        sx={{
          alignItems: 'flex-start',
          gap: 1.5,
          py: 1.5,
          px: 2,
          bgcolor: isUnread ? 'action.hover' : undefined,
        }}
      >
        <Icon color={tone} fontSize="small" aria-hidden sx={{ mt: 0.25, flexShrink: 0 }} />
        <Box sx={{ minWidth: 0, flex: 1 }}>
          {isUnread ? (
            <Box component="span" sx={visuallyHidden}>
              {t('notifications.unread')}:{' '}
            </Box>
          ) : null}
          <Typography variant="body2" sx={{ fontWeight: isUnread ? 600 : 400 }}>
            {item.title}
          </Typography>
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{
              display: '-webkit-box',
              WebkitLineClamp: 2,
              WebkitBoxOrient: 'vertical',
              overflow: 'hidden',
              overflowWrap: 'anywhere',
            }}
          >
            {item.body}
          </Typography>
          <When createdAt={item.createdAt} />
        </Box>
        <Box
          aria-hidden
          sx={{
            width: 8,
            height: 8,
            mt: 0.75,
            borderRadius: '50%',
            flexShrink: 0,
            bgcolor: isUnread ? 'primary.main' : 'transparent',
          }}
        />
      </ListItemButton>
    </ListItem>
  );
}

/** The bell's list, newest first as the server sends it, or the empty state. */
export function NotificationList({ items, onOpen }: { items: TNotification[]; onOpen: (item: TNotification) => void }) {
  const { t } = useTranslation('layout');
  if (items.length === 0) {
    return (
      <Box sx={{ textAlign: 'center', px: 3, py: 5 }}>
        <Box
          sx={{
            display: 'inline-flex',
            p: 1.5,
            mb: 1.5,
            borderRadius: '50%',
            bgcolor: 'action.hover',
            color: 'text.secondary',
          }}
        >
          <NotificationsNoneOutlinedIcon aria-hidden />
        </Box>
        <Typography variant="body1" sx={{ fontWeight: 600 }}>
          {t('notifications.empty.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {t('notifications.empty.description')}
        </Typography>
      </Box>
    );
  }
  return (
    <List disablePadding sx={{ '& > li:last-of-type': { borderBottom: 0 } }}>
      {items.map((item) => (
        <NotificationRow key={item.id} item={item} onOpen={onOpen} />
      ))}
    </List>
  );
}

/** Three rows shaped like notifications while the list loads. */
export function NotificationListSkeleton() {
  const { t } = useTranslation('layout');
  return (
    <Box aria-busy="true" sx={{ px: 2, py: 1 }}>
      <Box component="span" sx={visuallyHidden}>
        {t('notifications.loading')}
      </Box>
      {[0, 1, 2].map((row) => (
        <Box key={row} aria-hidden sx={{ display: 'flex', gap: 1.5, py: 1 }}>
          <Skeleton variant="circular" width={20} height={20} sx={{ flexShrink: 0, mt: 0.25 }} />
          <Box sx={{ flex: 1 }}>
            <Skeleton variant="text" width="60%" />
            <Skeleton variant="text" width="95%" />
            <Skeleton variant="text" width="30%" sx={{ fontSize: 12 }} />
          </Box>
        </Box>
      ))}
    </Box>
  );
}
