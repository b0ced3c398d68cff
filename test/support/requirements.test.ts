import { mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chromium, notice, setfacl, skips } from './requirements.js';

const bin = mkdtempSync(join(tmpdir(), 'patchloop-req-'));
afterAll(() => rmSync(bin, { recursive: true, force: true }));

describe('requirements of browser and ACL tests', () => {
  it('skips when a program is missing, but never in CI', () => {
    const missing = { name: 'Chromium', install: 'install it' };
    expect(skips(missing, {})).toBe(true);
    expect(skips(missing, { CI: 'true' })).toBe(false);
    expect(skips({ ...missing, path: '/usr/bin/chromium' }, {})).toBe(false);
    expect(notice(missing)).toBe('Chromium was not found: install it.');
  });

  it('finds a program on PATH or through PATCHLOOP_CHROMIUM', () => {
    const fake = join(bin, 'chromium');
    writeFileSync(fake, '#!/bin/sh\n');
    chmodSync(fake, 0o755);
    // PATH comes before the system folders; a PATCHLOOP_CHROMIUM that does not exist is passed over.
    expect(chromium({ PATH: bin, PATCHLOOP_CHROMIUM: '/nonexistent' }).path).toBe(fake);
    expect(chromium({ PATH: '', PATCHLOOP_CHROMIUM: fake }).path).toBe(fake);
    expect(setfacl({ PATH: bin }).install).toContain('acl');
  });
});
