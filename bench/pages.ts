/**
 * The P1 reference programs' access to the benchmark API (bench/floor.ts, bench/naive.ts): the
 * `/items` pages fetched one after another over one keep-alive connection and decoded with
 * JSON.parse, handed to `onPage` in order.
 */
import http from 'node:http';

function get(agent: http.Agent, url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks)));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Fetches every page of `total` records; fails unless exactly `total` arrived. */
export async function forEachPage(base: string, total: number, limit: number, onPage: (items: unknown[]) => void): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let records = 0;
  try {
    for (let offset = 0; ; offset += limit) {
      const page = JSON.parse((await get(agent, `${base}/items?limit=${limit}&offset=${offset}&total=${total}`)).toString('utf8')) as {
        items: unknown[];
      };
      onPage(page.items);
      records += page.items.length;
      if (page.items.length < limit) break;
    }
  } finally {
    agent.destroy();
  }
  if (records !== total) throw new Error(`${records} records, expected ${total}`);
}
