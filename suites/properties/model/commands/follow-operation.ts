import { cloneMethod } from 'fast-check';
import type { CaseDriver } from '../case-driver.js';
import { followSummary } from '../follow-summary.js';
import type { ModelState } from '../model.js';
import { hasEnded, operationAt } from '../model.js';
import { noteFollowed } from '../chain.js';
import { ModelCommand } from './model-command.js';

/**
 * Polls an operation like the control plane until its work has ended. It brings a case to the moments after a
 * final answer without guessing how long the work takes, which is where reads are most often wrong.
 */
export class FollowOperationCommand extends ModelCommand {
  constructor(private readonly index: number) {
    super(`follow operation [${index}] to its end`);
  }

  check(model: Readonly<ModelState>): boolean {
    return model.operations.length > 0;
  }

  protected async act(model: ModelState, driver: CaseDriver): Promise<void> {
    const op = operationAt(model, this.index)!;
    // Counted whether or not a read has seen the work end already: the count then depends on the commands alone.
    noteFollowed(model, op);
    if (hasEnded(op)) {
      // The control plane never reads an operation again once it has ended.
      this.line = `follow operation #${op.ordinal} ${op.id}: already ended, nothing to read`;
      return;
    }
    const followed = await driver.follow(op);
    const { reason } = followed.conclusion;
    if (reason !== 'aborted') op.ended = reason;
    this.line = `follow operation #${op.ordinal} ${op.id}: ${followSummary(followed)}`;
  }

  [cloneMethod](): FollowOperationCommand {
    return new FollowOperationCommand(this.index);
  }
}
