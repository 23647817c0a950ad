/**
 * Groups the patch mails of one thread into series (one per posted version).
 *
 * A mail is a series member when it is not a reply and it either carries a
 * diff or is numbered 0/N (a cover letter). Members are taken in date order;
 * each joins the most recent open series with the same key — effective
 * version, total and project tag — that does not yet hold its index, else it
 * opens a new series (so a re-post of the same numbers starts a new one).
 * Patches without an explicit version inherit the version and tag of the cover
 * letter they answer (`[PATCHSET v4 0/8]` over `[PATCH 1/8]`). A non-reply
 * mail without a diff, answered directly by a patch from the same author, is
 * a "naked" cover letter.
 */
import { MailMessage, Patch, Series, SubjectInfo, Trailer } from '../model';

export interface SeriesInput {
  msg: MailMessage;
  subject: SubjectInfo;
  patch: Patch | null;
  /** `base-commit:` / `change-id:` of a mail without a diff (a cover letter), read before its body was dropped. */
  coverMeta?: CoverMeta;
}

export interface CoverMeta {
  baseCommit: string | null;
  changeId: string | null;
}

/** Reads b4's `base-commit:` and `change-id:` lines from a cover letter body. */
export function coverMetaOf(body: string): CoverMeta {
  return {
    baseCommit: /^base-commit:\s*([0-9a-f]{7,64})\s*$/m.exec(body)?.[1] ?? null,
    changeId: /^change-id:\s*(\S+)\s*$/m.exec(body)?.[1] ?? null,
  };
}

interface Member extends SeriesInput {
  version: number;
  versionExplicit: boolean;
  tag: string;
  index: number;
  total: number;
}

interface Open {
  key: string;
  series: Series;
  indexes: Set<number>;
  author: string;
  first: number;
}

const WINDOW_MS = 3 * 24 * 3600 * 1000;

function tagOf(s: SubjectInfo): string {
  return s.tags.join(' ');
}

function isCoverCandidate(i: SeriesInput): boolean {
  return !i.subject.isReply && i.patch === null && i.subject.index === 0;
}

/** Builds series for one thread. `parentOf` gives each message's parent id. */
export function buildSeries(inputs: SeriesInput[], parentOf: Map<string, string | null>): Series[] {
  const byId = new Map(inputs.map((i) => [i.msg.messageId, i]));
  const childrenOf = new Map<string, SeriesInput[]>();
  for (const i of inputs) {
    const p = parentOf.get(i.msg.messageId);
    if (!p) continue;
    const list = childrenOf.get(p) ?? [];
    list.push(i);
    childrenOf.set(p, list);
  }
  const isNakedCover = (i: SeriesInput): boolean =>
    !i.subject.isReply &&
    i.patch === null &&
    i.subject.index === null &&
    (childrenOf.get(i.msg.messageId) ?? []).some(
      (c) => c.patch !== null && !c.subject.isReply && c.msg.from.address.toLowerCase() === i.msg.from.address.toLowerCase(),
    );

  const nearestCover = (id: string): SeriesInput | null => {
    for (let p = parentOf.get(id), n = 0; p && n < 1000; p = parentOf.get(p), n++) {
      const c = byId.get(p);
      if (c && (isCoverCandidate(c) || isNakedCover(c))) return c;
    }
    return null;
  };

  const members: Member[] = [];
  for (const i of inputs) {
    const cover = isCoverCandidate(i) || isNakedCover(i);
    const patch = !i.subject.isReply && i.patch !== null && !i.subject.isPull;
    if (!cover && !patch) continue;
    let version = i.subject.version;
    let versionExplicit = i.subject.versionExplicit;
    let tag = tagOf(i.subject);
    const total = i.subject.total ?? (cover ? 0 : 1);
    if (!cover) {
      const c = nearestCover(i.msg.messageId);
      if (c && (c.subject.total === null || c.subject.total === total || total === 1)) {
        if (!versionExplicit && c.subject.versionExplicit) {
          version = c.subject.version;
          versionExplicit = true;
        }
        if (!tag) tag = tagOf(c.subject);
      }
    }
    members.push({ ...i, version, versionExplicit, tag, index: cover ? 0 : (i.subject.index ?? 1), total });
  }
  const time = (m: Member) => m.msg.date?.getTime() ?? 0;
  const order = new Map(inputs.map((i, n) => [i.msg.messageId, n]));
  members.sort((a, b) => time(a) - time(b) || order.get(a.msg.messageId)! - order.get(b.msg.messageId)!);

  const open: Open[] = [];
  for (const m of members) {
    const author = m.msg.from.address.toLowerCase();
    const key = `${m.version}|${m.tag}`;
    let target: Open | undefined;
    for (let k = open.length - 1; k >= 0; k--) {
      const o = open[k];
      if (o.key !== key || o.indexes.has(m.index)) continue;
      // Totals must agree, except for a cover without one and an extra `[PATCH 3/2]`.
      if (o.series.total !== m.total && m.total && o.series.total && m.index <= o.series.total) continue;
      if (o.author && author && o.author !== author) continue;
      if (Math.abs(time(m) - o.first) > WINDOW_MS) continue;
      target = o;
      break;
    }
    if (!target) {
      target = {
        key,
        author,
        first: time(m),
        indexes: new Set(),
        series: {
          version: m.version,
          total: m.total,
          cover: null,
          coverMessageId: null,
          patches: [],
          complete: false,
          changeId: null,
          baseCommit: null,
          title: '',
          coverTrailers: [],
          replyTrailers: {},
        },
      };
      open.push(target);
    }
    target.indexes.add(m.index);
    const s = target.series;
    if (m.index === 0 && m.patch === null) {
      s.cover = m.msg;
      s.coverMessageId = m.msg.messageId;
      if (m.total) s.total = m.total;
    } else if (m.patch) {
      s.patches.push(m.patch);
      if (!s.total) s.total = m.total;
    }
  }
  return open.map((o) => finish(o.series, inputs));
}

function finish(s: Series, inputs: SeriesInput[]): Series {
  s.patches.sort((a, b) => (a.subject.index ?? 1) - (b.subject.index ?? 1));
  const have = new Set(s.patches.map((p) => p.subject.index ?? 1));
  s.complete = s.total > 0 && Array.from({ length: s.total }, (_, k) => k + 1).every((k) => have.has(k));
  const coverInput = s.cover ? inputs.find((i) => i.msg === s.cover) : undefined;
  const meta = coverInput?.coverMeta ?? (s.cover ? coverMetaOf(s.cover.body) : undefined);
  s.changeId = meta?.changeId ?? s.patches.find((p) => p.changeId)?.changeId ?? null;
  s.baseCommit = meta?.baseCommit ?? s.patches.find((p) => p.baseCommit)?.baseCommit ?? null;
  const coverSubject = coverInput?.subject.title;
  s.title = coverSubject || s.patches[0]?.commitTitle || s.patches[0]?.subject.title || '';
  return s;
}

/**
 * Attaches trailers given in replies: a reply below a patch gives them to that
 * patch; one below the cover letter gives them to the whole series.
 */
export function attachReplyTrailers(
  series: Series[],
  replies: { messageId: string; trailers: Trailer[] }[],
  parentOf: Map<string, string | null>,
): void {
  const patchOwner = new Map<string, Series>();
  const coverOwner = new Map<string, Series>();
  for (const s of series) {
    for (const p of s.patches) patchOwner.set(p.messageId, s);
    if (s.coverMessageId) coverOwner.set(s.coverMessageId, s);
  }
  for (const r of replies) {
    if (!r.trailers.length) continue;
    for (let p = parentOf.get(r.messageId), n = 0; p && n < 1000; p = parentOf.get(p), n++) {
      const ps = patchOwner.get(p);
      if (ps) {
        const list = (ps.replyTrailers[p] ??= []);
        for (const t of r.trailers) if (!list.some((x) => x.name === t.name && x.value === t.value)) list.push(t);
        break;
      }
      const cs = coverOwner.get(p);
      if (cs) {
        for (const t of r.trailers) if (!cs.coverTrailers.some((x) => x.name === t.name && x.value === t.value)) cs.coverTrailers.push(t);
        break;
      }
    }
  }
}
