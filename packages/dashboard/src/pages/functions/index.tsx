import { useState } from 'preact/hooks';
import { useSession } from '../../context.js';
import { href, navigate, onLinkClick } from '../../router.js';
import { ConfirmButton } from '../../ui/dialog.js';
import { when } from '../../ui/format.js';
import { PageHeader, Section } from '../../ui/page.js';
import { Status } from '../../ui/status.js';
import { DataTable } from '../../ui/table.js';
import { useAction, useLoad } from '../../ui/use-load.js';
import { FunctionDetailView } from './function-detail.js';

const TEMPLATE = `export default async function (input, ctx) {
  ctx.log('called with', JSON.stringify(input));
  return { hello: input.name ?? 'world' };
}
`;

/** Functions of the chosen cluster: create, edit and deploy, invoke, and their runs. */
export default function Functions(props: { rest: string[] }) {
  const { client, clusterId } = useSession();
  const selectedId = props.rest[0];
  const list = useLoad(() => client.functions.list({ clusterId, limit: 100 }), [client, clusterId]);
  const detail = useLoad(
    () => (selectedId ? client.functions.get(selectedId) : Promise.resolve(undefined)),
    [client, selectedId],
  );
  const [name, setName] = useState('');
  const action = useAction();
  return (
    <>
      <PageHeader
        title="Functions"
        intro="JavaScript that runs next to the data, in a sandbox with time and memory limits."
      />
      <Status error={list.error ?? detail.error ?? action.error} notice={action.notice} />
      <DataTable
        caption="Functions of this cluster"
        columns={[
          {
            label: 'Name',
            cell: (fn) => (
              <a
                href={href(`/functions/${fn._id}`)}
                onClick={onLinkClick}
                aria-current={fn._id === selectedId ? 'page' : undefined}
              >
                {fn.name}
              </a>
            ),
          },
          { label: 'Version', cell: (fn) => fn.version },
          { label: 'Limits', cell: (fn) => `${fn.timeoutMs} ms, ${fn.memoryMb} MB` },
          { label: 'Updated', cell: (fn) => when(fn.updatedAt) },
          {
            label: 'Actions',
            cell: (fn) => (
              <ConfirmButton
                label="Delete"
                ariaLabel={`Delete function ${fn.name}`}
                danger
                question={`Delete ${fn.name}, its runs and the triggers that call it?`}
                confirmLabel="Delete function"
                onConfirm={() =>
                  action.run(async () => {
                    await client.functions.delete(fn._id);
                    if (fn._id === selectedId) navigate('/functions');
                    await list.reload();
                    return `Deleted ${fn.name}.`;
                  })
                }
              />
            ),
          },
        ]}
        rows={list.data?.data ?? []}
        rowKey={(fn) => fn._id}
        busy={list.loading}
        empty={list.loading ? 'Loading…' : 'No functions yet.'}
      />
      {detail.data ? (
        <FunctionDetailView
          key={`${detail.data._id}-${detail.data.version}`}
          detail={detail.data}
          onDeployed={() => {
            void list.reload();
            void detail.reload();
          }}
        />
      ) : null}
      <Section title="Create a function">
        <form
          class="row"
          onSubmit={(event) => {
            event.preventDefault();
            void action.run(async () => {
              const created = await client.functions.create({ name, code: TEMPLATE, clusterId });
              setName('');
              await list.reload();
              navigate(`/functions/${created._id}`);
              return `Created ${created.name}.`;
            });
          }}
        >
          <div class="field">
            <label for="function-name">Name</label>
            <input
              id="function-name"
              required
              pattern="[A-Za-z][A-Za-z0-9_\-]{0,63}"
              value={name}
              onInput={(event) => setName(event.currentTarget.value)}
            />
          </div>
          <div class="field">
            <button type="submit" class="primary" disabled={action.busy}>
              Create function
            </button>
          </div>
        </form>
      </Section>
    </>
  );
}
