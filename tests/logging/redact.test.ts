/**
 * The redaction rule (issue 18 #6, docs/failures.md "Secrets"): secrets are hidden where they stand as a
 * value — query and form values, JSON strings, URL userinfo, after an auth scheme word — in every
 * encoding; as free substrings only when at least 6 characters long. Redaction never corrupts the
 * rest of a line.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger } from '../../src/logging/logger.ts';
import { MIN_FREE_LENGTH, SecretRegistry } from '../../src/logging/redact.ts';

function registry(...secrets: string[]): SecretRegistry {
  const r = new SecretRegistry();
  for (const s of secrets) r.add(s);
  return r;
}

test('a one-character secret never corrupts words, only values', () => {
  const r = registry('o');
  assert.equal(r.redact('logger ok done'), 'logger ok done');
  assert.equal(r.redact('GET /users?t=o&x=1 HTTP/1.1'), 'GET /users?t=[hidden]&x=1 HTTP/1.1');
  assert.equal(r.redact('GET /users?x=1&t=o'), 'GET /users?x=1&t=[hidden]');
  assert.equal(r.redact('{"token":"o","o":"x"}'), '{"token":"[hidden]","o":"x"}');
  assert.equal(r.redact('{"list":["o","b"]}'), '{"list":["[hidden]","b"]}');
  assert.equal(r.redact('"body":"{\\"token\\":\\"o\\"}"'), '"body":"{\\"token\\":\\"[hidden]\\"}"');
  assert.equal(r.redact('https://user:o@example.com/'), 'https://user:[hidden]@example.com/');
  assert.equal(r.redact('"authorization":"Bearer o"'), '"authorization":"Bearer [hidden]"');
  assert.equal(r.redact('no=one, zoo=o'), 'no=one, zoo=[hidden]');
});

test('the log line frame is never redacted, whatever the secret', () => {
  const lines: string[] = [];
  const logger = createLogger({ write: (l) => lines.push(l) });
  for (const s of ['l', 'logger', 'INFO', '2026', ':']) logger.secrets.add(s);
  logger.info('Extractor finished successfully.', { a: 'logger' });
  assert.match(lines[0]!, /^\[\d{4}-\d\d-\d\dT[\d:.]+\+00:00\] logger\.INFO: Extractor finished successfully\. \{"a":"\[hidden\]"\} \[\]$/);
});

test(`secrets of ${MIN_FREE_LENGTH} characters or more are hidden anywhere, in every encoding`, () => {
  const secret = 'Tok en/é+1';
  const r = registry(secret);
  for (const form of [
    secret,
    encodeURIComponent(secret),
    'Tok+en%2F%C3%A9%2B1',
    'Tok%20en%2F%C3%A9%2B1',
    'Tok en\\/\\u00e9+1',
    Buffer.from(secret).toString('base64'),
    Buffer.from(secret, 'utf8').toString('latin1'),
  ]) {
    assert.equal(r.redact(`before${form}after`), 'before[hidden]after', form);
  }
  // Shorter secrets, and a 5-character one, stay visible inside words.
  assert.equal(registry('abcde').redact('xabcdex'), 'xabcdex');
  assert.equal(registry('abcdef').redact('xabcdefx'), 'x[hidden]x');
});

test('a secret containing another is hidden whole; recent values are bounded', () => {
  const r = registry('secret-part', 'secret-part-and-more');
  assert.equal(r.redact('x secret-part-and-more y secret-part z'), 'x [hidden] y [hidden] z');
  const recent = new SecretRegistry();
  for (let i = 0; i < 100; i++) recent.addRecent(`signature-${i}`);
  assert.equal(recent.redact('signature-99'), '[hidden]');
  assert.equal(recent.redact('signature-0'), 'signature-0', 'the oldest per-attempt value is forgotten');
  assert.ok(recent.hides('signature-50'));
});

test('numbers and nested values register their string forms', () => {
  const r = new SecretRegistry();
  r.addValue([77, new Map([['k', 'value-123456']])]);
  assert.equal(r.redact('?tokenId=77&x=value-123456'), '?tokenId=[hidden]&x=[hidden]');
  assert.equal(r.redact('port 1977 and 77 items'), 'port 1977 and 77 items');
});

test('a short secret that begins a longer value is left alone', () => {
  const r = registry('http', 'ab');
  assert.equal(r.redact('{"url":"http://x/?q=abc&k=ab"}'), '{"url":"http://x/?q=abc&k=[hidden]"}');
  assert.equal(r.redact('{"k":"ab:c","l":"ab"}'), '{"k":"ab:c","l":"[hidden]"}');
  assert.equal(r.redact('https://ab@h/ and https://u:ab@h/'), 'https://[hidden]@h/ and https://u:[hidden]@h/');
  assert.equal(r.redact('https://ab:x@h/ but https://ab:443/p'), 'https://[hidden]:x@h/ but https://ab:443/p');
});

test('a secret inside a URL that is itself URL-encoded, and inside a longer base64 text, is hidden', () => {
  const secret = 'Tok/en+1=é';
  const r = registry(secret);
  const url = `/data?tok=${encodeURIComponent(secret)}`;
  assert.equal(r.redact(`return_to=${encodeURIComponent(url)}`), 'return_to=%2Fdata%3Ftok%3D[hidden]');
  for (const prefix of ['', 'a', 'ab', '{"x-token":"']) {
    const b64 = Buffer.from(`${prefix}${secret}" and more`).toString('base64');
    const out = r.redact(`b64=${b64}`);
    assert.ok(out.includes('[hidden]'), `${prefix}: ${out}`);
    const visible = out.replace('b64=', '').split('[hidden]');
    // What is left decodes to the neighbours, never to the secret.
    for (const part of visible) assert.ok(!Buffer.from(part, 'base64').toString('utf8').includes('Tok/en'), part);
  }
  // A short secret at an alignment leaving fewer than 8 base64 characters of its own: left alone (not unique).
  assert.equal(registry('abcdef').redact(Buffer.from('xxabcdefxx').toString('base64')), Buffer.from('xxabcdefxx').toString('base64'));
});

test('a secret percent-encoded with lowercase hex digits (%2f, as .NET and some echo services write it) is hidden', () => {
  const secret = 'Tok/en+1=é';
  const r = registry(secret);
  const lower = (s: string): string => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
  assert.equal(
    r.redact(`echo=${lower(encodeURIComponent(`{"authorization":"Bearer ${secret}"}`))}`),
    'echo=%7b%22authorization%22%3a%22Bearer%20[hidden]%22%7d',
  );
  assert.equal(r.redact(`q=${lower(encodeURIComponent(secret))}&a=1`), 'q=[hidden]&a=1');
  // A short secret, lowercase-encoded where it stands as a value, is hidden too; words stay intact.
  const short = registry('a/b');
  assert.equal(short.redact('?k=a%2fb&n=1 path/a%2fbc'), '?k=[hidden]&n=1 path/a%2fbc');
});

/** `text` as MIME base64: 76 characters a line. */
function mimeBase64(text: string): string {
  return Buffer.from(text).toString('base64').replace(/.{76}/g, '$&\n');
}

/** The bytes the visible base64 runs of a masked text decode to (line breaks dropped, each run on its own). */
function visibleBytes(masked: string, hidden: string): string {
  return masked
    .split(hidden)
    .map((part) => Buffer.from(part.replace(/\\n|\n/g, ''), 'base64').toString('latin1'))
    .join('|');
}

test('a secret inside a wrapped (MIME) base64 text is hidden wherever the line break falls in it', () => {
  const secret = 'Tok/en+1=é-long-enough';
  const r = registry(secret);
  for (let k = 40; k < 80; k++) {
    const wrapped = mimeBase64(`${'x'.repeat(k)}${secret} and more text after it`);
    assert.ok(wrapped.includes('\n'));
    // As a message (raw line break) and inside a log context (JSON-escaped).
    for (const text of [wrapped, JSON.stringify(wrapped)]) {
      const out = r.redact(text);
      assert.ok(!visibleBytes(out, '[hidden]').includes('en+1=\u00c3'), `${k}: ${out}`);
    }
  }
  // A wrapped base64 text without the secret is left as it is.
  const clean = mimeBase64('y'.repeat(200));
  assert.equal(r.redact(clean), clean);
});
