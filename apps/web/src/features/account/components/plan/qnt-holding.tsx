import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TSubscription } from '@connect/shared';
import { CopyButton } from '../../../../components/copy-button.tsx';
import { visuallyHidden } from '../../../../components/visually-hidden.ts';
import { formatQnt } from '../../../../lib/plans/money.ts';
import { DetailRow } from '../account-section.tsx';

/** What a shortened identifier keeps: 0x1234…abcd (shared/UI.md). */
const HEAD = 6;
const TAIL = 4;

/**
 * An address on one line with its copy button: in full where the row has room for both, else
 * shortened in the middle (0x1234…abcd). The whole address stays in the text — the middle is only
 * hidden from view, so screen readers and a selection copied by hand get all of it — and in the
 * title, and the button copies all of it.
 *
 * Whether it fits is measured: CSS alone (an ellipsis on the start, the end kept beside it) leaves
 * up to a character's width of blank after the ellipsis, which reads as a space in the address.
 */
function Address({ value, copyLabel, testId }: { value: string; copyLabel: string; testId?: string }) {
  const roomRef = useRef<HTMLSpanElement>(null);
  const fullRef = useRef<HTMLSpanElement>(null);
  const [isShort, setShort] = useState(false);

  useLayoutEffect(() => {
    const room = roomRef.current;
    const full = fullRef.current;
    if (!room || !full || typeof ResizeObserver === 'undefined') return;
    // The room is as wide as the full address and its button where the row allows it (the strut
    // below asks for that much), else as wide as the row allows: short when the strut overflows.
    const observer = new ResizeObserver(() => setShort(full.scrollWidth > room.clientWidth));
    observer.observe(room);
    observer.observe(full);
    return () => observer.disconnect();
  }, []);

  return (
    <Box component="span" ref={roomRef} sx={{ display: 'block', minWidth: 0, overflow: 'hidden' }}>
      <Box
        component="span"
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 0.5,
          // A small icon button is 30 px high, a body2 line 20 px: the row keeps the height of the others.
          '& .MuiIconButton-root': { my: '-5px' },
        }}
      >
        <Box component="span" title={value} data-testid={testId} sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
          {value.slice(0, HEAD)}
          <Box component="span" sx={isShort ? visuallyHidden : {}}>
            {value.slice(HEAD, -TAIL)}
          </Box>
          {/* Generated content: the ellipsis is not part of the address's text. */}
          {isShort ? <Box component="span" aria-hidden sx={{ '&::before': { content: '"…"' } }} /> : null}
          {value.slice(-TAIL)}
        </Box>
        <CopyButton value={value} label={copyLabel} />
      </Box>
      {/* The strut, 0 px high: as wide as the full address and the copy button's room (30 px and
          the 4 px gap before it), so the room stays that wide while the short form is shown. */}
      <Box
        component="span"
        ref={fullRef}
        aria-hidden
        sx={{
          display: 'block',
          width: 'max-content',
          maxWidth: '100%',
          height: 0,
          overflow: 'hidden',
          visibility: 'hidden',
          whiteSpace: 'nowrap',
          fontFamily: 'monospace',
        }}
      >
        {value}
        <Box component="span" sx={{ display: 'inline-block', width: '34px' }} />
      </Box>
    </Box>
  );
}

/**
 * The QNT held for the customer (over-payments, what arrived after a quote expired, transfers
 * without an order) and their deposit address: QNT sent there is held for them and counts toward
 * their next order paid in QNT. Shown once there is something to show.
 */
export function QntHolding({ qnt }: { qnt: TSubscription['qnt'] }) {
  const { t } = useTranslation('account');
  if (!qnt || (BigInt(qnt.held) === 0n && !qnt.depositAddress)) return null;
  return (
    <Box component="section" aria-labelledby="plan-qnt-title" sx={{ mt: 3 }}>
      <Typography id="plan-qnt-title" variant="h4" component="h3" sx={{ mb: 1.5 }}>
        {t('myAccount.plan.qnt.title')}
      </Typography>
      <Box component="dl" sx={{ m: 0 }}>
        <DetailRow label={t('myAccount.plan.qnt.held')}>
          <Box component="span" sx={{ fontWeight: 600 }} data-testid="qnt-held">
            {formatQnt(qnt.held)}
          </Box>
        </DetailRow>
        {qnt.depositAddress ? (
          <DetailRow label={t('myAccount.plan.qnt.depositAddress')}>
            <Address value={qnt.depositAddress} copyLabel={t('myAccount.plan.qnt.copyAddress')} testId="qnt-address" />
          </DetailRow>
        ) : null}
        {qnt.depositAddress && qnt.chainId !== null ? (
          <DetailRow label={t('myAccount.plan.qnt.chain')}>
            {qnt.networkName
              ? t('myAccount.plan.qnt.networkValue', { network: qnt.networkName, chainId: qnt.chainId })
              : t('myAccount.plan.qnt.chainId', { chainId: qnt.chainId })}
          </DetailRow>
        ) : null}
        {qnt.tokenAddress ? (
          <DetailRow label={t('myAccount.plan.qnt.token')}>
            <Address value={qnt.tokenAddress} copyLabel={t('myAccount.plan.qnt.copyToken')} testId="qnt-token" />
          </DetailRow>
        ) : null}
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {t('myAccount.plan.qnt.hint')}
      </Typography>
    </Box>
  );
}
