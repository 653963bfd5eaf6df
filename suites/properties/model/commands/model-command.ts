import type { AsyncCommand } from 'fast-check';
import { cloneMethod } from 'fast-check';
import type { CaseDriver } from '../case-driver.js';
import { judgeStep } from '../judge-step.js';
import type { ModelState } from '../model.js';
import { CaseStopped } from '../violation.js';

/**
 * A step of a model-based case. Its line says what it will do and, once it ran, what it did with the real ids
 * and answers: that line is what fast-check prints for a counterexample. A fresh copy runs each time
 * (fast-check clones commands between runs), so lines never mix two runs. After every step the rules judge
 * the case's exchanges so far, and a broken one stops the case there.
 */
export abstract class ModelCommand implements AsyncCommand<ModelState, CaseDriver> {
  protected line: string;

  protected constructor(plan: string) {
    this.line = plan;
  }

  abstract check(model: Readonly<ModelState>): boolean;

  /** Does the work and updates what the case knows; judging is not its business. */
  protected abstract act(model: ModelState, driver: CaseDriver): Promise<void>;

  abstract [cloneMethod](): ModelCommand;

  async run(model: ModelState, driver: CaseDriver): Promise<void> {
    try {
      await this.act(model, driver);
    } catch (error) {
      if (!(error instanceof CaseStopped)) driver.log.push(this.line);
      throw error;
    }
    driver.log.push(this.line);
    await judgeStep(driver, driver.log.length, this.line);
  }

  toString(): string {
    return this.line;
  }
}
