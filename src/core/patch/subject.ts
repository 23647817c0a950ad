/**
 * Subject-line prefixes the way kernel (and git, hg) people write them:
 * `[PATCH net-next v8 03/17]`, `[RFC PATCH]`, `PATCHv3`, `PATCH1/8`,
 * `[PATCH 1 of 3]`, `[GIT PULL]`, reply markers (`Re:`, `AW:`, `Re[2]:` …).
 */
import type { SubjectInfo } from '../model';

/** Reply markers in several languages, with the `Re[2]:` / `Re^2:` counters some clients add. */
const REPLY = /^(?:re|aw|sv|vs|antw|odp|res|ynt|atb|r)\s*(?:\[\d+\]|\^\d+)?\s*:\s*/i;
/** Forward markers: stripped, but a forward is not a reply. */
const FORWARD = /^(?:fwd?|wg|tr|rv)\s*(?:\[\d+\])?\s*:\s*/i;
/** Bracket groups that say something about the mail transport, not the patch. */
const TRANSPORT_TAGS = new Set(['external', 'ext', 'external email', 'spam', 'suspected spam', 'bulk']);
/** An unbracketed `PATCH`, `PATCHv3`, `PATCH1/8`, `PATCH v2 3/4:` at the start of the subject. */
const BARE_PATCH = /^PATCH(?:SET)?(v\d+)?(?:\s*(v\d+))?(?:\s*(\d+)\/(\d+))?\s*:?(?=\s|$)\s*/;

const KEYWORDS = new Set(['patch', 'patches', 'patchset', 'rfc', 'resend', 'repost', 'pull', 'git', 'of']);

/** Fold all whitespace runs (including folded header line breaks) into single spaces. */
function fold(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

interface Words {
  prefixes: string[];
}

/** Strips leading reply/forward markers and bracket groups, collecting their words. */
function stripPrefixes(subject: string, acc: Words): { rest: string; isReply: boolean } {
  let rest = subject;
  let isReply = false;
  for (;;) {
    const before = rest;
    let m = REPLY.exec(rest);
    if (m) {
      isReply = true;
      rest = rest.slice(m[0].length);
      continue;
    }
    m = FORWARD.exec(rest);
    if (m) {
      rest = rest.slice(m[0].length);
      continue;
    }
    if (rest.startsWith('[')) {
      const close = rest.indexOf(']');
      if (close < 0) break;
      const inner = fold(rest.slice(1, close));
      rest = rest.slice(close + 1).replace(/^\s*:?\s*/, '');
      if (!TRANSPORT_TAGS.has(inner.toLowerCase())) {
        for (const w of inner.split(/[\s,]+/)) if (w) acc.prefixes.push(w.toLowerCase());
      }
      continue;
    }
    const bare = BARE_PATCH.exec(rest);
    if (bare && acc.prefixes.length === 0) {
      acc.prefixes.push('patch' + (bare[1] ? bare[1].toLowerCase() : ''));
      if (bare[2]) acc.prefixes.push(bare[2].toLowerCase());
      if (bare[3]) acc.prefixes.push(`${bare[3]}/${bare[4]}`);
      rest = rest.slice(bare[0].length);
      continue;
    }
    if (rest === before) break;
  }
  return { rest, isReply };
}

/** Parses the subject of a mail into title and patch prefix information. */
export function parseSubject(subject: string): SubjectInfo {
  const acc: Words = { prefixes: [] };
  const { rest, isReply } = stripPrefixes(fold(subject), acc);
  const info: SubjectInfo = {
    title: rest.trim(),
    isReply,
    prefixes: acc.prefixes,
    isPatch: false,
    isRfc: false,
    isResend: false,
    isPull: false,
    version: 1,
    versionExplicit: false,
    index: null,
    total: null,
    tags: [],
  };
  const words = acc.prefixes;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    let m: RegExpExecArray | null;
    if ((m = /^(?:patch(?:set|es)?|rfc)?v(\d+)$/.exec(w))) {
      info.version = Number(m[1]);
      info.versionExplicit = true;
      if (w.startsWith('patch')) info.isPatch = true;
      if (w.startsWith('rfc')) info.isPatch = info.isRfc = true;
    } else if ((m = /^(?:patch)?(\d+)\/(\d+)$/.exec(w))) {
      info.index = Number(m[1]);
      info.total = Number(m[2]);
      if (w.startsWith('patch')) info.isPatch = true;
    } else if (/^\d+$/.test(w) && words[i + 1] === 'of' && /^\d+$/.test(words[i + 2] ?? '')) {
      info.index = Number(w);
      info.total = Number(words[i + 2]);
      i += 2;
    } else if (w === 'patch' || w === 'patches' || w === 'patchset') {
      info.isPatch = true;
    } else if (w === 'rfc') {
      info.isPatch = info.isRfc = true;
    } else if (w === 'resend' || w === 'repost') {
      info.isResend = true;
    } else if (w === 'pull') {
      info.isPull = true;
    } else if (!KEYWORDS.has(w)) {
      info.tags.push(w);
    }
  }
  // patchwork/netdev style `[net,v2,1/2]`: numbering alone marks a patch.
  if (info.index !== null) info.isPatch = true;
  // `[GIT PULL]` is a pull request, not a patch, even if someone adds `PATCH`.
  if (info.isPull && !words.includes('patch')) info.isPatch = false;
  return info;
}
