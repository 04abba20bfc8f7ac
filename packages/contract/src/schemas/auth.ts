import { z } from 'zod';
import { BillingAccount, PLANS, User } from './account.js';
import { label, Timestamp } from './common.js';

/** Shortest and longest password the API accepts; a common password is refused too (`details.reason: "common"`). */
export const PASSWORD_LENGTH = { min: 8, max: 128 } as const;

/** Lifetime of a password-reset link, in minutes. */
export const RESET_LINK_MINUTES = 30;

/** A new password: 8 to 128 characters, not one of the commonly used passwords. */
export const Password = z
  .string()
  .min(PASSWORD_LENGTH.min)
  .max(PASSWORD_LENGTH.max)
  .meta({ description: '8 to 128 characters, and not one of the commonly used passwords' });

/** An e-mail address as typed; the server compares addresses case-insensitively. */
export const Email = z.email({ pattern: z.regexes.html5Email }).max(254).meta({ example: 'ada@example.com' });

/** Request to create an account. */
export const SignUpRequest = z
  .strictObject({
    email: Email,
    password: Password,
    name: label(100).meta({ description: 'Full name', example: 'Ada Lovelace' }),
  })
  .meta({ id: 'SignUpRequest', description: 'A new account: e-mail, password and full name.' });

/** Request to sign in with a password. */
export const SignInRequest = z
  .strictObject({
    email: Email,
    // Any length: a wrong password of any length must answer like any other wrong password.
    password: z.string().min(1).max(1024),
  })
  .meta({ id: 'SignInRequest', description: 'E-mail and password.' });

/** Answer of sign-up and sign-in: the user and a session token to send as `Authorization: Bearer`. */
export const AuthSession = z
  .object({
    user: User,
    token: z
      .string()
      .meta({ description: 'Session token (a JWT); send it as `Authorization: Bearer <token>`' }),
    expiresAt: Timestamp.meta({ description: 'When the session ends unless it is ended earlier' }),
  })
  .meta({ id: 'AuthSession', description: 'A signed-in user and their session token.' });

/** Answer of `GET /api/auth/me`: the user and the session the token stands for. */
export const CurrentSession = z
  .object({
    user: User,
    session: z.object({ id: z.string(), expiresAt: Timestamp }),
    billing: BillingAccount.nullable().meta({
      description: "The user's billing account: plan, trial and status",
    }),
  })
  .meta({ id: 'CurrentSession', description: 'The signed-in user, the current session and their plan.' });

/** Answer of logout and logout-all. */
export const LoggedOut = z
  .object({
    sessionsEnded: z.number().int().min(0).meta({ description: 'How many sessions this call ended' }),
  })
  .meta({ id: 'LoggedOut', description: 'The sessions are ended: their tokens stop working at once.' });

/** Request to send a password-reset link. */
export const ForgotPasswordRequest = z
  .strictObject({ email: Email })
  .meta({ id: 'ForgotPasswordRequest', description: 'The e-mail address of the account.' });

/** Answer of forgot-password, the same whether or not the address belongs to an account. */
export const ResetRequested = z.object({ accepted: z.literal(true) }).meta({
  id: 'ResetRequested',
  description: `When the address belongs to an account, a single-use reset link valid for ${RESET_LINK_MINUTES} minutes is on its way.`,
});

/** Request to set a new password with the token from a reset e-mail. */
export const ResetPasswordRequest = z
  .strictObject({
    token: z.string().min(1).max(256).meta({ description: 'The token from the reset e-mail' }),
    password: Password,
  })
  .meta({ id: 'ResetPasswordRequest', description: 'The reset token and the new password.' });

/** Answer of reset-password. */
export const PasswordReset = z
  .object({
    reset: z.literal(true),
    sessionsEnded: z.number().int().min(0).meta({ description: 'Sessions of the user that were ended' }),
  })
  .meta({ id: 'PasswordReset', description: 'The password is changed and every older session is ended.' });

/** Request to choose a plan; `enterprise` is set by an operator only. */
export const PlanChoiceRequest = z
  .strictObject({ plan: z.enum(PLANS) })
  .meta({ id: 'PlanChoiceRequest', description: 'The plan to switch the billing account to.' });

/** Body of sign-up. */
export type SignUpRequest = z.input<typeof SignUpRequest>;
/** Body of sign-in. */
export type SignInRequest = z.input<typeof SignInRequest>;
/** Answer of sign-up and sign-in. */
export type AuthSession = z.infer<typeof AuthSession>;
/** Answer of `GET /api/auth/me`. */
export type CurrentSession = z.infer<typeof CurrentSession>;
/** Answer of logout and logout-all. */
export type LoggedOut = z.infer<typeof LoggedOut>;
/** Answer of forgot-password. */
export type ResetRequested = z.infer<typeof ResetRequested>;
/** Answer of reset-password. */
export type PasswordReset = z.infer<typeof PasswordReset>;
