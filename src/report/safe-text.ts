// Text that came from the provisioner (or anything in front of it) reaches a terminal only through here:
// escape sequences could move the cursor, recolour or hide lines, or retitle the window.

// CSI (ESC [ or the one-byte 0x9B), OSC (ESC ] … BEL or ST), DCS/SOS/PM/APC strings, and two-byte ESC sequences.
// An unterminated string ends at the line's end, so one stray ESC ] cannot swallow the rest of a body.
const ESCAPE_SEQUENCE =
  /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\n]*?(?:\u0007|\u001b\\|\u009c|(?=\n)|$)|\u001b[\u0020-\u002f]*[\u0030-\u007e]?/g;

// C0 and C1 controls except tab and newline, DEL, and the bidirectional overrides that reorder what is shown.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Removes ANSI escape sequences and control characters, keeping newlines and tabs. A lone carriage return becomes a newline. */
export function stripControl(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(ESCAPE_SEQUENCE, '').replace(CONTROL, '');
}

/** Safe text folded onto one line, for progress notes and list items. */
export function singleLine(text: string): string {
  return stripControl(text).replace(/\s+/g, ' ').trim();
}

/** The first `length` UTF-16 units of text, one fewer when that would split a surrogate pair. */
export function keepWholeCharacters(text: string, length: number): string {
  const head = text.slice(0, length);
  const last = head.charCodeAt(head.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? head.slice(0, -1) : head;
}

/** Cuts text to `limit` characters and says how many were left out, e.g. `… (3,412 more characters)`. */
export function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const kept = keepWholeCharacters(text, limit);
  const more = text.length - kept.length;
  return `${kept}… (${more.toLocaleString('en-US')} more character${more === 1 ? '' : 's'})`;
}
