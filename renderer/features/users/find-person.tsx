import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { MatchRange, SearchedField, UserMatch } from '../../../shared/user-search';
import type { UserRecord } from '../../../shared/users';
import { ErrorPanel } from '../../components/error-panel';
import { UID_BOX_PROPS, VisibleUid } from '../../components/visible-uid';
import { TextWithMarks, visibleTextLine, type VisibleTextKind } from '../../components/visible-text';
import { hasInvisible } from '../../../shared/invisible-characters';
import { erasedMarkOf, type ErasedMark } from '../erasure/erased-users';
import { ListAge } from './list-age';
import { useFindPerson } from './use-find-person';

/**
 * A field's text with its matched parts in <mark>: plain text spans, never HTML from the service; isolated (<bdi>)
 * and with its invisible and bidi characters drawn as marks, like any text from the service.
 */
export function Highlighted({ text, ranges, kind = 'name' }: { text: string; ranges: MatchRange[]; kind?: VisibleTextKind }) {
  const parts: { text: string; marked: boolean }[] = [];
  let at = 0;
  for (const range of [...ranges].sort((a, b) => a.start - b.start)) {
    if (range.start < at) continue;
    if (range.start > at) parts.push({ text: text.slice(at, range.start), marked: false });
    parts.push({ text: text.slice(range.start, range.end), marked: true });
    at = range.end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), marked: false });
  return (
    <bdi className="visible-text" {...UID_BOX_PROPS}>
      {parts.map((part, i) =>
        part.marked ? (
          <mark key={i} className="find-person__mark">
            <TextWithMarks text={part.text} kind={kind} />
          </mark>
        ) : (
          <TextWithMarks key={i} text={part.text} kind={kind} />
        ),
      )}
    </bdi>
  );
}

function fieldRanges(match: UserMatch, field: SearchedField): MatchRange[] {
  return match.ranges.filter((range) => range.field === field);
}

/**
 * "Find a person — every page": distinct from "Filter this page", it searches
 * every user of the profile (read once by the main process, kept in memory).
 * A result opens the same detail panel and actions as a table row.
 */
export function FindPerson({ profileId, onOpen, erasedMarks = [] }: { profileId: string; onOpen: (user: UserRecord, answeredAt: number) => void; erasedMarks?: readonly ErasedMark[] }) {
  const { t } = useTranslation();
  const inputId = useId();
  const [draft, setDraft] = useState('');
  const { text, find, search, readAt, fresh, indexing, cancel, readAgain, retry } = useFindPerson(profileId);
  const answer = search.data?.state === 'ready' ? search.data : undefined;
  // A person an act just concerned is not offered again while the search is asked anew.
  const matches = answer?.matches.filter((match) => !((erasedMarkOf(erasedMarks, profileId, match.user.uid)?.at ?? -Infinity) > search.dataUpdatedAt)) ?? [];
  // "Nobody" from a list read before the question is not said: every page is read again first.
  const unprovenNone = answer !== undefined && answer.total === 0 && !fresh;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    find(draft);
  };

  let status = null;
  if (indexing.phase === 'reading') {
    const progress = indexing.progress;
    status = (
      <div className="find-person__progress" role="status">
        <span>
          {progress
            ? progress.totalPages !== undefined
              ? t('search.readingOf', { page: progress.page, total: progress.totalPages, users: progress.collected })
              : t('search.reading', { page: progress.page, users: progress.collected })
            : t('search.starting')}
        </span>
        {progress?.totalPages ? <progress max={progress.totalPages} value={progress.page} /> : null}
        <button type="button" className="button button--small" onClick={() => void cancel()} disabled={indexing.cancelling}>
          {indexing.cancelling ? t('search.cancelling') : t('common.cancel')}
        </button>
      </div>
    );
  } else if (indexing.phase === 'cancelled') {
    status = (
      <p className="find-person__note" role="status">
        {unprovenNone && readAt !== undefined ? (
          <>
            {t('search.cancelledNoneOnOldList', { text, users: answer.indexedUsers })} <ListAge readAt={readAt} />
          </>
        ) : (
          t('search.cancelled')
        )}{' '}
        <button type="button" className="button button--small" onClick={retry}>{t('search.readAgain')}</button>
      </p>
    );
  } else if (indexing.phase === 'failed') {
    status = <ErrorPanel title={t('search.failed')} error={indexing.error} onRetry={retry} />;
  } else if (search.isError) {
    status = <ErrorPanel title={t('search.failed')} error={search.error} onRetry={() => void search.refetch()} retrying={search.isFetching} />;
  }

  return (
    <section className="find-person" aria-labelledby={`${inputId}-label`}>
      <form className="find-person__form" role="search" onSubmit={submit}>
        <label id={`${inputId}-label`} htmlFor={inputId}>{t('search.label')}</label>
        <input id={inputId} type="search" className="input" value={draft} onChange={(event) => setDraft(event.target.value)} placeholder={t('search.placeholder')} maxLength={200} />
        <button type="submit" className="button" disabled={draft.trim() === ''}>{t('search.find')}</button>
      </form>
      {status}
      {answer && text !== '' && !unprovenNone && (
        <div className="find-person__results">
          <p className="find-person__summary" role="status">
            {answer.total === 0
              ? t('search.none', { text, users: answer.indexedUsers })
              : answer.matches.length < answer.total
                ? t('search.someShown', { n: answer.total, shown: answer.matches.length, text, users: answer.indexedUsers })
                : t('search.found', { n: answer.total, text, users: answer.indexedUsers })}{' '}
            {readAt !== undefined && <ListAge readAt={readAt} className="find-person__age" />}{' '}
            <button type="button" className="button button--small button--quiet" onClick={readAgain} disabled={indexing.phase === 'reading'}>{t('search.readAgain')}</button>
          </p>
          {matches.length > 0 && (
            <ul className="find-person__list" aria-label={t('search.resultsLabel', { text })}>
              {matches.map((match, index) => (
                <li key={`${match.user.uid ?? 'erased'}-${index}`}>
                  <button type="button" className="find-person__result" onClick={() => onOpen(match.user, search.dataUpdatedAt)} aria-label={t('search.open', { name: visibleTextLine(match.user.fullName ?? match.user.uid ?? '') })}>
                    <span className="find-person__name">{match.user.fullName !== null ? <Highlighted text={match.user.fullName} ranges={fieldRanges(match, 'fullName')} /> : '—'}</span>
                    <span className="find-person__uid mono">{match.user.uid === null ? t('users.noUid') : hasInvisible(match.user.uid) ? <VisibleUid uid={match.user.uid} inline /> : <Highlighted text={match.user.uid} ranges={fieldRanges(match, 'uid')} />}</span>
                    <span className="find-person__email">{match.user.email !== null ? <Highlighted text={match.user.email} ranges={fieldRanges(match, 'email')} kind="exact" /> : ''}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
