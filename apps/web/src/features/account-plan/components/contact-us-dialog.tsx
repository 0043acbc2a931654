import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import CloseIcon from '@mui/icons-material/Close';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ZContactReceipt, ZContactUsRequest, type TContactReceipt, type TContactUsRequest } from '@connect/shared';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { api } from '../../../lib/api.ts';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { session } from '../../../lib/storage.ts';

type ContactForm = { name: string; email: string; company: string; currentPlan: string; description: string };
type FieldName = keyof ContactForm;

/** The request: the plan asked about is its subject; an empty company is left out rather than sent as ''. */
function toRequest(values: ContactForm, subject: string): TContactUsRequest {
  const { company, ...rest } = values;
  return { ...rest, subject, ...(company.trim() ? { company } : {}) };
}

/**
 * Validates with the schema the server uses (ZContactUsRequest). A hand-written resolver, as in the
 * support form, because the form holds '' for the optional company, which the schema expects absent.
 */
function resolverFor(subject: string): Resolver<ContactForm> {
  return async (values) => {
    const result = ZContactUsRequest.safeParse(toRequest(values, subject));
    if (result.success) return { values, errors: {} };
    const errors: Partial<Record<FieldName, { type: string; message: string }>> = {};
    for (const issue of result.error.issues) {
      const name = issue.path[0] as FieldName | undefined;
      if (name && name in values && !errors[name]) errors[name] = { type: issue.code, message: issue.message };
    }
    return { values: {}, errors };
  };
}

/** POST /contact-us-form with the current plan: a plan enquiry (stored as kind PLAN, mailed to support). */
function sendPlanEnquiry(request: TContactUsRequest): Promise<TContactReceipt> {
  return api.connect.post('/contact-us-form', request, { schema: ZContactReceipt });
}

/**
 * Contact Us of the plan step (spec §2): name, email, company, current plan (prefilled from the
 * subscription) and a description; Confirm, Cancel and close; an answer within 24 working hours.
 * The body mounts on every opening, so each starts afresh.
 */
export function ContactUsDialog({
  open,
  planName,
  currentPlan,
  onClose,
}: {
  open: boolean;
  /** The plan asked about (the subject of the enquiry). */
  planName: string | null;
  currentPlan: string;
  onClose: () => void;
}) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <ContactUsBody planName={planName} currentPlan={currentPlan} onClose={onClose} titleId={titleId} />
    </Dialog>
  );
}

function ContactUsBody({
  planName,
  currentPlan,
  onClose,
  titleId,
}: {
  planName: string | null;
  currentPlan: string;
  onClose: () => void;
  titleId: string;
}) {
  const { t } = useTranslation('accountPlan');
  const userUuid = session.userUuid() ?? '';
  const user = useQuery({ ...currentUserQuery(userUuid), enabled: userUuid !== '' });
  const subject = t('contact.subject', { plan: planName ?? currentPlan });
  const send = useMutation({ mutationFn: (values: ContactForm) => sendPlanEnquiry(toRequest(values, subject)) });
  const form = useForm<ContactForm>({
    resolver: resolverFor(subject),
    defaultValues: {
      name: [user.data?.firstName, user.data?.lastName].filter(Boolean).join(' '),
      email: user.data?.email ?? '',
      company: user.data?.organisationName ?? '',
      currentPlan,
      description: '',
    },
    mode: 'onTouched',
  });

  const title = (
    <DialogTitle id={titleId} sx={{ pr: 7 }}>
      {send.isSuccess ? t('contact.sentTitle') : t('contact.title')}
      <IconButton aria-label={t('contact.close')} onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
        <CloseIcon />
      </IconButton>
    </DialogTitle>
  );

  if (send.isSuccess) {
    return (
      <>
        {title}
        <DialogContent>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }} role="status">
            <CheckCircleOutlineIcon color="success" sx={{ mt: 0.25 }} aria-hidden />
            <Box>
              <Typography>{t('contact.sentReference', { reference: send.data.reference })}</Typography>
              <Typography color="text.secondary" sx={{ mt: 1 }}>
                {t('contact.answerTime')}
              </Typography>
            </Box>
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button variant="contained" onClick={onClose}>
            {t('contact.close')}
          </Button>
        </DialogActions>
      </>
    );
  }

  const field = (
    name: FieldName,
    label: string,
    props: { required?: boolean; multiline?: boolean; autoComplete?: string; type?: string } = {},
  ) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field: input, fieldState }) => (
        <TextField
          name={input.name}
          value={input.value}
          onChange={input.onChange}
          onBlur={input.onBlur}
          inputRef={input.ref}
          label={label}
          required={props.required ?? true}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message}
          autoComplete={props.autoComplete}
          type={props.type}
          multiline={props.multiline}
          minRows={props.multiline ? 4 : undefined}
        />
      )}
    />
  );

  return (
    <>
      {title}
      <Box component="form" noValidate onSubmit={form.handleSubmit((values) => send.mutate(values))}>
        <DialogContent sx={{ pt: 0 }}>
          <DialogContentText sx={{ mb: 1 }}>{t('contact.intro')}</DialogContentText>
          {planName ? (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {t('contact.about', { plan: planName })}
            </Typography>
          ) : null}
          <Box component="fieldset" disabled={send.isPending} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
            <Stack spacing={2} sx={{ pt: 1 }}>
              {field('name', t('contact.name'), { autoComplete: 'name' })}
              {field('email', t('contact.email'), { autoComplete: 'email', type: 'email' })}
              {field('company', t('contact.company'), { autoComplete: 'organization', required: false })}
              {field('currentPlan', t('contact.currentPlan'))}
              {field('description', t('contact.description'), { multiline: true })}
            </Stack>
          </Box>
          {send.isError ? (
            <Alert severity="error" sx={{ mt: 2 }}>
              {t('contact.failed')}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} color="inherit">
            {t('contact.cancel')}
          </Button>
          <SubmitButton loading={send.isPending}>{t('contact.confirm')}</SubmitButton>
        </DialogActions>
      </Box>
    </>
  );
}
