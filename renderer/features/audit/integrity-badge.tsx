import { useTranslation } from 'react-i18next';
import type { AnchorReport, AuditReading, ChainVerdict } from '../../../shared/audit';
import { CopyButton } from '../../components/copy-button';
import { wordMessage } from '../../i18n/word-message';
import { AnchorFindings, AnchorNotes, type AcknowledgeFinding } from './anchor-findings';

/**
 * The chain's verdict where a DPO looks first: verified with the head hash to copy into the ticket, or where it breaks;
 * with the anchor's findings in its details, where an open one can be acknowledged with a typed reason.
 */
export function IntegrityBadge({ verdict, onVerify, verifying, onAcknowledge }: { verdict: ChainVerdict; onVerify: () => void; verifying: boolean; onAcknowledge?: AcknowledgeFinding }) {
  const { t, i18n } = useTranslation();
  const verifyButton = (
    <button type="button" className="button button--small" onClick={onVerify} disabled={verifying}>
      {verifying ? t('audit.verifying') : t('audit.verifyAgain')}
    </button>
  );
  // The chain holds, but the request register it vouches for was changed outside Privacy Desk: not intact either.
  if (verdict.ok && verdict.register?.ok === false) {
    const register = verdict.register;
    return (
      <div className="integrity integrity--broken" role="alert" data-testid="integrity">
        <span aria-hidden="true" className="integrity__mark">✗</span>
        <div className="integrity__text">
          <p className="integrity__title">{t('audit.registerBroken', { line: register.line })}</p>
          <p className="integrity__detail">{wordMessage(i18n, register.text) ?? register.message}</p>
          {verdict.headHash && <HeadHash hash={verdict.headHash} />}
          <AnchorLine report={verdict.anchor} />
        </div>
        {verifyButton}
      </div>
    );
  }
  if (!verdict.ok) {
    return (
      <div className="integrity integrity--broken" role="alert" data-testid="integrity">
        <span aria-hidden="true" className="integrity__mark">✗</span>
        <div className="integrity__text">
          {/* An empty or missing trail has no line to name. */}
          <p className="integrity__title">{t(verdict.entries === 0 ? 'audit.chainBrokenEmpty' : 'audit.chainBroken', { line: verdict.line, kind: t(`audit.breaks.${verdict.kind}`) })}</p>
          <p className="integrity__detail">{(verdict.text && wordMessage(i18n, verdict.text)) ?? verdict.message}</p>
          {verdict.headHash && <HeadHash hash={verdict.headHash} />}
          <AnchorLine report={verdict.anchor} />
          <AnchorNotes report={verdict.anchor} />
          <AnchorFindings report={verdict.anchor} onAcknowledge={onAcknowledge} />
        </div>
        {verifyButton}
      </div>
    );
  }
  return (
    <div className="integrity integrity--ok" role="status" data-testid="integrity">
      <span aria-hidden="true" className="integrity__mark">✓</span>
      <div className="integrity__text">
        <p className="integrity__title">
          {t('audit.verified', { count: verdict.entries })}
          {verdict.legacy ? ` · ${t('audit.legacyLines', { count: verdict.legacy })}` : ''}
        </p>
        {verdict.headHash ? <HeadHash hash={verdict.headHash} /> : <p className="integrity__detail">{t('audit.noHead')}</p>}
        {verdict.register?.ok && <p className="integrity__detail">{t('audit.registerVerified', { count: verdict.register.events })}</p>}
        <AnchorLine report={verdict.anchor} />
        <AnchorNotes report={verdict.anchor} />
        <AnchorFindings report={verdict.anchor} onAcknowledge={onAcknowledge} />
      </div>
      {verifyButton}
    </div>
  );
}

/** Where the chain's head is kept outside the file, and whether the trail was checked against it (core/audit-anchor.ts). */
function AnchorLine({ report }: { report: AnchorReport | undefined }) {
  const { t, i18n } = useTranslation();
  if (!report) return null;
  const said =
    report.state === 'unavailable'
      ? t('audit.anchor.unavailable')
      : report.store === 'session'
        ? t('audit.anchor.session')
        : report.state === 'adopted'
          ? t('audit.anchor.adopted')
          : report.adopted
            ? t('audit.anchor.keychainSince', { date: new Date(report.adopted.at).toLocaleString(i18n.language), count: report.adopted.seq })
            : t('audit.anchor.keychain');
  // Open findings are counted apart (a check may find one no write recorded); what writes found and is settled, apart too.
  const open = report.open ?? [];
  const settled = report.findings - open.filter((finding) => finding.foundAt !== undefined).length;
  return (
    <p className="integrity__detail" data-testid="integrity-anchor" data-anchor-store={report.store} data-anchor-state={report.state}>
      {said}
      {open.length > 0 && <> {t('audit.anchor.openCount', { count: open.length })}</>}
      {settled > 0 && <> {t('audit.anchor.findings', { count: settled })}</>}
    </p>
  );
}

function HeadHash({ hash }: { hash: string }) {
  const { t } = useTranslation();
  return (
    <p className="integrity__detail">
      {t('audit.head')}{' '}
      <code className="selectable" title={hash} data-head-hash={hash}>
        {hash.slice(0, 12)}…
      </code>{' '}
      <CopyButton text={hash} label={t('audit.copyHead')} />
    </p>
  );
}

/** What the reading found besides the entries: unreadable lines, a torn tail moved aside. */
export function ReadingNotes({ reading }: { reading: AuditReading }) {
  const { t } = useTranslation();
  if (!reading.setAside && reading.corrupt.length === 0) return null;
  return (
    <div className="audit-notes">
      {reading.setAside && (
        <p className="callout callout--warning" role="status">
          <span aria-hidden="true">⚠ </span>
          {t('audit.setAside', { path: reading.setAside.path, bytes: reading.setAside.bytes })}
        </p>
      )}
      {reading.corrupt.length > 0 && (
        <p className="callout callout--warning" role="status">
          <span aria-hidden="true">⚠ </span>
          {t('audit.corruptSummary', { count: reading.corrupt.length, lines: reading.corrupt.slice(0, 8).map((bad) => bad.line).join(', ') + (reading.corrupt.length > 8 ? '…' : '') })}
        </p>
      )}
    </div>
  );
}
