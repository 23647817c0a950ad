/**
 * The body of a reply, as a careful mutt user would trim it: general remarks
 * first, then the attribution line, then only what the comments are about —
 * the file's diff header and the hunk header, at most five lines above each
 * comment (`[...]` where lines were cut) — with each comment unquoted right
 * under its line, and nothing quoted after the last comment. Quoted lines are
 * the author's bytes, never re-wrapped; the user's text is wrapped at 72.
 */
import { InputError, MailMessage, Patch } from '../model';
import { DiffIndex, findFile, findLine, indexDiff } from './diffindex';
import { formatRfc5322Date } from './headers';
import { wrapText } from './wrap';

export type DraftComment =
  | { kind: 'line'; file: string; side: 'new' | 'old'; line: number; body: string }
  | { kind: 'commit-message'; line?: number; body: string }
  | { kind: 'general'; body: string };

/** Where a comment goes, without its text. */
export type CommentAnchor = DraftComment extends infer T ? (T extends DraftComment ? Omit<T, 'body'> : never) : never;

export interface ComposeInput {
  /** The mail being answered. */
  original: MailMessage;
  /** Its patch, when it carries one. */
  patch: Patch | null;
  comments: DraftComment[];
  /** Trailer lines to end the mail with. */
  trailers?: string[];
  /** Where the comments came from, for error messages. */
  source?: string;
}

/** Lines of quoted context kept above each comment. */
export const CONTEXT_LINES = 5;
export const SNIP = '[...]';

const quote = (line: string): string => (line === '' ? '>' : `> ${line}`);

/** `On Tue, 13 Jan 2026 20:05:05 +0000, Jane Doe wrote:` (the date in UTC; none when unknown). */
export function attribution(m: MailMessage): string {
  const who = m.from.name || m.from.address || 'someone';
  return m.date ? `On ${formatRfc5322Date(m.date, 0)}, ${who} wrote:` : `${who} wrote:`;
}

interface Anchored {
  /** 0 = commit message, 1 = diff. */
  part: 0 | 1;
  /** Line index within that part. */
  at: number;
  bodies: string[];
}

const TRAILER_LINE = /^[A-Za-z0-9-]+: \S/;

/**
 * Commit message lines and the default anchor: the last line of prose above
 * the trailers that does not also occur in the diff (commit messages quote
 * compiler output and code; such a line would be read as a diff quote).
 */
function commitLines(patch: Patch, inDiff: Set<string>): { lines: string[]; lastProse: number } {
  const lines = patch.commitBody.replace(/\r\n?/g, '\n').replace(/\s+$/, '').split('\n');
  let end = lines.length - 1;
  let i = end;
  while (i >= 0 && lines[i] !== '' && TRAILER_LINE.test(lines[i])) i--;
  if (i < end && (i < 0 || lines[i] === '')) end = i;
  let at = end;
  while (at >= 0 && (!/[A-Za-z]{3}/.test(lines[at]) || inDiff.has(lines[at].trim()))) at--;
  if (at < 0) at = end;
  while (at >= 0 && lines[at].trim() === '') at--;
  return { lines, lastProse: Math.max(at, 0) };
}

/** Trimmed text of every diff line, to keep commit-message quotes from looking like diff quotes. */
function diffTexts(diff: DiffIndex | null): Set<string> {
  const out = new Set<string>();
  for (const l of diff?.lines ?? []) if (l.kind === 'add' || l.kind === 'del' || l.kind === 'context') out.add(l.raw.slice(1).trim());
  out.delete('');
  return out;
}

function resolve(input: ComposeInput, diff: DiffIndex | null): { general: string[]; anchored: Anchored[] } {
  const src = input.source ?? 'comments';
  const general: string[] = [];
  const anchored: Anchored[] = [];
  const commit = input.patch ? commitLines(input.patch, diffTexts(diff)) : null;
  input.comments.forEach((c, n) => {
    const where = `comment ${n + 1}`;
    const body = c.body.replace(/\r\n?/g, '\n').replace(/^\n+|\s+$/g, '');
    if (!body) throw new InputError(src, `${where} has an empty body`);
    if (c.kind === 'general') {
      general.push(body);
      return;
    }
    if (!input.patch || !commit || !diff) {
      throw new InputError(src, `${where} is about a patch line, but the answered mail ${input.original.messageId} carries no patch`);
    }
    let part: 0 | 1;
    let at: number;
    if (c.kind === 'commit-message') {
      part = 0;
      if (c.line === undefined) at = commit.lastProse;
      else if (Number.isInteger(c.line) && c.line >= 1 && c.line <= commit.lines.length) at = c.line - 1;
      else throw new InputError(src, `${where} points at commit-message line ${c.line}, outside the commit message`);
    } else {
      const f = findFile(diff, c.file);
      if (f === null) throw new InputError(src, `${where} names ${c.file}, which the patch does not touch`);
      const l = findLine(diff, f, c.side, c.line);
      if (l === null) throw new InputError(src, `${where} points at ${c.file} ${c.side} line ${c.line}, which is not in the patch`);
      part = 1;
      at = l;
    }
    const same = anchored.find((a) => a.part === part && a.at === at);
    if (same) same.bodies.push(body);
    else anchored.push({ part, at, bodies: [body] });
  });
  anchored.sort((a, b) => a.part - b.part || a.at - b.at);
  return { general, anchored };
}

/** Quoted lines for a comment on diff line `at`, continuing after what was already quoted. */
function quoteDiff(diff: DiffIndex, at: number, prev: number | null): string[] {
  const out: string[] = [];
  const target = diff.lines[at];
  const prevLine = prev === null ? null : diff.lines[prev];
  const sameFile = prevLine !== null && prevLine.file === target.file;
  const sameHunk = sameFile && prevLine.hunk === target.hunk;
  if (!sameFile) {
    const file = diff.files[target.file];
    for (let i = file.start; i < diff.lines.length && diff.lines[i].kind === 'file-header' && diff.lines[i].file === target.file; i++) {
      out.push(quote(diff.lines[i].raw));
    }
  }
  const hunkHeader = diff.hunks[target.hunk].header;
  if (!sameHunk) out.push(quote(diff.lines[hunkHeader].raw));
  const first = sameHunk && prev !== null ? prev + 1 : hunkHeader + 1;
  let start = Math.max(first, at - CONTEXT_LINES);
  while (start < at && diff.lines[start].kind === 'meta') start++;
  if (start > first) out.push(quote(SNIP));
  for (let i = start; i <= at; i++) out.push(quote(diff.lines[i].raw));
  if (diff.lines[at + 1]?.kind === 'meta') out.push(quote(diff.lines[at + 1].raw));
  return out;
}

function quoteCommit(lines: string[], at: number, prev: number | null, inDiff: Set<string>): string[] {
  const first = prev === null ? 0 : prev + 1;
  let start = Math.max(first, at - CONTEXT_LINES);
  // Context that also occurs in the diff would make the quote look like a diff quote: start below it.
  for (let i = at - 1; i >= start; i--) {
    if (inDiff.has(lines[i].trim())) {
      start = i + 1;
      break;
    }
  }
  while (start < at && lines[start].trim() === '') start++;
  const out: string[] = [];
  if (start > first && lines.slice(first, start).some((l) => l.trim() !== '')) out.push(quote(SNIP));
  for (let i = start; i <= at; i++) out.push(quote(lines[i]));
  return out;
}

/** The whole body quoted (mutt's starting point when there is nothing to anchor), signature left out. */
function quoteAll(m: MailMessage): string {
  const lines = m.body.replace(/\r\n?/g, '\n').replace(/\s+$/, '').split('\n');
  const sig = lines.indexOf('-- ');
  const kept = (sig >= 0 ? lines.slice(0, sig) : lines).join('\n').replace(/\s+$/, '').split('\n');
  return [attribution(m), ...kept.map(quote)].join('\n');
}

/** The reply body (LF line ends, ending with one newline). */
export function composeBody(input: ComposeInput): string {
  if (input.comments.length === 0 && !input.trailers?.length) return `${quoteAll(input.original)}\n\n`;
  const diff = input.patch ? indexDiff(input.patch.diffText) : null;
  const { general, anchored } = resolve(input, diff);
  const blocks: string[] = [];
  for (const g of general) blocks.push(wrapText(g));
  if (anchored.length) {
    const lines: string[] = [attribution(input.original)];
    let prevCommit: number | null = null;
    let prevDiff: number | null = null;
    const inDiff = diffTexts(diff);
    const commit = input.patch ? commitLines(input.patch, inDiff).lines : [];
    for (const a of anchored) {
      if (a.part === 0) {
        lines.push(...quoteCommit(commit, a.at, prevCommit, inDiff));
        prevCommit = a.at;
      } else if (diff) {
        lines.push(...quoteDiff(diff, a.at, prevDiff));
        prevDiff = a.at;
      }
      for (const b of a.bodies) lines.push('', wrapText(b));
      lines.push('');
    }
    blocks.push(lines.join('\n').replace(/\n+$/, ''));
  }
  if (input.trailers?.length) blocks.push(input.trailers.join('\n'));
  return `${blocks.join('\n\n')}\n`;
}
