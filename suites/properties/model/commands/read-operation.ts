import { cloneMethod } from 'fast-check';
import { answerText } from '../answer-text.js';
import type { CaseDriver } from '../case-driver.js';
import type { ModelState } from '../model.js';
import { noteReads, operationAt } from '../model.js';
import { ModelCommand } from './model-command.js';

/** Reads an operation the case started, `readers` times at the same moment (1: a plain read). */
export class ReadOperationCommand extends ModelCommand {
  constructor(
    private readonly index: number,
    private readonly readers: number,
  ) {
    super(readers === 1 ? `read operation [${index}]` : `read operation [${index}] ×${readers} at once`);
  }

  check(model: Readonly<ModelState>): boolean {
    return model.operations.length > 0;
  }

  protected async act(model: ModelState, driver: CaseDriver): Promise<void> {
    const op = operationAt(model, this.index)!;
    const reads = await driver.readTogether(op, this.readers);
    noteReads(op, reads);
    const together = this.readers === 1 ? '' : ` ×${this.readers} at once`;
    this.line = `read operation #${op.ordinal} ${op.id}${together} → ${reads.map(answerText).join(', ')}`;
  }

  [cloneMethod](): ReadOperationCommand {
    return new ReadOperationCommand(this.index, this.readers);
  }
}
