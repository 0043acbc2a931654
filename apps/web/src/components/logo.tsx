import { Link as RouterLink } from 'react-router';
import { runtimeConfig } from '../lib/runtime-config.ts';

/**
 * The product mark and name (from runtime config). `to` makes it a link; blank layouts pass none.
 * Plain elements styled by styles/plain.css, so the public pages render it without MUI.
 */
export function Logo({ to, inverted = false }: { to?: string; inverted?: boolean }) {
  const name = runtimeConfig().productName;
  const content = (
    <span className={inverted ? 'c-logo c-logo-inverted' : 'c-logo'}>
      <svg viewBox="0 0 32 32" aria-hidden>
        <rect width="32" height="32" rx="8" fill="#1f3fbf" />
        <path
          d="M9 16a7 7 0 1 1 11.9 5l2.6 2.6-1.9 1.9-2.7-2.7A7 7 0 0 1 9 16Zm3 0a4 4 0 1 0 8 0 4 4 0 0 0-8 0Z"
          fill="#fff"
        />
      </svg>
      <span className="c-logo-name">{name}</span>
    </span>
  );
  if (!to) return <div aria-label={name}>{content}</div>;
  return (
    <RouterLink className="c-logo-link" to={to} aria-label={name}>
      {content}
    </RouterLink>
  );
}
