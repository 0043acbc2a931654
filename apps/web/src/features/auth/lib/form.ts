import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';

/**
 * A react-hook-form registration as MUI TextField props: the ref goes to the native input, and
 * the field's error message (already in the shared wording) becomes its helper text.
 */
export function muiField(registration: UseFormRegisterReturn, error: FieldError | undefined) {
  const { ref, ...rest } = registration;
  return { ...rest, inputRef: ref, error: Boolean(error), helperText: error?.message };
}
