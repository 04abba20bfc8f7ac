import type { StoredDocument } from '@dataplatform/sdk';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useSession } from '../../context.js';
import { navigate, useRoute } from '../../router.js';
import { ConfirmButton } from '../../ui/dialog.js';
import { cell, when } from '../../ui/format.js';
import { Pager } from '../../ui/pager.js';
import { Status } from '../../ui/status.js';
import { type Column, DataTable } from '../../ui/table.js';
import { useAction, useLoad } from '../../ui/use-load.js';
import { documentFields } from './columns.js';
import { DocumentEditor } from './document-editor.js';
import { fetchPage } from './page-window.js';

type Doc = StoredDocument<Record<string, unknown>>;
const PAGE_SIZES = [25, 50, 100];

/** One collection as a table: sorted by any column, a page at a time, each row editable and deletable. */
export function CollectionView(props: { collection: string; onChanged(): void }) {
  const { client } = useSession();
  const { collection } = props;
  const { query } = useRoute();
  const skip = Math.max(0, Number(query.get('skip')) || 0);
  const limit = PAGE_SIZES.includes(Number(query.get('limit'))) ? Number(query.get('limit')) : 25;
  const sort = query.get('sort') ?? undefined;
  const [editing, setEditing] = useState<{ document: Doc | undefined } | null>(null);
  const action = useAction();

  // The collection's size from the last answer: with it a page past the middle is asked for from the end
  // (page-window.ts), so a far page costs no more than a near one.
  const knownTotal = useRef<number | undefined>(undefined);
  const page = useLoad(async () => {
    const askedAt = performance.now();
    const list = (ask: { skip: number; limit: number; sort: string | undefined }) =>
      client.data.list<Record<string, unknown>>(collection, ask);
    const shown = await fetchPage(list, skip, limit, sort, knownTotal.current);
    knownTotal.current = shown.total;
    return { ...shown, askedAt };
  }, [client, collection, skip, limit, sort]);

  // The time from asking for a page to showing it, as the measure `documents-page` on the page's performance
  // timeline, which the browser test and `pnpm bench:dashboard` read (docs/dashboard.md, "Browsing a large
  // collection"). Effects run after the new rows are committed to the page.
  useEffect(() => {
    if (page.data) performance.measure('documents-page', { start: page.data.askedAt });
  }, [page.data]);

  const go = (changes: Record<string, string | number | undefined>) => {
    const next = new URLSearchParams({ skip: String(skip), limit: String(limit), ...(sort ? { sort } : {}) });
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined) next.delete(name);
      else next.set(name, String(value));
    }
    if (next.get('skip') === '0') next.delete('skip');
    navigate(`/documents/${encodeURIComponent(collection)}?${next}`);
  };

  const documents = page.data?.documents ?? [];
  const columns: Column<Doc>[] = documentFields(documents).map((field) => ({
    label: field,
    sortField: field,
    cell: (document: Doc) =>
      field === '_id' ? (
        <code>{document._id}</code>
      ) : field === '_updatedAt' ? (
        when(document._updatedAt)
      ) : (
        cell(document[field])
      ),
  }));
  columns.push({
    label: 'Actions',
    cell: (document) => (
      <div class="actions">
        <button
          type="button"
          aria-label={`Edit document ${document._id}`}
          onClick={() => setEditing({ document })}
        >
          Edit
        </button>
        <ConfirmButton
          label="Delete"
          ariaLabel={`Delete document ${document._id}`}
          danger
          question={`Delete document ${document._id} from ${collection}? This cannot be undone.`}
          confirmLabel="Delete document"
          onConfirm={() =>
            action.run(async () => {
              await client.data.delete(collection, document._id);
              await page.reload();
              props.onChanged();
              return `Deleted document ${document._id}.`;
            })
          }
        />
      </div>
    ),
  });

  return (
    <section class="panel" aria-labelledby="collection-heading">
      <div class="page-header">
        <h2 id="collection-heading">
          Collection <code>{collection}</code>
        </h2>
        <div class="actions">
          <label>
            <span class="visually-hidden">Documents per page</span>
            <select
              value={String(limit)}
              onChange={(event) => go({ limit: event.currentTarget.value, skip: 0 })}
            >
              {PAGE_SIZES.map((size) => (
                <option key={size} value={String(size)}>
                  {size} per page
                </option>
              ))}
            </select>
          </label>
          <button type="button" class="primary" onClick={() => setEditing({ document: undefined })}>
            New document
          </button>
        </div>
      </div>
      <Status error={page.error ?? action.error} notice={action.notice} />
      <DataTable
        caption={`Documents of ${collection}${sort ? `, sorted by ${sort.replace(/^-/, '')} ${sort.startsWith('-') ? 'descending' : 'ascending'}` : ''}`}
        columns={columns}
        rows={documents}
        rowKey={(document) => document._id}
        sort={sort}
        onSort={(next) => go({ sort: next, skip: 0 })}
        busy={page.loading}
        empty={page.loading ? 'Loading…' : 'No documents in this collection yet.'}
      />
      {page.data ? (
        <Pager
          label={collection}
          total={page.data.total}
          skip={skip}
          limit={limit}
          shown={documents.length}
          ends
          onSkip={(next) => go({ skip: next })}
        />
      ) : null}
      {editing ? (
        <DocumentEditor
          key={editing.document?._id ?? 'new'}
          collection={collection}
          document={editing.document}
          open
          onClose={() => setEditing(null)}
          onSaved={(message) => {
            setEditing(null);
            action.setNotice(message);
            void page.reload();
            props.onChanged();
          }}
        />
      ) : null}
    </section>
  );
}
