import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TUserNetwork } from '@connect/shared';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { useDeletePrivateNetwork } from '../api/delete-private-network.ts';

/** The delete-private-network dialog of spec §2.5: names the network, says how long removal takes. */
export function DeletePrivateNetworkDialog({
  network,
  onClose,
}: {
  network: TUserNetwork | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('integrate');
  const titleId = useId();
  const textId = useId();
  const remove = useDeletePrivateNetwork();
  const snackbar = useSnackbar();
  const handleClose = () => {
    if (remove.isPending) return;
    remove.reset();
    onClose();
  };
  const handleConfirm = () => {
    if (!network) return;
    remove.mutate(network.id, {
      onSuccess: (updated) => {
        snackbar.show({
          type: 'success',
          title:
            updated.status === 'REMOVED'
              ? t('status.REMOVED')
              : t('myNetworks.removalRequested', { name: updated.network }),
        });
        remove.reset();
        onClose();
      },
    });
  };
  return (
    <Dialog
      open={Boolean(network)}
      onClose={handleClose}
      aria-labelledby={titleId}
      aria-describedby={textId}
      maxWidth="xs"
      fullWidth
    >
      {network ? (
        <>
          <DialogTitle id={titleId}>{t('deleteDialog.title', { name: network.network })}</DialogTitle>
          <DialogContent>
            <DialogContentText id={textId}>
              {network.status === 'REJECTED'
                ? t('deleteDialog.bodyRejected', { name: network.network })
                : t('deleteDialog.body', { name: network.network, chainId: network.chainId })}
            </DialogContentText>
            {remove.isError ? (
              <Alert severity="error" sx={{ mt: 2 }}>
                {remove.error.message}
              </Alert>
            ) : null}
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button onClick={handleClose} color="inherit" disabled={remove.isPending}>
              {t('actions.cancel')}
            </Button>
            <Button onClick={handleConfirm} variant="contained" color="error" loading={remove.isPending}>
              {t('deleteDialog.confirm')}
            </Button>
          </DialogActions>
        </>
      ) : null}
    </Dialog>
  );
}
