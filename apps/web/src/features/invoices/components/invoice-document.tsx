import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isExplanatoryLine, partyAddressLines, type TInvoice, type TInvoiceParty, type TOrder } from '@connect/shared';
import { formatDate, formatDateTime, formatGbpUnitPrice, formatNumber, formatRateBp } from '../../../lib/format.ts';
import { formatGbp, formatGbpPerQnt, formatQnt, formatUsd } from '../../../lib/plans/money.ts';
import { InvoiceStatusChips } from './invoice-status.tsx';

/** The money columns of a line that only explains the bill (isExplanatoryLine), as the portal shows no value. */
const NONE = '–';

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Box component="section" aria-labelledby={id} sx={{ breakInside: 'avoid' }}>
      <Typography id={id} variant="overline" component="h2" color="text.secondary" sx={{ lineHeight: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** A label and its value; `strong` for the totals that matter. */
function Figure({ label, value, strong = false }: { label: string; value: ReactNode; strong?: boolean }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, py: 0.25 }}>
      <Typography
        component="dt"
        color={strong ? 'text.primary' : 'text.secondary'}
        sx={{ fontWeight: strong ? 600 : 400 }}
      >
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, fontWeight: strong ? 600 : 400, textAlign: 'right' }}>
        {value}
      </Typography>
    </Box>
  );
}

/** A party's block: name, address lines (or "Address not given"), numbers and contacts. */
function Party({ title, party }: { title: string; party: TInvoiceParty }) {
  const { t } = useTranslation('bill');
  return (
    <Section title={title}>
      <Box component="address" sx={{ fontStyle: 'normal' }}>
        <Typography sx={{ fontWeight: 600 }}>{party.companyName}</Typography>
        {party.address.length > 0 ? (
          partyAddressLines(party).map((line, i) => <Typography key={i}>{line}</Typography>)
        ) : (
          <Typography color="text.secondary">{t('invoice.addressNotGiven')}</Typography>
        )}
        {party.registrationNumber ? (
          <Typography variant="body2">
            {t('invoice.registrationNumber', { value: party.registrationNumber })}
          </Typography>
        ) : null}
        {party.vatNumber ? (
          <Typography variant="body2">{t('invoice.vatNumber', { value: party.vatNumber })}</Typography>
        ) : null}
        {[party.website, party.telephone, party.email].filter(Boolean).map((contact) => (
          <Typography key={contact} variant="body2">
            {contact}
          </Typography>
        ))}
      </Box>
    </Section>
  );
}

/**
 * The invoice as a document (spec §3 Invoice): the issuer and the customer, the header, the lines,
 * the summary and the footer — what the PDF says too. It is the part of the page that is printed.
 */
export function InvoiceDocument({
  invoice,
  bankTransfer = null,
}: {
  invoice: TInvoice;
  /** Where to send a bank transfer while the invoice is due (its order's instructions), else null. */
  bankTransfer?: TOrder['bankTransfer'];
}) {
  const { t } = useTranslation('bill');
  const rate = formatRateBp(invoice.vatRateBp);
  const vatLabel = t('invoice.vatLine', { rate: t(`invoice.vatTreatment.${invoice.vatTreatment}`, { rate }) });
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 } }} data-testid="invoice-document">
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 2, mb: 3 }}>
        <Typography variant="h2" component="p" sx={{ fontFamily: 'monospace' }}>
          {invoice.number}
        </Typography>
        <InvoiceStatusChips
          invoice={{ ...invoice, credited: invoice.creditNotes.reduce((sum, note) => sum + note.amount, 0) }}
        />
      </Box>

      <Grid container spacing={3}>
        <Grid size={{ xs: 12, sm: 6 }}>
          <Party title={t('invoice.from')} party={invoice.issuer} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <Party title={t('invoice.billedTo')} party={invoice.customer} />
        </Grid>
      </Grid>

      <Divider sx={{ my: 3 }} />

      <Section title={t('invoice.details')}>
        <Box
          component="dl"
          sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 4 }}
        >
          <Figure label={t('invoice.number')} value={invoice.number} />
          <Figure label={t('invoice.date')} value={formatDate(invoice.date)} />
          <Figure label={t('invoice.reference')} value={invoice.reference} />
          <Figure label={t('invoice.accountNumber')} value={invoice.accountNumber} />
          <Figure label={t('invoice.dueDate')} value={formatDate(invoice.dueDate)} />
          <Figure label={t('invoice.terms')} value={t('invoice.termsValue', { count: invoice.termsDays })} />
          {invoice.periodStart || invoice.periodEnd ? (
            <Figure
              label={t('invoice.period')}
              value={t('invoice.periodValue', {
                start: formatDate(invoice.periodStart),
                end: formatDate(invoice.periodEnd),
              })}
            />
          ) : null}
        </Box>
      </Section>

      <Box sx={{ my: 3, overflowX: 'auto' }}>
        <Table size="small" aria-label={t('invoice.lines')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('invoice.description')}</TableCell>
              <TableCell align="right">{t('invoice.quantity')}</TableCell>
              <TableCell align="right">{t('invoice.unitPrice')}</TableCell>
              <TableCell align="right">{t('invoice.vat')}</TableCell>
              <TableCell align="right">{t('invoice.amount')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {invoice.lines.length === 0 ? (
              <TableRow>
                <TableCell colSpan={5}>{t('invoice.noLines')}</TableCell>
              </TableRow>
            ) : (
              invoice.lines.map((line, i) => (
                <TableRow key={i}>
                  <TableCell>{line.description}</TableCell>
                  <TableCell align="right">{formatNumber(line.quantity)}</TableCell>
                  {isExplanatoryLine(line) ? (
                    <>
                      <TableCell align="right">{NONE}</TableCell>
                      <TableCell align="right">{NONE}</TableCell>
                      <TableCell align="right">{NONE}</TableCell>
                    </>
                  ) : (
                    <>
                      <TableCell align="right">{formatGbpUnitPrice(line.unitPrice)}</TableCell>
                      <TableCell align="right">
                        {formatGbp(line.vat)}
                        <Typography component="span" variant="body2" color="text.secondary">
                          {` (${formatRateBp(line.vatRateBp)})`}
                        </Typography>
                      </TableCell>
                      <TableCell align="right">{formatGbp(line.amount)}</TableCell>
                    </>
                  )}
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </Box>

      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 6 }} sx={{ order: { xs: 2, md: 1 } }}>
          <Section title={t('invoice.footer')}>
            <Typography sx={{ mb: 1 }}>
              {invoice.status === 'PAID'
                ? invoice.paymentMethod
                  ? t('invoice.paidInFullWith', {
                      date: formatDate(invoice.dateReceived),
                      method: t(`invoice.paidWith.${invoice.paymentMethod}`),
                    })
                  : t('invoice.paidInFull', { date: formatDate(invoice.dateReceived) })
                : invoice.status === 'VOID'
                  ? t('invoice.void')
                  : t('invoice.paymentTerms', {
                      count: invoice.termsDays,
                      due: formatDate(invoice.dueDate),
                      reference: invoice.reference,
                    })}
            </Typography>
            {invoice.status === 'OPEN' ? (
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} className="no-print">
                {t('invoice.payOptions')}
              </Typography>
            ) : null}
            {bankTransfer && invoice.status === 'OPEN' ? (
              <Box component="dl" sx={{ m: 0, mb: 1, maxWidth: 420 }} data-testid="invoice-bank">
                <Figure label={t('invoice.bank.accountName')} value={bankTransfer.accountName} />
                <Figure label={t('invoice.bank.bankName')} value={bankTransfer.bankName} />
                <Figure label={t('invoice.bank.sortCode')} value={bankTransfer.sortCode} />
                <Figure label={t('invoice.bank.accountNumber')} value={bankTransfer.accountNumber} />
                <Figure label={t('invoice.bank.iban')} value={bankTransfer.iban} />
                <Figure label={t('invoice.bank.bic')} value={bankTransfer.bic} />
                <Figure label={t('invoice.reference')} value={bankTransfer.reference} />
              </Box>
            ) : null}
            {invoice.vatNote ? (
              <Typography variant="body2" sx={{ mb: 1, fontWeight: 600 }} data-testid="vat-note">
                {invoice.vatNote}
              </Typography>
            ) : null}
            {invoice.creditNotes.length > 0 ? (
              <Box sx={{ mt: 2 }}>
                <Typography variant="subtitle2" component="h3">
                  {t('invoice.creditNotes')}
                </Typography>
                <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                  {invoice.creditNotes.map((note) => (
                    <li key={note.id}>
                      {t('invoice.creditNote', {
                        number: note.number,
                        amount: formatGbp(note.amount),
                        reason: note.reason,
                      })}
                    </li>
                  ))}
                </Box>
              </Box>
            ) : null}
            {invoice.receipt ? (
              <Box sx={{ mt: 2 }}>
                <Typography variant="subtitle2" component="h3">
                  {t('invoice.receipt')}
                </Typography>
                <Typography data-testid="invoice-receipt">
                  {t('invoice.receiptValue', {
                    number: invoice.receipt.number,
                    amount: formatGbp(invoice.receipt.amount),
                    date: formatDate(invoice.receipt.paidAt),
                  })}
                </Typography>
              </Box>
            ) : null}
          </Section>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }} sx={{ order: { xs: 1, md: 2 } }}>
          <Section title={t('invoice.summary')}>
            <Box component="dl" sx={{ m: 0 }} data-testid="invoice-summary">
              <Figure label={t('invoice.subtotal')} value={formatGbp(invoice.subtotal)} />
              <Figure label={t('invoice.totalWithoutVat')} value={formatGbp(invoice.totalWithoutVat)} />
              <Figure label={vatLabel} value={formatGbp(invoice.vat)} />
              <Figure label={t('invoice.totalGbp')} value={formatGbp(invoice.totalGbp)} strong />
              <Figure
                label={t('invoice.totalUsd')}
                value={`${formatUsd(invoice.totalUsd)} (${t('invoice.usdRate', { rate: invoice.usdPerGbp })})`}
              />
              <Figure label={t('invoice.paymentReceived')} value={formatGbp(invoice.paymentReceived)} />
              <Figure label={t('invoice.dateReceived')} value={formatDate(invoice.dateReceived)} />
              <Figure label={t('invoice.amountDue')} value={formatGbp(invoice.amountDue)} strong />
              {invoice.qnt ? (
                <>
                  <Figure label={t('invoice.qntAmount')} value={formatQnt(invoice.qnt.amountWei, { round: 'up' })} />
                  <Figure
                    label={t('invoice.qntRate')}
                    value={t('invoice.qntRateValue', { rate: formatGbpPerQnt(invoice.qnt.gbpPerQnt) })}
                  />
                  <Figure
                    label={t('invoice.qntRateAt')}
                    value={formatDateTime(invoice.qnt.rateAt, { withZone: true })}
                  />
                </>
              ) : null}
            </Box>
          </Section>
        </Grid>
      </Grid>
    </Paper>
  );
}
