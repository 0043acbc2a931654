import Stack from '@mui/material/Stack';
import {
  TIER_TYPES,
  TOKEN_STATUS_FILTER_OPTIONS,
  TOKEN_TYPES,
  type TTierType,
  type TTokenStatus,
  type TTokenType,
} from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { FilterSelect, SearchField } from '../../../components/list/list-toolbar.tsx';

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
      <SearchField label={t('toolbar.search')} value={filters.search} onChange={(value) => set('search', value)} />
      <FilterSelect
        label={t('toolbar.blockchain')}
        value={filters.blockchain}
        onChange={(value) => set('blockchain', value)}
        allLabel={t('toolbar.allBlockchains')}
        options={blockchains.map((blockchain) => ({ value: blockchain, label: blockchain }))}
        minWidth={170}
      />
      <FilterSelect
        label={t('toolbar.tokenType')}
        value={filters.tokenType}
        onChange={(value) => set('tokenType', value)}
        allLabel={t('toolbar.allTokenTypes')}
        options={TOKEN_TYPES.map((type) => ({ value: type, label: t(`tokenType.${type}`) }))}
        minWidth={200}
      />
      <FilterSelect
        label={t('toolbar.tier')}
        value={filters.tierType}
        onChange={(value) => set('tierType', value)}
        allLabel={t('toolbar.allTiers')}
        options={TIER_TYPES.map((tier) => ({ value: tier, label: t(`tierType.${tier}`) }))}
        minWidth={130}
      />
      <FilterSelect
        label={t('toolbar.status')}
        value={filters.status}
        onChange={(value) => set('status', value)}
        allLabel={t('toolbar.allStatuses')}
        options={TOKEN_STATUS_FILTER_OPTIONS.map((status) => ({ value: status, label: t(`status.${status}`) }))}
        minWidth={150}
      />
    </Stack>
  );
}
