/** The platform's message out of each service's error body (06 §1.2). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { platformMessage } from '../../src/platform/transport.ts';

describe('platformMessage', () => {
  test('each service’s shape', () => {
    assert.equal(
      platformMessage('{"error":"Configuration \\"x\\" not found","code":"storage.configuration.notFound"}'),
      'Configuration "x" not found (storage.configuration.notFound)',
    );
    assert.equal(platformMessage('{"error":"Job not found","code":404,"status":"error","exceptionId":"e-1"}'), 'Job not found');
    assert.equal(platformMessage('{"status":"maintenance","reason":"Upgrade","estimatedEndTime":"…"}'), 'maintenance: Upgrade');
    assert.equal(platformMessage('<html>\n  Bad gateway\n</html>'), '<html> Bad gateway </html>');
  });
});
