import Button, { type ButtonProps } from '@mui/material/Button';

/**
 * A form's submit button. Pressing it does not blur the focused field first: validating on blur
 * would show that field's error, grow the form, move the button away from the pointer and lose
 * the click (keyboard submission is unaffected).
 */
export function SubmitButton(props: Omit<ButtonProps, 'type'>) {
  return (
    <Button
      variant="contained"
      {...props}
      type="submit"
      onMouseDown={(event) => {
        event.preventDefault();
        props.onMouseDown?.(event);
      }}
    />
  );
}
