import type { CollectionInfo } from '@dataplatform/sdk';
import { useState } from 'preact/hooks';
import { useSession } from '../context.js';
import { ConfirmButton } from '../ui/dialog.js';
import { bytes, count } from '../ui/format.js';
import { PageHeader, Section } from '../ui/page.js';
import { Status } from '../ui/status.js';
import { DataTable } from '../ui/table.js';
import { useAction, useLoad } from '../ui/use-load.js';

/** One collection's validator (JSON Schema) and indexes, each editable. */
function CollectionSchema(props: { info: CollectionInfo; onChanged(): void }) {
  const { client, clusterId } = useSession();
  const { info } = props;
  const [schema, setSchema] = useState(
    JSON.stringify(info.validation?.schema ?? { type: 'object' }, null, 2),
  );
  const [level, setLevel] = useState<'strict' | 'off'>(info.validation?.level ?? 'strict');
  const [path, setPath] = useState('');
  const [order, setOrder] = useState<'asc' | 'desc'>('asc');
  const [unique, setUnique] = useState(false);
  const action = useAction();
  const done = (message: string) => {
    props.onChanged();
    return message;
  };
  return (
    <Section title={`Collection ${info.name}`} id={`schema-${info.name}`}>
      <Status error={action.error} notice={action.notice} />
      <h3>Validator</h3>
      <div class="field">
        <label for={`validator-${info.name}`}>JSON Schema of {info.name}</label>
        <textarea
          id={`validator-${info.name}`}
          class="code"
          spellcheck={false}
          value={schema}
          onInput={(event) => setSchema(event.currentTarget.value)}
        />
      </div>
      <div class="row">
        <div class="field">
          <label for={`level-${info.name}`}>Level</label>
          <select
            id={`level-${info.name}`}
            value={level}
            onChange={(event) => setLevel(event.currentTarget.value as typeof level)}
          >
            <option value="strict">Strict: refuse documents that do not match</option>
            <option value="off">Off: keep the schema, check nothing</option>
          </select>
        </div>
        <div class="field actions">
          <button
            type="button"
            class="primary"
            onClick={() =>
              action.run(async () => {
                await client.schema.validator.put(
                  info.name,
                  { schema: JSON.parse(schema), level },
                  { clusterId },
                );
                return done(`Saved the validator of ${info.name}.`);
              })
            }
          >
            Save validator
          </button>
          <button
            type="button"
            onClick={() =>
              action.run(async () => {
                const inferred = await client.schema.infer(info.name, { clusterId });
                setSchema(JSON.stringify(inferred.schema, null, 2));
                return `Proposed a schema from ${inferred.sampled} documents; save it to use it.`;
              })
            }
          >
            Propose from documents
          </button>
        </div>
      </div>
      <h3>Indexes</h3>
      <DataTable
        caption={`Indexes of ${info.name}`}
        columns={[
          { label: 'Name', cell: (index) => <code>{index.name}</code> },
          { label: 'Fields', cell: (index) => index.fields.map((f) => `${f.path} ${f.order}`).join(', ') },
          { label: 'Unique', cell: (index) => (index.unique ? 'yes' : 'no') },
          { label: 'Status', cell: (index) => <span class={`status-${index.status}`}>{index.status}</span> },
          {
            label: 'Actions',
            cell: (index) => (
              <ConfirmButton
                label="Drop"
                ariaLabel={`Drop index ${index.name}`}
                danger
                question={`Drop the index ${index.name} of ${info.name}?`}
                confirmLabel="Drop index"
                onConfirm={() =>
                  action.run(async () => {
                    await client.schema.indexes.delete(info.name, index.name, { clusterId });
                    return done(`Dropped ${index.name}.`);
                  })
                }
              />
            ),
          },
        ]}
        rows={info.indexes}
        rowKey={(index) => index.name}
        empty="No indexes."
      />
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault();
          void action.run(async () => {
            const job = await client.schema.indexes.create(
              info.name,
              { fields: [{ path, order }], unique },
              { clusterId },
            );
            setPath('');
            return done(`Index build ${job.status}.`);
          });
        }}
      >
        <div class="field">
          <label for={`index-path-${info.name}`}>Field path</label>
          <input
            id={`index-path-${info.name}`}
            required
            value={path}
            onInput={(event) => setPath(event.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for={`index-order-${info.name}`}>Order</label>
          <select
            id={`index-order-${info.name}`}
            value={order}
            onChange={(event) => setOrder(event.currentTarget.value as typeof order)}
          >
            <option value="asc">Ascending</option>
            <option value="desc">Descending</option>
          </select>
        </div>
        <label class="field">
          <input
            type="checkbox"
            checked={unique}
            onChange={(event) => setUnique(event.currentTarget.checked)}
          />{' '}
          Unique
        </label>
        <div class="field">
          <button type="submit" disabled={action.busy}>
            Create index
          </button>
        </div>
      </form>
    </Section>
  );
}

/** The cluster's collections with their sizes, validators and indexes. */
export default function Schema() {
  const { client, clusterId } = useSession();
  const collections = useLoad(() => client.schema.collections.list({ clusterId }), [client, clusterId]);
  const [open, setOpen] = useState<string | null>(null);
  const action = useAction();
  const rows = collections.data?.data ?? [];
  const openInfo = rows.find((info) => info.name === open);
  return (
    <>
      <PageHeader
        title="Schema and indexes"
        intro="Validators keep documents in shape; indexes make sorting and SQL fast."
      />
      <Status error={collections.error ?? action.error} notice={action.notice} />
      <DataTable
        caption="Collections of this cluster"
        columns={[
          { label: 'Collection', cell: (info) => info.name },
          { label: 'Documents', cell: (info) => count(info.documentCount) },
          { label: 'Storage', cell: (info) => bytes(info.storageBytes) },
          { label: 'Validator', cell: (info) => info.validation?.level ?? 'none' },
          { label: 'Indexes', cell: (info) => info.indexes.length },
          {
            label: 'Actions',
            cell: (info) => (
              <div class="actions">
                <button
                  type="button"
                  aria-label={`Schema of ${info.name}`}
                  aria-expanded={open === info.name}
                  onClick={() => setOpen(open === info.name ? null : info.name)}
                >
                  Schema
                </button>
                <ConfirmButton
                  label="Drop"
                  ariaLabel={`Drop collection ${info.name}`}
                  danger
                  question={`Drop ${info.name} with its ${count(info.documentCount)} documents, validator and indexes? This cannot be undone.`}
                  confirmLabel="Drop collection"
                  onConfirm={() =>
                    action.run(async () => {
                      await client.schema.collections.drop(info.name, { clusterId });
                      await collections.reload();
                      return `Dropping ${info.name}.`;
                    })
                  }
                />
              </div>
            ),
          },
        ]}
        rows={rows}
        rowKey={(info) => info.name}
        busy={collections.loading}
        empty={collections.loading ? 'Loading…' : 'No collections yet.'}
      />
      {openInfo ? (
        <CollectionSchema key={openInfo.name} info={openInfo} onChanged={() => void collections.reload()} />
      ) : null}
    </>
  );
}
