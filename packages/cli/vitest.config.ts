import { packageProject } from '../../vitest.shared.ts';

// The end-to-end suites run the built binary: the global setup builds it once per run.
export default packageProject('cli', { globalSetup: ['test/setup/build.ts'] });
