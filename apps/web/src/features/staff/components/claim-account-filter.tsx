import TextField from '@mui/material/TextField';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { STAFF_SEARCH_DEBOUNCE_MS } from '../../../components/staff-list/debounced-text-field.tsx';
import { useDebounced } from '../../../lib/use-debounced.ts';

const ZAccountId = z.uuid();

/**
 * The claim list's account filter (spec §2: claims filtered by account id): a UUID, applied once
 * typing pauses. Anything else is said under the field and not sent (the server would refuse it);
 * an emptied field clears the filter. `value` is the applied id, from the address.
 */
export function ClaimAccountFilter({
  value,
  onCommit,
}: {
  value: string | undefined;
  onCommit: (accountId: string | undefined) => void;
}) {
  const { t } = useTranslation('staff');
  const [text, setText] = useState(value ?? '');
  const debounced = useDebounced(text, STAFF_SEARCH_DEBOUNCE_MS).trim();
  const isInvalid = debounced !== '' && !ZAccountId.safeParse(debounced).success;
  const applied = useRef(value);
  applied.current = value;
  const commit = useRef(onCommit);
  commit.current = onCommit;

  useEffect(() => {
    if (debounced !== '' && !ZAccountId.safeParse(debounced).success) return;
    const next = debounced.toLowerCase() || undefined;
    if (next !== applied.current) commit.current(next);
  }, [debounced]);

  // A filter cleared or changed elsewhere (the empty state's button, a row's action, back) shows here.
  useEffect(() => {
    setText((current) => ((current.trim().toLowerCase() || undefined) === value ? current : (value ?? '')));
  }, [value]);

  return (
    <TextField
      label={t('claims.filters.accountId')}
      value={text}
      onChange={(event) => setText(event.target.value)}
      size="small"
      fullWidth={false}
      error={isInvalid}
      helperText={isInvalid ? t('claims.filters.accountIdInvalid') : undefined}
      sx={{ minWidth: 340 }}
      slotProps={{ htmlInput: { maxLength: 36, autoComplete: 'off', spellCheck: false } }}
    />
  );
}
