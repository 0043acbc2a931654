import SearchIcon from '@mui/icons-material/Search';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useEffect, useRef, useState } from 'react';
import { useDebounced } from '../../lib/use-debounced.ts';

/** How long typing must pause before a list asks again: one request per word, not per key. */
export const STAFF_SEARCH_DEBOUNCE_MS = 300;

/**
 * A list's search box or text filter: shows what is typed at once and hands the trimmed text on
 * once typing pauses (an empty text as undefined). `value` is the applied text (from the address);
 * when it changes from elsewhere (back, a cleared filter) the box shows it.
 */
export function DebouncedTextField({
  label,
  value,
  onCommit,
  isSearch = false,
  minWidth = 200,
}: {
  label: string;
  value: string | undefined;
  onCommit: (value: string | undefined) => void;
  isSearch?: boolean;
  minWidth?: number;
}) {
  const [text, setText] = useState(value ?? '');
  const debounced = useDebounced(text, STAFF_SEARCH_DEBOUNCE_MS);
  const applied = useRef(value);
  applied.current = value;
  const commit = useRef(onCommit);
  commit.current = onCommit;

  // Only a pause in typing commits (not a change of `value`, which the effect below follows).
  useEffect(() => {
    const next = debounced.trim() || undefined;
    if (next !== applied.current) commit.current(next);
  }, [debounced]);

  useEffect(() => {
    setText((current) => ((current.trim() || undefined) === value ? current : (value ?? '')));
  }, [value]);

  return (
    <TextField
      label={label}
      value={text}
      onChange={(event) => setText(event.target.value)}
      size="small"
      // The theme makes text fields full width; in a toolbar they sit side by side.
      fullWidth={false}
      type={isSearch ? 'search' : 'text'}
      sx={{ flex: isSearch ? 1 : undefined, minWidth, maxWidth: isSearch ? 420 : undefined }}
      slotProps={{
        htmlInput: { maxLength: 100, autoComplete: 'off' },
        input: isSearch
          ? {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            }
          : {},
      }}
    />
  );
}
