import RefreshIcon from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { TTokenDetails } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format.ts';
import { formatTokenAmount } from '../utils/amounts.ts';
import { DetailsSection, Facts } from './details-section.tsx';
import { shorten } from './identifier.tsx';

/**
 * Coin details' figures read live from the chain: total supply, maximum supply, the balance of the
 * connected wallet (or the supply holder) and the block they were read at; refreshed on request.
 */
export function CoinOnChainSection({
  token,
  walletAddress,
  isRefreshing,
  onRefresh,
}: {
  token: TTokenDetails;
  walletAddress: string | undefined;
  isRefreshing: boolean;
  onRefresh: () => void;
}) {
  const { t } = useTranslation('quantPortfolio');
  const onChain = token.onChain;
  const noLimit = !token.maxSupply || token.maxSupply === '0';
  const decimals = token.tokenType === 'QRC20' ? token.decimalPlaces : 0;
  const holderIsWallet =
    walletAddress && onChain?.holder && onChain.holder.toLowerCase() === walletAddress.toLowerCase();
  return (
    <DetailsSection
      id="on-chain-title"
      title={t('details.onChain')}
      description={t('details.onChainDescription', { network: token.network })}
      action={
        <Button size="small" startIcon={<RefreshIcon />} onClick={onRefresh} loading={isRefreshing}>
          {t('actions.refresh')}
        </Button>
      }
    >
      {!onChain ? (
        <Typography color="text.secondary">{t('details.notOnChain')}</Typography>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary">
            {t('details.totalSupply')}
          </Typography>
          <Typography sx={{ fontSize: 28, fontWeight: 700 }} data-testid="total-supply">
            {formatTokenAmount(onChain.totalSupply, decimals)} {token.tokenUnit}
          </Typography>
          <Box sx={{ mt: 2 }}>
            <Facts
              rows={[
                {
                  label: t('details.maxSupply'),
                  value: noLimit
                    ? t('details.noLimit')
                    : `${formatNumber(BigInt(token.maxSupply!))} ${token.tokenUnit}`,
                },
                ...(onChain.holder
                  ? [
                      {
                        label: holderIsWallet
                          ? t('details.walletBalance')
                          : t('details.holderBalance', { holder: shorten(onChain.holder) }),
                        value: (
                          <span data-testid="holder-balance">
                            {formatTokenAmount(onChain.holderBalance, decimals)} {token.tokenUnit}
                          </span>
                        ),
                      },
                    ]
                  : []),
                ...(onChain.blockNumber
                  ? [
                      {
                        label: t('details.readAt', { block: '' }).trim(),
                        value: formatNumber(BigInt(onChain.blockNumber)),
                      },
                    ]
                  : []),
              ]}
            />
          </Box>
          {onChain.error ? (
            <Alert severity="warning" sx={{ mt: 2 }}>
              {t('details.readError', { error: onChain.error })}
            </Alert>
          ) : null}
        </>
      )}
    </DetailsSection>
  );
}
