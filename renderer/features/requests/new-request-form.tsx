import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { REQUEST_ACTIONS, REQUEST_CHANNELS, type RequestAction, type RequestChannel } from '../../../shared/requests';
import { ErrorPanel } from '../../components/error-panel';
import { ViewSection } from '../../components/view-section';
import { useActiveProfile } from '../../state/use-profiles';
import { useRequestsNav } from './request-nav-store';
import { useCreateRequest, useRegisterSettings } from './use-requests';
import { instantOf, wallTimeIn } from './zoned-time';

/**
 * The uids typed or pasted, one a line, each once; blank lines dropped. A uid is kept as typed, spaces included:
 * ' bob' may be a real uid, and the erasure dialog names the likely mistake instead of changing it silently.
 */
export function uidsOf(text: string): string[] {
  return [...new Set(text.split(/\r?\n/).filter((line) => line.trim() !== ''))];
}

/**
 * A new request in under a minute: the ticket's text pasted as it came (kept in the notes), received now unless
 * changed (in the register's time zone), how it came, what is asked, and whom it concerns.
 */
export function NewRequestForm() {
  const { t } = useTranslation();
  const go = useRequestsNav((s) => s.go);
  const settings = useRegisterSettings();
  const profile = useActiveProfile();
  const create = useCreateRequest();
  const zone = settings.data?.timeZone;
  if (settings.isError) {
    return (
      <ViewSection id="new-request" title={t('requests.form.title')} intro={t('requests.form.intro')}>
        <ErrorPanel title={t('requests.form.settingsFailed')} error={settings.error} onRetry={() => void settings.refetch()} retrying={settings.isFetching} />
      </ViewSection>
    );
  }
  if (!zone) return <p className="muted">{t('common.loading')}</p>;
  return (
    <ViewSection
      id="new-request"
      title={t('requests.form.title')}
      intro={t('requests.form.intro')}
      actions={
        <button type="button" className="button" onClick={() => go({ kind: 'list' })}>
          {t('common.cancel')}
        </button>
      }
    >
      <RequestFields
        zone={zone}
        profileId={profile?.id}
        pending={create.isPending}
        onSubmit={(input) => create.mutate(input, { onSuccess: (created) => go({ kind: 'request', id: created.id }) })}
      />
      {create.isError ? <ErrorPanel title={t('requests.form.failed')} error={create.error} /> : null}
    </ViewSection>
  );
}

type CreateInput = Parameters<ReturnType<typeof useCreateRequest>['mutate']>[0];

function RequestFields({ zone, profileId, pending, onSubmit }: { zone: string; profileId: string | undefined; pending: boolean; onSubmit: (input: CreateInput) => void }) {
  const { t } = useTranslation();
  const ids = { ticket: useId(), received: useId(), channel: useId(), uids: useId(), name: useId(), contact: useId() };
  const [ticket, setTicket] = useState('');
  const [received, setReceived] = useState(() => wallTimeIn(zone));
  const [channel, setChannel] = useState<RequestChannel>('e-mail');
  const [actions, setActions] = useState<RequestAction[]>(['anonymize']);
  const [uids, setUids] = useState('');
  const [name, setName] = useState('');
  const [contact, setContact] = useState('');
  const receivedAt = instantOf(received, zone);
  const subjects = uidsOf(uids);
  const ready = receivedAt !== undefined && actions.length > 0 && subjects.length > 0;
  const toggle = (action: RequestAction) => setActions(actions.includes(action) ? actions.filter((a) => a !== action) : REQUEST_ACTIONS.filter((a) => a === action || actions.includes(a)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    const requester = { ...(name.trim() ? { name: name.trim() } : {}), ...(contact.trim() ? { contact: contact.trim() } : {}) };
    onSubmit({
      receivedAt,
      channel,
      actions,
      subjects: subjects.map((uid) => ({ uid, ...(profileId ? { profileId } : {}) })),
      ...(ticket.trim() ? { notes: ticket.trim() } : {}),
      ...(Object.keys(requester).length > 0 ? { requester } : {}),
    });
  };
  return (
    <form className="form card new-request" onSubmit={submit}>
      <div className="field">
        <label className="field__label" htmlFor={ids.ticket}>
          {t('requests.form.ticket')}
        </label>
        <textarea id={ids.ticket} className="input textarea" rows={5} maxLength={4000} value={ticket} onChange={(e) => setTicket(e.target.value)} />
        <span className="field__hint">{t('requests.form.ticketHint')}</span>
      </div>
      <div className="new-request__row">
        <div className="field">
          <label className="field__label" htmlFor={ids.received}>
            {t('requests.form.received')}
          </label>
          <input id={ids.received} className="input" type="datetime-local" required value={received} onChange={(e) => setReceived(e.target.value)} />
          <span className="field__hint">{t('requests.form.receivedHint', { zone })}</span>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={ids.channel}>
            {t('requests.fields.channel')}
          </label>
          <select id={ids.channel} className="select" value={channel} onChange={(e) => setChannel(e.target.value as RequestChannel)}>
            {REQUEST_CHANNELS.map((c) => (
              <option key={c} value={c}>
                {t(`requests.channels.${c}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset className="field new-request__actions">
        <legend className="field__label">{t('requests.form.actions')}</legend>
        {REQUEST_ACTIONS.map((action) => (
          <label key={action} className="checkbox">
            <input type="checkbox" checked={actions.includes(action)} onChange={() => toggle(action)} />
            {t(`requests.actions.${action}`)}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label className="field__label" htmlFor={ids.uids}>
          {t('requests.form.uids')}
        </label>
        <textarea id={ids.uids} className="input textarea mono" rows={3} value={uids} onChange={(e) => setUids(e.target.value)} />
        <span className="field__hint">{t('requests.form.uidsHint')}</span>
      </div>
      <div className="new-request__row">
        <div className="field">
          <label className="field__label" htmlFor={ids.name}>
            {t('requests.form.requesterName')}
          </label>
          <input id={ids.name} className="input" autoComplete="off" maxLength={300} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={ids.contact}>
            {t('requests.form.requesterContact')}
          </label>
          <input id={ids.contact} className="input" autoComplete="off" maxLength={500} value={contact} onChange={(e) => setContact(e.target.value)} />
        </div>
      </div>
      <p className="field__hint">{t('requests.form.requesterHint')}</p>
      <div>
        <button type="submit" className="button button--primary" disabled={pending || !ready}>
          {t('requests.form.submit')}
        </button>
      </div>
    </form>
  );
}
