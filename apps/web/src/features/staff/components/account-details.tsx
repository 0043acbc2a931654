import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TManagementAccount } from '@connect/shared';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { useAccountDetail } from '../api/get-account-detail.ts';
import { AccountActivity } from './account-activity.tsx';
import { AccountAllowances } from './account-allowances.tsx';
import { AccountBalances, AccountBilling } from './account-billing.tsx';
import { accountName } from './account-columns.tsx';
import { AccountFeatures } from './account-features.tsx';
import { DepositAddress } from './deposit-address.tsx';
import { DetailItem, DetailsDrawer } from './details-drawer.tsx';
import { ChangePlanDialog, planActionsOf } from './change-plan-dialog.tsx';
import { ExtendTrialDialog } from './extend-trial-dialog.tsx';
import { Identifier } from './identifier.tsx';
import { AccountStatusChip, PlanStatusChip } from './status-chips.tsx';

/**
 * An account's details beside the list (spec §3 Account detail, issue 33 §1): status, owner with
 * phone, business and location, plan with its reason and payment preference, trial extensions,
 * dates, the account id, the features its customers' menu reads with their overrides, the plan
 * allowances in force with theirs, the ledger's balances, the orders, invoices, payments and credit
 * notes (administrators record receipts and refund from there), and the latest audit entries;
 * "Extend trial" beside the plan's end, "Change plan" beside its status. The deposit
 * address is admin-only (spec §6): the panel asks for it only when the signed-in user is an
 * administrator — a sales user's 403 would sign the SPA out (spec §8) — and not for the staff's
 * own account, which pays nothing (its address would be allocated for nothing).
 */
export function AccountDetails({ account, onClose }: { account: TManagementAccount; onClose: () => void }) {
  const { t } = useTranslation(['staff', 'account']);
  const me = useCurrentUser().data;
  const canSeeAddress = me?.role === 'QUANT_ADMIN' && me.accountId !== account.accountId;
  const owner = account.accountOwner;
  const label = accountName(account, t('accounts.noOrganisation'));
  const [isExtending, setExtending] = useState(false);
  const [isChangingPlan, setChangingPlan] = useState(false);
  const detail = useAccountDetail(account.accountId);
  const plan = detail.data?.plan ?? null;
  const loadingLine = <Skeleton width="60%" />;
  return (
    <>
      <DetailsDrawer
        title={label}
        // Named by its owner's email when it has no organisation: say so under it.
        subtitle={!account.organisationName && owner ? t('accounts.noOrganisation') : undefined}
        onClose={onClose}
      >
        <Box component="dl" sx={{ m: 0 }}>
          <DetailItem label={t('accounts.details.status')}>
            <AccountStatusChip status={account.status} />
          </DetailItem>
          <DetailItem label={t('accounts.details.owner')}>
            {owner ? owner.name || owner.email : t('accounts.noOwner')}
          </DetailItem>
          {owner ? <DetailItem label={t('accounts.details.ownerEmail')}>{owner.email}</DetailItem> : null}
          {owner ? (
            <DetailItem label={t('accounts.details.phone')}>
              {detail.data ? (detail.data.owner?.phone ?? '–') : loadingLine}
            </DetailItem>
          ) : null}
          <DetailItem label={t('accounts.details.business')}>
            {detail.data
              ? [
                  detail.data.business.industry &&
                    t(`account:options.industries.${detail.data.business.industry}`, {
                      defaultValue: detail.data.business.industry,
                    }),
                  detail.data.business.companySize &&
                    t(`account:options.companySizes.${detail.data.business.companySize}`, {
                      defaultValue: detail.data.business.companySize,
                    }),
                ]
                  .filter(Boolean)
                  .join(' · ') || '–'
              : loadingLine}
          </DetailItem>
          <DetailItem label={t('accounts.details.location')}>
            {detail.data ? (detail.data.location ?? '–') : loadingLine}
          </DetailItem>
          <DetailItem label={t('accounts.details.plan')}>{account.currentPlan ?? t('accounts.noPlan')}</DetailItem>
          <DetailItem label={t('accounts.details.planStatus')}>
            <Stack
              component="span"
              direction="row"
              sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}
            >
              <Stack component="span" direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                {(plan?.status ?? account.planStatus) ? (
                  <PlanStatusChip status={plan?.status ?? account.planStatus!} />
                ) : (
                  '–'
                )}
                {plan?.statusReason ? (
                  <Typography component="span" variant="body2" color="text.secondary">
                    {t(`accounts.details.reasons.${plan.statusReason}`)}
                  </Typography>
                ) : null}
              </Stack>
              {plan && planActionsOf(plan).length > 0 ? (
                <Button size="small" variant="outlined" onClick={() => setChangingPlan(true)}>
                  {t('accounts.planChange.open')}
                </Button>
              ) : null}
            </Stack>
            {plan?.cancelAtPeriodEnd ? (
              <Typography variant="body2" color="text.secondary">
                {t('accounts.details.cancelling')}
              </Typography>
            ) : null}
            {plan?.nextPlanName ? (
              <Typography variant="body2" color="text.secondary">
                {t('accounts.details.nextPlan', { plan: plan.nextPlanName })}
              </Typography>
            ) : null}
          </DetailItem>
          <DetailItem label={t('accounts.details.paymentPreference')}>
            {detail.data
              ? plan?.paymentPreference
                ? t(`accounts.billing.methods.${plan.paymentPreference}`)
                : t('accounts.details.noPaymentYet')
              : loadingLine}
          </DetailItem>
          <DetailItem label={t('accounts.details.planExpiry')}>
            <Stack
              component="span"
              direction="row"
              sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}
            >
              <span>{formatDateTime(account.planExpiryDate)}</span>
              {/* For every account: the row does not say whether the plan is the trial, the server does. */}
              <Button size="small" variant="outlined" onClick={() => setExtending(true)}>
                {t('accounts.trial.open')}
              </Button>
            </Stack>
          </DetailItem>
          <DetailItem label={t('accounts.details.trialExtensions')}>
            {detail.data ? detail.data.trialExtensions : loadingLine}
          </DetailItem>
          <DetailItem label={t('accounts.details.lastLogin')}>
            {account.lastLogin ? formatDateTime(account.lastLogin) : t('accounts.details.never')}
          </DetailItem>
          <DetailItem label={t('accounts.details.createdAt')}>{formatDateTime(account.createdAt)}</DetailItem>
          <DetailItem label={t('accounts.details.accountId')}>
            <Identifier value={account.accountId} copyLabel={t('accounts.details.copyAccountId')} isFull />
          </DetailItem>
          {canSeeAddress ? (
            <DetailItem label={t('accounts.details.depositAddress')}>
              <DepositAddress accountId={account.accountId} />
            </DetailItem>
          ) : null}
        </Box>
        <DetailsSection title={t('accounts.details.features')}>
          <AccountFeatures accountId={account.accountId} accountLabel={label} />
        </DetailsSection>
        <DetailsSection title={t('accounts.details.allowances')}>
          <AccountAllowances accountId={account.accountId} accountLabel={label} />
        </DetailsSection>
        {detail.isError ? (
          <Alert severity="error" sx={{ mt: 3 }}>
            {t('accounts.details.detailFailed', { message: problemMessage(detail.error) })}
          </Alert>
        ) : (
          <>
            <DetailsSection title={t('accounts.details.balances')}>
              {detail.data ? (
                <AccountBalances balances={detail.data.balances} />
              ) : (
                <Skeleton variant="rounded" height={64} />
              )}
            </DetailsSection>
            <DetailsSection title={t('accounts.details.billing')}>
              {detail.data ? (
                <AccountBilling detail={detail.data} isAdmin={me?.role === 'QUANT_ADMIN'} />
              ) : (
                <Skeleton variant="rounded" height={120} />
              )}
            </DetailsSection>
            <DetailsSection title={t('accounts.details.activity')}>
              {detail.data ? (
                <AccountActivity
                  entries={detail.data.recentAudit}
                  accountId={account.accountId}
                  isAdmin={me?.role === 'QUANT_ADMIN'}
                />
              ) : (
                <Skeleton variant="rounded" height={80} />
              )}
            </DetailsSection>
          </>
        )}
      </DetailsDrawer>
      {/* Over the panel, beside it in the tree: its keys and clicks are not the panel's. */}
      {isExtending ? (
        <ExtendTrialDialog
          accountId={account.accountId}
          accountLabel={label}
          planExpiryDate={account.planExpiryDate}
          onClose={() => setExtending(false)}
        />
      ) : null}
      {isChangingPlan && plan ? (
        <ChangePlanDialog
          accountId={account.accountId}
          accountLabel={label}
          plan={plan}
          onClose={() => setChangingPlan(false)}
        />
      ) : null}
    </>
  );
}

/** A titled part of the panel: a region named by its heading. */
function DetailsSection({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Typography id={headingId} variant="h3" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}
