import type { Ref } from 'react';
import { TextInput } from './text-input.tsx';

type CodeFieldProps = {
  name: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  inputRef: Ref<HTMLInputElement>;
  label: string;
  /** The field's error, shown instead of the hint. */
  error?: string | undefined;
  hint?: string;
  autoFocus?: boolean;
};

/** A 6-digit code (spec §5): digits only, numeric keyboard on phones, filled in from SMS/email by the OS. */
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
