import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ACKNOWLEDGEMENT_REASON, acknowledgementReasonProblem, type AcknowledgedFinding, type AnchorReport, type OpenFinding } from '../../../shared/audit';
import { ErrorPanel } from '../../components/error-panel';
import { formatDateTime } from '../../i18n/format';
import { wordMessage } from '../../i18n/word-message';

/** Acknowledges an open finding with the typed reason; resolves once it is written (the trail is read again then). */
export type AcknowledgeFinding = (finding: string, reason: string) => Promise<unknown>;

/**
 * What the badge says of the anchor's findings without opening anything: writes a crash cut short (proven by their
 * fragment), and who acknowledged what, when and why.
 */
export function AnchorNotes({ report }: { report: AnchorReport | undefined }) {
  const { t, i18n } = useTranslation();
  const acknowledged = report?.acknowledged ?? [];
  const last = acknowledged.at(-1);
  return (
    <>
      {(report?.crashes ?? []).map((text, index) => (
        <p key={`crash-${index}`} className="integrity__detail" data-testid="integrity-crash">
          {wordMessage(i18n, text)}
        </p>
      ))}
      {last && (
        <p className="integrity__detail" data-testid="integrity-acknowledged">
          {t(acknowledged.length === 1 ? 'audit.anchor.acknowledgedOne' : 'audit.anchor.acknowledgedMany', { count: acknowledged.length, date: formatDateTime(last.at, i18n.language), by: last.by || t('audit.anchor.unnamed'), reason: last.reason })}
        </p>
      )}
    </>
  );
}

/**
 * The badge's details: every finding of the anchor — open ones, each with its id and a way to acknowledge it by
 * typing why (never a single click), acknowledged ones with their reason, crashes — all staying on record.
 */
export function AnchorFindings({ report, onAcknowledge }: { report: AnchorReport | undefined; onAcknowledge?: AcknowledgeFinding | undefined }) {
  const { t, i18n } = useTranslation();
  const open = report?.open ?? [];
  const acknowledged = report?.acknowledged ?? [];
  const crashes = report?.crashes ?? [];
  const count = open.length + acknowledged.length + crashes.length;
  if (count === 0) return null;
  return (
    <details className="anchor-findings" data-testid="anchor-findings">
      <summary>{t('audit.anchor.details', { count })}</summary>
      <ul className="anchor-findings__list">
        {open.map((finding) => (
          <li key={finding.finding} className="anchor-finding anchor-finding--open" data-finding={finding.finding}>
            <FindingHeading finding={finding} title={t('audit.anchor.openFinding', { finding: finding.finding })} />
            <p className="anchor-finding__text">{wordMessage(i18n, finding.text)}</p>
            {finding.next && <p className="anchor-finding__text anchor-finding__next">{wordMessage(i18n, finding.next)}</p>}
            {onAcknowledge && <AcknowledgeForm finding={finding.finding} onAcknowledge={onAcknowledge} />}
          </li>
        ))}
        {acknowledged.map((finding) => (
          <li key={finding.finding} className="anchor-finding anchor-finding--acknowledged" data-finding={finding.finding}>
            <AcknowledgedHeading finding={finding} />
            <p className="anchor-finding__text muted">{t('audit.anchor.stillOnRecord', { problem: wordMessage(i18n, finding.text) ?? '' })}</p>
          </li>
        ))}
        {crashes.map((text, index) => (
          <li key={`crash-${index}`} className="anchor-finding">
            <p className="anchor-finding__heading">{t('audit.anchor.crash')}</p>
            <p className="anchor-finding__text">{wordMessage(i18n, text)}</p>
          </li>
        ))}
      </ul>
    </details>
  );
}

function FindingHeading({ finding, title }: { finding: OpenFinding; title: string }) {
  const { t, i18n } = useTranslation();
  return (
    <p className="anchor-finding__heading">
      <strong>{title}</strong> · {finding.foundAt ? t('audit.anchor.foundAt', { date: formatDateTime(finding.foundAt, i18n.language) }) : t('audit.anchor.foundNow')}
    </p>
  );
}

function AcknowledgedHeading({ finding }: { finding: AcknowledgedFinding }) {
  const { t, i18n } = useTranslation();
  return <p className="anchor-finding__heading">{t('audit.anchor.acknowledgedBy', { finding: finding.finding, date: formatDateTime(finding.at, i18n.language), by: finding.by || t('audit.anchor.unnamed'), reason: finding.reason })}</p>;
}

/** A reason typed, then an explicit confirmation: the button stays disabled until the reason says something. */
function AcknowledgeForm({ finding, onAcknowledge }: { finding: string; onAcknowledge: AcknowledgeFinding }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [opened, setOpened] = useState(false);
  const [reason, setReason] = useState('');
  const [state, setState] = useState<{ pending: boolean; error?: unknown }>({ pending: false });
  if (!opened) {
    return (
      <button type="button" className="button button--small" onClick={() => setOpened(true)}>
        {t('audit.anchor.acknowledge')}
      </button>
    );
  }
  const problem = acknowledgementReasonProblem(reason);
  const submit = async () => {
    setState({ pending: true });
    try {
      await onAcknowledge(finding, reason.trim());
      setState({ pending: false });
    } catch (error) {
      setState({ pending: false, error });
    }
  };
  return (
    <form
      className="anchor-finding__form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!problem && !state.pending) void submit();
      }}
    >
      <label htmlFor={`${id}-reason`}>{t('audit.anchor.reasonLabel', { finding })}</label>
      <textarea
        id={`${id}-reason`}
        className="input"
        rows={2}
        maxLength={ACKNOWLEDGEMENT_REASON.max}
        value={reason}
        aria-describedby={`${id}-hint`}
        onChange={(event) => setReason(event.target.value)}
      />
      <p id={`${id}-hint`} className="muted small">
        {reason.trim() && problem ? wordMessage(i18n, problem) : t('audit.anchor.reasonHint', { min: ACKNOWLEDGEMENT_REASON.min })}
      </p>
      <div className="anchor-finding__actions">
        <button type="submit" className="button button--small button--primary" disabled={problem !== null || state.pending}>
          {state.pending ? t('audit.anchor.acknowledging') : t('audit.anchor.confirm', { finding })}
        </button>
        <button type="button" className="button button--small" onClick={() => setOpened(false)} disabled={state.pending}>
          {t('audit.anchor.cancel')}
        </button>
      </div>
      {state.error !== undefined && <ErrorPanel title={t('audit.anchor.failed')} error={state.error} />}
    </form>
  );
}
