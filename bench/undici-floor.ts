/**
 * The floor of the kit's cost per exchange: bare undici requests against the same server, with the kit's
 * connection limit and as many in flight, each answer read whole, and nothing recorded or judged.
 */
import { Agent, request } from 'undici';

/** CPU time of this process per request, in milliseconds, over `count` reads of the operation `changeSet` starts. */
export async function undiciFloorMs(url: string, changeSet: string, count: number, inFlight = 16): Promise<number> {
  const agent = new Agent({ connections: inFlight, keepAliveTimeout: 4000 });
  try {
    const accepted = await request(`${url}/plan`, {
      dispatcher: agent,
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: changeSet,
    });
    const { operationId } = (await accepted.body.json()) as { operationId: string };
    const read = `${url}/operations/${operationId}`;
    let left = count;
    const worker = async (): Promise<void> => {
      while (left-- > 0) {
        const answer = await request(read, { dispatcher: agent, headers: { accept: 'application/json' } });
        await answer.body.arrayBuffer();
      }
    };
    const before = process.cpuUsage();
    await Promise.all(Array.from({ length: inFlight }, worker));
    const cpu = process.cpuUsage(before);
    return (cpu.user + cpu.system) / 1000 / count;
  } finally {
    await agent.destroy();
  }
}
