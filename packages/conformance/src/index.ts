export { Case, caseJsonSchema, type Expect, type Step, TARGETS, type Target } from './case.js';
export { type Coverage, coverageOf, reachableErrors, routeOf } from './coverage.js';
export { CASES_DIR, type LoadedCase, loadCases } from './load.js';
export { interpolate, mismatches, pathValue, type Variables } from './match.js';
export { ConformanceFailure, type RunTarget, runCase, SETUP_PASSWORD } from './runner.js';
