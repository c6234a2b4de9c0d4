import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { RequestChangeInput, RequestView } from '../../../shared/requests';
import { ErrorPanel } from '../../components/error-panel';
import { instantOf, wallTimeIn } from './zoned-time';
import { useApplyChange, useRegisterSettings } from './use-requests';

type Open = 'none' | 'extend' | 'refuse';

/**
 * What the DPO decides: wait for the requester's identity (the clock pauses) or go on, extend by two months (with
 * the reason and when the person was told: the core refuses a late one and says why), refuse with the ground in
 * words, or close the request as answered.
 */
export function RequestDecisions({ view }: { view: RequestView }) {
  const { t } = useTranslation();
  const apply = useApplyChange(view.id);
  // Read ahead: the extension's "person told" time is typed in the register's zone.
  useRegisterSettings();
  const [open, setOpen] = useState<Open>('none');
  const [failedWhat, setFailedWhat] = useState('');
  const act = (change: RequestChangeInput, what: string) => {
    setFailedWhat(what);
    apply.mutate(change, { onSuccess: () => setOpen('none') });
  };
  const paused = view.status === 'waiting-for-identity';
  return (
    <section className="card request-decisions" aria-labelledby="request-decisions-title">
      <h3 id="request-decisions-title" className="card__title">
        {t('requests.decisions.title')}
      </h3>
      <div className="request-decisions__buttons">
        {paused ? (
          <button type="button" className="button" disabled={apply.isPending} onClick={() => act({ kind: 'resume' }, t('requests.decisions.resumeFailed'))}>
            {t('requests.decisions.resume')}
          </button>
        ) : (
          <button type="button" className="button" disabled={apply.isPending} onClick={() => act({ kind: 'pause' }, t('requests.decisions.pauseFailed'))}>
            {t('requests.decisions.pause')}
          </button>
        )}
        {view.extension ? null : (
          <button type="button" className="button" aria-expanded={open === 'extend'} onClick={() => setOpen(open === 'extend' ? 'none' : 'extend')}>
            {t('requests.decisions.extend')}
          </button>
        )}
        <button type="button" className="button" aria-expanded={open === 'refuse'} onClick={() => setOpen(open === 'refuse' ? 'none' : 'refuse')}>
          {t('requests.decisions.refuse')}
        </button>
        <button type="button" className="button button--primary" disabled={apply.isPending} onClick={() => act({ kind: 'close' }, t('requests.decisions.closeFailed'))}>
          {t('requests.decisions.close')}
        </button>
      </div>
      {open === 'extend' ? <ExtendForm pending={apply.isPending} onSubmit={(change) => act(change, t('requests.decisions.extendFailed'))} /> : null}
      {open === 'refuse' ? <RefuseForm pending={apply.isPending} onSubmit={(change) => act(change, t('requests.decisions.refuseFailed'))} /> : null}
      {apply.isError ? (
        <div data-testid="decision-error">
          <ErrorPanel title={failedWhat} error={apply.error} />
        </div>
      ) : null}
    </section>
  );
}

function ExtendForm({ pending, onSubmit }: { pending: boolean; onSubmit: (change: RequestChangeInput) => void }) {
  const { t } = useTranslation();
  const zone = useRegisterSettings().data?.timeZone ?? 'UTC';
  const ids = { reason: useId(), told: useId() };
  const [reason, setReason] = useState('');
  const [told, setTold] = useState(() => wallTimeIn(zone));
  const toldAt = instantOf(told, zone);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() && toldAt) onSubmit({ kind: 'extend', reason: reason.trim(), personToldAt: toldAt });
  };
  return (
    <form className="form request-decisions__form" onSubmit={submit} aria-label={t('requests.decisions.extend')}>
      <div className="field">
        <label className="field__label" htmlFor={ids.reason}>
          {t('requests.decisions.extendReason')}
        </label>
        <textarea id={ids.reason} className="input textarea" rows={2} maxLength={1000} required value={reason} onChange={(e) => setReason(e.target.value)} />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={ids.told}>
          {t('requests.decisions.personTold')}
        </label>
        <input id={ids.told} className="input" type="datetime-local" required value={told} onChange={(e) => setTold(e.target.value)} />
        <span className="field__hint">{t('requests.decisions.personToldHint', { zone })}</span>
      </div>
      <div>
        <button type="submit" className="button button--primary" disabled={pending || !reason.trim() || !toldAt}>
          {t('requests.decisions.extendSubmit')}
        </button>
      </div>
    </form>
  );
}

function RefuseForm({ pending, onSubmit }: { pending: boolean; onSubmit: (change: RequestChangeInput) => void }) {
  const { t } = useTranslation();
  const groundId = useId();
  const [ground, setGround] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ground.trim()) onSubmit({ kind: 'refuse', ground: ground.trim() });
  };
  return (
    <form className="form request-decisions__form" onSubmit={submit} aria-label={t('requests.decisions.refuse')}>
      <div className="field">
        <label className="field__label" htmlFor={groundId}>
          {t('requests.decisions.ground')}
        </label>
        <textarea id={groundId} className="input textarea" rows={3} maxLength={2000} required value={ground} onChange={(e) => setGround(e.target.value)} />
        <span className="field__hint">{t('requests.decisions.groundHint')}</span>
      </div>
      <div>
        <button type="submit" className="button button--danger" disabled={pending || !ground.trim()}>
          {t('requests.decisions.refuseSubmit')}
        </button>
      </div>
    </form>
  );
}
