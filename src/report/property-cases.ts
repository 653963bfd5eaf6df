import type { PropertyResult } from '../core/property-result.js';
import { plural } from '../core/text.js';

/** `20 cases`, or `20 cases and 79 candidates tried while shrinking`: generated cases apart from shrink candidates. */
export function casesFact(result: Pick<PropertyResult, 'numRuns' | 'shrinkRuns'>): string {
  const shrinking = result.shrinkRuns ?? 0;
  const generated = plural(result.numRuns - shrinking, 'case');
  return shrinking > 0 ? `${generated} and ${plural(shrinking, 'candidate')} tried while shrinking` : generated;
}
