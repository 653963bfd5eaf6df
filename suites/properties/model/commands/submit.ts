import { cloneMethod } from 'fast-check';
import type { LoadedChangeSet } from '../../../../src/config/change-sets.js';
import type { SubmitKind } from '../../../../src/transcript/exchange.js';
import { acceptedOperationId } from '../../../../src/transcript/views.js';
import { answerText } from '../answer-text.js';
import type { CaseDriver } from '../case-driver.js';
import type { ModelState } from '../model.js';
import { applyInFlight } from '../model.js';
import { endOfWork, withinChain } from '../chain.js';
import { ModelCommand } from './model-command.js';

/**
 * Sends a bundled change set to plan or apply; a 202 adds the operation to the model. It runs only while the
 * work it starts ends within `maxChain` operation-lengths of the case's start (see chain.ts).
 */
export class SubmitCommand extends ModelCommand {
  constructor(
    private readonly kind: SubmitKind,
    private readonly changeSet: LoadedChangeSet,
    private readonly maxChain: number,
  ) {
    super(`${kind} ${changeSet.name}`);
  }

  check(model: Readonly<ModelState>): boolean {
    if (!withinChain(model, this.kind, this.maxChain)) return false;
    // The control plane never runs two applies under one lock at once, so neither does a case.
    return this.kind === 'plan' || !applyInFlight(model, this.changeSet.lockKey);
  }

  protected async act(model: ModelState, driver: CaseDriver): Promise<void> {
    const endsBy = endOfWork(model, this.kind);
    const answer = await driver.submit(this.kind, this.changeSet);
    const id = acceptedOperationId(answer);
    const known = id === undefined ? undefined : model.operations.find((op) => op.id === id);
    if (id !== undefined && id !== '' && !known) {
      const ordinal = model.operations.length + 1;
      const op = { ordinal, id, kind: this.kind, changeSet: this.changeSet, accepted: answer, endsBy };
      model.operations.push(op);
      driver.accepted(op);
      this.line = `${this.kind} ${this.changeSet.name} → 202, operation #${ordinal} = ${id}`;
    } else {
      this.line = `${this.kind} ${this.changeSet.name} → ${answerText(answer)}${known ? ` (the id of operation #${known.ordinal} again)` : ''}`;
    }
  }

  [cloneMethod](): SubmitCommand {
    return new SubmitCommand(this.kind, this.changeSet, this.maxChain);
  }
}
