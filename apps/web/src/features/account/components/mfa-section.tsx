import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { MfaStatus, TUser } from '@connect/shared';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { identityErrorMessage } from '../../../lib/identity-errors.ts';
import { useDisableMfa } from '../api/disable-mfa.ts';
import { useMfaStatus } from '../../../lib/user/get-mfa-status.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { QueryState } from '../../../components/query-state.tsx';

const STATUS_COLOURS: Record<MfaStatus, ChipProps['color']> = {
  ACTIVE: 'success',
  SETUP: 'warning',
  DISABLED: 'default',
};

/** Multi-factor status from the identity provider (via GET /user/mfa-status), with set up or disable. */
export function MfaSection({ user }: { user: TUser }) {
  const { t } = useTranslation('account');
  const snackbar = useSnackbar();
  const status = useMfaStatus();
  const disable = useDisableMfa(user.id);
  const [isConfirming, setIsConfirming] = useState(false);

  const handleDisable = () =>
    disable.mutate(undefined, {
      onSuccess: () => {
        setIsConfirming(false);
        snackbar.show({ type: 'success', title: t('myAccount.mfa.disabled') });
      },
    });

  return (
    <Box aria-labelledby="mfa-title" component="section">
      <Typography id="mfa-title" variant="h4" component="h3" sx={{ mb: 2 }}>
        {t('myAccount.mfa.title')}
      </Typography>
      <QueryState
        query={status}
        loading={
          <Box aria-busy="true">
            <Skeleton width={120} height={32} />
            <Skeleton width="80%" />
          </Box>
        }
        errorMessage={t('myAccount.mfa.loadFailed')}
      >
        {({ userMfaStatus: current }) => (
          <>
            <Chip color={STATUS_COLOURS[current]} label={t(`myAccount.mfa.status.${current}`)} />
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
              {t(`myAccount.mfa.explain.${current}`)}
            </Typography>
            <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
              {current !== 'ACTIVE' ? (
                <Button variant="contained" component={RouterLink} to={paths.mfaSetup}>
                  {t('myAccount.mfa.setUp')}
                </Button>
              ) : null}
              {current !== 'DISABLED' ? (
                <Button variant="outlined" color="error" onClick={() => setIsConfirming(true)}>
                  {t('myAccount.mfa.disable')}
                </Button>
              ) : null}
            </Stack>
          </>
        )}
      </QueryState>
      <ConfirmDialog
        open={isConfirming}
        title={t('myAccount.mfa.confirmTitle')}
        confirmLabel={t('myAccount.mfa.confirmAction')}
        isDestructive
        isPending={disable.isPending}
        error={
          disable.isError
            ? disable.error instanceof ApiError
              ? disable.error.message
              : identityErrorMessage(disable.error, 'mfaSetup')
            : null
        }
        onConfirm={handleDisable}
        onClose={() => {
          setIsConfirming(false);
          disable.reset();
        }}
      >
        {t('myAccount.mfa.confirmText', { email: user.email })}
      </ConfirmDialog>
    </Box>
  );
}
