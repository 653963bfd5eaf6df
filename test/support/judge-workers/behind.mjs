// A judges' worker that judges every exchange but never tells the proxy's thread it took one: seen from the
// proxy, it falls ever further behind. It answers a tally as the real worker does.
import { parentPort, workerData } from 'node:worker_threads';

const { StreamingJudge } = await import(new URL('../../../dist/src/observe/streaming-judge.js', import.meta.url).href);
const { withParsedBody } = await import(new URL('../../../dist/src/transcript/stored-response.js', import.meta.url).href);
const judge = new StreamingJudge(workerData.judgeWorker.settings);
parentPort.on('message', (message) => {
  if (message.kind === 'exchange') judge.add(withParsedBody(message.exchange));
  else if (message.kind === 'other') judge.other();
  else if (message.kind === 'tally') {
    if (message.finishAt !== undefined) judge.finish(message.finishAt);
    parentPort.postMessage({ kind: 'tally', id: message.id, tally: judge.snapshot() });
  }
});
