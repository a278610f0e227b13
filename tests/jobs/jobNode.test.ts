/**
 * The job tree parsed once (src/jobs/jobNode.ts, dataField.ts, placeholderSpec.ts): each of the
 * reference's ways of reading a job option, and agreement with the consumers that still read the
 * raw value (the page loop's record extraction).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dataFieldOf } from '../../src/jobs/dataField.ts';
import { jobLists, jobTree } from '../../src/jobs/jobNode.ts';
import { extractRecords } from '../../src/jobs/records.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { decodeJson } from '../../src/php/jsonDecode.ts';
import type { PhpArray, Value } from '../../src/php/value.ts';

const cfg = (json: string): Value => decodeJson(json, 'config');

describe('job tree', () => {
  it('dataType: a PHP-non-empty dataType as text, else the endpoint template when a string, else ""', () => {
    const [a, b, c, d] = jobTree(
      cfg(
        '[{"endpoint": "users", "dataType": "0"}, {"endpoint": "u/{id}", "dataType": 5}, {"endpoint": 7}, {"endpoint": "x", "dataType": "t"}]',
      ),
      'parameters.config',
    );
    assert.deepEqual([a!.dataType, b!.dataType, c!.dataType, d!.dataType], ['users', '5', '', 't']);
    assert.equal(c!.endpoint, '7');
  });

  it('recursionFilter and responseFilter as the page loop reads them', () => {
    const [job] = jobTree(cfg('[{"endpoint": "a", "recursionFilter": "0", "children": [{"endpoint": "b", "recursionFilter": 5}]}]'), 'p');
    assert.equal(job!.recursionFilter, undefined);
    assert.equal(job!.children[0]!.recursionFilter, '5');
    assert.equal(job!.children[0]!.path, 'p.jobs[0].children[0]');
    assert.equal(job!.responseFilter, null);
  });

  it('run list: jobs merged by identity as the page loop runs them, a job written as a list runs, a non-string id fails the list when it runs', () => {
    const list = cfg(
      '[{"id": "u", "endpoint": "a"}, {"endpoint": "b"}, ["x"], {"endpoint": "b"}, {"id": "u", "endpoint": "c"}, {"endpoint": "d", "children": [{"endpoint": "e", "id": 5}]}]',
    );
    const { written, run } = jobLists(list, 'p');
    assert.deepEqual(
      written.map((n) => n.path),
      ['p.jobs[0]', 'p.jobs[1]', 'p.jobs[3]', 'p.jobs[4]', 'p.jobs[5]'],
    );
    assert.equal(run.failure, undefined);
    // "u" keeps the first place with the later job's content and path; the identical "b" is one job.
    assert.deepEqual(
      run.jobs.map((n) => [n.path, n.endpointText]),
      [
        ['p.jobs[4]', 'c'],
        ['p.jobs[3]', 'b'],
        ['p.jobs[2]', ''],
        ['p.jobs[5]', 'd'],
      ],
    );
    assert.equal(run.jobs[0]!.identity, 'u');
    assert.equal(run.jobs[2]!.config.get('0'), 'x');
    const children = run.jobs[3]!.run;
    assert.deepEqual(children.jobs, []);
    assert.equal((children.failure as Error).message, 'Job id must be a string.');
    assert.equal(run.jobs[3]!.children[0]!.endpoint, 'e');
  });

  it('placeholders: level from the prefix, the path in PHP string form, the object form as its function without path', () => {
    const [job] = jobTree(
      cfg(
        '[{"endpoint": "a", "children": [{"endpoint": "b", "placeholders": {"2:id": "id", " 3:id": "id", "1e1:id": "id", "x:y": {"path": "a", "function": "md5"}, "z": {"function": "md5"}, "n": 5}}]}]',
      ),
      'p',
    );
    const specs = job!.children[0]!.placeholderSpecs;
    assert.deepEqual(
      specs.map((p) => [p.name, p.level, p.path, p.pathMissing ?? false, p.expression === undefined ? null : [...p.expression.keys()]]),
      [
        ['2:id', 2, 'id', false, null],
        [' 3:id', 3, 'id', false, null],
        ['1e1:id', 10, 'id', false, null],
        ['x:y', 0, 'a', false, ['function']],
        ['z', 1, '', true, ['function']],
        ['n', 1, '5', false, null],
      ],
    );
    assert.equal(job!.placeholdersEmpty, true);
    assert.equal(job!.children[0]!.placeholdersEmpty, false);
  });

  it('dataField: each written form, parsed once, and the records the page loop takes with it', () => {
    const response = decodeJson('{"a": {"b": [{"id": 1}]}, "1": [{"id": 2}], "c/d": [{"id": 3}], "items": [{"id": 4}]}', 'response');
    const logger = createLogger({ write: () => {} });
    const ids = (text: string): string => {
      try {
        return JSON.stringify(extractRecords(response, dataFieldOf(cfg(text)), 'e', logger).map((r) => (r as PhpArray).get('id')));
      } catch (e) {
        return (e as Error).message;
      }
    };
    for (const [text, parsed, records] of [
      ['null', { kind: 'auto' }, undefined],
      ['""', { kind: 'auto' }, undefined],
      ['"0"', { kind: 'auto', written: '0' }, undefined],
      ['0', { kind: 'auto', written: '0' }, undefined],
      ['false', { kind: 'auto', written: '' }, undefined],
      ['[]', { kind: 'auto', written: 'Array' }, undefined],
      ['"a.b"', { kind: 'path', path: 'a.b', delimiter: '.' }, '[1]'],
      ['1', { kind: 'path', path: '1', delimiter: '.' }, '[2]'],
      ['{"path": "a.b"}', { kind: 'path', path: 'a.b', delimiter: '.' }, '[1]'],
      ['{"path": "a/b", "delimiter": "/"}', { kind: 'path', path: 'a/b', delimiter: '/' }, '[1]'],
      ['{"path": "a.b", "delimiter": ""}', { kind: 'path', path: 'a.b', delimiter: '.' }, '[1]'],
      ['{"path": "c/d", "delimiter": "/"}', { kind: 'path', path: 'c/d', delimiter: '/' }, '[]'],
      ['["a.b"]', { kind: 'missingPath' }, "'dataField.path' must be set!"],
      ['{"path": ""}', { kind: 'missingPath' }, "'dataField.path' must be set!"],
      ['{"path": "0"}', { kind: 'missingPath' }, "'dataField.path' must be set!"],
      ['{"delimiter": "/"}', { kind: 'missingPath' }, "'dataField.path' must be set!"],
    ] as const) {
      assert.deepEqual(dataFieldOf(cfg(text)), parsed, text);
      if (records !== undefined) assert.equal(ids(text), records, text);
      else assert.match(ids(text), /^More than one array found in response!/, text);
    }
  });
});
