import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import type { TTokenDetails } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { DetailsSection, mono } from './details-section.tsx';

/** Coin details' functions: what the tier's contract offers. */
export function CoinFunctionsSection({ token }: { token: TTokenDetails }) {
  const { t } = useTranslation('quantPortfolio');
  return (
    <DetailsSection
      id="functions-title"
      title={t('details.functions')}
      description={t('details.functionsDescription', { tier: token.tierName })}
    >
      <Stack direction="row" spacing={0.75} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {token.functions.map((name) => (
          <Chip key={name} size="small" label={name} sx={{ ...mono, fontSize: 12 }} />
        ))}
      </Stack>
    </DetailsSection>
  );
}
