import Stack from '@mui/material/Stack';
import type { TTokenDetails } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { DetailsSection, Facts } from './details-section.tsx';
import { Identifier } from './identifier.tsx';
import { SandboxChip } from './token-status-chip.tsx';

/** Coin details' contract: network, contract, transaction and deployer (with explorer links), and when. */
export function CoinContractSection({ token }: { token: TTokenDetails }) {
  const { t } = useTranslation('quantPortfolio');
  /** A row of an address or hash, copyable and linked to the explorer when there is one; a dash until it exists. */
  const identifierRow = (label: string, value: string | null, explorerUrl: string | null = null) => ({
    label,
    value: value ? <Identifier value={value} what={label.toLowerCase()} explorerUrl={explorerUrl} /> : '–',
  });
  return (
    <DetailsSection id="contract-title" title={t('details.contract')}>
      <Facts
        rows={[
          {
            label: t('details.network'),
            value: (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <span>
                  {token.network} · {token.blockchain} (chain id {token.chainId})
                </span>
                {/* A local chain standing in for a public testnet carries the Sandbox chip. */}
                {token.isLocal ? <SandboxChip /> : null}
              </Stack>
            ),
          },
          identifierRow(t('details.contractAddress'), token.smartContractAddress, token.explorer.contractUrl),
          identifierRow(t('details.transactionId'), token.transactionId, token.explorer.transactionUrl),
          identifierRow(t('details.deployer'), token.deployerAddress),
          { label: t('details.deployment'), value: t(`deploymentType.${token.deploymentType}`) },
          { label: t('details.createdAt'), value: formatDateTime(token.createdAt) },
          { label: t('details.deployedAt'), value: formatDateTime(token.deployedAt) },
        ]}
      />
    </DetailsSection>
  );
}
