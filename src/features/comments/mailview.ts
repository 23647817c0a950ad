import type { MailMessage } from '../../core/model';

/** A mail rendered as text, and where its diff lines and commit message are. */
export interface MailView {
  text: string;
  /** `${file}\0${side}\0${line}` -> 0-based line in `text`. */
  diffLines: Map<string, number>;
  /** 0-based line after the commit message (the `---` line, or the first diff line). */
  commitMessageEnd: number;
}

export const diffKey = (file: string, side: 'old' | 'new', line: number) => `${file}\0${side}\0${line}`;

function addr(a: { name: string; address: string }): string {
  return a.name ? `${a.name} <${a.address}>` : a.address;
}

/** Renders the headers a reviewer reads, then the body (and patch attachments). */
export function renderMail(m: MailMessage): MailView {
  const head = [`From: ${addr(m.from)}`];
  if (m.date) head.push(`Date: ${new Date(m.date).toUTCString()}`);
  head.push(`Subject: ${m.subject}`, `Message-ID: ${m.messageId}`);
  if (m.to.length) head.push(`To: ${m.to.map(addr).join(', ')}`);
  if (m.cc.length) head.push(`Cc: ${m.cc.map(addr).join(', ')}`);
  const lines = [...head, '', ...m.body.split('\n')];
  for (const a of m.patchAttachments) lines.push('', ...a.split('\n'));
  const bodyStart = head.length + 1;
  return { text: lines.join('\n'), ...indexDiff(lines, bodyStart) };
}

/**
 * Walks the unified diff in `lines`, recording where each old/new file line is shown.
 * States: prose -> (diff header) -> hunk (counting down the hunk's old/new lengths) -> header|prose.
 */
function indexDiff(lines: string[], from: number): Omit<MailView, 'text'> {
  const diffLines = new Map<string, number>();
  let commitMessageEnd = -1;
  let oldPath = '';
  let newPath = '';
  let oldNo = 0;
  let newNo = 0;
  let oldLeft = 0;
  let newLeft = 0;
  for (let i = from; i < lines.length; i++) {
    const l = lines[i];
    if (oldLeft > 0 || newLeft > 0) {
      const c = l[0] ?? ' ';
      if (c === ' ' || l === '') {
        diffLines.set(diffKey(newPath, 'new', newNo), i);
        diffLines.set(diffKey(oldPath, 'old', oldNo), i);
        oldNo++, newNo++, oldLeft--, newLeft--;
        continue;
      }
      if (c === '+') {
        diffLines.set(diffKey(newPath, 'new', newNo++), i);
        newLeft--;
        continue;
      }
      if (c === '-') {
        diffLines.set(diffKey(oldPath, 'old', oldNo++), i);
        oldLeft--;
        continue;
      }
      if (c === '\\') continue;
      oldLeft = newLeft = 0;
    }
    if (commitMessageEnd < 0 && (l === '---' || l.startsWith('diff --git ') || l.startsWith('Index: '))) commitMessageEnd = i;
    let m: RegExpExecArray | null;
    if ((m = /^diff --git a\/(.+) b\/(.+)$/.exec(l))) [oldPath, newPath] = [m[1], m[2]];
    else if ((m = /^--- (?:a\/)?(.+?)\s*$/.exec(l)) && m[1] !== '/dev/null') oldPath = m[1];
    else if ((m = /^\+\+\+ (?:b\/)?(.+?)\s*$/.exec(l)) && m[1] !== '/dev/null') newPath = m[1];
    else if ((m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(l))) {
      oldNo = Number(m[1]);
      oldLeft = m[2] === undefined ? 1 : Number(m[2]);
      newNo = Number(m[3]);
      newLeft = m[4] === undefined ? 1 : Number(m[4]);
    }
  }
  return { diffLines, commitMessageEnd: commitMessageEnd < 0 ? lines.length - 1 : Math.max(from, commitMessageEnd - 1) };
}
