import type { MailMessage, ReviewComment } from '../../core/model';
import type { StoredThread } from '../threads/model';

/** Escapes every character that means something in HTML. Mail text only ever reaches the page through this. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

const QUOTE = /^((?:> ?|>)+)/;

function depthOf(line: string): { depth: number; rest: string } {
  const m = QUOTE.exec(line);
  if (!m) return { depth: 0, rest: line };
  return { depth: (m[1].match(/>/g) ?? []).length, rest: line.slice(m[1].length) };
}

function lineClass(rest: string): string {
  if (/^diff --git |^index [0-9a-f]+\.\.|^(---|\+\+\+) /.test(rest)) return 'd-meta';
  if (rest.startsWith('@@')) return 'd-hunk';
  if (rest.startsWith('+')) return 'd-add';
  if (rest.startsWith('-') && rest !== '-- ') return 'd-del';
  return '';
}

function renderLine(line: string): string {
  const { rest } = depthOf(line);
  const cls = lineClass(rest);
  return cls ? `<span class="${cls}">${escapeHtml(line)}</span>` : escapeHtml(line);
}

/** Body with runs of quoted lines grouped by depth; long quotes start folded. */
export function renderBody(body: string): string {
  const lines = body.split('\n');
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const d = depthOf(lines[i]).depth;
    let j = i;
    while (j < lines.length && depthOf(lines[j]).depth === d) j++;
    const run = lines.slice(i, j).map(renderLine).join('\n');
    if (d === 0) out.push(`<pre class="own">${run}</pre>`);
    else {
      const n = j - i;
      out.push(`<details class="q q${Math.min(d, 4)}"${n <= 8 ? ' open' : ''}><summary>${n} quoted line${n === 1 ? '' : 's'} (level ${d})</summary><pre>${run}</pre></details>`);
    }
    i = j;
  }
  return out.join('\n');
}

function who(m: MailMessage): string {
  return m.from.name ? `${m.from.name} <${m.from.address}>` : m.from.address;
}

/** The whole page body: messages in thread order, indented by reply depth, with their comments' links. */
export function renderThread(t: StoredThread): string {
  const depth = new Map<string, number>();
  const depthOfMsg = (id: string): number => {
    const cached = depth.get(id);
    if (cached !== undefined) return cached;
    const p = t.thread.parentOf[id];
    const d = p && p !== id && t.thread.messages.some((m) => m.messageId === p) ? Math.min(depthOfMsg(p) + 1, 8) : 0;
    depth.set(id, d);
    return d;
  };
  const byMsg = new Map<string, ReviewComment[]>();
  for (const c of t.comments) byMsg.set(c.messageId, [...(byMsg.get(c.messageId) ?? []), c]);
  const parts = t.thread.messages.map((m) => {
    const comments = (byMsg.get(m.messageId) ?? []).map((c) => {
      const where = c.kind === 'line' ? `${c.file}:${c.line}${c.side === 'old' ? ' (old)' : ''}` : c.kind === 'commit-message' ? 'commit message' : 'general';
      const first = c.body.split('\n').find((l) => l.trim()) ?? '';
      return `<li><a href="#" data-comment="${escapeHtml(c.id)}">${escapeHtml(where)}</a> ${escapeHtml(first.slice(0, 100))}</li>`;
    });
    return `<article class="msg" style="margin-left:${depthOfMsg(m.messageId) * 1.2}em" id="${escapeHtml(m.messageId)}">
<header><b>${escapeHtml(who(m))}</b> <span class="date">${m.date ? escapeHtml(new Date(m.date).toUTCString()) : ''}</span><br><span class="subject">${escapeHtml(m.subject)}</span></header>
${comments.length ? `<ul class="comments">${comments.join('')}</ul>` : ''}
${renderBody(m.body)}
</article>`;
  });
  return `<h1>${escapeHtml(t.thread.subject)}</h1>\n${parts.join('\n')}`;
}
