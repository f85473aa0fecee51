import type { ComponentChildren, Ref } from 'preact';
import { useState } from 'preact/hooks';
import { ErrorMessage } from './ui';

/** One column of a list: its heading, what a row shows in it, and how to sort by it when it can be. */
export interface Column<T> {
  readonly label: string;
  readonly cell: (row: T) => ComponentChildren;
  /** The class of the column's cells. */
  readonly className?: string;
  /** Orders two rows by this column, ascending; a column with it has a sort button in its heading. */
  readonly compare?: (a: T, b: T) => number;
}

/** The column a list is sorted by, and which way. */
export interface SortOrder {
  readonly column: string;
  readonly descending: boolean;
}

export interface ListProps<T> {
  /** The list's ids: its heading is `<id>-title`, its error `<id>-error`. */
  readonly id: string;
  readonly title: ComponentChildren;
  /** The heading (focusable), for a screen that gives it the focus when a row's control is gone. */
  readonly headingRef?: Ref<HTMLHeadingElement>;
  /** The rows; undefined while they load. */
  readonly rows: readonly T[] | undefined;
  /** The API's words when the rows could not be read. */
  readonly error?: string | undefined;
  /** What is said when there is no row (a list that always has one needs none). */
  readonly empty?: ComponentChildren;
  readonly rowKey: (row: T) => string;
  readonly rowClass?: (row: T) => string | undefined;
  /** The columns, the first one each row's header. */
  readonly columns: readonly [Column<T>, ...Column<T>[]];
  /** A row's buttons, in a last column without a visible heading; none without it. */
  readonly actions?: (row: T) => ComponentChildren;
  readonly actionsClass?: string;
  readonly tableClass?: string;
  /** The order at first, by a column's label; the rows' own order without it. */
  readonly initialSort?: SortOrder;
  /** What stands between the heading and the table: a hint, a status line, filters. */
  readonly children?: ComponentChildren;
}

/** A cell that shows nothing has no label on a narrow screen's card (an empty "State:" says nothing). */
const isBlank = (content: ComponentChildren): boolean =>
  content === '' || content === null || content === undefined || content === false;

const sorted = <T,>(rows: readonly T[], columns: readonly Column<T>[], order: SortOrder | undefined): readonly T[] => {
  const compare = columns.find((column) => column.label === order?.column)?.compare;
  if (!compare || !order) return rows;
  return [...rows].sort((a, b) => (order.descending ? compare(b, a) : compare(a, b)));
};

const SortableHeading = ({
  label,
  order,
  onSort,
}: {
  label: string;
  order: SortOrder | undefined;
  onSort: (order: SortOrder) => void;
}) => {
  const current = order?.column === label;
  const descending = current && order.descending;
  return (
    <th scope="col" aria-sort={current ? (descending ? 'descending' : 'ascending') : undefined}>
      <button
        type="button"
        class="sort"
        onClick={() => onSort({ column: label, descending: current ? !descending : false })}
      >
        {label}
        <span aria-hidden="true">{current ? (descending ? ' ▼' : ' ▲') : ''}</span>
      </button>
    </th>
  );
};

/**
 * A screen's list, the one scaffold of every table: its heading, what stands before the table, the
 * API's words when it cannot be read, "Loading…", the empty state, and the rows in a table that
 * becomes labelled cards on a narrow screen, each with its actions. A screen states only its columns,
 * rows and actions.
 */
export const List = <T,>({
  id,
  title,
  headingRef,
  rows,
  error,
  empty,
  rowKey,
  rowClass,
  columns,
  actions,
  actionsClass = 'row-actions',
  tableClass,
  initialSort,
  children,
}: ListProps<T>) => {
  const [order, setOrder] = useState(initialSort);
  const [first, ...rest] = columns;
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} ref={headingRef} tabIndex={-1}>
        {title}
      </h2>
      {children}
      <ErrorMessage id={`${id}-error`} error={error} />
      {rows === undefined ? (
        !error && <p>Loading…</p>
      ) : rows.length === 0 && empty !== undefined ? (
        <p class="empty">{empty}</p>
      ) : (
        <table class={tableClass ? `stack ${tableClass}` : 'stack'}>
          <thead>
            <tr>
              {columns.map((column) =>
                column.compare ? (
                  <SortableHeading key={column.label} label={column.label} order={order} onSort={setOrder} />
                ) : (
                  <th key={column.label} scope="col">
                    {column.label}
                  </th>
                ),
              )}
              {actions && (
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {sorted(rows, columns, order).map((row) => {
              const heading = first.cell(row);
              return (
                <tr key={rowKey(row)} class={rowClass?.(row)}>
                  <th scope="row" data-label={first.label} class={first.className}>
                    {heading}
                  </th>
                  {rest.map((column) => {
                    const content = column.cell(row);
                    return (
                      <td
                        key={column.label}
                        data-label={isBlank(content) ? undefined : column.label}
                        class={column.className}
                      >
                        {content}
                      </td>
                    );
                  })}
                  {actions && <td class={actionsClass}>{actions(row)}</td>}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
};
