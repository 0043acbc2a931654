import SearchIcon from '@mui/icons-material/Search';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  TIER_TYPES,
  TOKEN_STATUS_FILTER_OPTIONS,
  TOKEN_TYPES,
  type TTierType,
  type TTokenStatus,
  type TTokenType,
} from '@connect/shared';
import { useTranslation } from 'react-i18next';

/** The search box and filters of My smart tokens (spec §2.5). '' means "all". */
export type TokenFilters = {
  search: string;
  blockchain: string;
  tokenType: TTokenType | '';
  tierType: TTierType | '';
  status: TTokenStatus | '';
};

export const NO_FILTERS: TokenFilters = { search: '', blockchain: '', tokenType: '', tierType: '', status: '' };

export function isFiltered(filters: TokenFilters): boolean {
  return Boolean(
    filters.search.trim() || filters.blockchain || filters.tokenType || filters.tierType || filters.status,
  );
}

/**
 * One toolbar above the table (shared/UI.md): search by name or unit, then blockchain (first
 * option All Blockchains), token type (All Token types), tier, and status (All Statuses, Active,
 * Not Active, Deprecated).
 */
export function TokensToolbar({
  filters,
  blockchains,
  onChange,
}: {
  filters: TokenFilters;
  /** The blockchains the account has tokens on. */
  blockchains: readonly string[];
  onChange: (filters: TokenFilters) => void;
}) {
  const { t } = useTranslation('quantPortfolio');
  const set = <K extends keyof TokenFilters>(key: K, value: TokenFilters[K]) => onChange({ ...filters, [key]: value });
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ p: 2 }}>
      <TextField
        label={t('toolbar.search')}
        value={filters.search}
        onChange={(event) => set('search', event.target.value)}
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
      <TextField
        select
        label={t('toolbar.blockchain')}
        value={filters.blockchain}
        onChange={(event) => set('blockchain', event.target.value)}
        size="small"
        sx={{ minWidth: 170 }}
      >
        <MenuItem value="">{t('toolbar.allBlockchains')}</MenuItem>
        {blockchains.map((blockchain) => (
          <MenuItem key={blockchain} value={blockchain}>
            {blockchain}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label={t('toolbar.tokenType')}
        value={filters.tokenType}
        onChange={(event) => set('tokenType', event.target.value as TTokenType | '')}
        size="small"
        sx={{ minWidth: 200 }}
      >
        <MenuItem value="">{t('toolbar.allTokenTypes')}</MenuItem>
        {TOKEN_TYPES.map((type) => (
          <MenuItem key={type} value={type}>
            {t(`tokenType.${type}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label={t('toolbar.tier')}
        value={filters.tierType}
        onChange={(event) => set('tierType', event.target.value as TTierType | '')}
        size="small"
        sx={{ minWidth: 130 }}
      >
        <MenuItem value="">{t('toolbar.allTiers')}</MenuItem>
        {TIER_TYPES.map((tier) => (
          <MenuItem key={tier} value={tier}>
            {t(`tierType.${tier}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label={t('toolbar.status')}
        value={filters.status}
        onChange={(event) => set('status', event.target.value as TTokenStatus | '')}
        size="small"
        sx={{ minWidth: 150 }}
      >
        <MenuItem value="">{t('toolbar.allStatuses')}</MenuItem>
        {TOKEN_STATUS_FILTER_OPTIONS.map((status) => (
          <MenuItem key={status} value={status}>
            {t(`status.${status}`)}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}
