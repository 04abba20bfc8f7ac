import { expect, it, vi } from 'vitest';

// A route the contract gains before the mocks implement it must stop the mocks from being built.
vi.mock('@dataplatform/contract', async (importOriginal) => {
  const contract = await importOriginal<typeof import('@dataplatform/contract')>();
  const invented = { ...contract.dataRoutes[0], id: 'data.invented', path: '/api/v1/data/invented' };
  return { ...contract, routes: [...contract.routes, invented] };
});

it('refuses to build handlers when a contract route has no implementation', async () => {
  const { createDataPlatformMocks } = await import('../src/create-mocks.js');
  expect(() => createDataPlatformMocks()).toThrow(
    '@dataplatform/mocks has no implementation of route data.invented',
  );
});
