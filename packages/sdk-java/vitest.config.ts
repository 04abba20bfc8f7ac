import { packageProject } from '../../vitest.shared.ts';

// The server's global setup starts the PostgreSQL (and Redis) the reference servers of the conformance run use.
export default packageProject('sdk-java', { globalSetup: ['../server/test/setup/global.ts'] });
