import { AUTH_MESSAGES } from '@inkwell/core';
import { badRequest } from './errors';

/**
 * The ~49,000 most common passwords of @zxcvbn-ts/language-common (a maintained list). Loaded
 * on the first password that is set, once per process, so start-up and other requests never pay
 * for it; the browser never gets it (the server's message is shown instead).
 */
let commonPasswords: Promise<Set<string>> | undefined;

function loadCommonPasswords(): Promise<Set<string>> {
  commonPasswords ??= import('@zxcvbn-ts/language-common')
    .then(({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())))
    .catch((err) => {
      commonPasswords = undefined;
      throw err;
    });
  return commonPasswords;
}

/** Case does not make a common password safer: 'Password1' is refused like 'password1'. */
export async function isCommonPassword(password: string): Promise<boolean> {
  return (await loadCommonPasswords()).has(password.toLowerCase());
}

/** Throws 400 with the message the web shows when a new password is one of the most common. */
export async function refuseCommonPassword(password: string): Promise<void> {
  if (await isCommonPassword(password)) throw badRequest(AUTH_MESSAGES.commonPassword);
}
