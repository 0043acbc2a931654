import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notificationSettingsQuery, useUpdateNotificationSettings } from '../../../lib/notifications/queries.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { QueryState } from '../../query-state.tsx';
import { useSnackbar } from '../../snackbar/snackbar-context.ts';

/**
 * The popover's footer: whether notifications are also emailed. The switch moves at once; a
 * failed save puts it back and says so in the snackbar.
 */
export function NotificationEmailSwitch() {
  const { t } = useTranslation('layout');
  const snackbar = useSnackbar();
  const settings = useQuery(notificationSettingsQuery());
  const update = useUpdateNotificationSettings();

  return (
    <Box sx={{ borderTop: 1, borderColor: 'divider', px: 2, py: 0.5, minHeight: 48, display: 'flex' }}>
      <QueryState
        query={settings}
        loading={
          <Box aria-hidden sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flex: 1 }}>
            <Skeleton variant="rounded" width={34} height={14} />
            <Skeleton variant="text" width={180} />
          </Box>
        }
        errorMessage={t('notifications.email.loadFailed')}
        errorVariant="row"
        errorSx={{ flex: 1, py: 1 }}
      >
        {({ emailEnabled }) => (
          <FormControlLabel
            sx={{ m: 0, flex: 1, justifyContent: 'space-between' }}
            labelPlacement="start"
            label={t('notifications.email.label')}
            slotProps={{ typography: { variant: 'body2' } }}
            control={
              <Switch
                checked={emailEnabled}
                onChange={(event) =>
                  update.mutate(
                    { emailEnabled: event.target.checked },
                    {
                      onError: (error) =>
                        snackbar.show({
                          type: 'error',
                          title: t('notifications.email.saveFailed'),
                          description: problemMessage(error),
                        }),
                    },
                  )
                }
              />
            }
          />
        )}
      </QueryState>
    </Box>
  );
}
