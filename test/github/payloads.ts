// Event payloads shaped as GitHub sends them (the fields patchloop reads, plus their neighbours).

export interface Who {
  login: string;
  id?: number;
  type?: 'User' | 'Bot';
}

const user = (w: Who) => ({
  login: w.login,
  id: w.id ?? 1000 + w.login.length,
  type: w.type ?? (w.login.endsWith('[bot]') ? 'Bot' : 'User'),
  html_url: `https://github.com/${w.login}`,
});

export const repository = (fullName = 'octo/demo', defaultBranch = 'main') => ({
  id: 1296269,
  name: fullName.split('/')[1],
  full_name: fullName,
  owner: { login: fullName.split('/')[0], type: 'Organization' },
  default_branch: defaultBranch,
  private: false,
  fork: false,
  html_url: `https://github.com/${fullName}`,
});

export interface IssueLike {
  number: number;
  title: string;
  body?: string | null;
  author?: string;
  isPullRequest?: boolean;
  createdAt?: string;
  updatedAt?: string;
  labels?: string[];
}

const issueJson = (i: IssueLike) => ({
  number: i.number,
  title: i.title,
  body: i.body ?? null,
  user: user({ login: i.author ?? 'alice' }),
  state: 'open',
  labels: (i.labels ?? []).map((name) => ({ name })),
  created_at: i.createdAt ?? '2026-03-01T10:00:00Z',
  updated_at: i.updatedAt ?? i.createdAt ?? '2026-03-01T10:00:00Z',
  html_url: `https://github.com/octo/demo/${i.isPullRequest ? 'pull' : 'issues'}/${i.number}`,
  ...(i.isPullRequest
    ? { pull_request: { url: `https://api.github.com/repos/octo/demo/pulls/${i.number}` } }
    : {}),
});

export function issueComment(opts: {
  issue: IssueLike;
  comment: { id: number; body: string; author?: Who; createdAt?: string };
  action?: string;
  sender?: Who;
}) {
  const author = opts.comment.author ?? { login: 'alice' };
  return {
    action: opts.action ?? 'created',
    issue: issueJson(opts.issue),
    comment: {
      id: opts.comment.id,
      node_id: `IC_${opts.comment.id}`,
      body: opts.comment.body,
      user: user(author),
      created_at: opts.comment.createdAt ?? '2026-03-02T12:00:00Z',
      updated_at: opts.comment.createdAt ?? '2026-03-02T12:00:00Z',
      html_url: `https://github.com/octo/demo/issues/${opts.issue.number}#issuecomment-${opts.comment.id}`,
      author_association: 'MEMBER',
    },
    repository: repository(),
    sender: user(opts.sender ?? author),
  };
}

export interface PullLike {
  number: number;
  title: string;
  body?: string;
  head: string;
  headSha?: string;
  base?: string;
  /** owner/name of the fork the head lives in */
  fork?: string;
}

const pullJson = (p: PullLike) => {
  const headRepo = p.fork ?? 'octo/demo';
  return {
    number: p.number,
    title: p.title,
    body: p.body ?? '',
    state: 'open',
    user: user({ login: 'bob' }),
    html_url: `https://github.com/octo/demo/pull/${p.number}`,
    head: {
      ref: p.head,
      sha: p.headSha ?? 'a'.repeat(40),
      label: `${headRepo.split('/')[0]}:${p.head}`,
      repo: { ...repository(headRepo), fork: p.fork !== undefined },
    },
    base: {
      ref: p.base ?? 'main',
      sha: 'b'.repeat(40),
      label: `octo:${p.base ?? 'main'}`,
      repo: repository(),
    },
  };
};

export function reviewComment(opts: {
  pull: PullLike;
  comment: {
    id: number;
    body: string;
    path: string;
    line?: number;
    diffHunk: string;
    author?: Who;
    inReplyTo?: number;
    createdAt?: string;
  };
}) {
  const author = opts.comment.author ?? { login: 'alice' };
  return {
    action: 'created',
    pull_request: pullJson(opts.pull),
    comment: {
      id: opts.comment.id,
      body: opts.comment.body,
      user: user(author),
      path: opts.comment.path,
      line: opts.comment.line ?? null,
      original_line: opts.comment.line ?? null,
      start_line: null,
      side: 'RIGHT',
      diff_hunk: opts.comment.diffHunk,
      commit_id: 'a'.repeat(40),
      created_at: opts.comment.createdAt ?? '2026-03-02T12:00:00Z',
      updated_at: opts.comment.createdAt ?? '2026-03-02T12:00:00Z',
      html_url: `https://github.com/octo/demo/pull/${opts.pull.number}#discussion_r${opts.comment.id}`,
      ...(opts.comment.inReplyTo ? { in_reply_to_id: opts.comment.inReplyTo } : {}),
    },
    repository: repository(),
    sender: user(author),
  };
}

export function review(opts: {
  pull: PullLike;
  review: { id: number; body: string | null; author?: Who };
  action?: string;
}) {
  const author = opts.review.author ?? { login: 'alice' };
  return {
    action: opts.action ?? 'submitted',
    pull_request: pullJson(opts.pull),
    review: {
      id: opts.review.id,
      body: opts.review.body,
      state: 'commented',
      user: user(author),
      submitted_at: '2026-03-02T12:00:00Z',
      html_url: `https://github.com/octo/demo/pull/${opts.pull.number}#pullrequestreview-${opts.review.id}`,
    },
    repository: repository(),
    sender: user(author),
  };
}

export function issues(opts: {
  action: 'opened' | 'labeled' | 'edited';
  issue: IssueLike;
  label?: string;
  sender?: Who;
}) {
  return {
    action: opts.action,
    issue: issueJson(opts.issue),
    ...(opts.label ? { label: { name: opts.label, color: 'ededed' } } : {}),
    repository: repository(),
    sender: user(opts.sender ?? { login: opts.issue.author ?? 'alice' }),
  };
}

export function workflowRun(opts: {
  id: number;
  name?: string;
  conclusion: string;
  headBranch?: string;
  actor?: Who;
}) {
  const actor = opts.actor ?? { login: 'alice' };
  return {
    action: 'completed',
    workflow_run: {
      id: opts.id,
      name: opts.name ?? 'CI',
      run_attempt: 1,
      status: 'completed',
      conclusion: opts.conclusion,
      head_branch: opts.headBranch ?? 'main',
      head_sha: 'c'.repeat(40),
      html_url: `https://github.com/octo/demo/actions/runs/${opts.id}`,
      updated_at: '2026-03-02T12:00:00Z',
      actor: user(actor),
      triggering_actor: user(actor),
      pull_requests: [],
    },
    workflow: { name: opts.name ?? 'CI' },
    repository: repository(),
    sender: user(actor),
  };
}
