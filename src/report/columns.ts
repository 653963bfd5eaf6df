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
