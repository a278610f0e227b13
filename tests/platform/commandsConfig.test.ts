/** encrypt, config push and config pull against the fake platform (06 §3, §4). */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type FakePlatform, startFakePlatform } from '../../src/platform/fake/fakePlatform.ts';
import { FakeStorage } from '../../src/platform/fake/storage.ts';
import { cli, leaks, tempDir } from './fakePlatformCli.ts';

let platform: FakePlatform;
let dir: string;
before(async () => {
  platform = await startFakePlatform({ stepMs: 5, runSteps: 2 });
  dir = tempDir();
});
after(async () => {
  await platform.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const COMPONENT = 'keboola.ex-generic-v2';

function writeFolder(folder: string): void {
  fs.mkdirSync(path.join(folder, 'rows', 'shop-a'), { recursive: true });
  fs.mkdirSync(path.join(folder, 'rows', 'shop-b'), { recursive: true });
  const config = {
    parameters: {
      api: { baseUrl: 'https://shop.example.com/' },
      config: { '#token': 'plain-token-value', incrementalOutput: true, jobs: [{ endpoint: 'orders' }] },
    },
    image_parameters: { injected: 'at run time' },
    action: 'run',
  };
  fs.writeFileSync(path.join(folder, 'config.json'), JSON.stringify(config));
  fs.writeFileSync(
    path.join(folder, 'meta.json'),
    JSON.stringify({
      name: 'Shops',
      rows: [
        { id: 'shop-b', name: 'Shop B' },
        { id: 'shop-a', name: 'Shop A' },
      ],
    }),
  );
  fs.writeFileSync(
    path.join(folder, 'rows', 'shop-a', 'config.json'),
    JSON.stringify({ parameters: { config: { '#key': 'row-a-secret' } } }),
  );
  fs.writeFileSync(
    path.join(folder, 'rows', 'shop-b', 'config.json'),
    JSON.stringify({ parameters: { config: { '#key': 'row-b-secret' } } }),
  );
}

describe('encrypt', () => {
  test('values for the component and project; no token to the Encryption API; a cipher comes back unchanged', async () => {
    platform.seen.length = 0;
    const first = await cli(platform, ['encrypt', '--component', COMPONENT, '--value', 'hello']);
    assert.equal(first.code, 0, first.stderr.join('\n'));
    assert.match(first.stdout[0]!, /^KBC::ProjectSecure::.+$/);
    const again = await cli(platform, ['encrypt', '--component', COMPONENT, '--value', first.stdout[0]!, '--config', '9']);
    assert.deepEqual(again.stdout, first.stdout);
    const toEncryption = platform.seen.filter((s) => s.server === 'encryption');
    assert.equal(toEncryption.length, 2);
    assert.deepEqual(
      toEncryption.map((s) => s.token),
      [undefined, undefined],
    );
    assert.match(toEncryption[0]!.path, /^\/encrypt\?componentId=keboola\.ex-generic-v2&projectId=58$/);
  });

  test('scopes: without --component the whole project; --config needs --component', async () => {
    const wide = await cli(platform, ['encrypt', '--value', 'x']);
    assert.match(wide.stdout[0]!, /^KBC::ProjectWideSecure::/);
    const config = await cli(platform, ['encrypt', '--component', COMPONENT, '--config', '7', '--value', 'x']);
    assert.match(config.stdout[0]!, /^KBC::ConfigSecure::/);
    const wrong = await cli(platform, ['encrypt', '--config', '7', '--value', 'x']);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr[0]!, /--config needs --component/);
  });

  test('a JSON file: every # value, at any depth', async () => {
    const file = path.join(dir, 'values.json');
    fs.writeFileSync(file, JSON.stringify({ foo: 'bar', '#secret': 'x', nested: { '#deep': 'y' }, '#object': { another: 'z' } }));
    const o = await cli(platform, ['encrypt', '--component', COMPONENT, '--project', '58', '--file', file]);
    const data = JSON.parse(o.stdout.join('\n'));
    assert.equal(data.foo, 'bar');
    assert.match(data['#secret'], /^KBC::ProjectSecure::/);
    assert.match(data.nested['#deep'], /^KBC::ProjectSecure::/);
    assert.deepEqual(data['#object'], { another: 'z' });
  });
});

describe('config push and pull', () => {
  test('round trip with rows and secrets: encrypted before it leaves, diff first, pull gives it back', async () => {
    const folder = path.join(dir, 'shops');
    writeFolder(folder);
    const dry = await cli(platform, ['config', 'push', '--component', COMPONENT, '--config', 'shops', '--dir', folder, '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr.join('\n'));
    assert.ok(dry.stdout.includes('    + parameters.config.#token: <secret>'), dry.stdout.join('\n'));
    assert.equal(platform.storage.configs.size, 0, 'a dry run writes nothing');
    assert.deepEqual(leaks(platform, dry, ['plain-token-value', 'row-a-secret']), []);

    platform.seen.length = 0;
    const push = await cli(platform, ['config', 'push', '--component', COMPONENT, '--config', 'shops', '--dir', folder]);
    assert.equal(push.code, 0, push.stderr.join('\n'));
    assert.deepEqual(leaks(platform, push, ['plain-token-value', 'row-a-secret', 'row-b-secret']), []);
    const toStorage = platform.seen
      .filter((s) => s.server === 'storage')
      .map((s) => s.body)
      .join('\n');
    for (const secret of ['plain-token-value', 'row-a-secret', 'row-b-secret']) assert.ok(!toStorage.includes(secret), secret);
    const stored = platform.storage.configs.get(FakeStorage.key(COMPONENT, 'shops'))!;
    assert.deepEqual(stored.rowsSortOrder, ['shop-b', 'shop-a']);
    assert.equal(stored.name, 'Shops');
    assert.equal('image_parameters' in stored.configuration || 'action' in stored.configuration, false);

    const again = await cli(platform, ['config', 'push', '--component', COMPONENT, '--config', 'shops', '--dir', folder]);
    assert.deepEqual(again.stdout, [`${COMPONENT} shops: no changes`]);

    const pulled = path.join(dir, 'pulled');
    const pull = await cli(platform, ['config', 'pull', '--component', COMPONENT, '--config', 'shops', '--dir', pulled]);
    assert.equal(pull.code, 0);
    const config = JSON.parse(fs.readFileSync(path.join(pulled, 'config.json'), 'utf8'));
    assert.match(config.parameters.config['#token'], /^KBC::ProjectSecure::/);
    assert.deepEqual(
      JSON.parse(fs.readFileSync(path.join(pulled, 'meta.json'), 'utf8')).rows.map((r: { id: string }) => r.id),
      ['shop-b', 'shop-a'],
    );
    const back = await cli(platform, ['config', 'push', '--component', COMPONENT, '--config', 'shops', '--dir', pulled]);
    assert.deepEqual(back.stdout, [`${COMPONENT} shops: no changes`], 'what was pulled pushes back unchanged');

    const run = await cli(platform, ['run', '--component', COMPONENT, '--config', 'shops', '--wait']);
    assert.equal(run.code, 0, `the job decrypts the pushed ciphers: ${run.stderr.join('\n')}`);
  });

  test('changes: a changed value, a removed row, the diff names them', async () => {
    const folder = path.join(dir, 'pulled');
    const file = path.join(folder, 'config.json');
    const config = JSON.parse(fs.readFileSync(file, 'utf8'));
    config.parameters.api.baseUrl = 'https://shop2.example.com/';
    fs.writeFileSync(file, JSON.stringify(config));
    fs.rmSync(path.join(folder, 'rows', 'shop-a'), { recursive: true });
    const meta = JSON.parse(fs.readFileSync(path.join(folder, 'meta.json'), 'utf8'));
    meta.rows = meta.rows.filter((r: { id: string }) => r.id !== 'shop-a');
    fs.writeFileSync(path.join(folder, 'meta.json'), JSON.stringify(meta));
    const o = await cli(platform, ['config', 'push', '--component', COMPONENT, '--config', 'shops', '--dir', folder]);
    assert.equal(o.code, 0, o.stderr.join('\n'));
    assert.deepEqual(o.stdout.slice(0, 4), [
      `${COMPONENT} shops:`,
      '  configuration:',
      '    ~ parameters.api.baseUrl: "https://shop.example.com/" → "https://shop2.example.com/"',
      '  removed row shop-a "Shop A"',
    ]);
    assert.deepEqual(
      platform.storage.configs.get(FakeStorage.key(COMPONENT, 'shops'))!.rows.map((r) => r.id),
      ['shop-b'],
    );
  });

  test('a folder without config.json: exit 1, one line with the path and the fix', async () => {
    const o = await cli(platform, ['config', 'push', '--component', COMPONENT, '--config', 'x', '--dir', path.join(dir, 'nothing')]);
    assert.equal(o.code, 1);
    assert.equal(o.stderr.length, 1);
    assert.match(o.stderr[0]!, /nothing\/config\.json: not found; create it \(with "parameters"\) or run `config pull` first$/);
  });

  test('a configuration that does not exist: the service, the status and the platform message', async () => {
    const o = await cli(platform, ['config', 'pull', '--component', COMPONENT, '--config', 'nope', '--dir', path.join(dir, 'n')]);
    assert.equal(o.code, 1);
    assert.match(
      o.stderr[0]!,
      /^ex-generic-platform: Storage API: HTTP 404 from GET http:\/\/127\.0\.0\.1:\d+\/v2\/storage\/branch\/default\/components\/keboola\.ex-generic-v2\/configs\/nope: Configuration "nope" not found \(storage\.configuration\.notFound\)$/,
    );
  });
});
