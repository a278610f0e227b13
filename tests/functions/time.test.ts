/** date / strtotime / time (spec 02 §11.6, §11.7); expectations are PHP 7.4 results in UTC. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluate } from '../../src/functions/index.ts';
import { call, f, fn, NOW_MS } from './helpers.ts';

describe('date()', () => {
  const table: Array<[string, number, string]> = [
    [
      'd D j l N S w z W F m M n t L o Y y a A B g G h H i s u v e I O P T Z U',
      1492674974,
      '20 Thu 20 Thursday 4 th 4 109 16 April 04 Apr 4 30 0 2017 2017 17 am AM 372 7 7 07 07 56 14 000000 000 UTC 0 +0000 +00:00 UTC 0 1492674974',
    ],
    ['c', 1492674974, '2017-04-20T07:56:14+00:00'],
    ['r', 1492674974, 'Thu, 20 Apr 2017 07:56:14 +0000'],
    ['Y-m-d H:i:s', 1490000000, '2017-03-20 08:53:20'],
    ['Y-m-d H:i:s:u', 1492674974, '2017-04-20 07:56:14:000000'],
    // leap years: 2000 and 2016 are leap, 1900 and 2100 are not
    ['L t z', 951782400, '1 29 59'],
    ['L t z', 1456704000, '1 29 59'],
    ['L t', -2203891200, '0 31'],
    ['L t', 4105123200, '0 28'],
    ['L t', 946684800, '1 31'],
    // ISO weeks and weekdays around the year boundary
    ['Y-m-d N l W o', 1451606400, '2016-01-01 5 Friday 53 2015'],
    ['Y-m-d N l W o', 1483228800, '2017-01-01 7 Sunday 52 2016'],
    ['Y-m-d N l W o', 1546214400, '2018-12-31 1 Monday 01 2019'],
    ['Y-m-d N l W o', 1609372800, '2020-12-31 4 Thursday 53 2020'],
    ['Y-m-d N l W o', 1609632000, '2021-01-03 7 Sunday 53 2020'],
    ['Y-m-d N W o', 1230768000, '2009-01-01 4 01 2009'],
    // English suffixes
    ['jS', 946684800, '1st'],
    ['jS', 946771200, '2nd'],
    ['jS', 946857600, '3rd'],
    ['jS', 947548800, '11th'],
    ['jS', 947635200, '12th'],
    ['jS', 947721600, '13th'],
    ['jS', 948412800, '21st'],
    ['jS', 948499200, '22nd'],
    ['jS', 948585600, '23rd'],
    ['jS', 949276800, '31st'],
    // 12-hour clock and Swatch beats
    ['g:i a / h:i A / G H', 0, '12:00 am / 12:00 AM / 0 00'],
    ['g:i a / h:i A', 43200, '12:00 pm / 12:00 PM'],
    ['g:i a', 46800, '1:00 pm'],
    ['B', 0, '041'],
    ['B', 82800, '000'],
    ['B', 86399, '041'],
    ['B', -1, '041'],
    // negative timestamps and small years
    ['Y-m-d H:i:s', -1, '1969-12-31 23:59:59'],
    ['Y-m-d H:i:s D', -86400, '1969-12-31 00:00:00 Wed'],
    ['Y-m-d', -62135596800, '0001-01-01'],
    ['Y-m-d y', -62167219200, '0000-01-01 00'],
    ['Y-m-d', 253402300799, '9999-12-31'],
    ['U', -12345, '-12345'],
    // escapes, literals, PHP-8-only letters are literal in 7.4
    ['\\Y\\m\\d Y \\\\', 1492674974, 'Ymd 2017 \\'],
    ['\\\\Y', 1492674974, '\\2017'],
    ['D, d M Y', 1508620560, 'Sat, 21 Oct 2017'],
    ['', 1508620560, ''],
    ['X x p é', 1508620560, 'X x p é'],
  ];
  for (const [format, ts, expected] of table) {
    it(`date(${JSON.stringify(format)}, ${ts})`, () => assert.equal(call('date', format, ts), expected));
  }

  it('uses the injected clock when the timestamp is omitted', () => {
    assert.equal(call('date', 'Y-m-d H:i:s'), '2017-10-21 21:16:00');
  });
  it('converts the timestamp argument like PHP (float truncates, numeric strings, null/false → 0)', () => {
    assert.equal(call('date', 'Y-m-d H:i:s', f(1490000000.9)), '2017-03-20 08:53:20');
    assert.equal(call('date', 'Y-m-d H:i:s', '1490000000'), '2017-03-20 08:53:20');
    assert.equal(call('date', 'Y-m-d H:i:s', ' 1490000000'), '2017-03-20 08:53:20');
    assert.equal(call('date', 'Y', '1e3'), '1970');
    assert.equal(call('date', 'Y-m-d H:i:s', '1490000000abc'), '2017-03-20 08:53:20');
    assert.equal(call('date', 'Y-m-d H:i:s', null), '1970-01-01 00:00:00');
    assert.equal(call('date', 'Y-m-d H:i:s', false), '1970-01-01 00:00:00');
    assert.equal(call('date', 'Y-m-d H:i:s', true), '1970-01-01 00:00:01');
  });
  it('yields false for a non-numeric timestamp, a list, or a bad argument count', () => {
    assert.equal(call('date', 'Y', 'tomorrow'), false);
    assert.equal(call('date', 'Y', []), false);
    assert.equal(call('date', []), false);
    assert.equal(call('date'), false);
    assert.equal(call('date', 'Y', 1, 2), false);
    assert.equal(call('date', 'Y', f(1e30)), false);
  });
  it('date(strtotime(garbage)) is 1970-01-01 (false is 0)', () => {
    assert.equal(evaluate(fn('date', 'Y-m-d H:i:s', fn('strtotime', 'garbage')), {}), '1970-01-01 00:00:00');
  });
});

describe('strtotime()', () => {
  const BASE = 1508620560; // 2017-10-21 21:16:00, a Saturday
  const table: Array<[string, number | false]> = [
    ['now', 1508620560],
    ['-0 second', 1508620560],
    ['+0 day', 1508620560],
    ['-7 days', 1508015760],
    ['+7 days', 1509225360],
    ['-2 day', 1508447760],
    ['+1 week 2 days', 1509398160],
    ['1 hour ago', 1508616960],
    ['2 weeks ago', 1507410960],
    ['-2 weeks', 1507410960],
    ['+1 day', 1508706960],
    ['+1 fortnight', 1509830160],
    ['+90 minutes', 1508625960],
    ['-1 sec', 1508620559],
    ['+1 month', 1511298960],
    ['-1 month', 1506028560],
    ['+1 year', 1540156560],
    ['today', 1508544000],
    ['midnight', 1508544000],
    ['yesterday', 1508457600],
    ['tomorrow', 1508630400],
    ['noon', 1508587200],
    ['tomorrow noon', 1508673600],
    ['yesterday 14:00', 1508508000],
    ['monday', 1508716800],
    ['next monday', 1508716800],
    ['last monday', 1508112000],
    ['saturday', 1508544000],
    ['next saturday', 1509148800],
    ['sunday', 1508630400],
    ['this week', 1508188560],
    ['next week', 1508793360],
    ['first day of next month', 1509570960],
    ['first day of last month', 1504300560],
    ['last day of this month', 1509484560],
    ['last day of next month', 1512076560],
    ['next month', 1511298960],
    ['first monday of next month', 1509926400],
    ['last friday of this month', 1509062400],
    ['+3 weekdays', 1508966160],
    ['2017-10-21', 1508544000],
    ['2017-10-21 10:00', 1508580000],
    ['2017-10-21 10:00:05', 1508580005],
    ['20171021', 1508544000],
    ['2017-10-21T10:00:00Z', 1508580000],
    ['2017-10-21T10:00:00+02:00', 1508572800],
    ['2017-10-21T10:00:00.123Z', 1508580000],
    ['Wed, 04 Oct 2017 10:00:00 GMT', 1507111200],
    ['21 oct 2017 9:16pm', 1508620560],
    ['October 21, 2017', 1508544000],
    ['10/21/2017', 1508544000],
    ['21.10.2017', 1508544000],
    ['2017-W42-3', 1508284800],
    ['@1508620560', 1508620560],
    ['@0', 0],
    ['10:30', 1508581800],
    ['T10:30', 1508581800],
    ['12am', 1508544000],
    ['12pm', 1508587200],
    ['2017-02-30', 1488412800],
    ['2017-10-21 10:00 EST', 1508598000],
    ['2017-10-21 10:00 +0530', 1508560200],
    ['2017-10-21 10:00 Europe/Prague', 1508572800],
    ['3600', 51463286160],
    ['2017', 1508617020],
    ['2017-20-12 12:20:17', false],
    ['', false],
    ['garbage', false],
    ['1700000000', false],
    ['60', false],
    ['0', false],
    ['  +1 day  ', 1508706960],
    ['NOW', 1508620560],
    ['Tomorrow', 1508630400],
  ];
  for (const [text, expected] of table) {
    it(`strtotime(${JSON.stringify(text)}, base)`, () => assert.equal(call('strtotime', text, BASE), expected));
  }

  const JAN31 = 1485870000; // 2017-01-31 13:40:00
  const overflow: Array<[string, number]> = [
    ['+1 month', 1488548400],
    ['first day of next month', 1485956400],
    ['last day of next month', 1488289200],
    ['last day of february', 1488240000],
    ['+1 year', 1517406000],
  ];
  for (const [text, expected] of overflow) {
    it(`strtotime(${JSON.stringify(text)}) on Jan 31 normalises like PHP`, () => assert.equal(call('strtotime', text, JAN31), expected));
  }

  it('is relative to the injected clock without a base', () => {
    assert.equal(call('strtotime', '-7 days'), 1508015760);
    assert.equal(call('strtotime', 'now'), NOW_MS / 1000);
  });
  it('treats a null base as 0 (PHP int conversion)', () => {
    assert.equal(call('strtotime', '+1 day', null), 86400);
  });
  it('yields false for arrays and bad argument counts', () => {
    assert.equal(call('strtotime', []), false);
    assert.equal(call('strtotime'), false);
    assert.equal(call('strtotime', 'now', 1, 2), false);
    assert.equal(call('strtotime', 'now', 'abc'), false);
  });
});

describe('time()', () => {
  it('returns the injected clock in whole seconds as an int', () => {
    assert.equal(evaluate(fn('time'), {}, { now: () => 1492674974_999 }), 1492674974);
  });
  it('yields null with arguments (PHP warning)', () => {
    assert.equal(call('time', 1), null);
  });
  it('nests: date(format, strtotime(relative, time()))', () => {
    assert.equal(call('date', 'Y-m-d', fn('strtotime', 'first day of next month', fn('time'))), '2017-11-01');
  });
});

describe('strtotime() at the ends of PHP integers', () => {
  it('an @ timestamp past the 64-bit range is false, as in PHP; one inside it is a time', () => {
    assert.equal(evaluate(call('strtotime', '@-99999999999999999999'), {}), false);
    assert.equal(evaluate(call('strtotime', '@99999999999999999999'), {}), false);
    assert.equal(evaluate(call('strtotime', '@-1000000000000'), {}), -1000000000000);
  });

  it('a time past the 64-bit range is false, never a number PHP could not hold', () => {
    assert.equal(evaluate(call('strtotime', '+99999999999999 years', 1609459200), {}), false);
  });
});
