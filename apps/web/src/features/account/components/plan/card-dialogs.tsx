import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TOrder } from '@connect/shared';
import { OrderCardPayment, SetupCardPayment } from '../../../../components/card/order-card-payment.tsx';
import { paths } from '../../../../config/paths.ts';

/** Where a card payment started on My account comes back to (Stripe's return_url, or the sandbox's). */
export const accountReturnUrl = () => `${window.location.origin}${paths.myAccount}`;

function CardDialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const { t } = useTranslation('account');
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>{children}</DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} color="inherit">
          {t('actions.cancel')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Saves a card, or replaces the saved one (POST /card/setup and the card form); mounted when opened. */
export function CardSetupDialog({ isReplacing, onClose }: { isReplacing: boolean; onClose: () => void }) {
  const { t } = useTranslation('account');
  return (
    <CardDialog title={t(isReplacing ? 'myAccount.card.replaceTitle' : 'myAccount.card.addTitle')} onClose={onClose}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('myAccount.card.dialogIntro')}
      </Typography>
      <SetupCardPayment returnUrl={accountReturnUrl()} />
    </CardDialog>
  );
}

/** Pays an open order by card (POST /card/order and the card form); mounted when opened. */
export function PayOrderByCardDialog({ order, onClose }: { order: TOrder; onClose: () => void }) {
  const { t } = useTranslation('account');
  return (
    <CardDialog title={t('myAccount.plan.order.payByCardTitle', { reference: order.reference })} onClose={onClose}>
      <OrderCardPayment orderId={order.id} returnUrl={accountReturnUrl()} />
    </CardDialog>
  );
}
