import AccountBalanceWalletOutlinedIcon from '@mui/icons-material/AccountBalanceWalletOutlined';
import RefreshIcon from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TTokenDetails } from '@connect/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Fragment, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { isUnknownToken } from '../../../lib/problems.ts';
import { classifyWalletError, connectWallet, useWallet, WalletProvider } from '../../../lib/wallet/index.ts';
import { getToken, tokenKey, useToken } from '../api/get-token.ts';
import { Identifier, shorten } from '../components/identifier.tsx';
import { MintForm } from '../components/mint-form.tsx';
import { SandboxChip, TokenStatusChip } from '../components/token-status-chip.tsx';
import { tokenPaths } from '../token-paths.ts';
import { formatTokenAmount } from '../utils/amounts.ts';

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13, wordBreak: 'break-all' };

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
  if (token.isError) {
    return (
      <Page title={t('title')}>
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void token.refetch()}>
              {t('actions.retry')}
            </Button>
          }
        >
          {t('details.loadError')} {token.error.message}
        </Alert>
      </Page>
    );
  }
  if (!token.data) {
    return (
      <Page title={t('title')}>
        <Box aria-busy="true" aria-label={t('title')}>
          <Skeleton variant="rounded" height={48} sx={{ mb: 2 }} />
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
            <Skeleton variant="rounded" height={240} sx={{ flex: 1 }} />
            <Skeleton variant="rounded" height={240} sx={{ flex: 1 }} />
          </Stack>
        </Box>
      </Page>
    );
  }
  return (
    <WalletProvider networks={[{ chainId: token.data.chainId, name: token.data.network, explorerUrl: null }]}>
      <CoinDetails id={id} initial={token.data} />
    </WalletProvider>
  );
}

function Facts({ rows }: { rows: { label: string; value: ReactNode }[] }) {
  return (
    <Box
      component="dl"
      sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '180px 1fr' }, columnGap: 2, rowGap: 1.25, m: 0 }}
    >
      {rows.map((row) => (
        <Fragment key={row.label}>
          <Typography component="dt" color="text.secondary" variant="body2">
            {row.label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0 }}>
            {row.value}
          </Typography>
        </Fragment>
      ))}
    </Box>
  );
}

function Section({
  id,
  title,
  description,
  action,
  children,
}: {
  id: string;
  title: string;
  description?: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card variant="outlined" component="section" aria-labelledby={id} sx={{ flex: 1, minWidth: 0 }}>
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'flex-start', mb: 2 }}>
          <Box>
            <Typography id={id} variant="h2" sx={{ fontSize: 18 }}>
              {title}
            </Typography>
            {description ? (
              <Typography variant="body2" color="text.secondary">
                {description}
              </Typography>
            ) : null}
          </Box>
          {action}
        </Stack>
        {children}
      </CardContent>
    </Card>
  );
}

function CoinDetails({ id, initial }: { id: string; initial: TTokenDetails }) {
  const { t } = useTranslation('quantPortfolio');
  const queryClient = useQueryClient();
  const wallet = useWallet();
  const [walletError, setWalletError] = useState<string | null>(null);
  // With a wallet connected, the platform also reads that wallet's balance.
  const query = useToken(id, wallet.address);
  // A local chain standing in for a public testnet carries the Sandbox chip.
  const token = query.data ?? initial;
  const onChain = token.onChain;
  const isMintable = (token.tierType === 'flex' || token.tierType === 'vari') && token.status === 'ACTIVE';
  const noLimit = !token.maxSupply || token.maxSupply === '0';

  const handleConnect = async () => {
    try {
      await connectWallet(wallet.config);
      setWalletError(null);
    } catch (error) {
      setWalletError(
        t(`wallet.errors.${classifyWalletError(error)}`, { network: token.network, chainId: token.chainId }),
      );
    }
  };

  const handleMinted = async () => {
    const fresh = await queryClient.fetchQuery({
      queryKey: [...tokenKey(id), wallet.address ?? null],
      queryFn: () => getToken(id, wallet.address),
      staleTime: 0,
    });
    return formatTokenAmount(fresh.onChain?.totalSupply, fresh.decimalPlaces);
  };

  const decimals = token.tokenType === 'QRC20' ? token.decimalPlaces : 0;
  const holderIsWallet =
    wallet.address && onChain?.holder && onChain.holder.toLowerCase() === wallet.address.toLowerCase();

  return (
    <Page
      title={`${token.tokenName} (${token.tokenUnit})`}
      description={`${t(`tokenType.${token.tokenType}`)} · ${token.tierName} · ${token.network}`}
      actions={
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <TokenStatusChip status={token.status} />
          {wallet.address ? (
            <Chip
              icon={<AccountBalanceWalletOutlinedIcon />}
              variant="outlined"
              label={shorten(wallet.address)}
              title={t('wallet.connectedAs', { address: wallet.address })}
              aria-label={t('wallet.connectedAs', { address: wallet.address })}
            />
          ) : (
            <Button
              variant="outlined"
              startIcon={<AccountBalanceWalletOutlinedIcon />}
              onClick={() => void handleConnect()}
            >
              {t('wallet.connect')}
            </Button>
          )}
        </Stack>
      }
    >
      <Stack spacing={2}>
        {walletError ? <Alert severity="error">{walletError}</Alert> : null}
        {token.status === 'PENDING' ? (
          <Alert severity="info">
            {t('details.pending')}
            <LinearProgress sx={{ mt: 1 }} aria-label={t('details.pending')} />
          </Alert>
        ) : null}
        {token.status === 'FAILED' ? (
          <Alert
            severity="error"
            action={
              <Button component={RouterLink} to={tokenPaths.support()} color="inherit" size="small">
                {t('stepper.deploy.contactSupport')}
              </Button>
            }
          >
            {t('stepper.deploy.failedNotice')}
            {token.failureReason ? ` (${token.failureReason})` : ''}
          </Alert>
        ) : null}
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <Section id="contract-title" title={t('details.contract')}>
            <Facts
              rows={[
                {
                  label: t('details.network'),
                  value: (
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <span>
                        {token.network} · {token.blockchain} (chain id {token.chainId})
                      </span>
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
          </Section>
          <Section
            id="on-chain-title"
            title={t('details.onChain')}
            description={t('details.onChainDescription', { network: token.network })}
            action={
              <Button
                size="small"
                startIcon={<RefreshIcon />}
                onClick={() => void query.refetch()}
                loading={query.isFetching}
              >
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
          </Section>
        </Stack>
        {isMintable ? <MintForm token={token} onMinted={handleMinted} /> : null}
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <Section id="parameters-title" title={t('details.parameters')}>
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
                          <Identifier
                            value={token.supplyHolderAddress}
                            what={t('details.supplyHolder').toLowerCase()}
                          />
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
          </Section>
          <Section
            id="functions-title"
            title={t('details.functions')}
            description={t('details.functionsDescription', { tier: token.tierName })}
          >
            <Stack direction="row" spacing={0.75} useFlexGap sx={{ flexWrap: 'wrap' }}>
              {token.functions.map((name) => (
                <Chip key={name} size="small" label={name} sx={{ ...mono, fontSize: 12 }} />
              ))}
            </Stack>
          </Section>
        </Stack>
      </Stack>
    </Page>
  );
}
