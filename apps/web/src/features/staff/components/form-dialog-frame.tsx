import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useId, type FormEvent, type ReactNode } from 'react';
import { SubmitButton } from '../../../components/submit-button.tsx';

/**
 * The frame of a staff form dialog (a campaign, a task, a tier, an invitation, a trial's
 * extension): the title, the fields inside a fieldset that is disabled while the form is sent (so
 * nothing is sent twice), the refusal of the last attempt under its title, then Cancel and the
 * submit button. It cannot be closed while sending. The refusal is said in the dialog because,
 * while it is open, the page behind it is hidden from screen readers.
 */
export function FormDialogFrame({
  title,
  isSending,
  onSubmit,
  onClose,
  failureTitle,
  failure,
  cancelLabel,
  submitLabel,
  isLong = false,
  children,
}: {
  title: ReactNode;
  isSending: boolean;
  /** The form's submit handler (react-hook-form's `handleSubmit(...)`). */
  onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  onClose: () => void;
  failureTitle: string;
  failure: string | null;
  cancelLabel: string;
  submitLabel: string;
  /**
   * A long form in sections (a tier's): wider, its fields between dividers (they show, as the
   * dialog scrolls them, that there is more), its sections further apart.
   */
  isLong?: boolean;
  children: ReactNode;
}) {
  const titleId = useId();
  const handleClose = () => {
    if (!isSending) onClose();
  };

  return (
    <Dialog open onClose={handleClose} aria-labelledby={titleId} maxWidth={isLong ? 'md' : 'sm'} fullWidth>
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent dividers={isLong}>
          <fieldset disabled={isSending} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
            <Stack spacing={isLong ? 3 : 2} sx={isLong ? {} : { pt: 1 }}>
              {children}
              <FailureAlert title={failureTitle} failure={failure} />
            </Stack>
          </fieldset>
        </DialogContent>
        <DialogActions sx={isLong ? { px: 3, py: 2 } : { px: 3, pb: 2 }}>
          <Button color="inherit" onClick={handleClose} disabled={isSending}>
            {cancelLabel}
          </Button>
          <SubmitButton loading={isSending}>{submitLabel}</SubmitButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** A staff form's refusal of its last attempt, under its title; nothing while there is none. */
export function FailureAlert({ title, failure }: { title: string; failure: ReactNode }) {
  return failure ? (
    <Alert severity="error">
      <AlertTitle>{title}</AlertTitle>
      {failure}
    </Alert>
  ) : null;
}
