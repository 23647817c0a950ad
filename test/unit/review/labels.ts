/**
 * Scoring reported comments against a hand-labelled expectation file
 * (`<thread>.expected.json` next to `<thread>.mbox`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ReviewComment } from '../../../src/core/model';

export interface Label {
  messageId: string;
  startsWith: string;
  kind: 'line' | 'commit-message' | 'general';
  patchMessageId: string | null;
  file: string | null;
  side: 'new' | 'old' | null;
  line: number | null;
}

export interface Expected {
  source: string;
  comments: Label[];
  exhaustive: string[];
}

export interface Score {
  labelled: number;
  /** Labels found among the reported comments with the right anchor. */
  right: number;
  /** Labels found at all (any anchor). */
  found: number;
  /** Reported comments in exhaustive messages, and how many of them match a label. */
  reportedInExhaustive: number;
  matchedInExhaustive: number;
  misses: string[];
  extras: string[];
}

export function loadExpected(file: string): Expected {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Expected;
}

/** `<name>.mbox` files of a folder that have an expectation file beside them. */
export function labelledThreads(dir: string): { mbox: string; expected: string; name: string }[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.expected.json'))
    .map((f) => {
      const name = f.slice(0, -'.expected.json'.length);
      return { name, mbox: path.join(dir, `${name}.mbox`), expected: path.join(dir, f) };
    })
    .filter((t) => fs.existsSync(t.mbox))
    .sort((a, b) => a.name.localeCompare(b.name));
}

const ws = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * One-to-one matching: a label takes a reported comment of the same message
 * whose whitespace-normalised body starts with the label's `startsWith`
 * (longer prefixes choose first, so "Agree" does not take "Agree, that…").
 */
export function score(expected: Expected, reported: ReviewComment[]): Score {
  const s: Score = { labelled: expected.comments.length, right: 0, found: 0, reportedInExhaustive: 0, matchedInExhaustive: 0, misses: [], extras: [] };
  const taken = new Set<ReviewComment>();
  const order = [...expected.comments].sort((a, b) => ws(b.startsWith).length - ws(a.startsWith).length);
  for (const label of order) {
    const prefix = ws(label.startsWith);
    const cands = reported.filter((c) => c.messageId === label.messageId && !taken.has(c) && ws(c.body).startsWith(prefix));
    const good = cands.find((c) => sameAnchor(c, label));
    const hit = good ?? cands[0];
    if (!hit) {
      s.misses.push(`missing ${label.messageId} "${label.startsWith}"`);
      continue;
    }
    taken.add(hit);
    s.found++;
    if (good) s.right++;
    else s.misses.push(`wrong anchor ${label.messageId} "${label.startsWith}": got ${describe(hit)}, want ${describe(label)}`);
  }
  const exhaustive = new Set(expected.exhaustive);
  for (const c of reported) {
    if (!exhaustive.has(c.messageId)) continue;
    s.reportedInExhaustive++;
    if (taken.has(c)) s.matchedInExhaustive++;
    else s.extras.push(`extra ${c.messageId} "${ws(c.body).slice(0, 50)}"`);
  }
  return s;
}

function sameAnchor(c: ReviewComment, l: Label): boolean {
  return c.kind === l.kind && c.patchMessageId === l.patchMessageId && c.file === l.file && c.side === l.side && c.line === l.line;
}

function describe(a: Pick<Label, 'kind' | 'patchMessageId' | 'file' | 'side' | 'line'>): string {
  return `${a.kind} ${a.patchMessageId ?? '-'} ${a.file ?? '-'}:${a.side ?? '-'}:${a.line ?? '-'}`;
}

export function add(a: Score, b: Score): Score {
  return {
    labelled: a.labelled + b.labelled,
    right: a.right + b.right,
    found: a.found + b.found,
    reportedInExhaustive: a.reportedInExhaustive + b.reportedInExhaustive,
    matchedInExhaustive: a.matchedInExhaustive + b.matchedInExhaustive,
    misses: [...a.misses, ...b.misses],
    extras: [...a.extras, ...b.extras],
  };
}

export function empty(): Score {
  return { labelled: 0, right: 0, found: 0, reportedInExhaustive: 0, matchedInExhaustive: 0, misses: [], extras: [] };
}

export function accuracy(s: Score): number {
  return s.labelled ? s.right / s.labelled : 1;
}

export function precision(s: Score): number {
  return s.reportedInExhaustive ? s.matchedInExhaustive / s.reportedInExhaustive : 1;
}
