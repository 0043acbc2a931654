import Box from '@mui/material/Box';
import type { TTokenDetails } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format.ts';
import { DetailsSection, Facts, mono } from './details-section.tsx';
import { Identifier } from './identifier.tsx';

/** Coin details' parameters as deployed: decimals, initial supply, holder, minter, owner, URI, remintable. */
export function CoinParametersSection({ token }: { token: TTokenDetails }) {
  const { t } = useTranslation('quantPortfolio');
  return (
    <DetailsSection id="parameters-title" title={t('details.parameters')}>
      <Facts
        rows={[
          ...(token.tokenType === 'QRC20'
            ? [{ label: t('details.decimals'), value: String(token.decimalPlaces) }]
            : []),
          {
            label: t('details.initialSupply'),
            value: `${formatNumber(BigInt(token.tokenSupply))} ${token.tokenUnit}`,
          },
          ...(token.supplyHolderAddress
            ? [
                {
                  label: t('details.supplyHolder'),
                  value: (
                    <Identifier value={token.supplyHolderAddress} what={t('details.supplyHolder').toLowerCase()} />
                  ),
                },
              ]
            : []),
          ...(token.minter
            ? [
                {
                  label: t('details.minter'),
                  value: <Identifier value={token.minter} what={t('details.minter').toLowerCase()} />,
                },
              ]
            : []),
          ...(token.ownerAddress
            ? [
                {
                  label: t('details.owner'),
                  value: <Identifier value={token.ownerAddress} what={t('details.owner').toLowerCase()} />,
                },
              ]
            : []),
          ...(token.tokenUri
            ? [
                {
                  label: t('details.tokenUri'),
                  value: (
                    <Box component="code" sx={mono}>
                      {token.tokenUri}
                    </Box>
                  ),
                },
              ]
            : []),
          ...(token.tierType !== 'base'
            ? [
                {
                  label: t('details.remintable'),
                  value: token.remintable ? t('stepper.summary.yes') : t('stepper.summary.no'),
                },
              ]
            : []),
        ]}
      />
    </DetailsSection>
  );
}
