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
import {
  ZContactAuthoriseRequest,
  ZContactReceipt,
  ZContactUsRequest,
  type TContactReceipt,
  type TUser,
} from '@connect/shared';
import { api } from '../lib/api.ts';
import { currentUserQuery } from '../lib/current-user.ts';
import { session } from '../lib/storage.ts';
import { SubmitButton } from './submit-button.tsx';

/**
 * The three enquiry forms of the portal: a support enquiry (profile and help pages,
 * POST /contact-us-form), an authorise enquiry (the authorise page, POST /contact-us-authorise) and
 * a plan enquiry (Contact Us of the upgrade page, spec §2: POST /contact-us-form with the current
 * plan, the plan asked about as its subject). They differ in a few fields and texts, listed below.
 */
export type ContactKind = 'support' | 'authorise' | 'plan';

type ContactForm = {
  name: string;
  email: string;
  company: string;
  subject: string;
  currentPlan: string;
  description: string;
};
type FieldName = keyof ContactForm;

const ENDPOINTS: Record<ContactKind, string> = {
  support: '/contact-us-form',
  authorise: '/contact-us-authorise',
  plan: '/contact-us-form',
};

/**
 * The texts that differ by kind, as i18n keys (the account namespace unless prefixed). The plan
 * enquiry keeps the labels of its spec (Confirm, Description) in the accountPlan namespace.
 */
const TEXTS: Record<
  ContactKind,
  { company: string; description: string; submit: string; sentTitle: string; sentReference: string }
> = {
  support: {
    company: 'contact.fields.companyOptional',
    description: 'contact.fields.description',
    submit: 'contact.send',
    sentTitle: 'contact.sentTitle',
    sentReference: 'contact.sentReference',
  },
  authorise: {
    company: 'contact.fields.company',
    description: 'contact.fields.description',
    submit: 'contact.send',
    sentTitle: 'contact.sentTitle',
    sentReference: 'contact.sentReference',
  },
  plan: {
    company: 'contact.fields.company',
    description: 'accountPlan:contact.description',
    submit: 'accountPlan:contact.confirm',
    sentTitle: 'accountPlan:contact.sentTitle',
    sentReference: 'accountPlan:contact.sentReference',
  },
};

/**
 * The request body of each kind: an empty optional company is left out, not sent as ''. A plan
 * enquiry's subject is not typed: it is set from the plan asked about when the form opens.
 */
function toRequest(kind: ContactKind, values: ContactForm) {
  const { company, subject, currentPlan, ...rest } = values;
  const optionalCompany = company.trim() ? { company } : {};
  if (kind === 'support') return { ...rest, ...optionalCompany, subject };
  if (kind === 'plan') return { ...rest, ...optionalCompany, currentPlan, subject };
  return { ...rest, company };
}

/**
 * Validates with the very schema the server uses. A hand-written resolver rather than zodResolver
 * because the form holds '' for the optional company, which the schema expects to be absent.
 */
function resolverFor(kind: ContactKind): Resolver<ContactForm> {
  const schema = kind === 'authorise' ? ZContactAuthoriseRequest : ZContactUsRequest;
  return async (values) => {
    const result = schema.safeParse(toRequest(kind, values));
    if (result.success) return { values, errors: {} };
    const errors: Partial<Record<FieldName, { type: string; message: string }>> = {};
    for (const issue of result.error.issues) {
      const name = issue.path[0] as FieldName | undefined;
      if (name && !errors[name]) errors[name] = { type: issue.code, message: issue.message };
    }
    return { values: {}, errors };
  };
}

function defaultsOf(user: TUser | undefined, plan: PlanEnquiry | null, subject: string): ContactForm {
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ');
  return {
    name,
    email: user?.email ?? '',
    company: user?.organisationName ?? '',
    subject,
    currentPlan: plan?.currentPlan ?? '',
    description: '',
  };
}

/** What a plan enquiry is about: the plan asked about (null: the account's own) and the current plan. */
type PlanEnquiry = { planName: string | null; currentPlan: string };

export type ContactDialogProps = {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: string;
} & ({ kind: 'support' | 'authorise' } | ({ kind: 'plan' } & PlanEnquiry));

/**
 * A dialog with the enquiry form; after sending it shows the reference to quote. The body mounts
 * on every opening (MUI unmounts a closed dialog's content), so each opening starts afresh,
 * prefilled from the signed-in user (and, for a plan enquiry, the current plan).
 */
export function ContactDialog(props: ContactDialogProps) {
  const { open, onClose, title, description } = props;
  const titleId = useId();
  const plan = props.kind === 'plan' ? { planName: props.planName, currentPlan: props.currentPlan } : null;
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <ContactDialogBody
        kind={props.kind}
        plan={plan}
        onClose={onClose}
        title={title}
        description={description}
        titleId={titleId}
      />
    </Dialog>
  );
}

function ContactDialogBody({
  kind,
  plan,
  onClose,
  title,
  description,
  titleId,
}: {
  kind: ContactKind;
  plan: PlanEnquiry | null;
  onClose: () => void;
  title: string;
  description: string | undefined;
  titleId: string;
}) {
  const { t } = useTranslation(['account', 'accountPlan']);
  const texts = TEXTS[kind];
  const userUuid = session.userUuid() ?? '';
  const user = useQuery({ ...currentUserQuery(userUuid), enabled: userUuid !== '' });
  const send = useMutation({
    mutationFn: (values: ContactForm): Promise<TContactReceipt> =>
      api.connect.post(ENDPOINTS[kind], toRequest(kind, values), { schema: ZContactReceipt }),
  });
  const planSubject = plan ? t('accountPlan:contact.subject', { plan: plan.planName ?? plan.currentPlan }) : '';
  const form = useForm<ContactForm>({
    resolver: resolverFor(kind),
    defaultValues: defaultsOf(user.data, plan, planSubject),
    mode: 'onTouched',
  });

  const handleSubmit = form.handleSubmit((values) => send.mutate(values));
  const fieldFor = (
    name: FieldName,
    label: string,
    props: { required?: boolean; multiline?: boolean; autoComplete?: string; type?: string } = {},
  ) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          name={field.name}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
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

  // The plan enquiry has a close (X) button in its title as well (spec §2: confirm, cancel and close).
  const titleOf = (text: string) => (
    <DialogTitle id={titleId} sx={kind === 'plan' ? { pr: 7 } : undefined}>
      {text}
      {kind === 'plan' ? (
        <IconButton aria-label={t('actions.close')} onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
          <CloseIcon />
        </IconButton>
      ) : null}
    </DialogTitle>
  );

  if (send.isSuccess) {
    return (
      <>
        {titleOf(t(texts.sentTitle))}
        <DialogContent>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }} role="status">
            <CheckCircleOutlineIcon color="success" sx={{ mt: 0.25 }} aria-hidden />
            <Box>
              <Typography>{t(texts.sentReference, { reference: send.data.reference })}</Typography>
              <Typography color="text.secondary" sx={{ mt: 1 }}>
                {t('contact.answerTime')}
              </Typography>
            </Box>
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button variant="contained" onClick={onClose}>
            {t('actions.close')}
          </Button>
        </DialogActions>
      </>
    );
  }

  return (
    <>
      {titleOf(title)}
      <Box component="form" noValidate onSubmit={handleSubmit}>
        <DialogContent sx={{ pt: 0 }}>
          {/* The intro and the plan asked about are one block, as far from the first field as an
              intro alone: the field's floating label rises 9 px above its border into that space. */}
          {description || plan?.planName ? (
            <Box sx={{ mb: 2 }}>
              {description ? <DialogContentText>{description}</DialogContentText> : null}
              {plan?.planName ? (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                  {t('accountPlan:contact.about', { plan: plan.planName })}
                </Typography>
              ) : null}
            </Box>
          ) : null}
          <Box component="fieldset" disabled={send.isPending} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
            <Stack spacing={2} sx={{ pt: 1 }}>
              {fieldFor('name', t('contact.fields.name'), { autoComplete: 'name' })}
              {fieldFor('email', t('contact.fields.email'), { autoComplete: 'email', type: 'email' })}
              {fieldFor('company', t(texts.company), {
                autoComplete: 'organization',
                required: kind === 'authorise',
              })}
              {kind === 'support' ? fieldFor('subject', t('contact.fields.subject')) : null}
              {kind === 'plan' ? fieldFor('currentPlan', t('accountPlan:contact.currentPlan')) : null}
              {fieldFor('description', t(texts.description), { multiline: true })}
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
            {t('actions.cancel')}
          </Button>
          <SubmitButton variant="contained" loading={send.isPending}>
            {t(texts.submit)}
          </SubmitButton>
        </DialogActions>
      </Box>
    </>
  );
}
