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
      // Generous: a test is judged by what it checks, never by its time (timings live in bench/), and a busy
      // 2-core machine runs two files at once.
      testTimeout: extra.testTimeout ?? 30_000,
      fileParallelism: extra.fileParallelism ?? true,
      typecheck: { enabled: false },
      globalSetup: extra.globalSetup ?? [],
    },
  });
}
