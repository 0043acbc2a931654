import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
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
 * The two enquiry forms of the portal: a support enquiry (profile and help pages,
 * POST /contact-us-form) and an authorise enquiry (the authorise page, POST /contact-us-authorise).
 * They differ only in the subject field and whether the company is required.
 */
export type ContactKind = 'support' | 'authorise';

type ContactForm = { name: string; email: string; company: string; subject: string; description: string };
type FieldName = keyof ContactForm;

const ENDPOINTS: Record<ContactKind, string> = {
  support: '/contact-us-form',
  authorise: '/contact-us-authorise',
};

/** The request body of each kind: an empty optional company is left out, not sent as ''. */
function toRequest(kind: ContactKind, values: ContactForm) {
  if (kind === 'support') {
    const { company, ...rest } = values;
    return { ...rest, ...(company.trim() ? { company } : {}) };
  }
  const { subject: _subject, ...rest } = values;
  return rest;
}

/**
 * Validates with the very schema the server uses. A hand-written resolver rather than zodResolver
 * because the form holds '' for the optional company, which the schema expects to be absent.
 */
function resolverFor(kind: ContactKind): Resolver<ContactForm> {
  const schema = kind === 'support' ? ZContactUsRequest : ZContactAuthoriseRequest;
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

function defaultsOf(user: TUser | undefined): ContactForm {
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ');
  return { name, email: user?.email ?? '', company: user?.organisationName ?? '', subject: '', description: '' };
}

export type ContactDialogProps = {
  kind: ContactKind;
  open: boolean;
  onClose: () => void;
  title: string;
  description?: string;
};

/**
 * A dialog with the enquiry form; after sending it shows the reference to quote. The body mounts
 * on every opening (MUI unmounts a closed dialog's content), so each opening starts afresh,
 * prefilled from the signed-in user.
 */
export function ContactDialog({ kind, open, onClose, title, description }: ContactDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <ContactDialogBody kind={kind} onClose={onClose} title={title} description={description} titleId={titleId} />
    </Dialog>
  );
}

function ContactDialogBody({
  kind,
  onClose,
  title,
  description,
  titleId,
}: Omit<ContactDialogProps, 'open'> & { titleId: string }) {
  const { t } = useTranslation('account');
  const userUuid = session.userUuid() ?? '';
  const user = useQuery({ ...currentUserQuery(userUuid), enabled: userUuid !== '' });
  const send = useMutation({
    mutationFn: (values: ContactForm): Promise<TContactReceipt> =>
      api.connect.post(ENDPOINTS[kind], toRequest(kind, values), { schema: ZContactReceipt }),
  });
  const form = useForm<ContactForm>({
    resolver: resolverFor(kind),
    defaultValues: defaultsOf(user.data),
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

  if (send.isSuccess) {
    return (
      <>
        <DialogTitle id={titleId}>{t('contact.sentTitle')}</DialogTitle>
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
            {t('actions.close')}
          </Button>
        </DialogActions>
      </>
    );
  }

  return (
    <>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <Box component="form" noValidate onSubmit={handleSubmit}>
        <DialogContent sx={{ pt: 0 }}>
          {description ? <DialogContentText sx={{ mb: 2 }}>{description}</DialogContentText> : null}
          <Box component="fieldset" disabled={send.isPending} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
            <Stack spacing={2} sx={{ pt: 1 }}>
              {fieldFor('name', t('contact.fields.name'), { autoComplete: 'name' })}
              {fieldFor('email', t('contact.fields.email'), { autoComplete: 'email', type: 'email' })}
              {fieldFor(
                'company',
                kind === 'support' ? t('contact.fields.companyOptional') : t('contact.fields.company'),
                {
                  autoComplete: 'organization',
                  required: kind !== 'support',
                },
              )}
              {kind === 'support' ? fieldFor('subject', t('contact.fields.subject')) : null}
              {fieldFor('description', t('contact.fields.description'), { multiline: true })}
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
            {t('contact.send')}
          </SubmitButton>
        </DialogActions>
      </Box>
    </>
  );
}
