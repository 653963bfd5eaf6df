import { randomBytes } from 'node:crypto';
import { defineFault } from '../fault.js';

export default defineFault({
  name: 'fresh-secret-outputs',
  breaks: ['apply.idempotent', 'apply.repeat-while-running'],
  needs: { modes: ['mixed'] },
  summary: 'Every apply rotates the secret: outputs carry a fresh vault URL each time, so applying again changes them.',
  finalAnswer: (answer, call) =>
    call.kind !== 'apply'
      ? answer
      : {
          ...answer,
          results: answer.results.map((result) =>
            result.outputs === undefined
              ? result
              : {
                  ...result,
                  outputs: {
                    ...result.outputs,
                    password: `vault://reference/${encodeURIComponent(result.environment)}/${encodeURIComponent(result.id)}-password-${randomBytes(6).toString('hex')}`,
                  },
                },
          ),
        },
});
