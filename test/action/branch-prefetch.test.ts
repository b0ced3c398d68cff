// The earlier run's branch fetched ahead of a follow-up's plan (src/action/follow-up.ts).
import { describe, expect, it } from 'vitest';
import { BranchPrefetch } from '../../src/action/follow-up.js';
import type { GitRepo } from '../../src/git/index.js';

/** A checkout that records the branches fetched; `has` says which ones origin holds. */
function checkout(has: string[] = []) {
  const fetched: string[] = [];
  const work = {
    isValidBranchName: (name: string) => Promise.resolve(!name.includes('..')),
    fetchRemoteBranch: (name: string) => {
      fetched.push(name);
      return has.includes(name) ? Promise.resolve() : Promise.reject(new Error(`no ${name} at origin`));
    },
  };
  return { work: work as unknown as GitRepo, fetched };
}

describe('the earlier branch fetched ahead of the plan', () => {
  it('starts once a marker names it and the checkout is ready, whichever comes first', async () => {
    const early = checkout(['patchloop/issue-1']);
    const a = new BranchPrefetch('patchloop/');
    a.guess('patchloop/issue-1');
    expect(early.fetched).toEqual([]);
    a.checkoutReady(early.work);
    expect(await a.take()).toEqual({ branch: 'patchloop/issue-1', fetched: true });
    expect(early.fetched).toEqual(['patchloop/issue-1']);

    const late = checkout();
    const b = new BranchPrefetch('patchloop/');
    b.checkoutReady(late.work);
    b.guess('patchloop/issue-2');
    // origin no longer has it: said so, not thrown
    expect(await b.take()).toEqual({ branch: 'patchloop/issue-2', fetched: false });
  });

  it('fetches nothing once the plan began, only the first branch named, and only a branch of its own', async () => {
    const c = checkout(['patchloop/issue-1', 'patchloop/issue-9']);
    const late = new BranchPrefetch('patchloop/');
    late.checkoutReady(c.work);
    expect(await late.take()).toBeUndefined();
    late.guess('patchloop/issue-1');
    expect(await late.take()).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(c.fetched).toEqual([]);

    const twice = new BranchPrefetch('patchloop/');
    twice.guess('patchloop/issue-9');
    twice.guess('patchloop/issue-1');
    twice.checkoutReady(c.work);
    expect(await twice.take()).toEqual({ branch: 'patchloop/issue-9', fetched: true });

    const d = checkout(['main', 'patchloop/a..b']);
    for (const branch of ['main', 'patchloop/a..b', undefined]) {
      const p = new BranchPrefetch('patchloop/');
      p.checkoutReady(d.work);
      p.guess(branch);
      expect(await p.take()).toBeUndefined();
    }
    expect(d.fetched).toEqual([]);
  });
});
