import type { ReactNode } from 'react';

/** The page's one h1 and a line saying what the page is for. */
export function AuthHeader({ title, subtitle }: { title: string; subtitle?: ReactNode }) {
  return (
    <header className="c-auth-header">
      <h1 className="c-h1">{title}</h1>
      {subtitle ? <p className="c-body1">{subtitle}</p> : null}
    </header>
  );
}
