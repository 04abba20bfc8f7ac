import type { ComponentChildren } from 'preact';

/** One column: its header, how to show a row's cell, and (when sortable) the field the list sorts by. */
export interface Column<Row> {
  label: string;
  cell(row: Row): ComponentChildren;
  sortField?: string;
}

/** `field`, `-field` or nothing, as the API's `sort` takes it. */
export type Sort = string | undefined;

function direction(sort: Sort, field: string): 'ascending' | 'descending' | undefined {
  if (sort === field) return 'ascending';
  if (sort === `-${field}`) return 'descending';
  return undefined;
}

/**
 * A table with a caption (its accessible name), sortable headers that are buttons and say their order with
 * `aria-sort`, and a line for an empty list. Wide tables scroll inside their own box on a phone.
 */
export function DataTable<Row>(props: {
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey(row: Row): string;
  sort?: Sort;
  onSort?(sort: Sort): void;
  empty?: string;
  busy?: boolean;
}) {
  const { columns, rows, sort, onSort } = props;
  return (
    <div class="table-scroll">
      <table aria-busy={props.busy ? 'true' : undefined}>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => {
              const field = column.sortField;
              const order = field ? direction(sort, field) : undefined;
              return (
                <th key={column.label} scope="col" aria-sort={order}>
                  {field && onSort ? (
                    <button
                      type="button"
                      class="sort"
                      onClick={() => onSort(order === 'ascending' ? `-${field}` : field)}
                    >
                      {column.label}
                      <span aria-hidden="true">
                        {order === 'ascending' ? ' ▲' : order === 'descending' ? ' ▼' : ''}
                      </span>
                    </button>
                  ) : (
                    column.label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} class="empty">
                {props.empty ?? 'Nothing here yet.'}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={props.rowKey(row)}>
                {columns.map((column) => (
                  <td key={column.label}>{column.cell(row)}</td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
