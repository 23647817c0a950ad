/**
 * The comments file of `kernel-review reply --comments`: a JSON array of
 * `{"file","side","line","body"}` (a line of the patch, in its coordinates)
 * or `{"kind":"commit-message"|"general","body"}` (optionally `"line"` for a
 * commit-message line, 1-based).
 */
import { InputError } from '../model';
import { DraftComment } from './compose';

export function parseCommentsJson(text: string, source: string): DraftComment[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new InputError(source, `is not valid JSON (${(e as Error).message.split('\n')[0]})`);
  }
  if (!Array.isArray(data)) throw new InputError(source, 'must hold a JSON array of comments');
  return data.map((item, i): DraftComment => {
    const where = `comment ${i + 1}`;
    if (!item || typeof item !== 'object') throw new InputError(source, `${where} is not an object`);
    const c = item as Record<string, unknown>;
    if (typeof c.body !== 'string' || !c.body.trim()) throw new InputError(source, `${where} needs a non-empty "body" string`);
    const kind = c.kind ?? 'line';
    if (kind === 'general') return { kind, body: c.body };
    if (kind === 'commit-message') {
      if (c.line === undefined || c.line === null) return { kind, body: c.body };
      if (!Number.isInteger(c.line)) throw new InputError(source, `${where} has a "line" that is not a whole number`);
      return { kind, line: c.line as number, body: c.body };
    }
    if (kind !== 'line') throw new InputError(source, `${where} has kind "${String(kind)}" (expected line, commit-message or general)`);
    if (typeof c.file !== 'string' || !c.file) throw new InputError(source, `${where} needs a "file" path`);
    const side = c.side ?? 'new';
    if (side !== 'new' && side !== 'old') throw new InputError(source, `${where} has side "${String(side)}" (expected new or old)`);
    if (!Number.isInteger(c.line) || (c.line as number) < 1) throw new InputError(source, `${where} needs a "line" number of 1 or more`);
    return { kind: 'line', file: c.file, side, line: c.line as number, body: c.body };
  });
}
