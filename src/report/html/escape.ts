import { stripControl } from '../safe-text.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text placed in HTML or SVG, as text or as an attribute value: escaped, and without control characters. */
export function escapeHtml(text: string): string {
  return stripControl(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
