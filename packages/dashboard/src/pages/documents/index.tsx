import { useState } from 'preact/hooks';
import { useSession } from '../../context.js';
import { href, navigate, onLinkClick } from '../../router.js';
import { count } from '../../ui/format.js';
import { PageHeader } from '../../ui/page.js';
import { Status } from '../../ui/status.js';
import { useLoad } from '../../ui/use-load.js';
import { CollectionView } from './collection-view.js';
import { SqlHelper } from './sql-helper.js';

const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** The document browser: the cluster's collections, one of them as a table, and the SQL helper. */
export default function Documents(props: { rest: string[] }) {
  const { client, clusterId } = useSession();
  const collection = props.rest[0];
  const collections = useLoad(() => client.schema.collections.list({ clusterId }), [client, clusterId]);
  const [name, setName] = useState('');
  const names = collections.data?.data ?? [];

  return (
    <>
      <PageHeader title="Documents" intro="Browse, edit and query the documents of this cluster." />
      <Status error={collections.error} />
      <div class="split">
        <nav class="panel" aria-labelledby="collections-heading">
          <h2 id="collections-heading">Collections</h2>
          <ul class="list-plain">
            {names.map((info) => (
              <li key={info.name}>
                <a
                  href={href(`/documents/${encodeURIComponent(info.name)}`)}
                  aria-current={info.name === collection ? 'page' : undefined}
                  onClick={onLinkClick}
                >
                  {info.name} <span class="hint">({count(info.documentCount)})</span>
                </a>
              </li>
            ))}
          </ul>
          {collections.data && names.length === 0 ? <p class="hint">No collections yet.</p> : null}
          <form
            class="field"
            onSubmit={(event) => {
              event.preventDefault();
              if (NAME.test(name)) navigate(`/documents/${encodeURIComponent(name)}`);
            }}
          >
            <label for="open-collection">Open or start a collection</label>
            <div class="row">
              <input
                id="open-collection"
                value={name}
                pattern="[A-Za-z][A-Za-z0-9_\-]{0,63}"
                aria-describedby="open-collection-hint"
                onInput={(event) => setName(event.currentTarget.value)}
              />
              <button type="submit">Open</button>
            </div>
            <p id="open-collection-hint" class="hint">
              A collection exists once it holds a document.
            </p>
          </form>
        </nav>
        <div>
          {collection ? (
            <CollectionView
              key={collection}
              collection={collection}
              onChanged={() => void collections.reload()}
            />
          ) : (
            <p class="panel">Choose a collection to see its documents.</p>
          )}
          <SqlHelper key={collection} collection={collection ?? names[0]?.name} />
        </div>
      </div>
    </>
  );
}
