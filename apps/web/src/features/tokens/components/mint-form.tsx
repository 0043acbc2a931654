import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { isEvmAddress, TOKEN_MESSAGES, type TTokenDetails } from '@connect/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Address } from 'viem';
import { classifyWalletError, useWallet, walletErrorDetail, writeFromWallet } from '../../../lib/wallet/index.ts';
import { wholeTokensToBaseUnits } from '../utils/amounts.ts';
import { shorten } from './identifier.tsx';
import { QRC20_MINT_ABI, QRC721_MINT_ABI } from './token-abi.ts';

/**
 * Minting from the wallet (flex and vari tiers): only the minter may, so the form says so when
 * the connected wallet is someone else. After the transaction is mined the page re-reads the
 * chain through the platform and shows the new total supply.
 */
export function MintForm({
  token,
  onMinted,
}: {
  token: TTokenDetails;
  /** Re-reads the token; resolves with the new total supply, formatted. */
  onMinted: () => Promise<string>;
}) {
  const { t } = useTranslation('quantPortfolio');
  const wallet = useWallet();
  const [to, setTo] = useState('');
  const [amount, setAmount] = useState('');
  const [errors, setErrors] = useState<{ to?: string; amount?: string }>({});
  const [isPending, setIsPending] = useState(false);
  const [result, setResult] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  const isNft = token.tokenType === 'QRC721';

  // The connected wallet is the usual recipient.
  useEffect(() => {
    if (wallet.address && to === '') setTo(wallet.address);
  }, [wallet.address, to]);

  const isMinter = Boolean(
    wallet.address && token.minter && wallet.address.toLowerCase() === token.minter.toLowerCase(),
  );

  const validate = () => {
    const next: { to?: string; amount?: string } = {};
    if (!isEvmAddress(to.trim())) next.to = TOKEN_MESSAGES.addressFormat;
    if (!isNft && wholeTokensToBaseUnits(amount, token.decimalPlaces) === null)
      next.amount = t('details.mint.amountInvalid');
    setErrors(next);
    return Object.keys(next).length === 0;
  };

  const handleMint = async () => {
    setResult(null);
    if (!validate() || !token.smartContractAddress) return;
    setIsPending(true);
    try {
      const recipient = to.trim() as Address;
      await writeFromWallet(
        wallet.config,
        {
          chainId: token.chainId,
          address: token.smartContractAddress as Address,
          ...(isNft
            ? { abi: QRC721_MINT_ABI, functionName: 'mint', args: [recipient] }
            : {
                abi: QRC20_MINT_ABI,
                functionName: 'mint',
                args: [recipient, wholeTokensToBaseUnits(amount, token.decimalPlaces)!],
              }),
        },
        { choose: wallet.choose },
      );
      const supply = await onMinted();
      setResult({ severity: 'success', text: t('details.mint.done', { supply }) });
      setAmount('');
    } catch (error) {
      const code = classifyWalletError(error);
      // A closed wallet picker is no failure: nothing was asked of the chain.
      if (code === 'CANCELLED') return;
      const detail = code === 'REVERTED' || code === 'UNKNOWN' ? walletErrorDetail(error) : undefined;
      setResult({
        severity: 'error',
        text: `${t(`wallet.errors.${code}`, { network: token.network, chainId: token.chainId })}${detail ? ` (${detail})` : ''}`,
      });
    } finally {
      setIsPending(false);
    }
  };

  return (
    <Card variant="outlined" component="section" aria-labelledby="mint-title">
      <CardContent>
        <Typography id="mint-title" variant="h2" sx={{ fontSize: 18 }}>
          {t('details.mint.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {t('details.mint.description', { minter: token.minter ? shorten(token.minter) : '–' })}
        </Typography>
        {wallet.address && !isMinter ? (
          <Alert severity="warning" sx={{ mt: 2 }}>
            {t('details.mint.notMinter')}
          </Alert>
        ) : null}
        <Stack
          component="form"
          noValidate
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          sx={{ mt: 2, alignItems: 'flex-start' }}
          onSubmit={(event) => {
            event.preventDefault();
            void handleMint();
          }}
        >
          <TextField
            label={t('details.mint.to')}
            value={to}
            onChange={(event) => setTo(event.target.value)}
            onBlur={() =>
              setErrors((e) => ({ ...e, to: isEvmAddress(to.trim()) ? undefined : TOKEN_MESSAGES.addressFormat }))
            }
            error={Boolean(errors.to)}
            helperText={errors.to}
            disabled={isPending}
            size="small"
            sx={{ flex: 2, minWidth: 280, '& input': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' } }}
          />
          {isNft ? (
            <Typography variant="body2" color="text.secondary" sx={{ flex: 1, pt: 1 }}>
              {t('details.mint.nftHint')}
            </Typography>
          ) : (
            <TextField
              label={t('details.mint.amount')}
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              error={Boolean(errors.amount)}
              helperText={errors.amount ?? t('details.mint.amountHint')}
              disabled={isPending}
              size="small"
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              sx={{ flex: 1, minWidth: 140 }}
            />
          )}
          <Button type="submit" variant="contained" loading={isPending}>
            {isNft ? t('details.mint.submitNft') : t('details.mint.submit')}
          </Button>
        </Stack>
        {result ? (
          <Alert severity={result.severity} sx={{ mt: 2 }} role={result.severity === 'error' ? 'alert' : 'status'}>
            {result.text}
          </Alert>
        ) : null}
      </CardContent>
    </Card>
  );
}
