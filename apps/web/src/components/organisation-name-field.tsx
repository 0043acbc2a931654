import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useState, type Ref } from 'react';
import { Controller, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ORGANISATION_SEARCH, type TCompanyDetailsRequest } from '@connect/shared';
import { useOrganisationSearch } from '../lib/organisations/organisations-api.ts';
import { useDebounced } from '../lib/use-debounced.ts';

/** How long typing must pause before the registered organisations are asked. */
const DEBOUNCE_MS = 300;

/**
 * The company name as a free-text field that suggests the organisations already registered
 * (GET /organisations), so a second user from the same company picks its name rather than typing
 * a variant of it. Any other name can still be typed.
 */
export function OrganisationNameField({ control }: { control: Control<TCompanyDetailsRequest> }) {
  return (
    <Controller
      control={control}
      name="organisationName"
      render={({ field, fieldState }) => (
        <OrganisationAutocomplete
          value={field.value ?? ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
          error={fieldState.error?.message}
          disabled={Boolean(field.disabled)}
        />
      )}
    />
  );
}

function OrganisationAutocomplete({
  value,
  onChange,
  onBlur,
  inputRef,
  error,
  disabled,
}: {
  value: string;
  onChange: (name: string) => void;
  onBlur: () => void;
  inputRef: Ref<HTMLInputElement>;
  error: string | undefined;
  disabled: boolean;
}) {
  const { t } = useTranslation('account');
  // Only what the user types is searched: a name the form opened with asks nothing.
  const [hasTyped, setHasTyped] = useState(false);
  const debounced = useDebounced(value.trim(), DEBOUNCE_MS);
  const term = hasTyped ? debounced : '';
  const isSearched = term.length >= ORGANISATION_SEARCH.minLength;
  const search = useOrganisationSearch(term);
  // A name typed in full is no suggestion of itself.
  const options = isSearched ? (search.data ?? []).filter((name) => name !== value) : [];
  return (
    <Autocomplete<string, false, false, true>
      freeSolo
      options={options}
      // The server searched: every name it answered is shown.
      filterOptions={(all) => all}
      inputValue={value}
      onInputChange={(_event, text, reason) => {
        if (reason === 'input') setHasTyped(true);
        if (reason !== 'reset') onChange(text);
      }}
      onChange={(_event, chosen) => {
        if (typeof chosen === 'string') onChange(chosen);
      }}
      loading={isSearched && search.isFetching}
      loadingText={t('organisationSearch.searching')}
      disabled={disabled}
      renderInput={(params) => (
        <TextField
          {...params}
          name="organisationName"
          label={t('fields.organisationName')}
          required
          inputRef={inputRef}
          onBlur={onBlur}
          error={Boolean(error)}
          helperText={error}
        />
      )}
    />
  );
}
