import { useId, type FormEventHandler, type MouseEvent, type ReactNode } from 'react';

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
      <fieldset className="c-fieldset" disabled={isSubmitting}>
        <div className="c-stack">{children}</div>
      </fieldset>
    </form>
  );
}

/**
 * The form's primary action: full width, with a progress indicator while the form is sent. Like
 * components/submit-button.tsx, pressing it does not blur the focused field first: validating on
 * blur would show that field's error, grow the form, move the button away and lose the click.
 */
export function SubmitButton({ isSubmitting, children }: { isSubmitting: boolean; children: ReactNode }) {
  const id = useId();
  return (
    <button
      id={id}
      type="submit"
      className={`c-button c-button-large c-button-full${isSubmitting ? ' c-button-loading' : ''}`}
      disabled={isSubmitting}
      onMouseDown={(event: MouseEvent) => event.preventDefault()}
    >
      {children}
      {isSubmitting ? (
        <svg className="c-button-spinner" role="progressbar" aria-labelledby={id} viewBox="22 22 44 44">
          <circle cx="44" cy="44" r="20.2" fill="none" strokeWidth="3.6" />
        </svg>
      ) : null}
    </button>
  );
}
