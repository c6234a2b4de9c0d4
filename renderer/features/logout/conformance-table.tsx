import { createColumnHelper, flexRender, getCoreRowModel, getFilteredRowModel, useReactTable, type ColumnFiltersState } from '@tanstack/react-table';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CONFORMANCE_SOURCES, CONFORMANCE_VERDICTS, type ConformanceCaseResult, type ConformanceRun } from '../../../shared/logout-conformance';
import { conformanceFile, conformanceReport, type ConformanceReportFormat } from '../../../shared/logout-conformance-report';
import { visibleTextLine } from '../../components/visible-text';
import { saveFile } from '../../components/save-file';
import { wordMessage } from '../../i18n/word-message';

const VERDICT_CLASS = { conformant: 'outcome--ok', 'not-conformant': 'outcome--bad', inconclusive: 'outcome--inconclusive' } as const;
const FORMATS: { format: ConformanceReportFormat; mimeType: string; extension: string }[] = [
  { format: 'json', mimeType: 'application/json', extension: 'json' },
  { format: 'junit', mimeType: 'application/xml', extension: 'xml' },
  { format: 'csv', mimeType: 'text/csv', extension: 'csv' },
];

const column = createColumnHelper<ConformanceCaseResult>();

/** The run's cases: the rule, its source, what it expects beside what the service did, and the verdict; filterable and exportable. */
export function ConformanceTable({ run }: { run: ConformanceRun }) {
  const { t, i18n } = useTranslation();
  const word = useMemo(() => (text: ConformanceCaseResult['rule']) => wordMessage(i18n, text) ?? text.id, [i18n]);
  const [filters, setFilters] = useState<ColumnFiltersState>([]);
  const columns = useMemo(
    () => [
      column.accessor('id', {
        header: () => t('conformance.columns.case'),
        cell: (info) => (
          <>
            <code className="conformance__id">{info.getValue()}</code>
            <span className="conformance__rule">{word(info.row.original.rule)}</span>
          </>
        ),
      }),
      column.accessor('source', {
        header: () => t('conformance.columns.source'),
        filterFn: 'equals',
        cell: (info) => (
          <span title={t(`conformance.sourceHints.${info.getValue()}`)}>
            {t(`conformance.sources.${info.getValue()}`)}
            <span className="conformance__reference">{info.row.original.reference}</span>
          </span>
        ),
      }),
      column.display({ id: 'expected', header: () => t('conformance.columns.expected'), cell: (info) => word(info.row.original.expected) }),
      column.display({
        id: 'actual',
        header: () => t('conformance.columns.actual'),
        cell: (info) => {
          const said = info.row.original.sends.find((send) => send.serviceSaid)?.serviceSaid;
          return (
            <>
              {word(info.row.original.actual)}
              {said ? (
                <span className="conformance__said">{t('conformance.serviceSaid', { text: visibleTextLine(said) })}</span>
              ) : null}
            </>
          );
        },
      }),
      column.accessor('verdict', {
        header: () => t('conformance.columns.verdict'),
        filterFn: 'equals',
        cell: (info) => (
          <span className={`outcome ${VERDICT_CLASS[info.getValue()]}`} data-verdict={info.getValue()}>
            <strong>{t(`conformance.verdicts.${info.getValue()}`)}</strong>
          </span>
        ),
      }),
    ],
    [t, word],
  );
  const table = useReactTable({ data: run.cases, columns, state: { columnFilters: filters }, onColumnFiltersChange: setFilters, getCoreRowModel: getCoreRowModel(), getFilteredRowModel: getFilteredRowModel() });
  const filterOf = (id: string) => (filters.find((one) => one.id === id)?.value as string | undefined) ?? '';
  const setFilter = (id: string, value: string) => setFilters((current) => [...current.filter((one) => one.id !== id), ...(value ? [{ id, value }] : [])]);
  const ids = { verdict: useId(), source: useId() };
  const exportAs = (format: ConformanceReportFormat, mimeType: string, extension: string) => {
    const report = conformanceReport(run, word);
    saveFile({ fileName: `logout-conformance-${run.startedAt.slice(0, 10)}.${extension}`, mimeType, content: conformanceFile(report, format) });
  };
  const rows = table.getRowModel().rows;

  return (
    <div className="conformance">
      <div className="toolbar conformance__toolbar">
        <div className="toolbar conformance__filters" role="search" aria-label={t('conformance.filters.label')}>
          <div className="field">
            <label className="field__label" htmlFor={ids.verdict}>
              {t('conformance.filters.verdict')}
            </label>
            <select id={ids.verdict} className="select" value={filterOf('verdict')} onChange={(event) => setFilter('verdict', event.target.value)}>
              <option value="">{t('conformance.filters.any')}</option>
              {CONFORMANCE_VERDICTS.map((verdict) => (
                <option key={verdict} value={verdict}>
                  {t(`conformance.verdicts.${verdict}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label className="field__label" htmlFor={ids.source}>
              {t('conformance.filters.source')}
            </label>
            <select id={ids.source} className="select" value={filterOf('source')} onChange={(event) => setFilter('source', event.target.value)}>
              <option value="">{t('conformance.filters.any')}</option>
              {CONFORMANCE_SOURCES.map((source) => (
                <option key={source} value={source}>
                  {t(`conformance.sources.${source}`)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="conformance__export" role="group" aria-label={t('conformance.export.label')}>
          <span className="field__label">{t('conformance.export.label')}</span>
          {FORMATS.map(({ format, mimeType, extension }) => (
            <button key={format} type="button" className="button" onClick={() => exportAs(format, mimeType, extension)}>
              {t(`conformance.export.${format}`)}
            </button>
          ))}
        </div>
      </div>
      <div className="table-scroll">
        <table className="table conformance-table">
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <th key={header.id} scope="col">
                    {flexRender(header.column.columnDef.header, header.getContext())}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} data-testid="conformance-row" data-case={row.original.id} data-verdict={row.original.verdict}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className={`conformance-table__${cell.column.id}`}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length === 0 ? <p className="muted">{t('conformance.noneMatch')}</p> : null}
    </div>
  );
}
