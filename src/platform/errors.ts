import { InputError } from '../core/model';

/** Thrown when the user cancelled: no message is shown. */
export class CancelledError extends Error {
  constructor() {
    super('Cancelled.');
    this.name = 'CancelledError';
  }
}

/** A problem the user can fix, worded for them (the message is shown as is). */
export class UserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserError';
  }
}

/**
 * One sentence for the user: the first line of the error's message, never a stack trace,
 * never "undefined". `what` names the action that failed, for errors without a usable message.
 */
export function describeError(err: unknown, what: string): string {
  const raw = err instanceof Error ? err.message : typeof err === 'string' ? err : '';
  let line = (raw.split('\n').find((l) => l.trim() !== '') ?? '').trim();
  line = line.replace(/\s+at\s+\S+\s+\(.*\)$/, '');
  if (!line || line === 'undefined' || line === 'null') return `${what} failed; see the log for details.`;
  if (line.length > 300) line = `${line.slice(0, 297)}…`;
  if (err instanceof InputError || err instanceof UserError) return ensurePeriod(line);
  return ensurePeriod(`${what} failed: ${line}`);
}

function ensurePeriod(s: string): string {
  return /[.!?…]$/.test(s) ? s : `${s}.`;
}

export function isCancellation(err: unknown): boolean {
  return err instanceof CancelledError || (err instanceof Error && err.name === 'Canceled');
}
