import type { FunctionDetail, InvokeResult } from '@dataplatform/sdk';
import { useState } from 'preact/hooks';
import { useSession } from '../../context.js';
import { when } from '../../ui/format.js';
import { Section } from '../../ui/page.js';
import { Status } from '../../ui/status.js';
import { DataTable } from '../../ui/table.js';
import { useAction, useLoad } from '../../ui/use-load.js';
import { FunctionSettings } from './function-settings.js';

/** The editor of one function: its code (deploying a new version), a run with input, and its recent runs. */
export function FunctionDetailView(props: { detail: FunctionDetail; onDeployed(): void }) {
  const { client } = useSession();
  const { detail } = props;
  const [code, setCode] = useState(detail.code);
  const [input, setInput] = useState('{}');
  const [result, setResult] = useState<InvokeResult | null>(null);
  const deploy = useAction();
  const invoke = useAction();
  const runs = useLoad(
    () => client.functions.invocations(detail._id, { limit: 10 }),
    [client, detail._id, result],
  );
  return (
    <>
      <Section title={`Code of ${detail.name}`} id="function-code">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void deploy.run(async () => {
              const deployed = await client.functions.deploy(detail._id, { code });
              props.onDeployed();
              return `Deployed version ${deployed.version}.`;
            });
          }}
        >
          <div class="field">
            <label for="function-code-text">Code (version {detail.version})</label>
            <textarea
              id="function-code-text"
              class="code"
              spellcheck={false}
              value={code}
              onInput={(event) => setCode(event.currentTarget.value)}
            />
          </div>
          <button type="submit" class="primary" disabled={deploy.busy}>
            Deploy new version
          </button>
          <Status error={deploy.error} notice={deploy.notice} />
        </form>
      </Section>
      <FunctionSettings detail={detail} onDeployed={props.onDeployed} />
      <Section title="Invoke" id="function-invoke">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void invoke.run(async () => {
              const answer = await client.functions.invoke(detail._id, JSON.parse(input));
              setResult(answer);
              return `Ran in ${answer.durationMs} ms.`;
            });
          }}
        >
          <div class="field">
            <label for="function-input">Input (JSON)</label>
            <textarea
              id="function-input"
              class="code short"
              spellcheck={false}
              value={input}
              onInput={(event) => setInput(event.currentTarget.value)}
            />
          </div>
          <button type="submit" disabled={invoke.busy}>
            Invoke function
          </button>
        </form>
        <Status error={invoke.error} notice={invoke.notice} />
        {result ? (
          <>
            <h3>Result</h3>
            <pre class="json" data-testid="function-result">
              {JSON.stringify(result.result, null, 2)}
            </pre>
            <h3>Logs</h3>
            <pre class="json">{result.logs.join('\n') || '(none)'}</pre>
          </>
        ) : null}
      </Section>
      <Section title="Recent runs" id="function-runs">
        <Status error={runs.error} />
        <DataTable
          caption={`Runs of ${detail.name}, newest first`}
          columns={[
            { label: 'Started', cell: (run) => when(run.startedAt) },
            { label: 'Status', cell: (run) => <span class={`status-${run.status}`}>{run.status}</span> },
            { label: 'Trigger', cell: (run) => run.trigger },
            { label: 'Duration', cell: (run) => `${run.durationMs} ms` },
            { label: 'Logs', cell: (run) => run.logs.join(' · ') },
            { label: 'Error', cell: (run) => run.error?.message ?? '' },
          ]}
          rows={runs.data?.data ?? []}
          rowKey={(run) => run._id}
          empty={runs.loading ? 'Loading…' : 'No runs yet.'}
        />
      </Section>
    </>
  );
}
