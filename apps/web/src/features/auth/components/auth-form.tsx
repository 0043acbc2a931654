import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import type { FormEventHandler, ReactNode } from 'react';
import { SubmitButton as SharedSubmitButton } from '../../../components/submit-button.tsx';

/**
 * A public page's form: the fields sit in `<fieldset disabled>` while it is sent, so nothing is
 * submitted twice (STYLE.md); validation is the schema's, not the browser's.
 */
export function AuthForm({
  onSubmit,
  isSubmitting,
  children,
}: {
  onSubmit: FormEventHandler<HTMLFormElement>;
  isSubmitting: boolean;
  children: ReactNode;
}) {
  return (
    <form noValidate onSubmit={onSubmit}>
      <Box component="fieldset" disabled={isSubmitting} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
        <Stack spacing={2.5}>{children}</Stack>
      </Box>
    </form>
  );
}

/** The form's primary action: full width, with a progress indicator while the form is sent. */
export function SubmitButton({ isSubmitting, children }: { isSubmitting: boolean; children: ReactNode }) {
  return (
    <SharedSubmitButton size="large" fullWidth loading={isSubmitting}>
      {children}
    </SharedSubmitButton>
  );
}
