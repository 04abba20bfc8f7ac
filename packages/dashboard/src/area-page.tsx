import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Area } from './areas.js';

type PageComponent = ComponentType<{ rest: string[] }>;
const loaded = new Map<string, PageComponent>();

/** Shows an area's page, loading its chunk on first visit; `rest` is the path after the area's segment. */
export function AreaPage(props: { area: Area; rest: string[] }) {
  const { area } = props;
  const [page, setPage] = useState<PageComponent | undefined>(() => loaded.get(area.segment));
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    if (loaded.has(area.segment)) {
      setPage(() => loaded.get(area.segment));
      return;
    }
    let current = true;
    setPage(undefined);
    area.load().then(
      (module) => {
        loaded.set(area.segment, module.default);
        if (current) setPage(() => module.default);
      },
      (error: Error) => current && setFailed(`This page could not be loaded: ${error.message}`),
    );
    return () => {
      current = false;
    };
  }, [area]);
  if (failed)
    return (
      <p class="message error" role="alert">
        {failed}
      </p>
    );
  const Page = page;
  return Page ? <Page key={area.segment} rest={props.rest} /> : <p aria-busy="true">Loading {area.label}…</p>;
}
