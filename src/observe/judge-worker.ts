/**
 * The judges' worker thread: takes the exchanges the proxy recorded and judges them with the streaming
 * judge, off the proxy's event loop. Started by `startJudging` from the built file (dist); it does nothing
 * when imported on any other thread.
 */
import { isMainThread, parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { messageOf } from '../errors.js';
import { withParsedBody } from '../transcript/stored-response.js';
import type { FromJudgeWorker, JudgeWorkerData, ToJudgeWorker } from './judge-worker-messages.js';
import { judgedOperations, NO_OPERATIONS, sameOperations } from './judged-progress.js';
import { RuleBreakNews } from './rule-breaks.js';
import { StreamingJudge } from './streaming-judge.js';

/** Exchanges taken, at most, before the proxy's thread is told. */
const TELL_EVERY = 256;
/**
 * How long taken exchanges and news wait, at most, before the proxy's thread is told: one word for many, so that
 * a steady flow does not wake the proxy's thread once or twice for each exchange it passed on.
 */
const TELL_AFTER_MS = 50;

function serve(port: MessagePort, data: JudgeWorkerData): void {
  const post = (message: FromJudgeWorker): void => port.postMessage(message);
  const news = data.tellNews && new RuleBreakNews(data.tellNews.showSecrets);
  const judge = new StreamingJudge({
    ...data.settings,
    ...(data.keepChangeSets && { onChangeSet: (changeSet) => post({ kind: 'change-set', changeSet }) }),
    ...(news && { onJudged: (results, slice) => news.judged(results, slice) }),
  });
  // What observe tells as it runs goes back with the word that exchanges were taken, after a sweep and before a tally.
  let toldOperations = NO_OPERATIONS;
  const tellNews = (): void => {
    if (!news) return;
    try {
      const breaks = news.take();
      if (breaks) post({ kind: 'breaks', breaks });
      const operations = judgedOperations(judge.traffic());
      if (sameOperations(operations, toldOperations)) return;
      toldOperations = operations;
      post({ kind: 'operations', operations });
    } catch {
      // the lines told while observing are a courtesy: they never stop the judges
    }
  };
  // Taken exchanges are told back in batches: one word at most every TELL_AFTER_MS, or for every few hundred of a
  // long backlog, so that the proxy's thread sees the queue shorten as it does.
  let taken = 0;
  let telling: NodeJS.Timeout | undefined;
  const tellTaken = (): void => {
    clearTimeout(telling);
    telling = undefined;
    tellNews();
    if (taken === 0) return;
    post({ kind: 'judged', count: taken });
    taken = 0;
  };
  const took = (): void => {
    taken += 1;
    if (taken >= TELL_EVERY) tellTaken();
    else telling ??= setTimeout(tellTaken, TELL_AFTER_MS);
  };
  port.on('message', (message: ToJudgeWorker) => {
    switch (message.kind) {
      case 'exchange':
        try {
          judge.add(withParsedBody(message.exchange));
        } catch (error) {
          post({ kind: 'failed', what: 'an exchange could not be judged', message: messageOf(error), exchange: true });
        }
        took();
        return;
      case 'other':
        judge.other();
        took();
        return;
      case 'sweep':
        try {
          judge.sweep(message.at);
          tellNews();
        } catch (error) {
          post({ kind: 'failed', what: 'operations could not be checked against their deadline', message: messageOf(error), exchange: false });
        }
        return;
      case 'tally':
        try {
          if (message.finishAt !== undefined) judge.finish(message.finishAt);
          tellTaken();
          post({ kind: 'tally', id: message.id, tally: judge.snapshot() });
        } catch (error) {
          post({ kind: 'tally-failed', id: message.id, message: messageOf(error) });
        }
        return;
    }
  });
}

if (!isMainThread && parentPort && (workerData as { judgeWorker?: JudgeWorkerData } | null)?.judgeWorker) {
  serve(parentPort, (workerData as { judgeWorker: JudgeWorkerData }).judgeWorker);
}
