import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProfileView } from '../../../shared/contract';
import { useBridge } from '../../bridge/bridge-context';
import { DialogShell } from '../../components/dialog-shell';
import { ErrorPanel } from '../../components/error-panel';
import { Field } from '../../components/field';
import { useNotices } from '../../state/notices-store';
import { queryKeys } from '../../state/query-keys';

export function DeleteProfileDialog({ profile, onClose }: { profile: ProfileView | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <DialogShell
      open={profile !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t('deleteProfile.title', { name: profile?.name ?? '' })}
      description={t('deleteProfile.body')}
      tone="danger"
    >
      {profile && <DeleteProfileForm key={profile.id} profile={profile} onClose={onClose} />}
    </DialogShell>
  );
}

function DeleteProfileForm({ profile, onClose }: { profile: ProfileView; onClose: () => void }) {
  const { t } = useTranslation();
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const pushNotice = useNotices((s) => s.push);
  const [typed, setTyped] = useState('');
  const remove = useMutation({
    mutationFn: () => bridge['profiles.remove']({ id: profile.id, confirmName: typed }),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: queryKeys.usersOfProfile(profile.id) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.profiles });
      pushNotice({ tone: 'info', text: (t) => t('deleteProfile.deleted', { name: profile.name }), fades: true });
      onClose();
    },
  });
  const matches = typed === profile.name;
  return (
    <form
      className="form"
      onSubmit={(event) => {
        event.preventDefault();
        if (matches) remove.mutate();
      }}
    >
      <Field
        label={t('deleteProfile.typeName')}
        hint={t('deleteProfile.typeNameHint', { name: profile.name })}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        autoComplete="off"
        spellCheck={false}
      />
      {remove.isError && <ErrorPanel title={t('deleteProfile.title', { name: profile.name })} error={remove.error} />}
      <div className="dialog__actions">
        <button type="button" className="button button--ghost" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button button--danger" disabled={!matches || remove.isPending}>
          {remove.isPending ? t('deleteProfile.deleting') : t('deleteProfile.confirm')}
        </button>
      </div>
    </form>
  );
}
