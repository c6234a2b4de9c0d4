import { flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserRecord } from '../../../shared/users';
import { buildUserColumns } from './user-columns';
import { ErasedTag } from './erased-tag';
import type { RowErasure } from './use-erased-since';
import { userRowKey } from './use-users-page';

function cellClass(meta: { numeric?: boolean; actions?: boolean; flexible?: string } | undefined): string | undefined {
  if (meta?.numeric) return 'numeric';
  if (meta?.actions) return 'actions-cell';
  if (meta?.flexible) return `flexible-cell flexible-cell--${meta.flexible}`;
  return undefined;
}

interface UsersTableProps {
  users: UserRecord[];
  page: number;
  extraFields: { path: string; label: string }[];
  selectedKey: string | null;
  onSelect: (key: string) => void;
  busy: boolean;
  /** A detail panel is open (a row's, or a person found on another page): it carries the actions, the table its width. */
  detailOpen?: boolean;
  /** Users an act concerned since the page was read: their row says so in place of its actions. */
  erasures?: ReadonlyMap<string, RowErasure>;
}

const NO_ERASURES: ReadonlyMap<string, RowErasure> = new Map();

export function UsersTable({ users, page, extraFields, selectedKey, onSelect, busy, erasures = NO_ERASURES, detailOpen = selectedKey !== null }: UsersTableProps) {
  const { t, i18n } = useTranslation();
  const columns = useMemo(
    () =>
      buildUserColumns({
        t,
        language: i18n.language,
        extraFields,
        onShowDetails: (user, index) => onSelect(userRowKey(user, index)),
      }),
    [t, i18n.language, extraFields, onSelect],
  );
  // Pagination happens on the service; the table only lays out the page it is given.
  // While a detail panel is open it carries the actions, and the table keeps its width.
  const table = useReactTable({
    data: users,
    columns,
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    state: { columnVisibility: { actions: !detailOpen } },
  });

  return (
    <div className="table-scroll">
      <table className="table table--users" aria-label={t('users.tableLabel', { page })} aria-busy={busy}>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col" className={cellClass(header.column.columnDef.meta)}>
                  {flexRender(header.column.columnDef.header, header.getContext())}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => {
            const key = userRowKey(row.original, row.index);
            const selected = key === selectedKey;
            const erasure = row.original.uid !== null ? erasures.get(row.original.uid) : undefined;
            const className = [selected ? 'is-selected' : '', erasure ? 'is-erased' : ''].filter(Boolean).join(' ');
            return (
              <tr key={key} className={className || undefined} onClick={() => onSelect(key)}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className={cellClass(cell.column.columnDef.meta)}>
                    {/* A user erased since the page was read: what happened, and no act offered on them. */}
                    {erasure && cell.column.id === 'actions' ? <ErasedTag erasure={erasure} /> : flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function UsersTableSkeleton({ rows }: { rows: number }) {
  const { t } = useTranslation();
  const headers = [t('users.uid'), t('users.fullName'), t('users.email'), t('users.created'), t('users.messages'), t('users.votes'), t('users.actions')];
  return (
    <div className="table-scroll">
      <table className="table table--users" aria-busy="true" aria-label={t('common.loading')}>
        <thead>
          <tr>
            {headers.map((header) => (
              <th key={header} scope="col">{header}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: Math.min(rows, 12) }, (_, index) => (
            <tr key={index}>
              {headers.map((header) => (
                <td key={header}>
                  <span className="skeleton" />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
