import { count } from './format.js';

/**
 * Previous and next for a `{ total, limit, skip }` list, with where the page is; `label` names the list. With
 * `ends`, first and last page too (for lists long enough to need them).
 */
export function Pager(props: {
  label: string;
  total: number;
  skip: number;
  limit: number;
  shown: number;
  ends?: boolean;
  onSkip(skip: number): void;
}) {
  const { total, skip, limit, shown } = props;
  const first = shown === 0 ? 0 : skip + 1;
  const atEnd = skip + shown >= total || shown === 0;
  // The last page starts at a multiple of `limit`, as paging forward from the first would reach it.
  const lastSkip = Math.max(0, Math.floor((total - 1) / limit) * limit);
  return (
    <nav class="pager" aria-label={`Pages of ${props.label}`}>
      {props.ends ? (
        <button type="button" disabled={skip === 0} onClick={() => props.onSkip(0)}>
          First page
        </button>
      ) : null}
      <button type="button" disabled={skip === 0} onClick={() => props.onSkip(Math.max(0, skip - limit))}>
        Previous page
      </button>
      <span class="pager-position">
        {count(first)}–{count(skip + shown)} of {count(total)}
      </span>
      <button type="button" disabled={atEnd} onClick={() => props.onSkip(skip + limit)}>
        Next page
      </button>
      {props.ends ? (
        <button type="button" disabled={atEnd} onClick={() => props.onSkip(lastSkip)}>
          Last page
        </button>
      ) : null}
    </nav>
  );
}
