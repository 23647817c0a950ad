/**
 * Splits a patch mail into author, commit message, notes, diffstat and diff,
 * following `git mailinfo -u --scissors`: in-body `From:`/`Subject:`/`Date:`
 * override the mail headers, a scissors line drops what is above it, and the
 * commit message ends at the first `---` line or diff header.
 */
import { parseDateZone } from '../mail/headers';
import type { Address, MailMessage, Patch } from '../model';
import { parseDiff } from './diff';
import { parseSubject } from './subject';
import { parseTrailers } from './trailers';

/** git's patchbreak(): `diff -`, `Index: `, `--- file`, or a `---` separator. */
function isPatchBreak(line: string): boolean {
  if (line.startsWith('diff -') || line.startsWith('Index: ')) return true;
  if (!line.startsWith('---')) return false;
  if (line[3] === ' ' && line.length > 4 && !/\s/.test(line[4])) return true;
  return /^---\s*$/.test(line);
}

/** git's is_scissors_line(): a perforation of dashes with `>8`/`8<`/`>%`/`%<` marks. */
export function isScissors(line: string): boolean {
  let scissors = 0, gap = 0, perforation = 0, inPerf = false;
  let first = -1, last = -1;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (/\s/.test(c)) {
      if (inPerf) { perforation++; gap++; }
      continue;
    }
    last = i;
    if (first < 0) first = i;
    if (c === '-') { inPerf = true; perforation++; continue; }
    const two = line.slice(i, i + 2);
    if (two === '>8' || two === '8<' || two === '>%' || two === '%<') {
      inPerf = true; perforation += 2; scissors += 2; i++; last = i;
      continue;
    }
    inPerf = false;
  }
  if (!scissors) return false;
  const visible = last - first + 1;
  return visible >= 8 && visible < perforation * 3 && gap * 2 < perforation;
}

/** Parses an in-body `From:` value: `Name <addr>`, `addr (Name)` or a bare address. */
export function parseInBodyFrom(value: string): Address | null {
  const v = value.trim();
  let m = /^(.*?)\s*<([^<>\s]+@[^<>\s]+)>/.exec(v);
  if (m) return { name: m[1].replace(/^"(.*)"$/, '$1').trim(), address: m[2] };
  m = /^([^\s<>()]+@[^\s<>()]+)(?:\s*\((.*)\))?$/.exec(v);
  if (m) return { name: (m[2] ?? '').trim(), address: m[1] };
  return null;
}

interface Header { from?: string; subject?: string; date?: string }

/** Consumes in-body headers at the top of `lines`; returns them and the index after them. */
function readInBodyHeaders(lines: string[], start: number): { hdr: Header; next: number } {
  const hdr: Header = {};
  let i = start;
  let seen = false;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === '') {
      i++;
      if (seen) break;
      continue;
    }
    const m = /^(from|subject|date):\s*(.*)$/i.exec(line);
    if (m) {
      let value = m[2];
      while (i + 1 < lines.length && /^[ \t]/.test(lines[i + 1])) value += ' ' + lines[++i].trim();
      hdr[m[1].toLowerCase() as keyof Header] = value.replace(/\s+/g, ' ').trim();
    } else if (/^\[PATCH\]\s/.test(line)) {
      hdr.subject = line;
    } else break;
    seen = true;
    i++;
  }
  return { hdr, next: i };
}

const DIFFSTAT_LINE =
  /^ +(?:\S.* \| +(?:\d+ ?[+-]*|Bin .*)|\d+ files? changed.*|(?:create|delete) mode \d+ .*|rename .* \(\d+%\)|copy .* \(\d+%\)|mode change \d+ => \d+ .*)$/;

const INTERDIFF = /^Interdiff(?: against v\d+)?:$/;

/** Index of the first line that starts the diff proper, from `from` on. */
function findDiffStart(lines: string[], from: number): number {
  for (let i = from; i < lines.length; i++) {
    const l = lines[i];
    // `git format-patch --interdiff` puts a diff against the previous version in the
    // notes, followed by the diffstat of the real patch: skip to that diffstat.
    if (INTERDIFF.test(l)) {
      let j = i + 1;
      while (j < lines.length && !DIFFSTAT_LINE.test(lines[j])) j++;
      i = j;
      continue;
    }
    if (l.startsWith('diff -') || l.startsWith('Index: ')) return i;
    if (l.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ')) return i;
  }
  return -1;
}

const B4_INFO = /^(base-commit|change-id|prerequisite-[a-z-]+):\s*(\S.*)$/;

/**
 * Cuts the diff at the signature / b4 info / list footer that follows its last
 * hunk, and drops trailing blank lines unless a hunk still needs them (mailers
 * strip the space of blank context lines; git apply accepts them empty).
 */
function trimDiffTail(lines: string[]): { diff: string[]; tail: string[] } {
  let oldLeft = 0, newLeft = 0;
  let keep = 0;
  let cut = lines.length;
  let inBinary = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    const h = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(l);
    if (h) {
      oldLeft = h[1] === undefined ? 1 : Number(h[1]);
      newLeft = h[2] === undefined ? 1 : Number(h[2]);
      keep = i + 1;
      continue;
    }
    if (oldLeft > 0 || newLeft > 0) {
      const c = l[0];
      let counted = true;
      if (c === ' ' || l === '') { oldLeft--; newLeft--; }
      else if (c === '-') oldLeft--;
      else if (c === '+') newLeft--;
      else if (c !== '\\') counted = false;
      if (counted) {
        keep = i + 1;
        continue;
      }
      oldLeft = newLeft = 0;
    }
    // Signature, b4's base-commit block, or a mailing-list footer (`____…`).
    if (l === '-- ' || l === '--' || /^---\s*$/.test(l) || B4_INFO.test(l) || /^_{10,}\s*$/.test(l)) {
      cut = i;
      break;
    }
    if (l.startsWith('diff ')) inBinary = false;
    if (l === 'GIT binary patch') inBinary = true;
    // A binary patch's data blocks each end with an empty line git apply requires.
    if (l.trim() !== '' || (inBinary && i > 0 && lines[i - 1].trim() !== '')) keep = i + 1;
  }
  return { diff: lines.slice(0, keep), tail: lines.slice(cut) };
}

function trimBlankEnds(lines: string[]): string[] {
  let a = 0, b = lines.length;
  while (a < b && lines[a].trim() === '') a++;
  while (b > a && lines[b - 1].trim() === '') b--;
  return lines.slice(a, b);
}

export interface ExtractOptions {
  /** Files without hunks, and no diff text: what a thread index needs, at a fraction of the cost. */
  light?: boolean;
}

/** Extracts the patch carried by a mail, or null when it carries no diff. */
export function extractPatch(msg: MailMessage, opts: ExtractOptions = {}): Patch | null {
  const body = msg.body.replace(/\r\n/g, '\n').split('\n');
  // Commit message region: up to the first patch break; scissors restart it.
  let breakAt = body.findIndex(isPatchBreak);
  if (breakAt < 0) breakAt = body.length;
  if (breakAt > 0 && INTERDIFF.test(body[breakAt - 1])) breakAt--;
  let msgStart = 0;
  for (let i = 0; i < breakAt; i++) if (isScissors(body[i])) msgStart = i + 1;
  const { hdr, next } = readInBodyHeaders(body, msgStart);
  const message = trimBlankEnds(body.slice(next, breakAt));

  const after = body.slice(breakAt);
  const attached = msg.patchAttachments.flatMap((a) => a.replace(/\r\n/g, '\n').split('\n'));
  const inlineStart = findDiffStart(after, 0);
  let notesLines: string[];
  let diffLines: string[];
  if (inlineStart >= 0) {
    notesLines = after.slice(0, inlineStart);
    diffLines = after.slice(inlineStart);
  } else {
    const attStart = findDiffStart(attached, 0);
    if (attStart < 0) return null;
    notesLines = after;
    diffLines = attached.slice(attStart);
  }
  if (notesLines.length && /^---\s*$/.test(notesLines[0])) notesLines = notesLines.slice(1);
  const { diff, tail } = trimDiffTail(diffLines);
  const diffBody = diff;
  const files = parseDiff(diffBody.join('\n'), { hunks: !opts.light });
  if (files.length === 0) return null;

  const stat = notesLines.filter((l) => DIFFSTAT_LINE.test(l));
  const notes = trimBlankEnds(notesLines.filter((l) => !DIFFSTAT_LINE.test(l)));
  const info = new Map<string, string[]>();
  for (const l of [...notes, ...tail]) {
    const m = B4_INFO.exec(l);
    if (m) info.set(m[1], [...(info.get(m[1]) ?? []), m[2].trim()]);
  }

  const subject = parseSubject(msg.subject);
  const title = hdr.subject !== undefined ? parseSubject(hdr.subject).title : subject.title;
  const author = (hdr.from !== undefined ? parseInBodyFrom(hdr.from) : null) ?? msg.from;
  const inBodyDate = hdr.date !== undefined ? new Date(hdr.date) : null;
  const commitBody = message.join('\n');
  return {
    messageId: msg.messageId,
    subject,
    author,
    date: inBodyDate && !Number.isNaN(inBodyDate.getTime()) ? inBodyDate : msg.date,
    dateZone: inBodyDate && !Number.isNaN(inBodyDate.getTime()) ? parseDateZone(hdr.date) : msg.dateZone,
    commitTitle: title,
    commitBody,
    // b4 separates its changelog from the diffstat with a second `---`; that line is not a note.
    notes: notes.filter((l) => !B4_INFO.test(l)).join('\n').replace(/(?:\n|^)---\s*$/, '').trim(),
    diffstat: stat.join('\n'),
    diffText: diffBody.join('\n') + '\n',
    files,
    trailers: parseTrailers(commitBody, msg.messageId),
    baseCommit: info.get('base-commit')?.[0] ?? null,
    changeId: info.get('change-id')?.[0] ?? null,
    prerequisites: [...info.entries()]
      .filter(([k]) => k.startsWith('prerequisite-'))
      .flatMap(([k, vs]) => vs.map((v) => `${k}: ${v}`)),
  };
}
