import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { ComponentProps } from 'react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { useEmailParam } from '../lib/use-email-param.ts';
import { withQuery } from '../lib/urls.ts';
import { StatusPanel } from './status-panel.tsx';

/**
 * A status page whose next step is the login (account confirmed or already active, password
 * changed, an unknown state): the panel, its one line, and the button to the login, which carries
 * the page's `email` so the login form starts filled in.
 */
export function LoginStatus({
  tone,
  title,
  text,
  buttonLabel,
}: {
  tone: ComponentProps<typeof StatusPanel>['tone'];
  title: string;
  text: string;
  buttonLabel: string;
}) {
  const email = useEmailParam();
  return (
    <StatusPanel
      tone={tone}
      title={title}
      actions={
        <Button
          component={RouterLink}
          to={withQuery(paths.login, { email })}
          variant="contained"
          size="large"
          fullWidth
        >
          {buttonLabel}
        </Button>
      }
    >
      <Typography>{text}</Typography>
    </StatusPanel>
  );
}
