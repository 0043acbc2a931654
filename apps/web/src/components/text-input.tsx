import {
  useId,
  type ChangeEventHandler,
  type FocusEventHandler,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
} from 'react';

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
  /** Attributes of the native `<input>` (inputMode, maxLength, aria-describedby, style…). */
  htmlInput?: InputHTMLAttributes<HTMLInputElement>;
  endAdornment?: ReactNode;
};

/**
 * The public pages' text field (and every code field's, components/code-field.tsx), drawn like
 * MUI's outlined TextField (floating label, notched outline, helper text; styles/plain.css, loaded
 * by main.tsx for every page) from plain elements, with the same ids and ARIA wiring:
 * the label names the input, the helper text describes it, `aria-invalid` carries the error. The
 * label floats while the input has the focus or a value (`:placeholder-shown` on a one-space
 * placeholder, so uncontrolled inputs need no state) or was filled in by the browser.
 */
export function TextInput({
  label,
  id: idProp,
  helperText,
  error = false,
  required = false,
  htmlInput,
  endAdornment,
  inputRef,
  ...input
}: TextInputProps) {
  const generatedId = useId();
  const id = idProp ?? generatedId;
  const helperTextId = helperText ? `${id}-helper-text` : undefined;
  const asterisk = required ? (
    <span aria-hidden="true" className="c-asterisk">
      {'\u2009*'}
    </span>
  ) : null;
  return (
    <div className={error ? 'c-field c-field-error' : 'c-field'}>
      <label className="c-label" htmlFor={id} id={`${id}-label`}>
        {label}
        {asterisk}
      </label>
      <div className={endAdornment ? 'c-input-box c-input-box-adorned' : 'c-input-box'}>
        <input
          {...input}
          id={id}
          ref={inputRef}
          className="c-input"
          placeholder=" "
          required={required}
          aria-invalid={error}
          aria-describedby={helperTextId}
          {...htmlInput}
        />
        {endAdornment ? <div className="c-adornment">{endAdornment}</div> : null}
        <fieldset aria-hidden="true" className="c-outline">
          <legend>
            <span>
              {label}
              {required ? '\u2009*' : null}
            </span>
          </legend>
        </fieldset>
      </div>
      {helperText ? (
        <p className="c-helper" id={helperTextId}>
          {helperText}
        </p>
      ) : null}
    </div>
  );
}
