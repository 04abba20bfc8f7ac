import { defineProject } from 'vitest/config';

/** Resolves workspace packages to their TypeScript sources so tests never need a build first. */
export function packageProject(
  name: string,
  extra: { testTimeout?: number; fileParallelism?: boolean; globalSetup?: string[] } = {},
) {
  return defineProject({
    resolve: { conditions: ['@dataplatform/source'] },
    ssr: { resolve: { conditions: ['@dataplatform/source'] } },
    test: {
      name,
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: extra.testTimeout ?? 15_000,
      fileParallelism: extra.fileParallelism ?? true,
      typecheck: { enabled: false },
      globalSetup: extra.globalSetup ?? [],
    },
  });
}
