import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TOrder } from '@connect/shared';
import { CopyButton } from '../../../../components/copy-button.tsx';
import { TrackedQntPayment } from '../../../../components/qnt/tracked-qnt-payment.tsx';
import { formatDate, formatNumber } from '../../../../lib/format.ts';
import { DetailRow } from '../account-section.tsx';
import { formatGbp } from '../../../../lib/plans/money.ts';

/** What an order buys, in words: the plan, the bundle, or both. */
export function useOrderSubject() {
  const { t } = useTranslation('account');
  return (order: TOrder) => {
    const plan = order.ratePlan?.name ?? '';
    const credits = order.bundle ? formatNumber(order.bundle.credits) : '';
    if (order.kind === 'PLAN' && order.bundle) return t('myAccount.plan.order.planWithBundle', { plan, credits });
    return t(`myAccount.plan.order.kind.${order.kind}`, { plan, credits });
  };
}

/**
 * An order waiting for its payment: reference, what it is for, amount and due date, and where to
 * pay — the bank details, or the QNT payment live (`autoPay`: the wallet opens at once, for an
 * order just placed with QNT).
 */
export function OrderDetails({ order, autoPay = false }: { order: TOrder; autoPay?: boolean }) {
  const { t } = useTranslation('account');
  const subject = useOrderSubject();
  const bank = order.bankTransfer;
  const qnt = order.paymentMethod === 'QNT' ? order.qnt : null;
  const monospace = { fontFamily: 'monospace' };
  return (
    <>
      <Box component="dl" sx={{ m: 0 }}>
        <DetailRow label={t('myAccount.plan.order.reference')}>
          <Box component="span" sx={{ ...monospace, fontWeight: 600 }} data-testid="order-reference">
            {order.reference}
          </Box>
          <CopyButton value={order.reference} label={t('myAccount.plan.order.copyReference')} />
        </DetailRow>
        <DetailRow label={t('myAccount.plan.order.what')}>{subject(order)}</DetailRow>
        <DetailRow label={t('myAccount.plan.order.amount')}>
          <span data-testid="order-amount">{formatGbp(order.totalGbpMinor)}</span>
        </DetailRow>
        {order.paidGbpMinor > 0 ? (
          <DetailRow label={t('myAccount.plan.order.paid')}>{formatGbp(order.paidGbpMinor)}</DetailRow>
        ) : null}
        <DetailRow label={t('myAccount.plan.order.due')}>{formatDate(bank?.dueAt ?? order.dueAt)}</DetailRow>
        <DetailRow label={t('myAccount.plan.order.method')}>
          {t(`myAccount.plan.paymentMethods.${order.paymentMethod}`)}
        </DetailRow>
      </Box>
      {bank ? (
        <Box
          component="section"
          aria-label={t('myAccount.plan.paymentMethods.BANK_TRANSFER')}
          sx={{ mt: 2, p: 2, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.default' }}
        >
          <Typography variant="body2" sx={{ mb: 1.5 }}>
            {t('myAccount.plan.order.bankIntro', { reference: bank.reference, amount: formatGbp(bank.amountGbpMinor) })}
          </Typography>
          <Box component="dl" sx={{ m: 0 }}>
            <DetailRow label={t('myAccount.plan.order.accountName')}>{bank.accountName}</DetailRow>
            <DetailRow label={t('myAccount.plan.order.bankName')}>{bank.bankName}</DetailRow>
            <DetailRow label={t('myAccount.plan.order.sortCode')}>
              <Box component="span" sx={monospace}>
                {bank.sortCode}
              </Box>
            </DetailRow>
            <DetailRow label={t('myAccount.plan.order.accountNumber')}>
              <Box component="span" sx={monospace}>
                {bank.accountNumber}
              </Box>
            </DetailRow>
            <DetailRow label={t('myAccount.plan.order.iban')}>
              <Box component="span" sx={monospace}>
                {bank.iban}
              </Box>
              <CopyButton value={bank.iban} label={t('myAccount.plan.order.copyIban')} />
            </DetailRow>
            <DetailRow label={t('myAccount.plan.order.bic')}>
              <Box component="span" sx={monospace}>
                {bank.bic}
              </Box>
            </DetailRow>
          </Box>
        </Box>
      ) : null}
      {qnt ? (
        <Box
          component="section"
          aria-label={t('myAccount.plan.order.qntPayment')}
          sx={{ mt: 2, p: 2, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.default' }}
        >
          <TrackedQntPayment order={{ ...order, qnt }} autoPay={autoPay} />
        </Box>
      ) : null}
    </>
  );
}
