import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import type { TTokenDetails } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { QueryState } from '../../../components/query-state.tsx';
import { isUnknownToken, problemMessage } from '../../../lib/problems.ts';
import { WalletProvider } from '../../../lib/wallet/index.ts';
import { useToken } from '../api/get-token.ts';
import { CoinContractSection } from '../components/coin-contract-section.tsx';
import { CoinFunctionsSection } from '../components/coin-functions-section.tsx';
import { CoinOnChainSection } from '../components/coin-on-chain-section.tsx';
import { CoinParametersSection } from '../components/coin-parameters-section.tsx';
import { CoinHeaderActions, CoinStatusNotices } from '../components/coin-status-notices.tsx';
import { MintForm } from '../components/mint-form.tsx';
import { useCoinDetails } from '../hooks/use-coin-details.ts';
import { tokenPaths } from '../token-paths.ts';

/**
 * Coin details, /{product}-flows/token-flow/{type}/{tierCode}?id={token id}: contract and
 * transaction with explorer links, the supply and balances read live from the chain, the tier's
 * functions, and minting from the wallet for flex and vari tokens.
 */
export function CoinDetailsPage() {
  const { t } = useTranslation('quantPortfolio');
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id') ?? '';
  // The first read (without a wallet) names the chain the wallet layer needs.
  const token = useToken(id);
  if (!id || isUnknownToken(token.error)) {
    return (
      <Page title={t('title')}>
        <Alert
          severity="warning"
          action={
            <Button component={RouterLink} to={tokenPaths.tokenFlow()} color="inherit" size="small">
              {t('actions.backToTokenFlow')}
            </Button>
          }
        >
          {t('details.notFound')}
        </Alert>
      </Page>
    );
  }
  return (
    <QueryState
      query={token}
      loading={
        <Page title={t('title')}>
          <Box aria-busy="true" aria-label={t('title')}>
            <Skeleton variant="rounded" height={48} sx={{ mb: 2 }} />
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
              <Skeleton variant="rounded" height={240} sx={{ flex: 1 }} />
              <Skeleton variant="rounded" height={240} sx={{ flex: 1 }} />
            </Stack>
          </Box>
        </Page>
      }
      errorMessage={(error) => `${t('details.loadError')} ${problemMessage(error)}`}
      retryLabel={t('actions.retry')}
      wrapError={(error) => <Page title={t('title')}>{error}</Page>}
    >
      {(loaded) => (
        <WalletProvider networks={[{ chainId: loaded.chainId, name: loaded.network, explorerUrl: null }]}>
          <CoinDetails id={id} initial={loaded} />
        </WalletProvider>
      )}
    </QueryState>
  );
}

function CoinDetails({ id, initial }: { id: string; initial: TTokenDetails }) {
  const { t } = useTranslation('quantPortfolio');
  const coin = useCoinDetails(id, initial);
  const { token } = coin;
  return (
    <Page
      title={`${token.tokenName} (${token.tokenUnit})`}
      description={`${t(`tokenType.${token.tokenType}`)} · ${token.tierName} · ${token.network}`}
      actions={
        <CoinHeaderActions
          token={token}
          walletAddress={coin.walletAddress}
          onConnect={() => void coin.handleConnect()}
        />
      }
    >
      <Stack spacing={2}>
        <CoinStatusNotices token={token} walletError={coin.walletError} />
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <CoinContractSection token={token} />
          <CoinOnChainSection
            token={token}
            walletAddress={coin.walletAddress}
            isRefreshing={coin.isRefreshing}
            onRefresh={coin.refresh}
          />
        </Stack>
        {coin.isMintable ? <MintForm token={token} onMinted={coin.handleMinted} /> : null}
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <CoinParametersSection token={token} />
          <CoinFunctionsSection token={token} />
        </Stack>
      </Stack>
    </Page>
  );
}
