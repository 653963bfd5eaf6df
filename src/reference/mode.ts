/** sync: every call answers 200 at once; async: every call answers 202; mixed: plan at once, apply 202. */
export type ReferenceMode = 'sync' | 'async' | 'mixed';

export const REFERENCE_MODES: readonly ReferenceMode[] = ['sync', 'async', 'mixed'];
