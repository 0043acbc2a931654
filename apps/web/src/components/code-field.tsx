import type { Ref } from 'react';
import { TextInput } from './text-input.tsx';

type CodeFieldProps = {
  label: string;
  value: string;
  /** The digits typed or pasted, at most six: anything else is dropped as it is typed. */
  onChange: (value: string) => void;
  name?: string;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  /** The field's error, shown instead of the hint. */
  error?: string | null | undefined;
  hint?: string;
  autoFocus?: boolean;
};

/**
 * A 6-digit code (spec §5): digits only, numeric keyboard on phones, filled in from SMS/email by
 * the OS. The one code field of the app: the sign-up confirmation, the password reset, the MFA
 * sign-in (features/auth/components/code-screen.tsx) and the authenticator set-up.
 */
export function CodeField({ name, value, onChange, onBlur, inputRef, label, error, hint, autoFocus }: CodeFieldProps) {
  return (
    <TextInput
      name={name}
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value.replace(/\D/g, '').slice(0, 6))}
      onBlur={onBlur}
      inputRef={inputRef}
      error={Boolean(error)}
      helperText={error ?? hint}
      autoComplete="one-time-code"
      autoFocus={autoFocus}
      htmlInput={{
        inputMode: 'numeric',
        pattern: '[0-9]*',
        maxLength: 6,
        style: { fontVariantNumeric: 'tabular-nums', letterSpacing: '0.3em', fontWeight: 600 },
      }}
    />
  );
}
