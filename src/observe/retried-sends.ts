import type { Exchange, ExchangeTag } from '../transcript/exchange.js';
import { isTransient } from '../transcript/views.js';
import { insistedOn } from '../rules/support/unanswered-ids.js';
import { ruleIdsJudging } from '../rules/index.js';
import type { RuleSituation } from '../rules/types.js';

/** The sends a provisioner may answer with nothing but 5xx, by the situation whose rules judge such silence. */
const SITUATION_OF: Partial<Record<ExchangeTag, RuleSituation>> = {
  'malformed-json': 'bad-input',
  'invalid-change-set': 'bad-input',
  'read-malformed': 'malformed-id',
  'read-unknown': 'unknown-id',
};

/** Bodies and ids followed at once while they get no answer; past it a new one is not followed. */
const GROUPS_KEPT = 64;

/** The tries of one body or id that got no answer yet, and something answered meanwhile. */
interface Tries {
  rules: readonly string[];
  /** Reads of ids need a read of a known operation answered meanwhile; a body, any call or read answered. */
  needsKnownRead: boolean;
  sends: Exchange[];
  contrast?: readonly Exchange[];
}

/** Judges a slice of traffic by the rules of its situation only. */
export type JudgeSilence = (exchanges: Exchange[], rules: readonly string[]) => void;

/**
 * Follows bodies that are no change set and ids the provisioner never issued while they get nothing but 5xx or
 * no answer. Each send is judged alone as it comes, where a 5xx says nothing; once one body or id was sent
 * often enough over two poll intervals, its sends are judged together with something the provisioner
 * answered meanwhile, as a run judges its probes sent again: the 5xx is then about them, not an outage.
 */
export class RetriedSends {
  private readonly groups = new Map<string, Tries>();

  constructor(
    private readonly pollIntervalMs: number,
    private readonly judge: JudgeSilence,
  ) {}

  /** A send of a body or an id (a tagged bad-input POST or read) as it ended. */
  sent(send: Exchange): void {
    const situation = SITUATION_OF[send.tag];
    if (situation === undefined) return;
    const key = JSON.stringify([send.tag, send.request.url, send.request.body]);
    // An answer below 500 ends the silence: that send is judged alone, the tries before it say nothing.
    if (!isTransient(send)) {
      this.groups.delete(key);
      return;
    }
    let tries = this.groups.get(key);
    if (!tries) {
      if (this.groups.size >= GROUPS_KEPT) return;
      tries = { rules: ruleIdsJudging(situation), needsKnownRead: send.request.method === 'GET', sends: [] };
      this.groups.set(key, tries);
    }
    tries.sends.push(send);
    if (!insistedOn(tries.sends, this.pollIntervalMs)) return;
    this.groups.delete(key);
    this.judge([...tries.sends, ...(tries.contrast ?? [])].sort((a, b) => a.seq - b.seq), tries.rules);
  }

  /**
   * Something the provisioner answered (below 500): a call, or a read of a known operation with its 202
   * (`knownRead`). It is in flight while the tries followed now are, as their contrast.
   */
  answered(exchanges: readonly Exchange[], knownRead: boolean): void {
    for (const tries of this.groups.values()) {
      if (tries.contrast === undefined && (knownRead || !tries.needsKnownRead)) tries.contrast = exchanges;
    }
  }
}
