import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { visibleUidText } from '../../../shared/invisible-characters';
import { anotherUsersUid } from '../../../shared/logout-conformance';
import { DialogShell } from '../../components/dialog-shell';
import { Field } from '../../components/field';

interface ConformanceConfirmProps {
  uid: string;
  host: string;
  onConfirm: (typedUid: string) => void;
  onCancel: () => void;
}

/** Before a run on live data: its valid tokens end real sessions, so the uid is typed again (the gate checks it too). */
export function ConformanceConfirm({ uid, host, onConfirm, onCancel }: ConformanceConfirmProps) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  return (
    <DialogShell open onOpenChange={(next) => (next ? undefined : onCancel())} title={t('conformance.confirm.title')} tone="live" className="dialog--live-confirm">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (typed === uid) onConfirm(typed);
        }}
      >
        <p className="live-confirm__body">
          <span aria-hidden="true">▲ </span>
          {t('conformance.confirm.body', { uid: visibleUidText(uid), host })} {t('conformance.confirm.otherSub', { other: visibleUidText(anotherUsersUid(uid)) })}
        </p>
        <Field label={t('conformance.confirm.field')} value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" spellCheck={false} className="field--mono conformance-confirm__field" />
        <div className="dialog__actions">
          {/* Cancel takes the focus: Enter alone never acts on live data. */}
          <button type="button" className="button button--ghost" onClick={onCancel} autoFocus>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button--danger" disabled={typed !== uid}>
            {t('conformance.confirm.go')}
          </button>
        </div>
      </form>
    </DialogShell>
  );
}
