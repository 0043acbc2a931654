import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useEffect, useRef } from 'react';
import { Link as RouterLink } from 'react-router';

/** Why a submission failed, in the spec's wording, with the way forward when there is one. */
export type FormFailure = { message: string; link?: { to: string; label: string; onClick?: () => void } };

/**
 * The failure above the form. It takes the focus when it appears, because the disabled fieldset
 * has just taken it from the submit button, and a keyboard user should land on the reason.
 */
export function FormError({ failure }: { failure: FormFailure | null }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (failure) ref.current?.focus();
  }, [failure]);
  if (!failure) return null;
  return (
    <Alert ref={ref} tabIndex={-1} severity="error" sx={{ mb: 3, '&:focus-visible': { outline: 2, outlineOffset: 2 } }}>
      {failure.message}
      {failure.link ? (
        <Box sx={{ mt: 0.5 }}>
          <Link
            component={RouterLink}
            to={failure.link.to}
            onClick={failure.link.onClick}
            color="inherit"
            underline="always"
          >
            {failure.link.label}
          </Link>
        </Box>
      ) : null}
    </Alert>
  );
}
