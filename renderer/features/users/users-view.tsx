import { useCallback, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProfileView } from '../../../shared/contract';
import type { UserRecord } from '../../../shared/users';
import { ErrorPanel } from '../../components/error-panel';
import { useUiStore } from '../../state/ui-store';
import { ActOnUid } from './act-on-uid';
import { FindPerson } from './find-person';
import { ColumnChooser } from './column-chooser';
import { optionalFieldPaths } from './flatten-fields';
import { PaginationBar } from './pagination-bar';
import { UserDetailPanel } from './user-detail-panel';
import { UsersTable, UsersTableSkeleton } from './users-table';
import { userRowKey, useUsersPage } from './use-users-page';
import { ViewSection } from '../../components/view-section';
import { erasedMarkOf, useErasedUsers, type ErasedMark } from '../erasure/erased-users';
import { ErasedDetail } from './erased-detail';
import type { ErasedSinceAnswer } from '../../../shared/user-search';
import { rowErasures, rowErasureOf, useErasedSince, useErasuresOf, type RowErasure } from './use-erased-since';
import { PageTruth } from './page-truth';

/** How much earlier than its answer a search's list may have been caught up with the audit trail (the two clocks are this computer's). */
const SINCE_MARGIN_MS = 1000;

const foundErasureOf = (answer: ErasedSinceAnswer | undefined): RowErasure | undefined => {
  const [latest] = answer?.erasures ?? [];
  return latest ? rowErasureOf(latest) : undefined;
};

function matchesFilter(user: UserRecord, filter: string): boolean {
  const needle = filter.toLocaleLowerCase();
  return [user.uid, user.fullName, user.email].some((value) => value?.toLocaleLowerCase().includes(needle));
}

export function UsersView({ profile }: { profile: ProfileView }) {
  const { t } = useTranslation();
  const filterId = useId();
  const remembered = useUiStore((s) => s.usersPage);
  const perPage = useUiStore((s) => s.perPage);
  const setUsersPage = useUiStore((s) => s.setUsersPage);
  const setPerPage = useUiStore((s) => s.setPerPage);
  const selectedKey = useUiStore((s) => s.selectedUserKey);
  const selectUser = useUiStore((s) => s.selectUser);
  const visibleFields = useUiStore((s) => s.visibleFields);
  const [filter, setFilter] = useState('');

  // A different profile is a different service: it starts again from its first page.
  const page = remembered?.profileId === profile.id ? remembered.page : 1;
  const setPage = useCallback((next: number) => setUsersPage(profile.id, next), [profile.id, setUsersPage]);

  const query = useUsersPage(profile.id, page, perPage);
  const marks = useErasedUsers((s) => s.marks);
  const erasedSince = useErasedSince(profile.id, query.data);
  // A user an act concerned since the page was read (this console's, or any the audit trail records) keeps their
  // row, marked, with no act offered; a page read after it shows what the service says.
  const erasures = useMemo(
    () => rowErasures(profile.id, query.data, query.dataUpdatedAt, marks, erasedSince.data),
    [profile.id, query.data, query.dataUpdatedAt, marks, erasedSince.data],
  );
  const users = useMemo(() => query.data?.users ?? [], [query.data]);
  const filtered = useMemo(() => (filter ? users.filter((user) => matchesFilter(user, filter)) : users), [users, filter]);
  const available = useMemo(() => optionalFieldPaths(users), [users]);
  const extraFields = useMemo(() => available.filter((field) => visibleFields.includes(field.path)), [available, visibleFields]);
  const selected = users.find((user, index) => userRowKey(user, index) === selectedKey);
  // A person found on any page opens the same detail panel and actions as a row of this page.
  const [found, setFound] = useState<{ profileId: string; user: UserRecord; since: string } | null>(null);
  const foundUser = found?.profileId === profile.id ? found.user : undefined;
  // A person found on another page: erased since the search answered (by the CLI, a batch…), the panel says so.
  const foundUids = useMemo(() => (foundUser?.uid ? [foundUser.uid] : []), [foundUser]);
  const foundErasures = useErasuresOf(profile.id, foundUids, foundUser ? found?.since : undefined);
  const onSelect = useCallback((key: string) => {
    setFound(null);
    selectUser(key);
  }, [selectUser]);
  const openFound = useCallback((user: UserRecord, answeredAt: number) => {
    selectUser(null);
    // The search answered after taking out every erasure recorded until then: only later ones concern this panel.
    setFound({ profileId: profile.id, user, since: new Date(answeredAt - SINCE_MARGIN_MS).toISOString() });
  }, [profile.id, selectUser]);
  const shown = foundUser ?? selected;
  // The person the panel is about, and whether an act on them was answered since it opened.
  const subjectUid = foundUser ? foundUser.uid : selectedKey?.startsWith('uid:') ? selectedKey.slice(4) : null;
  const markSince = useMarkSince(marks, profile.id, subjectUid);
  const erased: RowErasure | undefined = markSince
    ? { uid: markSince.uid, action: markSince.action, result: markSince.result, via: 'this-console' }
    : foundUser
      ? foundErasureOf(foundErasures.data)
      : selected?.uid
        ? erasures.get(selected.uid)
        : undefined;
  const closePanel = () => {
    setFound(null);
    selectUser(null);
  };

  let body;
  if (query.isError && !query.data) {
    body = <ErrorPanel title={t('users.loadFailed')} error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  } else if (!query.data) {
    body = <UsersTableSkeleton rows={perPage} />;
  } else if (users.length === 0) {
    body = <p className="empty-inline">{page === 1 ? t('users.emptyFirstPage') : t('users.empty')}</p>;
  } else if (filtered.length === 0) {
    body = <p className="empty-inline">{t('users.filterNoMatch', { filter })}</p>;
  } else {
    body = <UsersTable users={filtered} page={page} extraFields={extraFields} selectedKey={selected ? selectedKey : null} onSelect={onSelect} busy={query.isFetching} erasures={erasures} detailOpen={Boolean(shown || erased)} />;
  }

  return (
    <ViewSection
      id="users"
      title={t('users.title')}
      intro={<>{profile.name} · <span className="mono">{profile.applicationName}</span></>}
      actions={
        <button type="button" className="button" onClick={() => void query.refetch()} disabled={query.isFetching}>
          {query.isFetching && query.data ? t('users.refreshing') : t('common.refresh')}
        </button>
      }
    >
      <ActOnUid />
      <FindPerson profileId={profile.id} onOpen={openFound} erasedMarks={marks} />
      {query.data && (
        <PageTruth
          readAt={query.dataUpdatedAt}
          refreshError={query.isError ? query.error : undefined}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
          erasedSince={erasures.size}
          untracked={erasedSince.data?.complete === false}
        />
      )}
      <div className="toolbar">
        <div className="toolbar__filter">
          <label htmlFor={filterId}>{t('users.filter')}</label>
          <input id={filterId} type="search" className="input" value={filter} onChange={(event) => setFilter(event.target.value)} placeholder={t('users.filterPlaceholder')} />
        </div>
        <ColumnChooser available={available} />
      </div>
      <div className={`users-layout ${shown || erased ? 'users-layout--with-detail' : ''}`}>
        <div className="users-layout__main">
          {body}
          <PaginationBar page={page} perPage={perPage} data={query.data} disabled={query.isFetching && query.isPlaceholderData} onPage={setPage} onPerPage={setPerPage} readAt={query.data ? query.dataUpdatedAt : undefined} />
        </div>
        {erased ? <ErasedDetail erasure={erased} name={foundUser?.fullName ?? selected?.fullName ?? null} onClose={closePanel} /> : shown && <UserDetailPanel user={shown} onClose={closePanel} />}
      </div>
    </ViewSection>
  );
}

/** The mark of an act on this uid answered after the panel began to show it (a panel opened later shows the service's answer). */
function useMarkSince(marks: readonly ErasedMark[], profileId: string, uid: string | null): ErasedMark | undefined {
  const since = useRef<{ key: string; at: number } | null>(null);
  const key = `${profileId}\n${uid ?? ''}`;
  if (since.current?.key !== key) since.current = { key, at: Date.now() };
  const mark = erasedMarkOf(marks, profileId, uid);
  return mark && mark.at >= since.current.at ? mark : undefined;
}
