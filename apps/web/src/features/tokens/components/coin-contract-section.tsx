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
          {
            label: t('details.contractAddress'),
            value: token.smartContractAddress ? (
              <Identifier
                value={token.smartContractAddress}
                what={t('details.contractAddress').toLowerCase()}
                explorerUrl={token.explorer.contractUrl}
              />
            ) : (
              '–'
            ),
          },
          {
            label: t('details.transactionId'),
            value: token.transactionId ? (
              <Identifier
                value={token.transactionId}
                what={t('details.transactionId').toLowerCase()}
                explorerUrl={token.explorer.transactionUrl}
              />
            ) : (
              '–'
            ),
          },
          {
            label: t('details.deployer'),
            value: token.deployerAddress ? (
              <Identifier value={token.deployerAddress} what={t('details.deployer').toLowerCase()} />
            ) : (
              '–'
            ),
          },
          { label: t('details.deployment'), value: t(`deploymentType.${token.deploymentType}`) },
          { label: t('details.createdAt'), value: formatDateTime(token.createdAt) },
          { label: t('details.deployedAt'), value: formatDateTime(token.deployedAt) },
        ]}
      />
    </DetailsSection>
  );
}
