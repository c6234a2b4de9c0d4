import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { BridgeInput, ProfileView } from '../../../shared/contract';
import { useBridge } from '../../bridge/bridge-context';
import { DialogShell } from '../../components/dialog-shell';
import { ErrorPanel } from '../../components/error-panel';
import { Field } from '../../components/field';
import { useNotices } from '../../state/notices-store';
import { queryKeys } from '../../state/query-keys';
import { useAppInfo } from '../../state/use-profiles';
import { credentialsNeededAgain, normalizedFormBaseUrl, validateProfileForm, type ProfileFormContext, type ProfileFormErrors, type ProfileFormValues } from './profile-form-validation';

interface ProfileFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The profile being edited; absent when adding. */
  profile?: ProfileView;
  /** Whether another profile is already active (a first profile becomes the active one). */
  hasActiveProfile: boolean;
}

const FIELD_ORDER: (keyof ProfileFormValues)[] = ['name', 'baseUrl', 'applicationName', 'apiKey', 'apiSecret'];

export function ProfileFormDialog({ open, onOpenChange, profile, hasActiveProfile }: ProfileFormDialogProps) {
  const { t } = useTranslation();
  const editing = profile !== undefined;
  return (
    <DialogShell
      open={open}
      onOpenChange={onOpenChange}
      title={editing ? t('profileForm.editTitle', { name: profile.name }) : t('profileForm.addTitle')}
      description={t('profileForm.description')}
      className="dialog--form"
    >
      {/* Keyed so every opening starts from the stored values and an empty secret. */}
      <ProfileForm key={profile?.id ?? 'new'} profile={profile} hasActiveProfile={hasActiveProfile} onDone={() => onOpenChange(false)} />
    </DialogShell>
  );
}

function ProfileForm({ profile, hasActiveProfile, onDone }: { profile?: ProfileView; hasActiveProfile: boolean; onDone: () => void }) {
  const { t } = useTranslation();
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const pushNotice = useNotices((s) => s.push);
  // Where the secret really goes: the keychain when there is one, memory for this session otherwise.
  const keychainMissing = useAppInfo().data?.keychain.available === false;
  const editing = profile !== undefined;
  const hasCredentials = profile?.hasCredentials ?? false;
  const context: ProfileFormContext = { editing, hasCredentials, ...(profile ? { storedBaseUrl: profile.baseUrl } : {}) };
  const [values, setValues] = useState<ProfileFormValues>({
    name: profile?.name ?? '',
    baseUrl: profile?.baseUrl ?? '',
    applicationName: profile?.applicationName ?? '',
    apiKey: '',
    apiSecret: '', // Write-only: never pre-filled, not even on edit.
  });
  const [errors, setErrors] = useState<ProfileFormErrors>({});
  const [submitted, setSubmitted] = useState(false);

  const save = useMutation({
    mutationFn: async (input: BridgeInput<'profiles.save'>) => {
      const saved = await bridge['profiles.save'](input);
      if (!hasActiveProfile) await bridge['profiles.setActive']({ id: saved.id });
      return saved;
    },
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.profiles });
      pushNotice({ tone: 'success', text: (t) => t('profileForm.saved', { name: saved.name }), fades: true });
      onDone();
    },
  });

  const update = (key: keyof ProfileFormValues) => (event: { target: { value: string } }) => {
    const next = { ...values, [key]: event.target.value };
    setValues(next);
    if (submitted) setErrors(validateProfileForm(next, context));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    const found = validateProfileForm(values, context);
    setErrors(found);
    const firstInvalid = FIELD_ORDER.find((key) => found[key]);
    if (firstInvalid) {
      event.currentTarget.querySelector<HTMLInputElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    save.mutate({
      ...(profile ? { id: profile.id } : {}),
      name: values.name.trim(),
      baseUrl: normalizedFormBaseUrl(values.baseUrl),
      applicationName: values.applicationName.trim(),
      ...(values.apiKey.trim() ? { apiKey: values.apiKey.trim() } : {}),
      ...(values.apiSecret ? { apiSecret: values.apiSecret } : {}),
    });
  };

  const error = (key: keyof ProfileFormValues) => (errors[key] ? t(`profileForm.errors.${errors[key]}`) : undefined);
  const newAddress = credentialsNeededAgain(values, context);
  const keepKeys = editing && hasCredentials && !newAddress;

  return (
    <form className="form" noValidate onSubmit={onSubmit}>
      <Field label={t('profileForm.name')} name="name" value={values.name} onChange={update('name')} error={error('name')} placeholder={t('profileForm.namePlaceholder')} autoComplete="off" />
      <Field
        label={t('profileForm.baseUrl')}
        name="baseUrl"
        type="url"
        value={values.baseUrl}
        onChange={update('baseUrl')}
        error={error('baseUrl')}
        hint={t('profileForm.baseUrlHint')}
        placeholder="https://debate.example.com"
        autoComplete="off"
        spellCheck={false}
      />
      <Field
        label={t('profileForm.applicationName')}
        name="applicationName"
        value={values.applicationName}
        onChange={update('applicationName')}
        error={error('applicationName')}
        hint={t('profileForm.applicationNameHint')}
        autoComplete="off"
        spellCheck={false}
      />
      {newAddress && (
        <p className="callout callout--warning" role="note">
          {t('profileForm.newAddressNote')}
        </p>
      )}
      <Field
        label={t('profileForm.apiKey')}
        name="apiKey"
        value={values.apiKey}
        onChange={update('apiKey')}
        error={error('apiKey')}
        hint={keepKeys ? t('profileForm.apiKeyKeepHint', { hint: profile?.apiKeyHint ?? '····' }) : undefined}
        autoComplete="off"
        spellCheck={false}
        className="field--mono"
      />
      <Field
        label={t('profileForm.apiSecret')}
        name="apiSecret"
        type="password"
        value={values.apiSecret}
        onChange={update('apiSecret')}
        error={error('apiSecret')}
        hint={keepKeys ? t('profileForm.apiSecretKeepHint') : keychainMissing ? t('profileForm.apiSecretSessionHint') : t('profileForm.apiSecretHint')}
        autoComplete="new-password"
        spellCheck={false}
      />
      {submitted && Object.keys(errors).length > 0 && (
        <p className="form__summary" role="alert">
          {t('profileForm.fixErrors')}
        </p>
      )}
      {save.isError && <ErrorPanel title={t('profileForm.saveFailed')} error={save.error} />}
      <div className="dialog__actions">
        <button type="button" className="button button--ghost" onClick={onDone}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          {save.isPending ? t('profileForm.saving') : t('profileForm.save')}
        </button>
      </div>
    </form>
  );
}
