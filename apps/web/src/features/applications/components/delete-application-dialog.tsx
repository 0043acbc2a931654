import type { TApplication } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { useDeleteApplication } from '../api/delete-application.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';

/** Confirms deleting an application, naming it (shared/UI.md). */
export function DeleteApplicationDialog({
  application,
  open,
  onClose,
}: {
  application: TApplication;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('applicationManager');
  const snackbar = useSnackbar();
  const remove = useDeleteApplication();
  return (
    <ConfirmDialog
      open={open}
      title={t('delete.title', { name: application.name })}
      confirmLabel={t('delete.confirm')}
      isDestructive
      isPending={remove.isPending}
      error={remove.isError ? remove.error.message : null}
      onClose={() => {
        remove.reset();
        onClose();
      }}
      onConfirm={() =>
        remove.mutate(application.id, {
          onSuccess: () => {
            snackbar.show({ type: 'success', title: t('delete.done', { name: application.name }) });
            onClose();
          },
        })
      }
    >
      {t('delete.body')}
    </ConfirmDialog>
  );
}
