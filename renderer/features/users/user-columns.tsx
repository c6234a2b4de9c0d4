import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { Fragment } from 'react';
import type { UserRecord } from '../../../shared/users';
import { EmptyValue } from '../../components/empty-value';
import { InitialsAvatar } from '../../components/initials-avatar';
import { VisibleUid } from '../../components/visible-uid';
import { VisibleText, visibleTextLine, type VisibleTextKind } from '../../components/visible-text';
import { formatDate, formatNumber } from '../../i18n/format';
import { fieldName } from './field-names';
import { formatFieldValue } from './format-value';
import { valueAtPath } from './flatten-fields';
import { RowActions } from './row-actions';

const column = createColumnHelper<UserRecord>();

/** An e-mail's break points: after each dot before the @, and after the @ (the domain stays whole). */
function emailPieces(email: string): string[] {
  const at = email.lastIndexOf('@');
  if (at < 0) return [email];
  return [...email.slice(0, at + 1).split(/(?<=\.)/), email.slice(at + 1)].filter((piece) => piece !== '');
}

/**
 * A name or e-mail drawn whole (with its marks, the whole in the tooltip too), never cut: a narrow column wraps a
 * name between its words and an e-mail at its break points (fatoumata.bonnet6@ / example.org), which add no
 * character to what is read or copied.
 */
function WrappingText({ text, kind, className = '' }: { text: string; kind: VisibleTextKind; className?: string }) {
  const pieces = kind === 'exact' ? emailPieces(text) : [text];
  return (
    <span className={`wrapping-text ${className}`.trim()} title={visibleTextLine(text, kind)}>
      {pieces.map((piece, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          <VisibleText text={piece} kind={kind} />
        </Fragment>
      ))}
    </span>
  );
}

interface ColumnContext {
  t: TFunction;
  language: string;
  extraFields: { path: string; label: string }[];
  onShowDetails: (user: UserRecord, index: number) => void;
}

/** The fixed columns, the operator's chosen extra fields, then the row actions. */
export function buildUserColumns({ t, language, extraFields, onShowDetails }: ColumnContext): ColumnDef<UserRecord, unknown>[] {
  const fixed = [
    column.accessor('uid', {
      id: 'uid',
      header: () => t('users.uid'),
      cell: (info) => {
        const uid = info.getValue();
        // Whole on one line; longer than its column allows, it scrolls in its box (styles/tables.css), never cut. The
        // box holds the button, so a keyboard user on the button scrolls it with the arrow keys.
        return (
          <span className="uid-cell__scroll">
            <button
              type="button"
              className="link-button mono uid-cell"
              title={uid ?? undefined}
              data-uid={uid ?? undefined}
              aria-label={t('users.showDetails', { uid: uid ?? t('users.noUid') })}
              onKeyDown={(event) => {
                // Ctrl/Cmd+C on a focused uid copies all of it, however little of it fits.
                if (uid !== null && (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'c') {
                  event.preventDefault();
                  void navigator.clipboard?.writeText(uid);
                }
              }}
              onClick={(event) => {
                event.stopPropagation();
                onShowDetails(info.row.original, info.row.index);
              }}
            >
              {uid !== null ? <VisibleUid uid={uid} inline className="uid-inline--nowrap" /> : <span className="muted">{t('users.noUid')}</span>}
            </button>
          </span>
        );
      },
      meta: { flexible: 'uid' },
    }),
    column.accessor('fullName', {
      id: 'fullName',
      header: () => t('users.fullName'),
      cell: (info) => (
        <span className="name-cell">
          <InitialsAvatar name={info.getValue()} uid={info.row.original.uid} />
          {info.getValue() ? <WrappingText text={info.getValue()!} kind="name" /> : <EmptyValue />}
        </span>
      ),
      meta: { flexible: 'name' },
    }),
    column.accessor('email', {
      id: 'email',
      header: () => t('users.email'),
      cell: (info) => (info.getValue() ? <WrappingText text={info.getValue()!} kind="exact" className="email-cell" /> : <EmptyValue />),
      meta: { flexible: 'email' },
    }),
    column.accessor('createdAt', {
      id: 'createdAt',
      header: () => t('users.created'),
      cell: (info) => <time dateTime={info.getValue() ?? undefined}>{formatDate(info.getValue(), language)}</time>,
    }),
    column.accessor('messagesCount', { id: 'messagesCount', header: () => t('users.messages'), cell: (info) => formatNumber(info.getValue(), language), meta: { numeric: true } }),
    column.accessor('votesCount', { id: 'votesCount', header: () => t('users.votes'), cell: (info) => formatNumber(info.getValue(), language), meta: { numeric: true } }),
  ] as ColumnDef<UserRecord, unknown>[];

  const extras = extraFields.map(
    (field) =>
      column.display({
        id: `field:${field.path}`,
        header: () => fieldName(field.path, t),
        cell: (info) => {
          const value = valueAtPath(info.row.original.fields, field.path);
          if (value === undefined || value === null || value === '') return <EmptyValue />;
          const text = formatFieldValue(field.path, value, t, language);
          return <span className="truncate extra-cell" title={text}>{text}</span>;
        },
      }) as ColumnDef<UserRecord, unknown>,
  );

  const actions = column.display({
    id: 'actions',
    header: () => <span>{t('users.actions')}</span>,
    meta: { actions: true },
    cell: (info) => <RowActions uid={info.row.original.uid} iconsOnly />,
  }) as ColumnDef<UserRecord, unknown>;

  return [...fixed, ...extras, actions];
}
