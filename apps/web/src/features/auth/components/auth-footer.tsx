import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';

/** The line under a form that leads elsewhere ("Already have an account? Log in"). */
export function AuthFooter({
  text,
  linkLabel,
  to,
  onClick,
}: {
  text?: string;
  linkLabel: string;
  to: string;
  onClick?: () => void;
}) {
  return (
    <Typography variant="body2" color="text.secondary" sx={{ mt: 3, textAlign: 'center' }}>
      {text ? `${text} ` : null}
      <Link component={RouterLink} to={to} onClick={onClick} sx={{ fontWeight: 600 }}>
        {linkLabel}
      </Link>
    </Typography>
  );
}
