/**
 * `[GIT PULL]` requests: the repository URL and ref that follow
 * "are available in the git repository at:" (git request-pull's wording).
 */
import type { MailMessage, PullRequest } from '../model';

const INTRO = /are available in the git repository at:?/i;
const URL = /^(?:git|ssh|git\+ssh|https?):\/\/\S+$/;

/** Finds the pull URL and ref of a request-pull mail, or null when there is none. */
export function extractPull(msg: MailMessage): PullRequest | null {
  const lines = msg.body.replace(/\r\n/g, '\n').split('\n');
  const at = lines.findIndex((l) => INTRO.test(l));
  if (at < 0) return null;
  let i = at + 1;
  while (i < lines.length && lines[i].trim() === '') i++;
  if (i >= lines.length) return null;
  const words = lines[i].trim().split(/\s+/);
  if (!URL.test(words[0])) return null;
  let ref: string | null = words[1] ?? null;
  // A mailer may have wrapped the ref onto the next line.
  const next = (lines[i + 1] ?? '').trim();
  if (ref === null && next !== '' && /^\S+$/.test(next) && !next.endsWith(':')) ref = next;
  return { messageId: msg.messageId, url: words[0], ref };
}
