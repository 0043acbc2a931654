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
    <div ref={ref} tabIndex={-1} role="alert" className="c-alert">
      <div className="c-alert-icon">
        <svg className="c-icon" viewBox="0 0 24 24" aria-hidden focusable="false">
          <path d="M11 15h2v2h-2zm0-8h2v6h-2zm.99-5C6.47 2 2 6.48 2 12s4.47 10 9.99 10C17.52 22 22 17.52 22 12S17.52 2 11.99 2zM12 20c-4.42 0-8-3.58-8-8s3.58-8 8-8 8 3.58 8 8-3.58 8-8 8z" />
        </svg>
      </div>
      <div className="c-alert-message">
        {failure.message}
        {failure.link ? (
          <div className="c-alert-link">
            <RouterLink className="c-link c-link-inherit" to={failure.link.to} onClick={failure.link.onClick}>
              {failure.link.label}
            </RouterLink>
          </div>
        ) : null}
      </div>
    </div>
  );
}
