/**
 * The JSON shape of `kernel-review threads --json` (a stable contract that
 * scripts and the editor rely on).
 */
import { formatAddress } from './mail/headers';
import { Patch, Series, Thread, Trailer } from './model';

export interface TrailerJson {
  name: string;
  value: string;
  messageId: string;
}

export interface PatchJson {
  index: number;
  messageId: string;
  subject: string;
  author: string;
  date: string | null;
  files: string[];
  trailers: TrailerJson[];
}

export interface SeriesJson {
  version: number;
  total: number;
  coverMessageId: string | null;
  changeId: string | null;
  baseCommit: string | null;
  patches: PatchJson[];
}

export interface ThreadJson {
  rootMessageId: string;
  subject: string;
  messages: number;
  series: SeriesJson[];
}

const trailerJson = (t: Trailer): TrailerJson => ({ name: t.name, value: t.value, messageId: t.messageId });

/** Every trailer that applies to a patch: its own, those given in replies to it, and those on the cover letter. */
export function patchTrailers(s: Series, p: Patch): Trailer[] {
  return [...p.trailers, ...(s.replyTrailers[p.messageId] ?? []), ...s.coverTrailers];
}

export function patchJson(s: Series, p: Patch, subject: string): PatchJson {
  return {
    index: p.subject.index ?? 1,
    messageId: p.messageId,
    subject,
    author: formatAddress(p.author),
    date: p.date ? p.date.toISOString() : null,
    files: p.files.map((f) => f.path),
    trailers: patchTrailers(s, p).map(trailerJson),
  };
}

export function threadJson(t: Thread): ThreadJson {
  const subjectOf = new Map(t.messages.map((m) => [m.messageId, m.subject]));
  return {
    rootMessageId: t.rootMessageId,
    subject: t.subject,
    messages: t.messages.length,
    series: t.series.map((s) => ({
      version: s.version,
      total: s.total,
      coverMessageId: s.coverMessageId,
      changeId: s.changeId,
      baseCommit: s.baseCommit,
      patches: s.patches.map((p) => patchJson(s, p, subjectOf.get(p.messageId) ?? p.commitTitle)),
    })),
  };
}
