// The full JSON shapes GitHub answers with, built from the fake's small records. GitHub's REST
// description (@octokit/openapi) marks dozens of fields of a user, a repository or a pull request
// as always present; test/github/octokit.test.ts checks these builders against it, so a client
// that reads any of them meets what GitHub would send.

export interface WireUser {
  login: string;
  id: number;
  type: string;
}

export interface WireContext {
  /** the fake's own URL (API base) */
  api: string;
  /** https://github.com */
  web: string;
}

export function userWire(u: WireUser, c: WireContext): Record<string, unknown> {
  const api = `${c.api}/users/${encodeURIComponent(u.login)}`;
  return {
    login: u.login,
    id: u.id,
    node_id: `U_${u.id}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${u.id}?v=4`,
    gravatar_id: '',
    url: api,
    html_url: `${c.web}/${u.login}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type: u.type,
    user_view_type: 'public',
    site_admin: false,
  };
}

// The URL templates every repository object carries, as `<name>_url: <api>/repos/o/r<suffix>`.
const REPO_URLS: Record<string, string> = {
  archive: '/{archive_format}{/ref}',
  assignees: '/assignees{/user}',
  blobs: '/git/blobs{/sha}',
  branches: '/branches{/branch}',
  collaborators: '/collaborators{/collaborator}',
  comments: '/comments{/number}',
  commits: '/commits{/sha}',
  compare: '/compare/{base}...{head}',
  contents: '/contents/{+path}',
  contributors: '/contributors',
  deployments: '/deployments',
  downloads: '/downloads',
  events: '/events',
  forks: '/forks',
  git_commits: '/git/commits{/sha}',
  git_refs: '/git/refs{/sha}',
  git_tags: '/git/tags{/sha}',
  hooks: '/hooks',
  issue_comment: '/issues/comments{/number}',
  issue_events: '/issues/events{/number}',
  issues: '/issues{/number}',
  keys: '/keys{/key_id}',
  labels: '/labels{/name}',
  languages: '/languages',
  merges: '/merges',
  milestones: '/milestones{/number}',
  notifications: '/notifications{?since,all,participating}',
  pulls: '/pulls{/number}',
  releases: '/releases{/id}',
  stargazers: '/stargazers',
  statuses: '/statuses/{sha}',
  subscribers: '/subscribers',
  subscription: '/subscription',
  tags: '/tags',
  teams: '/teams',
  trees: '/git/trees{/sha}',
};

export function repoWire(
  fullName: string,
  options: { defaultBranch: string; fork: boolean; id?: number },
  c: WireContext,
): Record<string, unknown> {
  const [owner = '', name = ''] = fullName.split('/');
  const api = `${c.api}/repos/${fullName}`;
  const urls = Object.fromEntries(
    Object.entries(REPO_URLS).map(([k, suffix]) => [`${k}_url`, `${api}${suffix}`]),
  );
  const id = options.id ?? 1296269 + (options.fork ? 1 : 0);
  const at = '2026-01-01T00:00:00Z';
  return {
    id,
    node_id: `R_${id}`,
    name,
    full_name: fullName,
    owner: userWire(
      { login: owner, id: 1 + (options.fork ? 1 : 0), type: options.fork ? 'User' : 'Organization' },
      c,
    ),
    private: false,
    html_url: `${c.web}/${fullName}`,
    description: null,
    fork: options.fork,
    url: api,
    ...urls,
    git_url: `git://github.com/${fullName}.git`,
    ssh_url: `git@github.com:${fullName}.git`,
    clone_url: `${c.web}/${fullName}.git`,
    svn_url: `${c.web}/${fullName}`,
    mirror_url: null,
    homepage: null,
    language: 'JavaScript',
    size: 10,
    forks: 0,
    forks_count: 0,
    stargazers_count: 0,
    watchers: 0,
    watchers_count: 0,
    open_issues: 0,
    open_issues_count: 0,
    default_branch: options.defaultBranch,
    has_issues: true,
    has_projects: false,
    has_wiki: false,
    has_pages: false,
    has_downloads: true,
    has_discussions: false,
    archived: false,
    disabled: false,
    visibility: 'public',
    license: null,
    pushed_at: at,
    created_at: at,
    updated_at: at,
    network_count: 0,
    subscribers_count: 0,
  };
}
