import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { FormEventHandler, ReactNode } from 'react';
import { FormProvider, useController, useFormContext, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { CodeField } from '../../../components/code-field.tsx';
import { TextInput } from '../../../components/text-input.tsx';
import { paths } from '../../../config/paths.ts';
import { muiField } from '../lib/form.ts';
import { useResendCode } from '../lib/use-resend.ts';
import { AuthFooter } from './auth-footer.tsx';
import { AuthForm, SubmitButton } from './auth-form.tsx';
import { AuthHeader } from './auth-header.tsx';
import { FormError, type FormFailure } from './form-error.tsx';
import { SandboxMailboxNote } from './sandbox-mailbox-note.tsx';

/** A code sent by email: the page's email (from its link, or asked for) and the way to ask for another code. */
type EmailedCode = {
  /** The `email` of the page's link; when it is missing the screen asks for it (the code is checked against it). */
  email: string | undefined;
  /** The subtitles' keys (auth namespace): with the address in bold, and without it. */
  subtitleKey: string;
  subtitleNoEmailKey: string;
  /** The line under the form: "Didn't get the code?" and the button that sends a new one. */
  resend: {
    prompt: string;
    label: string;
    send: (email: string) => Promise<unknown>;
    /** Before a new code is sent: the page clears its alert. */
    onStart: () => void;
    onError: (error: unknown) => void;
  };
};

type CodeScreenProps<TValues extends FieldValues, TOutput extends FieldValues> = {
  /** The page's form; its schema has `code` (and `email` for an emailed code). */
  form: UseFormReturn<TValues, unknown, TOutput>;
  onSubmit: FormEventHandler<HTMLFormElement>;
  failure: FormFailure | null;
  title: string;
  /** The subtitle of a screen without an email (an emailed code's comes from `emailed`). */
  subtitle?: string;
  codeLabel: string;
  codeHint: string;
  submitLabel: string;
  /** Fields after the code (the reset's new password). */
  children?: ReactNode;
  emailed?: EmailedCode;
  /** Leaving by the footer's "Back to login" (the MFA sign-in forgets its challenge). */
  onBackToLogin?: () => void;
};

/**
 * The enter-a-code screen, once for the pages that ask for a code (spec §5): the sign-up
 * confirmation and the password reset (emailed codes, with a resend line and the sandbox's mailbox
 * note) and the MFA sign-in (the authenticator's code). Each page keeps its schema, its submit and
 * its messages; the screen lays them out the same way.
 */
export function CodeScreen<TValues extends FieldValues, TOutput extends FieldValues>({
  form,
  onSubmit,
  failure,
  title,
  subtitle,
  codeLabel,
  codeHint,
  submitLabel,
  children,
  emailed,
  onBackToLogin,
}: CodeScreenProps<TValues, TOutput>) {
  const { t } = useTranslation('auth');
  const isSubmitting = form.formState.isSubmitting;
  const asksEmail = Boolean(emailed && !emailed.email);
  return (
    <>
      <AuthHeader title={title} subtitle={emailed ? <EmailSubtitle {...emailed} /> : subtitle} />
      <FormError failure={failure} />
      <FormProvider {...form}>
        <AuthForm onSubmit={onSubmit} isSubmitting={isSubmitting}>
          {asksEmail ? <EmailInput /> : null}
          {/* Asked for an email first, the focus starts there. */}
          <CodeInput label={codeLabel} hint={codeHint} autoFocus={!asksEmail} />
          {children}
          <SubmitButton isSubmitting={isSubmitting}>{submitLabel}</SubmitButton>
        </AuthForm>
        {emailed ? <ResendLine {...emailed.resend} isSubmitting={isSubmitting} /> : null}
      </FormProvider>
      {emailed ? <SandboxMailboxNote email={emailed.email} /> : null}
      <AuthFooter linkLabel={t('common.backToLogin')} to={paths.login} onClick={onBackToLogin} />
    </>
  );
}

function EmailSubtitle({ email, subtitleKey, subtitleNoEmailKey }: EmailedCode) {
  const { t } = useTranslation('auth');
  if (!email) return t(subtitleNoEmailKey);
  return <Trans t={t} i18nKey={subtitleKey} values={{ email }} components={{ strong: <strong /> }} />;
}

function EmailInput() {
  const { t } = useTranslation('auth');
  const {
    register,
    formState: { errors },
  } = useFormContext<{ email: string }>();
  return (
    <TextInput
      {...muiField(register('email'), errors.email)}
      label={t('fields.email')}
      type="email"
      autoComplete="email"
      autoFocus
    />
  );
}

function CodeInput({ label, hint, autoFocus }: { label: string; hint: string; autoFocus: boolean }) {
  const { field, fieldState } = useController<{ code: string }>({ name: 'code' });
  return (
    <CodeField
      name={field.name}
      value={field.value}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      label={label}
      error={fieldState.error?.message}
      hint={hint}
      autoFocus={autoFocus}
    />
  );
}

/** "Didn't get the code? Resend code": checks the email first (the field's error says what is wrong). */
function ResendLine({
  prompt,
  label,
  send,
  onStart,
  onError,
  isSubmitting,
}: EmailedCode['resend'] & { isSubmitting: boolean }) {
  const { trigger, getValues } = useFormContext<{ email: string }>();
  const { resend, isSending } = useResendCode(send, onError);

  async function handleResend() {
    if (!(await trigger('email'))) return;
    onStart();
    await resend(getValues('email'));
  }

  return (
    <Typography variant="body2" color="text.secondary" sx={{ mt: 2, textAlign: 'center' }}>
      {prompt}{' '}
      <Button
        variant="text"
        size="small"
        onClick={() => void handleResend()}
        loading={isSending}
        disabled={isSubmitting}
      >
        {label}
      </Button>
    </Typography>
  );
}
