import { z } from 'zod';

/** A human-friendly code: 8 letters from an alphabet without vowels or look-alikes, shown as `XXXX-XXXX`. */
const UserCode = z
  .string()
  .min(1)
  .max(32)
  .meta({ description: 'The code shown to the person, such as `WDJB-MJHT`; case and dashes are ignored' });

/** Answer of `POST /api/auth/device`: what the program shows the person, and what it polls with. */
export const DeviceAuthorization = z
  .object({
    deviceCode: z.string().meta({
      description: 'Secret of the program; send it to `POST /api/auth/device/token`. Never show it',
    }),
    userCode: z.string().meta({ description: 'Short code to show to the person, `XXXX-XXXX`' }),
    verificationUri: z.string().meta({ description: 'Page where the person signs in and confirms the code' }),
    verificationUriComplete: z
      .string()
      .meta({ description: 'The page with the code filled in, for a link or a QR code' }),
    expiresIn: z.number().int().meta({ description: 'Seconds until both codes expire' }),
    interval: z.number().int().meta({ description: 'Seconds to wait between polls' }),
  })
  .meta({ id: 'DeviceAuthorization', description: 'A started device sign-in (RFC 8628).' });

/** Body of `POST /api/auth/device/token`. */
export const DeviceTokenRequest = z
  .strictObject({ deviceCode: z.string().min(1).max(256) })
  .meta({ id: 'DeviceTokenRequest' });

/** Body of the approve and deny routes. */
export const DeviceDecisionRequest = z
  .strictObject({ userCode: UserCode })
  .meta({ id: 'DeviceDecisionRequest' });

/** Answer of the approve and deny routes. */
export const DeviceDecision = z
  .object({
    userCode: z.string().meta({ description: 'The code, normalized as `XXXX-XXXX`' }),
    status: z.enum(['approved', 'denied']),
  })
  .meta({ id: 'DeviceDecision', description: 'The decision taken on a device sign-in.' });

export type DeviceAuthorization = z.infer<typeof DeviceAuthorization>;
export type DeviceTokenRequest = z.infer<typeof DeviceTokenRequest>;
export type DeviceDecisionRequest = z.infer<typeof DeviceDecisionRequest>;
export type DeviceDecision = z.infer<typeof DeviceDecision>;
