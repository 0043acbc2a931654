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
    <p className="c-body2 c-auth-footer">
      {text ? `${text} ` : null}
      <RouterLink className="c-link c-link-strong" to={to} onClick={onClick}>
        {linkLabel}
      </RouterLink>
    </p>
  );
}
