import { PASSWORD_LENGTH } from '@dataplatform/contract';
import { ApiError } from '../http/errors.js';
import { lazy } from '../lazy.js';

// The common-password list of zxcvbn (about 18 000 entries long enough to pass the length rule), lower-cased;
// loaded with its dictionaries by the first new password (a sign-up or a reset), not at start.
const commonPasswords = lazy(async () => {
  const { dictionary } = await import('@zxcvbn-ts/language-common');
  return new Set(
    dictionary['passwords-common']
      .filter((password) => password.length >= PASSWORD_LENGTH.min)
      .map((password) => password.toLowerCase()),
  );
});

/** True when the password is one of the commonly used ones (compared without case). */
export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.toLowerCase());
}

/** Refuses a new password that is common (the contract's schema already checked its length). */
export async function checkNewPassword(password: string): Promise<void> {
  if (await isCommonPassword(password)) {
    throw new ApiError(
      'validation_error',
      'Invalid body field "password": this password is too common; choose another',
      { in: 'body', field: 'password', reason: 'common' },
    );
  }
}
