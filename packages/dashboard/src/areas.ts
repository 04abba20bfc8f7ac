import type { ComponentType } from 'preact';

/** One entry of the navigation: a dashboard area, its address and its page, loaded when first shown. */
export interface Area {
  /** First path segment after /dashboard ('' for the overview). */
  segment: string;
  label: string;
  load: () => Promise<{ default: ComponentType<{ rest: string[] }> }>;
}

/**
 * Every area of the service, in the navigation's order. Each page is its own chunk, so the first load carries only
 * the shell and the page it opens on. An area issue that adds a page adds its line here.
 */
export const AREAS: Area[] = [
  { segment: '', label: 'Overview', load: () => import('./pages/overview.js') },
  { segment: 'documents', label: 'Documents', load: () => import('./pages/documents/index.js') },
  { segment: 'schema', label: 'Schema and indexes', load: () => import('./pages/schema.js') },
  { segment: 'keys', label: 'API keys', load: () => import('./pages/keys/index.js') },
  { segment: 'webhooks', label: 'Webhooks', load: () => import('./pages/webhooks/index.js') },
  { segment: 'functions', label: 'Functions', load: () => import('./pages/functions/index.js') },
  { segment: 'triggers', label: 'Triggers', load: () => import('./pages/triggers.js') },
  { segment: 'backups', label: 'Backups', load: () => import('./pages/backups.js') },
  { segment: 'metrics', label: 'Metrics', load: () => import('./pages/metrics/index.js') },
  { segment: 'logs', label: 'Logs', load: () => import('./pages/logs.js') },
  { segment: 'notifications', label: 'Notifications', load: () => import('./pages/notifications.js') },
  { segment: 'intelligence', label: 'Intelligence', load: () => import('./pages/intelligence.js') },
  { segment: 'clusters', label: 'Clusters and members', load: () => import('./pages/clusters.js') },
  { segment: 'billing', label: 'Billing and usage', load: () => import('./pages/billing.js') },
  { segment: 'settings', label: 'Settings', load: () => import('./pages/settings.js') },
];
