import VisibilityIcon from '@mui/icons-material/VisibilityOutlined';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOffOutlined';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput, type TextInputProps } from './text-input.tsx';

type PasswordFieldProps = Omit<TextInputProps, 'type' | 'htmlInput' | 'endAdornment'> & {
  autoComplete: 'current-password' | 'new-password';
  /** Ids of more text that describes the field (the password rules), read after its helper text. */
  describedBy?: string;
};

/** A password input with a show/hide toggle (a real button, so it is reachable by keyboard). */
export function PasswordField({ describedBy, id: idProp, helperText, ...props }: PasswordFieldProps) {
  const { t } = useTranslation('auth');
  const [isVisible, setIsVisible] = useState(false);
  const generatedId = useId();
  const id = idProp ?? generatedId;
  const ariaDescribedBy = [helperText ? `${id}-helper-text` : undefined, describedBy].filter(Boolean).join(' ');
  return (
    <TextInput
      {...props}
      id={id}
      helperText={helperText}
      type={isVisible ? 'text' : 'password'}
      htmlInput={{
        autoCapitalize: 'none',
        spellCheck: false,
        ...(ariaDescribedBy ? { 'aria-describedby': ariaDescribedBy } : {}),
      }}
      endAdornment={
        <InputAdornment position="end">
          <IconButton
            aria-label={isVisible ? t('password.hide') : t('password.show')}
            onClick={() => setIsVisible((visible) => !visible)}
            edge="end"
          >
            {isVisible ? <VisibilityOffIcon /> : <VisibilityIcon />}
          </IconButton>
        </InputAdornment>
      }
    />
  );
}
