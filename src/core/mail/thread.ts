/**
 * Threading by Message-ID / In-Reply-To / References, in the spirit of JWZ's
 * algorithm: a message's own In-Reply-To (else its last Reference) names its
 * parent; the References chain links the ancestors we never saw, so a thread
 * whose root was not archived still holds together under a placeholder.
 */

export interface ThreadInput {
  messageId: string;
  inReplyTo: string | null;
  references: string[];
  date: Date | null;
}

export interface ThreadShape {
  /** Root id: a present message or a placeholder. */
  root: string;
  /** Present messages in thread order: depth-first, siblings by date then arrival. */
  order: string[];
  /** Ids referenced but absent. */
  placeholders: string[];
  /** Parent of every id in the thread (present or placeholder); null at the root. */
  parentOf: Map<string, string | null>;
}

/** Groups messages into threads. Duplicate Message-IDs keep their first occurrence. */
export function buildThreads<T extends ThreadInput>(messages: T[]): ThreadShape[] {
  const byId = new Map<string, T>();
  const arrival = new Map<string, number>();
  for (const m of messages) {
    if (!byId.has(m.messageId)) {
      byId.set(m.messageId, m);
      arrival.set(m.messageId, arrival.size);
    }
  }
  const parent = new Map<string, string | null>();

  const wouldCycle = (child: string, p: string): boolean => {
    for (let cur: string | null | undefined = p, n = 0; cur && n < 10000; cur = parent.get(cur), n++) {
      if (cur === child) return true;
    }
    return false;
  };

  // 1. Ancestors from References chains (weak: only where nothing better is known).
  for (const m of byId.values()) {
    const chain = m.references.filter((r) => r !== m.messageId);
    for (let i = 1; i < chain.length; i++) {
      const c = chain[i];
      if (!byId.has(c) && !parent.has(c) && !wouldCycle(c, chain[i - 1])) parent.set(c, chain[i - 1]);
    }
  }
  // 2. Each present message's own parent (strong).
  for (const m of byId.values()) {
    const refs = m.references.filter((r) => r !== m.messageId);
    const p = m.inReplyTo && m.inReplyTo !== m.messageId ? m.inReplyTo : (refs[refs.length - 1] ?? null);
    if (p && !wouldCycle(m.messageId, p)) parent.set(m.messageId, p);
    else parent.set(m.messageId, null);
    if (p && !parent.has(p) && !byId.has(p)) {
      // A missing parent: link it to the reference before it, if any.
      const i = refs.indexOf(p);
      parent.set(p, i > 0 && !wouldCycle(p, refs[i - 1]) ? refs[i - 1] : null);
    }
  }
  // Fill missing entries for placeholder roots.
  for (const [, p] of [...parent]) if (p && !parent.has(p)) parent.set(p, null);

  const children = new Map<string, string[]>();
  for (const [c, p] of parent) {
    if (p === null) continue;
    const list = children.get(p);
    if (list) list.push(c);
    else children.set(p, [c]);
  }
  const time = (id: string) => byId.get(id)?.date?.getTime() ?? Number.POSITIVE_INFINITY;
  const sortKids = (ids: string[]) =>
    ids.sort((a, b) => time(a) - time(b) || (arrival.get(a) ?? 1e12) - (arrival.get(b) ?? 1e12));

  const rootOf = (id: string): string => {
    let cur = id;
    for (let n = 0; n < 10000; n++) {
      const p = parent.get(cur);
      if (!p) return cur;
      cur = p;
    }
    return cur;
  };

  const roots = new Map<string, number>();
  for (const id of byId.keys()) {
    const r = rootOf(id);
    if (!roots.has(r)) roots.set(r, arrival.get(id)!);
  }
  const shapes: ThreadShape[] = [];
  for (const root of roots.keys()) {
    const order: string[] = [];
    const placeholders: string[] = [];
    const parentOf = new Map<string, string | null>();
    const stack = [root];
    const seen = new Set<string>();
    while (stack.length) {
      const id = stack.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      parentOf.set(id, parent.get(id) ?? null);
      if (byId.has(id)) order.push(id);
      else placeholders.push(id);
      const kids = sortKids([...(children.get(id) ?? [])]);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
    shapes.push({ root, order, placeholders, parentOf });
  }
  return shapes;
}
