// A small provisioner run in its own process, so that a test can stop it and start it again on the same
// port (a restart). Plain JavaScript: the restart command starts it with node alone.
//
//   node restartable-provisioner.mjs --port 0 --state FILE --mode durable|forgetful|stuck --work-ms 1500 --pid-file FILE
//
// durable: keeps its operations in the state file and finds them again after a restart.
// forgetful: keeps them in memory only, so after a restart it answers 404 for them.
// stuck: finds them again after a restart, but never ends the work it found.
// Prints "listening PORT" once it accepts connections.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, value, index, all) => (index % 2 === 0 ? [...pairs, [value.replace(/^--/, ''), all[index + 1]]] : pairs), []),
);
const mode = args.mode;
const workMs = Number(args['work-ms']);
const restored = new Set();
const operations = new Map();
if (mode !== 'forgetful' && existsSync(args.state)) {
  for (const [id, op] of Object.entries(JSON.parse(readFileSync(args.state, 'utf8')))) {
    operations.set(id, op);
    restored.add(id);
  }
}

function save() {
  if (mode !== 'forgetful') writeFileSync(args.state, JSON.stringify(Object.fromEntries(operations)));
}

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function final(op) {
  return {
    outcome: 'succeeded',
    description: `Handled ${op.changes.length} change(s).`,
    results: op.changes.map((c) => ({ id: c.id, environment: c.environment, outcome: 'succeeded', description: `Handled ${c.id}.` })),
  };
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'POST' && (path === '/plan' || path === '/apply')) {
      let changes;
      try {
        changes = JSON.parse(Buffer.concat(chunks).toString('utf8')).changes;
      } catch {
        return send(res, 400, { message: 'the body is not JSON' });
      }
      if (!Array.isArray(changes)) return send(res, 400, { message: 'no changes' });
      const id = randomUUID();
      operations.set(id, { changes, endsAt: Date.now() + workMs });
      save();
      return send(res, 202, { operationId: id });
    }
    if (req.method === 'GET' && path.startsWith('/operations/')) {
      const id = decodeURIComponent(path.slice('/operations/'.length));
      const op = operations.get(id);
      if (!op) return send(res, 404, { message: 'unknown operation' });
      const stuck = mode === 'stuck' && restored.has(id);
      if (stuck || Date.now() < op.endsAt) return send(res, 200, { outcome: 'in_progress', description: 'Working on it.', results: [] });
      return send(res, 200, final(op));
    }
    return send(res, 404, { message: 'nothing here' });
  });
});

server.listen(Number(args.port), '127.0.0.1', () => {
  writeFileSync(args['pid-file'], String(process.pid));
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
