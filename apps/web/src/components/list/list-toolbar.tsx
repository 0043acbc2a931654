import SearchIcon from '@mui/icons-material/Search';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';

/** The search box that leads a list's toolbar (shared/UI.md); it takes the free width. */
export function SearchField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <TextField
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      size="small"
      type="search"
      sx={{ flex: 1, minWidth: 220 }}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/**
 * A filter of a list's toolbar: '' is the first option, "all", and a closed filter with nothing
 * chosen reads it ("All Statuses", label above) rather than looking blank.
 */
export function FilterSelect<V extends string>({
  label,
  value,
  onChange,
  allLabel,
  options,
  minWidth,
}: {
  label: string;
  value: V | '';
  onChange: (value: V | '') => void;
  allLabel: string;
  options: readonly { value: V; label: string }[];
  minWidth: number;
}) {
  return (
    <TextField
      select
      label={label}
      slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
      value={value}
      onChange={(event) => onChange(event.target.value as V | '')}
      size="small"
      sx={{ minWidth }}
    >
      <MenuItem value="">{allLabel}</MenuItem>
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
