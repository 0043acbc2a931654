import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import type { TManagementUser } from '@connect/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFindUsers } from '../api/find-users-by-email.ts';

/** How long typing must pause before the users list is asked. */
const DEBOUNCE_MS = 300;

/**
 * The user an application is created for, identified by typing their email (spec §2): the users
 * list searched by what is typed suggests ACTIVE users. Choosing one — or typing an address that
 * is exactly one suggested — names the user (and so their account, whose networks the form then
 * offers); any other text names nobody yet.
 */
export function UserEmailField({
  value,
  onChange,
  onBlur,
  error,
  disabled,
}: {
  value: string;
  /** The text typed, and the user it names (null while it names none). */
  onChange: (email: string, user: TManagementUser | null) => void;
  onBlur: () => void;
  error: string | undefined;
  disabled: boolean;
}) {
  const { t } = useTranslation('staff');
  const [term, setTerm] = useState(value.trim());
  useEffect(() => {
    const timer = setTimeout(() => setTerm(value.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  const users = useFindUsers(term);
  const options = users.data ?? [];
  const exact = (text: string) => options.find((user) => user.email === text.trim().toLowerCase()) ?? null;

  // Suggestions that arrive after the address was typed in full still name its user.
  useEffect(() => {
    const user = options.find((option) => option.email === value.trim().toLowerCase());
    if (user) onChange(value, user);
    // Only when the suggestions change: `onChange` and `value` are read as they are then.
  }, [users.data]);

  return (
    <Autocomplete<TManagementUser, false, false, true>
      freeSolo
      options={options}
      // The server searched: every suggestion it answered is shown.
      filterOptions={(all) => all}
      getOptionLabel={(option) => (typeof option === 'string' ? option : option.email)}
      inputValue={value}
      onInputChange={(_event, text, reason) => {
        if (reason !== 'reset') onChange(text, exact(text));
      }}
      onChange={(_event, chosen) => {
        if (chosen && typeof chosen !== 'string') onChange(chosen.email, chosen);
      }}
      loading={users.isFetching}
      loadingText={t('applications.create.userSearching')}
      noOptionsText={term ? t('applications.create.noUsers') : t('applications.create.typeEmail')}
      disabled={disabled}
      renderOption={({ key, ...props }, option) => (
        <Box component="li" key={key} {...props}>
          <Box sx={{ minWidth: 0 }}>
            <Box>{option.email}</Box>
            <Box sx={{ color: 'text.secondary', fontSize: 13 }}>
              {[option.firstName, option.lastName].filter(Boolean).join(' ') || '–'}
              {option.organisationName ? ` · ${option.organisationName}` : ''}
            </Box>
          </Box>
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          label={t('applications.fields.email')}
          required
          autoFocus
          type="email"
          onBlur={onBlur}
          error={Boolean(error)}
          helperText={error ?? t('applications.create.emailHint')}
        />
      )}
    />
  );
}
