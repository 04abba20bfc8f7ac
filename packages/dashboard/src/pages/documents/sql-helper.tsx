import { useState } from 'preact/hooks';
import { useSession } from '../../context.js';
import { cell } from '../../ui/format.js';
import { Status } from '../../ui/status.js';
import { DataTable } from '../../ui/table.js';
import { useAction } from '../../ui/use-load.js';

type Row = Record<string, unknown>;

/** The SQL helper: one read-only SELECT over a collection, its rows as a table and the query it became. */
export function SqlHelper(props: { collection: string | undefined }) {
  const { client } = useSession();
  const [sql, setSql] = useState(`SELECT * FROM ${props.collection ?? 'orders'} LIMIT 20`);
  const [result, setResult] = useState<{ rows: Row[]; query: unknown } | null>(null);
  const action = useAction();
  const fields = result ? [...new Set(result.rows.flatMap((row) => Object.keys(row)))].slice(0, 8) : [];

  return (
    <section class="panel" aria-labelledby="sql-heading">
      <h2 id="sql-heading">SQL helper</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void action.run(async () => {
            const answer = await client.data.sql(sql);
            setResult({ rows: answer.data as Row[], query: answer.query });
            return `${answer.data.length} row${answer.data.length === 1 ? '' : 's'}.`;
          });
        }}
      >
        <div class="field">
          <label for="sql-text">Statement</label>
          <textarea
            id="sql-text"
            class="code short"
            rows={3}
            spellcheck={false}
            value={sql}
            aria-describedby="sql-hint"
            onInput={(event) => setSql(event.currentTarget.value)}
          />
          <p id="sql-hint" class="hint">
            SELECT with WHERE, GROUP BY, HAVING, ORDER BY, LIMIT and OFFSET over one collection; read only.
          </p>
        </div>
        <button type="submit" class="primary" disabled={action.busy}>
          Run query
        </button>
      </form>
      <Status error={action.error} notice={action.notice} />
      {result ? (
        <>
          <DataTable
            caption="Query results"
            columns={fields.map((field) => ({ label: field, cell: (row: Row) => cell(row[field]) }))}
            rows={result.rows}
            rowKey={(row) => String(row._id ?? JSON.stringify(row))}
            empty="No rows matched."
          />
          <details>
            <summary>The query the server ran</summary>
            <pre class="json">{JSON.stringify(result.query, null, 2)}</pre>
          </details>
        </>
      ) : null}
    </section>
  );
}
