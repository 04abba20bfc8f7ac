import type { ComponentChildren } from 'preact';

/** The top of a page: its one heading, a line that says what the page is for, and its main actions. */
export function PageHeader(props: { title: string; intro?: string; children?: ComponentChildren }) {
  return (
    <header class="page-header">
      <div>
        <h1 tabIndex={-1}>{props.title}</h1>
        {props.intro ? <p class="intro">{props.intro}</p> : null}
      </div>
      {props.children ? <div class="actions">{props.children}</div> : null}
    </header>
  );
}

/** A titled part of a page. */
export function Section(props: { title: string; id?: string; children: ComponentChildren }) {
  const headingId = `${props.id ?? props.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-heading`;
  return (
    <section class="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{props.title}</h2>
      {props.children}
    </section>
  );
}
