import type { Exchange } from '../transcript/exchange.js';
import { operationBodyProblems } from '../shapes/index.js';

/**
 * What keeps a 200 read from being an operation answer the control plane can use: a body that is not JSON,
 * or one without the shape operation.body checks (an unknown outcome, a missing or mistyped field). The
 * control plane fails the work at the first such read. Undefined for a usable 200 read and for any other
 * status (a 404, a 5xx and a transport error have rules of their own).
 */
export function unexpectedAnswer(read: Exchange): string | undefined {
  const response = read.response;
  if (response?.status !== 200) return undefined;
  if (!response.json.ok) return 'the body is not JSON';
  const problems = operationBodyProblems(response.json.value);
  return problems.length > 0 ? problems.join('; ') : undefined;
}
