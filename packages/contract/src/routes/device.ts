import { AuthSession } from '../schemas/auth.js';
import {
  DeviceAuthorization,
  DeviceDecision,
  DeviceDecisionRequest,
  DeviceTokenRequest,
} from '../schemas/device.js';
import type { RouteDefinition } from './types.js';

const tag = 'auth';
const bodyErrors = ['validation_error', 'invalid_json', 'invalid_body'] as const;

/** Device sign-in (RFC 8628) under /api/auth/device, for programs without a browser such as `dp login --no-browser`. */
export const deviceRoutes = [
  {
    id: 'auth.deviceStart',
    method: 'POST',
    path: '/api/auth/device',
    tag,
    summary: 'Start a device sign-in',
    description:
      'Answers a secret `deviceCode` for the program and a short `userCode` for the person, who opens `verificationUri` (`/device`) on any device, signs in and confirms the code. Both expire after 10 minutes. Limited per client address like sign-ins.',
    auth: 'public',
    scopes: [],
    success: { status: 200, description: 'The codes and where to confirm them', schema: DeviceAuthorization },
    errors: ['rate_limited'],
  },
  {
    id: 'auth.deviceApprove',
    method: 'POST',
    path: '/api/auth/device/approve',
    tag,
    summary: 'Approve a device sign-in',
    description:
      'The signed-in person confirms the code shown by the program; the program’s next poll gets a session of this person. 404 when no pending request has the code (unknown, expired or already decided).',
    auth: 'session',
    scopes: [],
    body: DeviceDecisionRequest,
    success: { status: 200, description: 'Approved', schema: DeviceDecision },
    errors: [...bodyErrors, 'not_found'],
  },
  {
    id: 'auth.deviceDeny',
    method: 'POST',
    path: '/api/auth/device/deny',
    tag,
    summary: 'Deny a device sign-in',
    description:
      'The signed-in person refuses the request; the program’s next poll gets 403 `access_denied`. 404 as for approval.',
    auth: 'session',
    scopes: [],
    body: DeviceDecisionRequest,
    success: { status: 200, description: 'Denied', schema: DeviceDecision },
    errors: [...bodyErrors, 'not_found'],
  },
  {
    id: 'auth.deviceToken',
    method: 'POST',
    path: '/api/auth/device/token',
    tag,
    summary: 'Poll a device sign-in',
    description:
      'The program polls every `interval` seconds: 428 `authorization_pending` until the person decides, 400 `slow_down` when polled sooner (the interval grows by 5 seconds), 403 `access_denied`, 400 `expired_token`, or the session once approved. The session is handed out once; later polls answer 400 `invalid_grant`.',
    auth: 'public',
    scopes: [],
    body: DeviceTokenRequest,
    success: { status: 200, description: 'The approving user and a session token', schema: AuthSession },
    errors: [
      ...bodyErrors,
      'authorization_pending',
      'slow_down',
      'expired_token',
      'access_denied',
      'invalid_grant',
    ],
  },
] as const satisfies readonly RouteDefinition[];
