import { PASSWORD_LENGTH } from '@dataplatform/contract';
import { dictionary } from '@zxcvbn-ts/language-common';
import { ApiError } from '../http/errors.js';

// The common-password list of zxcvbn (about 18 000 entries long enough to pass the length rule), lower-cased.
let common: Set<string> | undefined;

function commonPasswords(): Set<string> {
  common ??= new Set(
    dictionary['passwords-common']
      .filter((password) => password.length >= PASSWORD_LENGTH.min)
      .map((password) => password.toLowerCase()),
  );
  return common;
}

/** True when the password is one of the commonly used ones (compared without case). */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

/** Refuses a new password that is common (the contract's schema already checked its length). */
export function checkNewPassword(password: string): void {
  if (isCommonPassword(password)) {
    throw new ApiError(
      'validation_error',
      'Invalid body field "password": this password is too common; choose another',
      { in: 'body', field: 'password', reason: 'common' },
    );
  }
}
