import { fitColumns } from '../report/columns.js';
import { singleLine } from '../report/safe-text.js';
import { SecretMask } from '../report/secret-mask.js';
import type { Level, RuleResult, RuleStatus } from '../rules/types.js';
import type { Transcript } from '../transcript/transcript.js';
import { acceptedOperationId } from '../transcript/views.js';

/** The first break of a rule in an observation, as plain data: what is told while the observation runs. */
export interface RuleBreak {
  ruleId: string;
  level: Level;
  status: Extract<RuleStatus, 'fail' | 'warn' | 'advice'>;
  /** The operation whose exchanges broke it; none for a call answered at once. */
  operationId?: string;
  /** The exchange that shows it, by the number the report's evidence gives it. */
  exchange?: number;
  /** What the rule found, on one line, masked by the secrets of the exchanges it was judged on. */
  note: string;
}

/** Breaks found since last asked: the first of each rule in full, every one counted by rule id. */
export interface RuleBreaks {
  first: RuleBreak[];
  counts: Record<string, number>;
}

/** A note longer than this says nothing more on a progress line. */
const NOTE_WIDTH = 200;

/**
 * Gathers the rules each judged slice broke, for telling while observing: the first break of each rule with
 * what shows it, later ones only counted. Judging is untouched: this only reads its results.
 */
export class RuleBreakNews {
  private readonly told = new Set<string>();
  private first: RuleBreak[] = [];
  private counts: Record<string, number> = {};

  constructor(private readonly showSecrets: boolean) {}

  /** Reads the results of one slice judged on `slice`. */
  judged(results: readonly RuleResult[], slice: Transcript): void {
    for (const result of results) {
      if (result.status !== 'fail' && result.status !== 'warn' && result.status !== 'advice') continue;
      this.counts[result.id] = (this.counts[result.id] ?? 0) + 1;
      if (this.told.has(result.id)) continue;
      this.told.add(result.id);
      this.first.push(this.breakOf(result, result.status, slice));
    }
  }

  /** What was found since the last call, or undefined when nothing was. */
  take(): RuleBreaks | undefined {
    if (Object.keys(this.counts).length === 0) return undefined;
    const news = { first: this.first, counts: this.counts };
    this.first = [];
    this.counts = {};
    return news;
  }

  private breakOf(result: RuleResult, status: RuleBreak['status'], slice: Transcript): RuleBreak {
    const shown = result.evidence[0];
    const exchange = shown?.exchanges[0] ?? slice.exchanges[0]?.seq;
    const operationId = operationOf(slice, exchange);
    // Learnt from this slice only, once per rule: the same secrets the final summary hides in this evidence.
    const mask = this.showSecrets ? SecretMask.none() : new SecretMask().learnExchanges(slice.exchanges);
    const note = fitColumns(singleLine(mask.text(shown?.note ?? result.message)), NOTE_WIDTH);
    return {
      ruleId: result.id,
      level: result.level,
      status,
      ...(operationId !== undefined && { operationId }),
      ...(exchange !== undefined && { exchange }),
      note,
    };
  }
}

/** The operation an exchange of the slice belongs to: a read names it, a 202 carries it. */
function operationOf(slice: Transcript, seq: number | undefined): string | undefined {
  const shown = seq === undefined ? undefined : slice.bySeq(seq);
  if (shown?.operationId !== undefined) return shown.operationId;
  for (const exchange of slice.exchanges) {
    const id = exchange.operationId ?? acceptedOperationId(exchange);
    if (id !== undefined) return id;
  }
  return undefined;
}
