/**
 * Answering one review comment: quote the reviewer's comment and the few
 * quoted lines above it (what they were commenting on), so the answer lands
 * in the same conversation, at the same anchor, when the thread is read.
 */
import { MailMessage } from '../model';
import { attribution, CONTEXT_LINES, SNIP } from './compose';

const quote = (line: string): string => (line === '' ? '>' : `> ${line}`);
const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Index range [start, end] of the comment's lines in the reviewer's body, or null. */
function findComment(lines: string[], comment: string): [number, number] | null {
  const want = comment.split('\n').map(squash).filter((l) => l);
  if (!want.length) return null;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith('>') || squash(lines[i]) !== want[0]) continue;
    let j = i;
    let k = 1;
    while (k < want.length && j + 1 < lines.length) {
      j++;
      const l = squash(lines[j]);
      if (!l) continue;
      if (lines[j].startsWith('>') || l !== want[k]) break;
      k++;
    }
    if (k === want.length) return [i, j];
  }
  return null;
}

/**
 * The start of an answer: attribution, up to five quoted lines above the
 * comment (with the hunk header and `[...]` when lines were cut), the
 * comment itself; the user writes below. Null when the comment is not found.
 */
export function quoteForAnswer(reviewerMail: MailMessage, comment: string): string | null {
  const lines = reviewerMail.body.replace(/\r\n?/g, '\n').split('\n');
  const at = findComment(lines, comment);
  if (!at) return null;
  let top = at[0];
  while (top > 0 && lines[top - 1].trim() === '') top--;
  let first = top;
  while (first > 0 && lines[first - 1].startsWith('>') && top - first < CONTEXT_LINES) first--;
  const out = [attribution(reviewerMail)];
  const isHunk = (l: string): boolean => /^>[\s>]*@@ /.test(l);
  if (!lines.slice(first, top).some(isHunk)) {
    // The nearest hunk header above, even past the reviewer's earlier comments: it says where the lines are.
    let h = first - 1;
    while (h >= 0 && !isHunk(lines[h])) h--;
    if (h >= 0) out.push(quote(lines[h]));
    if ((h >= 0 && h < first - 1) || (h < 0 && first > 0 && lines[first - 1].startsWith('>'))) out.push(quote(SNIP));
  }
  for (let i = first; i <= at[1]; i++) out.push(quote(lines[i]));
  return `${out.join('\n')}\n\n`;
}
