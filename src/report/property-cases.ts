import type { PropertyResult } from '../core/property-result.js';
import { plural } from '../core/text.js';

/**
 * `20 cases`, `30 of 50 cases` when a limit cut it short, or `20 cases and 79 candidates tried while shrinking`:
 * generated cases apart from shrink candidates, counted as the live progress counts them.
 */
export function casesFact(result: Pick<PropertyResult, 'numRuns' | 'shrinkRuns' | 'casesAsked'>): string {
  const shrinking = result.shrinkRuns ?? 0;
  const judged = result.numRuns - shrinking;
  const generated = result.casesAsked !== undefined && judged < result.casesAsked ? `${judged} of ${plural(result.casesAsked, 'case')}` : plural(judged, 'case');
  return shrinking > 0 ? `${generated} and ${plural(shrinking, 'candidate')} tried while shrinking` : generated;
}
