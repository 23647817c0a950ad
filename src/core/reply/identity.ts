/**
 * Who the user is when they reply: an explicit override (a setting or
 * `--from`), else git's `sendemail.from`, else `user.name` / `user.email` —
 * the same order `git send-email` uses.
 */
import { execFile } from 'node:child_process';
import { Address } from '../model';
import { parseAddress } from './address';
import { ReplyError } from './errors';

export type GitConfigReader = (key: string) => Promise<string | null>;

/** Reads one git config value in `cwd` (null when unset), with execFile and an argument array. */
export function gitConfigReader(cwd?: string, env: NodeJS.ProcessEnv = process.env): GitConfigReader {
  return (key) =>
    new Promise((resolve) => {
      execFile('git', ['config', '--get', key], { cwd, env, encoding: 'utf8' }, (err, stdout) => {
        resolve(err ? null : stdout.trim() || null);
      });
    });
}

const NO_IDENTITY =
  'No sender identity is configured: set git sendemail.from, or user.name and user.email, or give it (--from, or the kernelReview.reply.from setting).';

/** Parses `Name <addr>` given by the user; throws a one-sentence error when it is unusable. */
export function parseIdentity(text: string, where: string): Address {
  const a = parseAddress(text);
  if (!a || !/^[^\s@]+@[^\s@]+$/.test(a.address)) {
    throw new ReplyError('no-identity', `The sender identity in ${where} ("${text}") is not of the form "Name <address>".`);
  }
  return a;
}

export async function resolveIdentity(opts: { override?: string | null; readConfig?: GitConfigReader; cwd?: string }): Promise<Address> {
  if (opts.override && opts.override.trim()) return parseIdentity(opts.override.trim(), 'the given sender');
  const read = opts.readConfig ?? gitConfigReader(opts.cwd);
  const from = await read('sendemail.from');
  if (from) return parseIdentity(from, 'git config sendemail.from');
  const [name, email] = await Promise.all([read('user.name'), read('user.email')]);
  if (!email) throw new ReplyError('no-identity', NO_IDENTITY);
  return parseIdentity(name ? `${name} <${email}>` : email, 'git config user.name/user.email');
}
