/**
 * The physical floor of P1: the same pages fetched one after another over one keep-alive
 * connection and decoded with JSON.parse, nothing else. Usage: node bench/floor.ts <base> <total> <limit>
 */
import http from 'node:http';

const [base, totalText, limitText] = process.argv.slice(2);
const total = Number(totalText);
const limit = Number(limitText);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(url: string): Promise<Buffer> {
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

let records = 0;
for (let offset = 0; ; offset += limit) {
  const page = JSON.parse((await get(`${base}/items?limit=${limit}&offset=${offset}&total=${total}`)).toString('utf8')) as { items: unknown[] };
  records += page.items.length;
  if (page.items.length < limit) break;
}
agent.destroy();
if (records !== total) throw new Error(`floor: ${records} records, expected ${total}`);
