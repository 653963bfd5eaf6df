// Terminal columns a text takes, near enough to keep redrawn lines from wrapping:
// East Asian wide characters and most emoji take two columns, combining marks none.
const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x2e80, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

function charColumns(codePoint: number): number {
  if ((codePoint >= 0x300 && codePoint <= 0x36f) || codePoint === 0x200b || (codePoint >= 0xfe00 && codePoint <= 0xfe0f)) return 0;
  return WIDE.some(([from, to]) => codePoint >= from && codePoint <= to) ? 2 : 1;
}

export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charColumns(char.codePointAt(0)!);
  return width;
}

/** Cuts text to at most `width` columns, ending with … when something was left out. */
export function fitColumns(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    const columns = charColumns(char.codePointAt(0)!);
    if (used + columns > width - 1) break;
    out += char;
    used += columns;
  }
  return width >= 1 ? `${out}…` : '';
}

// The colour codes of styled text take no column.
const STYLE_CODE = /\u001b\[\d*m/g;

/** The columns styled text takes on screen: its colour codes take none. */
export function styledWidth(text: string): number {
  return displayWidth(text.replace(STYLE_CODE, ''));
}

/**
 * Breaks text into lines of at most `width` columns, between words where it can and inside a word only when it
 * is wider than a line; lines after the first begin with `indent`. Nothing is left out, unlike `fitColumns`.
 * Colour codes count for no column and are never split.
 */
export function wrapColumns(text: string, width: number, indent = ''): string[] {
  const lines: string[] = [];
  let line = '';
  let used = 0;
  const limit = (): number => (lines.length === 0 ? width : Math.max(1, width - displayWidth(indent)));
  const breakLine = (): void => {
    lines.push(line);
    line = '';
    used = 0;
  };
  for (const token of text.match(/\s*\S+/g) ?? []) {
    if (line !== '' && used + styledWidth(token) > limit()) breakLine();
    // A line begun by the wrap starts with the word, not with the spaces that separated it from the last one.
    const word = line === '' && lines.length > 0 ? token.trimStart() : token;
    for (const piece of word.match(/\u001b\[\d*m|[^\u001b]/gu) ?? []) {
      const columns = piece.startsWith('\u001b') ? 0 : charColumns(piece.codePointAt(0)!);
      if (line !== '' && columns > 0 && used + columns > limit()) breakLine();
      line += piece;
      used += columns;
    }
  }
  lines.push(line);
  return lines.map((text, i) => (i === 0 ? text : indent + text));
}
