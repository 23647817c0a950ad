/**
 * Errors of the reply stage. Each carries one sentence the user can act on;
 * callers show `message` as is and keep the draft.
 */
export type ReplyErrorCode =
  | 'no-identity'
  | 'bad-draft'
  | 'bad-comment'
  | 'send-email-missing'
  | 'send-email-failed'
  | 'smtp-connect'
  | 'smtp-refused'
  | 'smtp-auth'
  | 'no-recipients';

export class ReplyError extends Error {
  override name = 'ReplyError';
  constructor(
    readonly code: ReplyErrorCode,
    message: string,
  ) {
    super(message);
  }
}
