/**
 * Stitches series that were sent without In-Reply-To/References (old
 * git-send-email defaults, some web mailers) into one thread: numbered patch
 * mails from the same author, with the same version and total, sent within an
 * hour of the first, each index once.
 */
import { MailMessage, SubjectInfo } from '../model';
import { ThreadShape } from '../mail/thread';

const WINDOW_MS = 3600 * 1000;

interface Group {
  key: string;
  first: number;
  indexes: Set<number>;
  shapes: ThreadShape[];
  rootIndex: number;
}

export function stitchUnthreaded(
  shapes: ThreadShape[],
  byId: Map<string, MailMessage>,
  subjects: Map<string, SubjectInfo>,
): ThreadShape[] {
  const groups: Group[] = [];
  const out: (ThreadShape | Group)[] = [];
  for (const shape of shapes) {
    const root = byId.get(shape.root);
    const s = root && subjects.get(root.messageId);
    const lone = root && !root.inReplyTo && root.references.length === 0;
    if (!root || !s || !lone || s.isReply || s.index === null || s.total === null) {
      out.push(shape);
      continue;
    }
    const key = `${root.from.address.toLowerCase()}|${s.version}|${s.total}|${s.tags.join(' ')}`;
    const t = root.date?.getTime() ?? 0;
    let g = groups.find((x) => x.key === key && !x.indexes.has(s.index!) && Math.abs(t - x.first) <= WINDOW_MS);
    if (!g) {
      g = { key, first: t, indexes: new Set(), shapes: [], rootIndex: s.index };
      groups.push(g);
      out.push(g);
    }
    g.indexes.add(s.index);
    g.shapes.push(shape);
    if (s.index < g.rootIndex) g.rootIndex = s.index;
  }
  return out.map((x) => ('shapes' in x ? merge(x, subjects, byId) : x));
}

function merge(g: Group, subjects: Map<string, SubjectInfo>, byId: Map<string, MailMessage>): ThreadShape {
  if (g.shapes.length === 1) return g.shapes[0];
  const idx = (sh: ThreadShape) => subjects.get(byId.get(sh.root)!.messageId)?.index ?? 99;
  const sorted = [...g.shapes].sort((a, b) => idx(a) - idx(b));
  const head = sorted[0];
  const parentOf = new Map(head.parentOf);
  const order = [...head.order];
  const placeholders = [...head.placeholders];
  for (const sh of sorted.slice(1)) {
    for (const [k, v] of sh.parentOf) parentOf.set(k, k === sh.root ? head.root : v);
    order.push(...sh.order);
    placeholders.push(...sh.placeholders);
  }
  return { root: head.root, order, placeholders, parentOf };
}
