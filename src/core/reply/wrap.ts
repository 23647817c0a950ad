/**
 * Wrapping of the user's own text at 72 columns, the way a mail editor's
 * `gq` would: long lines are broken at spaces, the user's own line breaks
 * are kept, and lines that look preformatted (indented code, quotes,
 * trailers, lines of a single long word such as a URL) are left alone.
 * Quoted material never goes through here.
 */
export const WRAP_WIDTH = 72;

const LIST_ITEM = /^(\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+)/;
const TRAILER = /^[A-Z][A-Za-z0-9-]*-by:\s|^(?:Fixes|Link|Closes|Cc):\s/;

const width = (s: string): number => [...s].length;

function wrapLine(line: string, limit: number): string[] {
  if (width(line) <= limit) return [line];
  if (line.startsWith('>') || TRAILER.test(line)) return [line];
  const list = LIST_ITEM.exec(line);
  if (/^\s/.test(line) && !list) return [line];
  const lead = list ? list[1] : '';
  const hang = ' '.repeat(width(lead));
  const words = line.slice(lead.length).split(/ +/).filter((w) => w.length > 0);
  const out: string[] = [];
  let cur = lead;
  let curHasWord = false;
  for (const w of words) {
    const candidate = curHasWord ? `${cur} ${w}` : cur + w;
    if (width(candidate) > limit && curHasWord) {
      out.push(cur);
      cur = hang + w;
    } else {
      cur = candidate;
    }
    curHasWord = true;
  }
  out.push(cur);
  return out;
}

/** Wraps `text` (LF line ends) at `limit` columns; trailing spaces are dropped. */
export function wrapText(text: string, limit = WRAP_WIDTH): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(/[ \t]+$/, ''))
    .flatMap((l) => wrapLine(l, limit))
    .join('\n');
}
