import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import type { InputBaseComponentProps } from '@mui/material/InputBase';
import { useId, type FocusEventHandler, type ChangeEventHandler, type ReactNode, type Ref } from 'react';

export type TextInputProps = {
  label: string;
  name?: string;
  id?: string;
  type?: string;
  value?: string;
  onChange?: ChangeEventHandler<HTMLInputElement>;
  onBlur?: FocusEventHandler<HTMLInputElement>;
  inputRef?: Ref<HTMLInputElement>;
  error?: boolean;
  /** Shown under the field (the error message, or a hint); the input is described by it. */
  helperText?: ReactNode;
  autoComplete?: string;
  autoFocus?: boolean;
  required?: boolean;
  /** Attributes of the native `<input>` (inputMode, maxLength, aria-describedby, sx…). */
  htmlInput?: InputBaseComponentProps;
  endAdornment?: ReactNode;
};

/**
 * The public pages' text field: MUI's outlined TextField, composed from the same parts
 * (FormControl, InputLabel, OutlinedInput, FormHelperText) with the same ids, classes and ARIA
 * wiring, so it looks and reads the same. TextField itself always brings its `select` mode — Select,
 * Menu, Popover and Modal, about 15 KB gzipped — which no sign-in form uses.
 */
export function TextInput({
  label,
  id: idProp,
  helperText,
  error = false,
  required = false,
  htmlInput,
  ...input
}: TextInputProps) {
  const generatedId = useId();
  const id = idProp ?? generatedId;
  const helperTextId = helperText ? `${id}-helper-text` : undefined;
  return (
    <FormControl className="MuiTextField-root" variant="outlined" fullWidth error={error} required={required}>
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput
        {...input}
        id={id}
        label={label}
        fullWidth
        aria-describedby={helperTextId}
        {...(htmlInput ? { inputProps: htmlInput } : {})}
      />
      {helperText ? <FormHelperText id={helperTextId}>{helperText}</FormHelperText> : null}
    </FormControl>
  );
}
