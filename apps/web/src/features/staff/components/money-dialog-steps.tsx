import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import Stack from '@mui/material/Stack';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { FailureAlert } from './form-dialog-frame.tsx';

/*
 * The two steps every staff money dialog takes (a receipt, a refund): the form, then a
 * confirmation that says what will happen before anything is sent.
 */

/** The form step: its fields, the refusal of the last attempt, Cancel and Continue (to the confirmation). */
export function MoneyFormStep({
  onSubmit,
  onCancel,
  failureTitle,
  failure,
  children,
}: {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onCancel: () => void;
  failureTitle: string;
  failure: string | null;
  children: ReactNode;
}) {
  const { t } = useTranslation('staff');
  return (
    <form onSubmit={onSubmit} noValidate>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {children}
          <FailureAlert title={failureTitle} failure={failure} />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button color="inherit" onClick={onCancel}>
          {t('accounts.money.cancel')}
        </Button>
        <SubmitButton>{t('accounts.money.continue')}</SubmitButton>
      </DialogActions>
    </form>
  );
}

/** The confirmation step: what will happen, Back to the form, and the button that sends it. */
export function MoneyConfirmStep({
  onBack,
  isSending,
  action,
  children,
}: {
  onBack: () => void;
  isSending: boolean;
  /** The button that sends (busy while `isSending`). */
  action: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation('staff');
  return (
    <>
      <DialogContent>{children}</DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button color="inherit" onClick={onBack} disabled={isSending}>
          {t('accounts.money.back')}
        </Button>
        {action}
      </DialogActions>
    </>
  );
}
