/**
 * Review trailers given in one action: `Reviewed-by:`, `Acked-by:`,
 * `Tested-by:` with the user's identity, for a reply to one patch, to each of
 * several patches, or to the cover letter (which covers the whole series).
 */
import { Address } from '../model';
import { ReplyError } from './errors';

export const TRAILER_NAMES = ['Reviewed-by', 'Acked-by', 'Tested-by'] as const;
export type TrailerName = (typeof TRAILER_NAMES)[number];

/** `reviewed-by`, `Reviewed-By`, `reviewed` or `rb`-free spellings → the canonical name. */
export function trailerName(input: string): TrailerName {
  const k = input.trim().toLowerCase().replace(/:$/, '');
  const found = TRAILER_NAMES.find((n) => n.toLowerCase() === k || n.toLowerCase() === `${k}-by`);
  if (!found) throw new ReplyError('bad-comment', `"${input}" is not a trailer this tool adds (use Reviewed-by, Acked-by or Tested-by).`);
  return found;
}

/** `Reviewed-by: Jane Doe <jane@example.org>` — trailers are never quoted or encoded. */
export function trailerLine(name: TrailerName, who: Address): string {
  return `${name}: ${who.name ? `${who.name} <${who.address}>` : who.address}`;
}

/** Adds trailer lines at the end of a draft body, once each, after a blank line. */
export function appendTrailers(body: string, lines: string[]): string {
  const trimmed = body.replace(/\s+$/, '');
  const existing = new Set(trimmed.split('\n').map((l) => l.trim()));
  const add = lines.filter((l) => !existing.has(l));
  if (!add.length) return `${trimmed}\n`;
  const lastLine = trimmed.split('\n').pop() ?? '';
  const joinWith = !trimmed ? '' : /^[A-Z][A-Za-z-]*-by: /.test(lastLine) ? '\n' : '\n\n';
  return `${trimmed}${joinWith}${add.join('\n')}\n`;
}
