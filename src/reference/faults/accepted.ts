import { defineFault } from '../fault.js';
import { hashedUuid, timeOrderedUuid } from '../operation-ids.js';

/** The faults of the reference that are about the rules of `src/rules/catalog/accepted.ts`: the 202 answer and its operationId. */

const numericOperationId = defineFault({
  name: 'numeric-operation-id',
  breaks: ['accepted.body'],
  needs: { modes: ['async'] },
  summary: 'A 202 body carries operationId as a number.',
  operationIds: () => {
    // Kept as text inside the reference, so that reads find it; only the 202 body turns it into a number.
    let next = 12345;
    return () => String(next++);
  },
  postAnswer: (answer) => (answer.status === 202 ? { ...answer, body: { ...answer.body, operationId: Number(answer.body.operationId) } } : answer),
});

const extraAcceptedFields = defineFault({
  name: 'extra-accepted-fields',
  breaks: ['accepted.only-operation-id'],
  needs: { modes: ['async'] },
  summary: 'A 202 body also carries status and href.',
  postAnswer: (answer) => {
    if (answer.status !== 202) return answer;
    const id = String(answer.body.operationId);
    return { ...answer, body: { operationId: id, status: 'accepted', href: `/operations/${encodeURIComponent(id)}` } };
  },
});

const nonUuidOperationId = defineFault({
  name: 'non-uuid-operation-id',
  breaks: ['accepted.operation-id-uuid'],
  needs: { modes: ['async'] },
  summary: 'Operation ids are op-1, op-2, … instead of UUIDs.',
  operationIds: () => {
    let next = 1;
    return () => `op-${next++}`;
  },
});

const repeatedOperationId = defineFault({
  name: 'repeated-operation-id',
  breaks: ['accepted.operation-id-unique'],
  needs: { modes: ['async'] },
  summary: 'The operation id is a hash of the call, so the same change set gets the same id again.',
  operationIds: () => (kind, bodyText) => hashedUuid(`${kind}\n${bodyText}`),
});

const timeOrderedOperationId = defineFault({
  name: 'time-ordered-operation-id',
  breaks: ['accepted.operation-id-random'],
  needs: { modes: ['async'] },
  summary: 'Operation ids are time-ordered version 7 UUIDs.',
  operationIds: () => () => timeOrderedUuid(Date.now()),
});

/** This family's faults, in the order listings show them: the list of faults takes the families in turn. */
export const FAULTS = [numericOperationId, extraAcceptedFields, nonUuidOperationId, repeatedOperationId, timeOrderedOperationId] as const;
