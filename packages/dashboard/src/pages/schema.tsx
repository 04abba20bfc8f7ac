import { PageHeader } from '../ui/page.js';

/** Placeholder until this area's page lands. */
export default function Page() {
  return <PageHeader title="Schema and indexes" intro="This page is not built yet." />;
}
