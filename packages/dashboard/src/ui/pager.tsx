import { count } from './format.js';

/** Previous and next for a `{ total, limit, skip }` list, with where the page is; `label` names the list. */
export function Pager(props: {
  label: string;
  total: number;
  skip: number;
  limit: number;
  shown: number;
  onSkip(skip: number): void;
}) {
  const { total, skip, limit, shown } = props;
  const first = shown === 0 ? 0 : skip + 1;
  return (
    <nav class="pager" aria-label={`Pages of ${props.label}`}>
      <button type="button" disabled={skip === 0} onClick={() => props.onSkip(Math.max(0, skip - limit))}>
        Previous page
      </button>
      <span class="pager-position">
        {count(first)}–{count(skip + shown)} of {count(total)}
      </span>
      <button
        type="button"
        disabled={skip + shown >= total || shown === 0}
        onClick={() => props.onSkip(skip + limit)}
      >
        Next page
      </button>
    </nav>
  );
}
