/** A secret masked where it stands as a value, in each form, and never inside a longer word. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { valueMasker } from '../../src/logging/valueMask.ts';

const mask = valueMasker(['x'], { replacement: '[hidden]' });

test('a one-character secret leaves the words that contain it alone', () => {
  assert.equal(mask('ex-generic-platform: box x.'), 'ex-generic-platform: box [hidden].');
  assert.equal(mask('xylophone, x-ray, tax_x'), 'xylophone, x-ray, tax_x');
});

test('a secret as a query value, a JSON string and a header value', () => {
  assert.equal(mask('GET https://h/p?token=x&limit=1'), 'GET https://h/p?token=[hidden]&limit=1');
  assert.equal(mask('{"token":"x","note":"xx"}'), '{"token":"[hidden]","note":"xx"}');
  assert.equal(mask('X-StorageApi-Token: x'), 'X-StorageApi-Token: [hidden]');
});

test('the URL-encoded and JSON-escaped forms, with the replacement and forms given', () => {
  const masked = valueMasker(['a/b+"c'], { replacement: '--HIDDEN--' });
  assert.equal(masked('?t=a%2Fb%2B%22c&u=1'), '?t=--HIDDEN--&u=1');
  assert.equal(masked('{"t":"a/b+\\"c"}'), '{"t":"--HIDDEN--"}');
  const upper = valueMasker(['k'], { replacement: '*', formsOf: (s) => [s.toUpperCase()] });
  assert.equal(upper('k K'), 'k *');
});

test('no secret, or an empty one, changes nothing', () => {
  assert.equal(valueMasker([], { replacement: '[hidden]' })('a b'), 'a b');
  assert.equal(valueMasker([''], { replacement: '[hidden]' })('a b'), 'a b');
});

test('an escape beside the secret is a boundary: URL-encoded and JSON-escaped texts do not carry it in clear', () => {
  assert.equal(mask('?q=a%3Dx%20b'), '?q=a%3D[hidden]%20b');
  assert.equal(mask('{"note":"line\\nx\\tend"}'), '{"note":"line\\n[hidden]\\tend"}');
  assert.equal(mask('{"note":"\\u00e9x"}'), '{"note":"\\u00e9[hidden]"}');
  assert.equal(mask('{"path":"a\\/x"}'), '{"path":"a\\/[hidden]"}');
  assert.equal(mask('%ABCx and 5%x'), '%ABCx and 5%x');
});

test('a secret of MIN_FREE_LENGTH characters or more is hidden inside words too, as in the logs', () => {
  const long = valueMasker(['s3cr3t'], { replacement: '[hidden]' });
  assert.equal(long('/files/s3cr3t.json?x=as3cr3tb'), '/files/[hidden].json?x=a[hidden]b');
  assert.equal(valueMasker(['s3cr3'], { replacement: '[hidden]' })('/files/s3cr3.json'), '/files/s3cr3.json');
});

test('a long secret inside a wrapped (MIME) base64 text is masked wherever the line break falls in it', () => {
  const secret = 'api-Key/42+zz';
  const maskLong = valueMasker([secret], { replacement: '--HIDDEN--' });
  for (let k = 0; k < 80; k++) {
    const wrapped = Buffer.from(`${'x'.repeat(k)}${secret} and more`)
      .toString('base64')
      .replace(/.{76}/g, '$&\n');
    const visible = maskLong(wrapped)
      .split('--HIDDEN--')
      .map((part) => Buffer.from(part.replace(/\n/g, ''), 'base64').toString('latin1'));
    assert.ok(!visible.some((bytes) => bytes.includes('Key/42')), `${k}: ${maskLong(wrapped)}`);
  }
});
