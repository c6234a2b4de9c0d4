import '@tanstack/react-table';
import type { RowData } from '@tanstack/react-table';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the generics must match the library's declaration
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Right-aligned, tabular figures. */
    numeric?: boolean;
    /** The row actions: pinned to the right edge so they stay visible when extra columns scroll. */
    actions?: boolean;
    /** Takes a share of the room left by the other columns and truncates only when there is none left. */
    flexible?: 'uid' | 'name' | 'email';
  }
}
