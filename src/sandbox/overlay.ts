import { spawn } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxSetupError } from './error.js';
import { asRoot, firstLine, rootArgv, type RootAccess, type RunResult } from './user.js';

// The overlay access method: what commands write lands in a layer of patchloop's own, and
// patchloop moves it into the checkout when the command has ended. Nothing of the checkout is
// changed to let commands in, so nothing has to be put back, and the cost does not grow with the
// number of files:
//
// - Each command's mount namespace gets the workspace as an overlay. Its lower layer is an
//   idmapped clone of the workspace (open_tree + mount_setattr(MOUNT_ATTR_IDMAP), through Perl's
//   syscall as the keyring step does): files owned by the checkout's owner are shown as the
//   sandbox user's, so the kernel's ordinary owner checks let commands read and write what the
//   owner may. Its upper layer is an empty folder of patchloop's own (per command), so every write
//   (a new file, a changed one, a removal as a whiteout) lands there and the checkout's own inodes
//   are never written by a command. A file with more names (a package store's file linked into
//   node_modules, claim 10) is copied up before it is written, and put back under its name as a
//   new file: the store keeps its content by construction, whatever its mode.
// - When the command has ended (its namespace, and with it every process and the mount, are
//   gone), patchloop moves the upper layer's entries into the checkout as root, owned by the
//   checkout's owner (APPLY below): renames within one file system, so the cost is that of what
//   changed. Only then does the result reach the model, so the file tools and git see exactly what
//   the command wrote.
// - What the idmap would open that the owner's bits do not say is private: a file others may not
//   read and a folder others may not list or enter (an earlier step's credentials, claims 11 and
//   16). The idmapped clone is not the command's lower layer itself: a read-only overlay of it is,
//   made (fsconfig CMD_CREATE) while this step's file-system uid and gid are nobody's and it holds
//   no groups. Changing the file-system uid away from root drops root's file capabilities (DAC
//   override, DAC read-search, fowner, chown...), and overlayfs keeps the credentials it was made
//   with and checks every access to a layer with them as well as with the caller's. So the command
//   passes the owner's check on the overlay's inode, and the kernel then asks whether nobody, one
//   of the others, may read the checkout's inode: a 0600 file does not open, a 0700 folder neither
//   lists nor opens, and a write to a file not yet copied up needs that read too (copy-up reads
//   it), so nothing private is renamed, linked, chmodded or overwritten either. No walk: the
//   rule is the kernel's, at each access, whatever was made private when. The command's own
//   overlay (made by root, full rights) stacks on that one, so its writes reach its upper layer.
//   The set-up's trial proves this once on the machine with a probe file of the checkout's owner.
// - A removal needs no read (a whiteout), so the move keeps what no command could read: it neither
//   removes nor replaces a private path of the checkout (a swapped credentials file would be used
//   by a later step), and says so to the model.
// - Where the reader's overlay cannot be had (its probe file opened: a kernel or a process whose
//   file-system uid change keeps the capabilities) or the workspace's top folder is closed to
//   others (who could then open nothing of it), the private paths are
//   found by one read-only walk at set-up (find prints, changes nothing, no ctime moves) and
//   covered in each command's namespace by an empty root-owned 0000 folder or file, mounted
//   read-only: reading it is refused, and a mount point can be neither renamed nor removed
//   (EBUSY), nor linked elsewhere (EXDEV). Before each command their paths are checked to be the
//   same inodes, reached through no link. That walk grows with the checkout.
// - `.git` is bound read-only over the overlay as before (never idmapped: others' bits only).
// - Limits: a folder of the checkout that existed before the command cannot be renamed
//   (redirect_dir=off makes rename(2) say EXDEV; `mv` then copies and removes, as across file
//   systems); files owned by another user than the checkout's owner are shown as nobody's and
//   are only as writable as others' bits say (among them files an earlier run of the walk methods
//   left the sandbox user's when it ended before its revoke); what a command makes private (a
//   `mktemp -d`, a 0600 file) is private to the next command too, as it is to the file tools, and
//   a program only its owner may run (0744) is not run (others' bits say so). MCP
//   stdio servers, which live for the whole run, see the workspace read-only: their writes could
//   not be moved in while they run.
//
// Why this and not another way: the ACL or group walks (access.ts) write every path at set-up and
// at the end, and move every ctime; granting write access only where commands write cannot know
// where that is (a build's `target/`, `node_modules/.cache`); an idmapped bind of the workspace
// without the overlay would let commands write a store's inode (claim 10), which the upper layer
// prevents by construction; a bind-mounted copy costs a copy of every file. One overlay made with
// nobody's rights could not serve: its upper layer's copies keep the lower files' owner and mode,
// so the writes would be refused too; hence the two.
//
// It needs idmapped mounts of the workspace's file system, overlayfs over them (Linux 5.19+; the
// new mount API for the reader's overlay), and a 64-bit Perl of a known architecture. The set-up's
// trial tries exactly this on the workspace; a machine that fails it gets the ACL (or group) walks
// of access.ts.

/**
 * Syscall numbers the Perl steps use. open_tree, move_mount, mount_setattr, fsopen, fsconfig and
 * fsmount are the same on both.
 */
export interface OverlaySyscalls {
  unshare: number;
  lgetxattr: number;
  lremovexattr: number;
  fchownat: number;
  mknodat: number;
  mount: number;
  setfsuid: number;
  setfsgid: number;
  setgroups: number;
}

const SYSCALLS: Readonly<Record<string, OverlaySyscalls>> = {
  x64: {
    unshare: 272,
    lgetxattr: 192,
    lremovexattr: 198,
    fchownat: 260,
    mknodat: 259,
    mount: 165,
    setfsuid: 122,
    setfsgid: 123,
    setgroups: 116,
  },
  arm64: {
    unshare: 97,
    lgetxattr: 9,
    lremovexattr: 15,
    fchownat: 54,
    mknodat: 33,
    mount: 40,
    setfsuid: 151,
    setfsgid: 152,
    setgroups: 159,
  },
};

export function overlaySyscalls(): OverlaySyscalls | undefined {
  return SYSCALLS[process.arch];
}

// As root in the command's namespace, before the workspace's top folder is hidden (the hiding
// rebinds the workspace with what is mounted on it): one program for every mount the overlay needs.
//  1. The command's layer: `<layer>/up` (the sandbox user's, 0755: it is the overlay's top folder)
//     and `<layer>/work`; in the stash, when there are paths to cover, the empty 0000 folder `d`
//     and file `f` that cover them.
//  2. The idmapped clone of the workspace's mount tree at `<stash>/l` (open_tree OPEN_TREE_CLONE |
//     AT_RECURSIVE, mount_setattr MOUNT_ATTR_IDMAP, move_mount): the idmap is that of a user
//     namespace whose only mapping is the checkout's owner → the sandbox user (uid and gid), made by
//     a child that exists only to be mapped and is gone when this step ends. With a reader, the
//     read-only overlay of that clone made with the reader's rights, at `<stash>/a`.
//  3. The overlay on the workspace: the lower layer of step 2 below, the layer above (view
//     `in-place`, tests only: the clone itself, bound on the workspace). View `probe` (the set-up's
//     trial) first checks the reader's overlay on a probe tree of its own.
//  4. Each private folder covered by `d` and each private file by `f`, bound read-only (mount(2)
//     MS_BIND, then MS_REMOUNT | MS_BIND | MS_RDONLY). A path that is no longer a folder (or file),
//     or is a link, is passed over: its inode was checked just before the launch (verify), and no
//     command of this namespace has run yet.
// Paths arrive as arguments; the overlay's options name only the stash and the layer, whose
// paths the set-up checked to hold no separator.
export const PREP_STEP = String.raw`use strict;
my ($view, $unshare, $mnr, $ws, $stash, $layer, $fu, $tu, $fg, $tg, $reader, $sfu, $sfg, $sgr, $nd, $nf, @rest) = @ARGV;
sub fail { print STDERR "patchloop sandbox: the workspace's overlay: $_[0]\n"; exit 125; }
my $none = undef;
my $empty = "";
# tests only: the idmapped clone itself, bound on the workspace (there is no layer to write to)
$reader = '' if $view eq 'in-place';
sub mnt { my ($src, $dst, $type, $flags, $data) = @_;
  syscall(0 + $mnr, defined $src ? "" . $src : $none, "" . $dst, defined $type ? "" . $type : $none, 0 + $flags, defined $data ? "" . $data : $none) == 0 or fail("mount $dst: $!"); }
# the user namespace whose idmap is the checkout's owner -> the sandbox user (a child that exists only to be mapped)
pipe(my $r, my $w) or fail("pipe: $!");
pipe(my $r2, my $w2) or fail("pipe: $!");
my $pid = fork() // fail("fork: $!");
if ($pid == 0) {
  close $r; close $w2;
  syscall(0 + $unshare, 0x10000000) == 0 or exit 1;
  syswrite $w, "1"; close $w;
  sysread $r2, my $x, 1; exit 0;
}
close $w; close $r2;
sysread($r, my $x, 1) or fail("no user namespace for the idmap");
for (["uid_map", "$fu $tu 1\n"], ["gid_map", "$fg $tg 1\n"]) {
  open(my $h, '>', "/proc/$pid/$_->[0]") or fail("$_->[0]: $!");
  print $h $_->[1]; close($h) or fail("$_->[0]: $!");
}
open(my $ns, '<', "/proc/$pid/ns/user") or fail("ns: $!");
close $w2; waitpid $pid, 0;
mkdir("$stash/e", 0755) or fail("$stash/e: $!");
# $src's mount tree, idmapped, at $at/l; with a reader, the read-only overlay of it made with the
# reader's rights at $at/a (returned: the lower layer the command's overlay is to use)
sub idmapped { my ($src, $at) = @_;
  mkdir("$at/l") or fail("$at/l: $!");
  my $fd = syscall(428, -100, "" . $src, 1 | 0x80000 | 0x8000);
  $fd >= 0 or fail("open_tree: $!");
  my $attr = pack('QQQQ', 0x00100000, 0, 0, fileno($ns));
  syscall(442, $fd, $empty, 0x1000 | 0x8000, $attr, 32) == 0 or fail("idmapped mount: $!");
  syscall(429, $fd, $empty, -100, "$at/l", 4) == 0 or fail("move_mount: $!");
  return "$at/l" if $reader eq '';
  mkdir("$at/a") or fail("$at/a: $!");
  # the layers by descriptor: the reader may not enter the stash, and needs not
  sysopen(my $l, "$at/l", 0x200000 | 0x10000) or fail("$at/l: $!");
  sysopen(my $e, "$stash/e", 0x200000 | 0x10000) or fail("$stash/e: $!");
  my $fs = syscall(430, my $t = "overlay", 1);
  $fs >= 0 or fail("fsopen: $!");
  my $lower = "/proc/self/fd/" . fileno($l) . ":/proc/self/fd/" . fileno($e);
  syscall(431, $fs, 1, my $k = "lowerdir", $lower, 0) == 0 or fail("lowerdir: $!");
  # the overlay keeps the credentials it is made with and checks every access to a layer with them
  # as well as with the caller's: made as the reader (no groups, and, once the file system uid is not
  # root, none of root's file capabilities), it opens only what others may
  my $g = pack('L', 0);
  syscall(0 + $sgr, 0, $g) == 0 or fail("setgroups: $!");
  syscall(0 + $sfg, 0 + $reader); syscall(0 + $sfu, 0 + $reader);
  # (setfsuid says nothing when it fails; asked with -1, each returns the id in force)
  syscall(0 + $sfu, -1) == $reader && syscall(0 + $sfg, -1) == $reader or fail("the reader's ids did not take");
  my $made = syscall(431, $fs, 6, 0, 0, 0);
  my $why = $!;
  syscall(0 + $sfu, 0); syscall(0 + $sfg, 0);
  $made == 0 or fail("the reader's overlay: $why");
  my $m = syscall(432, $fs, 1, 0);
  $m >= 0 or fail("fsmount: $!");
  syscall(429, $m, $empty, -100, "$at/a", 4) == 0 or fail("move_mount: $!");
  return "$at/a";
}
if ($view eq 'probe') {
  # the trial's own check that the kernel keeps the reader's rights: an owner-only file of the
  # checkout's owner, through the very mounts, must not open (root's own rights pass the caller's check)
  my $p = "$stash/p"; mkdir($p, 0755) or fail("$p: $!");
  for (["o", 0644], ["s", 0600]) { open(my $h, '>', "$p/$_->[0]") or fail("$p: $!"); print $h "x"; close $h;
    chmod($_->[1], "$p/$_->[0]"); chown($fu, $fg, "$p/$_->[0]") or fail("chown: $!"); }
  chown($fu, $fg, $p) or fail("chown: $!");
  mkdir("$stash/q") or fail("$stash/q: $!");
  my $at = idmapped($p, "$stash/q");
  open(my $o, '<', "$at/o") or fail("the probe's public file: $!");
  !open(my $s, '<', "$at/s") && $! == 13 or fail("an owner-only file opens through the reader's overlay");
}
mkdir("$layer") or fail("$layer: $!");
for ("$layer/up", "$layer/work") { mkdir($_, 0755) or fail("$_: $!"); }
chown($tu, $tg, "$layer/up") or fail("chown: $!");
if ($nd + $nf) {
  mkdir("$stash/d", 0) or fail("$stash/d: $!"); chmod(0, "$stash/d");
  open(my $fh, '>', "$stash/f") or fail("$stash/f: $!"); close $fh; chmod(0, "$stash/f");
}
my $lower = idmapped($ws, $stash);
if ($view eq 'in-place') { mnt($lower, $ws, undef, 4096 | 16384, undef); }
else { mnt("overlay", $ws, "overlay", 0, "lowerdir=$lower,upperdir=$layer/up,workdir=$layer/work,redirect_dir=off,index=off,metacopy=off,xino=off"); }
my @folders = @rest[0 .. $nd - 1]; my @files = @rest[$nd .. $nd + $nf - 1];
for my $p (@folders) { next unless -d $p && !-l $p; mnt("$stash/d", $p, undef, 4096, undef); mnt(undef, $p, undef, 4096 | 32 | 1, undef); }
for my $p (@files) { next unless -f $p && !-l $p; mnt("$stash/f", $p, undef, 4096, undef); mnt(undef, $p, undef, 4096 | 32 | 1, undef); }
exit 0;`;

// As root, after the command has ended: moves the upper layer $up into the workspace $ws. Entries
// are taken folder by folder, a folder before what it holds, so the folder an entry goes into has
// been made a real folder (not a link) by this step when it was not one: nothing written here
// follows a link of the checkout's, and nothing else writes in the workspace meanwhile (no command
// runs; the file tools wait for this result). A whiteout (a 0/0 character device) removes its path;
// an opaque folder (a folder removed and made again) loses what it held before; a file or link is
// renamed in (copied when the layer is on another file system), owned by the checkout's owner,
// its mode without setuid, setgid or sticky bits and without the ACL a command may have set on it
// (it would name the sandbox user on the checkout after the run). `.git` and the covered private paths are never
// touched. Prints "applied N" and one "error PATH: WHY" line per entry left out.
export const APPLY_STEP = String.raw`use strict;
use Fcntl qw(:mode O_RDONLY O_WRONLY O_CREAT O_EXCL O_NOFOLLOW);
my ($lgetxattr, $lremovexattr, $fchownat, $mknodat, $follow, $spare, $up, $ws, $uid, $gid, $state, $n, @rest) = @ARGV;
my @hidden = @rest[0 .. $n - 1];
my ($applied, @errors) = (0);
sub err { my ($p, $why) = @_; $p =~ s/[\x00-\x1f\x7f]/?/g; push @errors, "$p: $why"; }
sub covers { my ($r) = @_; for my $h (@hidden) { return 1 if $h eq $r || index($h, "$r/") == 0 || index($r, "$h/") == 0; } return 0; }
sub opaque { my $p = "" . $_[0]; my $name = "trusted.overlay.opaque"; my $buf = "\0" x 8;
  my $got = syscall(0 + $lgetxattr, $p, $name, $buf, 8); return $got > 0 && substr($buf, 0, $got) eq 'y'; }
# ENODATA (61): it had none; EOPNOTSUPP (95): the file system keeps none
sub noacl { my $p = "" . $_[0]; for my $x ("system.posix_acl_access", "system.posix_acl_default") { my $name = "" . $x;
  return 0 if syscall(0 + $lremovexattr, $p, $name) != 0 && $! != 61 && $! != 95; } return 1; }
sub lchown { syscall(0 + $fchownat, -100, "" . $_[0], 0 + $uid, 0 + $gid, 0x100) == 0; }
# what others may not read (a file) or list and enter (a folder): no command could have seen it, so
# none removes or replaces it (an earlier step's credentials swapped for a command's own)
sub private { my @s = lstat $_[0] or return 0; my $m = $s[2];
  return S_ISDIR($m) ? ($m & 5) != 5 : S_ISREG($m) ? !($m & 4) : 0; }
my $held;
# removes a tree without following a link (lstat: a link is removed, never entered); with $guard
# (a path of the checkout), a private path in it stays, with the folders above it
sub rmtree { my ($p, $guard) = @_; my @s = lstat $p or return 1;
  if ($guard && private($p)) { $held = 1; return 0; }
  if (-d _) { opendir(my $h, $p) or return 0; my @e = grep { $_ ne '.' && $_ ne '..' } readdir $h; closedir $h;
    my $ok = 1; for (@e) { rmtree("$p/$_", $guard) or $ok = 0; } return $ok && rmdir $p; }
  return unlink $p; }
sub remove { my ($r) = @_; my $p = "$ws/$r";
  return 1 unless defined((lstat $p)[2]);
  if (covers($r)) { err($r, "holds a private path: left in place"); return 0; }
  $held = 0;
  rmtree($p, !$spare) or do { err($r, $held ? "is or holds a private path: left in place" : "could not be removed: $!"); return 0; }; return 1; }
sub copyin { my ($src, $dst, $mode) = @_;
  my $tmp = "$dst.patchloop-$$";
  if (S_ISLNK($mode)) { my $t = readlink($src); defined $t or return 0; symlink($t, $tmp) or return 0; }
  elsif (S_ISFIFO($mode)) { syscall(0 + $mknodat, -100, "" . $tmp, S_IFIFO | 0600, 0) == 0 or return 0; }
  elsif (!S_ISREG($mode)) { return 1; }
  else {
    sysopen(my $in, $src, O_RDONLY | O_NOFOLLOW) or return 0;
    sysopen(my $out, $tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600) or return 0;
    my $buf; while ((my $got = sysread($in, $buf, 1 << 20)) > 0) { syswrite($out, $buf) == $got or return 0; }
    close $out or return 0; my @s = lstat $src; utime($s[8], $s[9], $tmp);
  }
  rename($tmp, $dst) or do { unlink $tmp; return 0; }; return 1; }
sub walk { my ($rel) = @_;
  my $dir = $rel eq '' ? $up : "$up/$rel";
  opendir(my $dh, $dir) or return err($rel, "could not be read: $!");
  my @names = sort grep { $_ ne '.' && $_ ne '..' } readdir $dh; closedir $dh;
  for my $name (@names) {
    my $r = $rel eq '' ? $name : "$rel/$name";
    next if $r eq '.git';
    my ($src, $dst) = ("$up/$r", "$ws/$r");
    my @s = lstat $src or do { err($r, "vanished"); next; };
    my $mode = $s[2];
    if (grep { $_ eq $r || index($r, "$_/") == 0 } @hidden) { err($r, "a private path: left in place"); next; }
    if (S_ISCHR($mode) && $s[6] == 0) { $applied++ if remove($r); next; }
    if (S_ISDIR($mode)) {
      my @d = $follow ? stat $dst : lstat $dst;
      if (@d && !S_ISDIR($d[2])) { remove($r) or next; @d = (); }
      if (@d && !$spare && private($dst)) { err($r, "a private path: left in place"); next; }
      my $made = !@d;
      if ($made) { mkdir($dst, 0700) or do { err($r, "could not be made: $!"); next; }; $applied++;
        lchown($dst) or err($r, "could not be given to the checkout's owner: $!"); }
      elsif (opaque($src)) {
        opendir(my $h, $src) or do { err($r, "could not be read: $!"); next; };
        my %keep = map { $_ => 1 } readdir $h; closedir $h;
        if (opendir(my $old, $dst)) {
          my @gone = grep { $_ ne '.' && $_ ne '..' && !$keep{$_} } readdir $old; closedir $old;
          for my $o (@gone) { $applied++ if remove("$r/$o"); }
        }
      }
      # a folder only passed through keeps its inode untouched (no ctime for git to see)
      chmod($mode & 0777, $dst) if $made || ((lstat $dst)[2] & 07777) != ($mode & 0777);
      walk($r);
      next;
    }
    if (S_ISREG($mode) || S_ISLNK($mode) || S_ISFIFO($mode) || S_ISSOCK($mode)) {
      my @d = lstat $dst;
      if (@d && !$spare && private($dst)) { err($r, "a private path: left in place"); next; }
      if (@d && S_ISDIR($d[2])) { remove($r) or next; }
      if (!rename($src, $dst)) {
        if ($! == 18) { copyin($src, $dst, $mode) or do { err($r, "could not be copied in: $!"); next; }; }
        else { err($r, "could not be moved in: $!"); next; }
      }
      # a file still the sandbox user's, or with its ACL, is reported, not passed over
      lchown($dst) or err($r, "could not be given to the checkout's owner: $!");
      S_ISLNK($mode) or noacl($dst) or err($r, "its ACL could not be removed: $!");
      S_ISLNK($mode) or chmod($mode & 0777, $dst) or err($r, "its mode could not be set: $!");
      $applied++;
      next;
    }
    err($r, "a device: left out");
  }
}
walk('');
# the command's own layer (its work folder is 0000): no guard
rmtree($state, 0) unless @errors;
print "applied $applied\n";
print "error $_\n" for @errors;
exit 0;`;

export const PERL_FLAGS = ['-t', '-X'] as const;

/** Past this many private paths the overlay is not used: each is covered in every command's namespace. */
export const MAX_PRIVATE_PATHS = 5000;

/** Programs the overlay's steps run, by absolute path. */
export interface OverlayBins {
  find: string;
  perl: string;
  unshare: string;
  mount: string;
  mkdir: string;
  rm: string;
}

interface Identity {
  dev: number;
  ino: number;
}

export interface OverlayAccess {
  /** The checkout's owner, shown to commands as the sandbox user and owner of what they write. */
  owner: { uid: number; gid: number };
  /**
   * The id whose rights (others') the lower layer is opened with, by the reader's overlay: the
   * kernel then refuses what others may not read. Undefined: the private paths are covered instead.
   */
  reader?: number;
  /** Absolute paths of the private folders and files, covered in each command's namespace. */
  hidden: { folders: string[]; files: string[] };
  /** patchloop's folder of upper layers (0700); each command gets `<state>/<n>/{up,work}`. */
  state: string;
  /** The next command's number. */
  next: number;
  /** Tests only: the move takes a link to a folder for the folder (what its lstat checks stop). */
  followLinks?: boolean;
  /** Tests only: the move removes and replaces private paths of the checkout as any other. */
  replacesPrivate?: boolean;
  /**
   * Throws SandboxSetupError when a covered path is no longer the inode the walk found, or is
   * reached through a link: covering it then could miss it, so no command runs.
   */
  verify(): void;
  /** Moves command `n`'s upper layer into the workspace; a note for the model when some of it could not be. */
  apply(n: number): Promise<string | undefined>;
  /** Removes the state folder and every upper layer left in it. */
  dispose(): Promise<void>;
}

/** The overlay options take paths as comma- and colon-separated text: other characters only. */
export function isPlainPath(path: string): boolean {
  return /^[^,:\\\s]+$/.test(path);
}

/** The user (and group) whose rights the reader's overlay opens the checkout with: nobody's. */
export function readerId(...taken: number[]): number {
  return [65534, 65533, 65532].find((id) => !taken.includes(id))!;
}

/** Arguments of PREP_STEP after the layer: the ids, the reader, its syscalls, the covered paths. */
export function prepArgs(
  numbers: OverlaySyscalls,
  owner: { uid: number; gid: number },
  sandbox: { uid: number; gid: number },
  reader: number | undefined,
  hidden: { folders: string[]; files: string[] },
): string[] {
  return [
    String(owner.uid),
    String(sandbox.uid),
    String(owner.gid),
    String(sandbox.gid),
    reader === undefined ? '' : String(reader),
    String(numbers.setfsuid),
    String(numbers.setfsgid),
    String(numbers.setgroups),
    String(hidden.folders.length),
    String(hidden.files.length),
    ...hidden.folders,
    ...hidden.files,
  ];
}

/**
 * Whether a command's mounts can be made here: the very steps, once, in a throwaway namespace, on
 * the workspace itself. First with the reader's overlay, which must also keep an owner-only probe
 * file shut (`filter`); where that fails or the workspace's top folder is not open to others,
 * without it (the private paths are then found by a walk and covered). A string: why neither (a
 * workspace on an overlay, say, which cannot be idmapped). Constant cost.
 */
export async function tryOverlay(
  root: RootAccess,
  workspace: string,
  bins: OverlayBins,
  numbers: OverlaySyscalls,
): Promise<{ filter: boolean } | string> {
  const top = lstatSync(workspace);
  const owner = { uid: top.uid, gid: top.gid };
  // the sandbox user is not known yet: any other id stands for it
  const stand = readerId(owner.uid, owner.gid);
  const sandbox = { uid: stand, gid: stand };
  const attempt = async (filter: boolean) => {
    const state = mkdtempSync(join(tmpdir(), 'patchloop-overlay-probe-'));
    try {
      if (!isPlainPath(state)) return `${state} cannot be named in the overlay's options`;
      const r = await asRoot(root, bins.unshare, [
        '--mount',
        '--propagation',
        'private',
        '--',
        bins.perl,
        ...PERL_FLAGS,
        '-e',
        PREP_STEP,
        '--',
        filter ? 'probe' : 'overlay',
        String(numbers.unshare),
        String(numbers.mount),
        workspace,
        state,
        join(state, 'layer'),
        ...prepArgs(numbers, owner, sandbox, filter ? readerId(owner.uid, owner.gid, stand) : undefined, {
          folders: [],
          files: [],
        }),
      ]);
      if (r.code === 0) return undefined;
      return `no idmapped overlay of the workspace here (${firstLine(r.stderr) || `exit ${r.code}`})`;
    } finally {
      await asRoot(root, bins.rm, ['-rf', '--', state]);
    }
  };
  // the reader must be let into the top folder and list it, or commands could open nothing
  if ((top.mode & 0o005) === 0o005 && (await attempt(true)) === undefined) return { filter: true };
  const why = await attempt(false);
  return why ?? { filter: false };
}

/**
 * The private folders and files of the workspace, by one read-only walk (find stats each path and
 * prints; nothing is written, no ctime moves), with their inodes; files the sandbox user owns are
 * given to the checkout's owner on the way.
 */
async function findPrivate(
  root: RootAccess,
  workspace: string,
  bins: OverlayBins & { chown: string },
  owner: { uid: number; gid: number },
  sandboxUid: number,
): Promise<Map<string, Identity & { folder: boolean }>> {
  const git = join(workspace, '.git');
  // read only: find stats each path and prints; nothing is written, no ctime moves. What it looks
  // for, in this order: a private folder (printed, not entered), a private file, a path the sandbox
  // user owns.
  const tests = [
    '-type',
    'd',
    '!',
    '-perm',
    '-001',
    '-prune',
    '-printf',
    'd%p\\0',
    '-o',
    '-type',
    'f',
    '!',
    '-perm',
    '-004',
    '-printf',
    'f%p\\0',
    '-o',
    '-user',
    String(sandboxUid),
    '-printf',
    'u%p\\0',
  ];
  const walk = async (args: string[]) => {
    // what it prints can be long (the second-level folders of a large node_modules, an earlier
    // run's files): a bound far past any checkout, and time for a slow disk
    const r = await asRoot(root, bins.find, args, { maxBuffer: 1 << 30, timeoutMs: 30 * 60_000 });
    if (r.code !== 0)
      throw new SandboxSetupError(
        `could not list the workspace's private paths: ${firstLine(r.stderr) || `exit ${r.code}`}`,
      );
    return r.stdout;
  };
  // The walk is the set-up's one cost that grows with the checkout, and it is the kernel's work
  // (directory reads and stats), so it is shared among the processors: a first find goes two
  // levels down and prints each folder at the second level ('r') instead of entering it, and
  // those folders are split among as many finds as there are processors.
  // (each starting point of the deeper finds is looked at by them: printed 'u' there if it is the
  // sandbox user's; only a folder others may enter is one)
  const glob = workspace.replace(/[[\]*?\\]/g, '\\$&');
  const shallow = await walk([
    workspace,
    '-maxdepth',
    '2',
    '(',
    '-path',
    git,
    '-prune',
    '-o',
    '-samefile',
    workspace,
    '-o',
    '-path',
    `${glob}/*/*`,
    '-type',
    'd',
    '-perm',
    '-001',
    '-printf',
    'r%p\\0',
    '-o',
    ...tests,
    ')',
  ]);
  const roots = shallow
    .split('\0')
    .filter((r) => r[0] === 'r')
    .map((r) => r.slice(1));
  const lanes = Math.max(1, Math.min(availableParallelism(), 8, roots.length));
  const deep = await Promise.all(
    Array.from({ length: roots.length ? lanes : 0 }, (_, i) =>
      walk([...roots.filter((_, j) => j % lanes === i), ...tests]),
    ),
  );
  const identity = new Map<string, Identity & { folder: boolean }>();
  const records = [shallow, ...deep].join('\0').split('\0').filter(Boolean);
  // What the sandbox user owns in the checkout was made by commands of an earlier run that shared
  // the workspace by the walks (access.ts): through the idmap it would be nobody's, and no command
  // could change it. It becomes the checkout owner's, as what the overlay moves in is.
  const theirs = records.filter((r) => r[0] === 'u').map((r) => r.slice(1));
  for (let i = 0; i < theirs.length; i += 500) {
    const r = await asRoot(root, bins.chown, [
      '-h',
      '--',
      `${owner.uid}:${owner.gid}`,
      ...theirs.slice(i, i + 500),
    ]);
    if (r.code !== 0)
      throw new SandboxSetupError(
        `could not give an earlier run's files back to the checkout's owner: ${firstLine(r.stderr) || `exit ${r.code}`}`,
      );
  }
  for (const rec of records) {
    if (rec[0] !== 'd' && rec[0] !== 'f') continue;
    const p = rec.slice(1);
    try {
      const st = lstatSync(p);
      identity.set(p, { dev: st.dev, ino: st.ino, folder: rec[0] === 'd' });
    } catch {
      // gone since the walk: nothing to cover
    }
  }
  return identity;
}

/**
 * The set-up of the overlay method: the state folder and, where the reader's overlay cannot be had
 * (`filter` false), one read-only walk for the private paths to cover. Returns why not when the
 * workspace holds too many of them; throws SandboxSetupError when the walk failed.
 */
export async function openOverlay(
  root: RootAccess,
  workspace: string,
  bins: OverlayBins & { chown: string },
  numbers: OverlaySyscalls,
  sandbox: { uid: number; gid: number },
  filter: boolean,
): Promise<OverlayAccess | string> {
  const top = lstatSync(workspace);
  const owner = { uid: top.uid, gid: top.gid };
  // With the reader's overlay, nothing is walked: the kernel refuses what others may not open.
  const identity = filter
    ? new Map<string, Identity & { folder: boolean }>()
    : await findPrivate(root, workspace, bins, owner, sandbox.uid);
  if (identity.size > MAX_PRIVATE_PATHS)
    return `the workspace holds ${identity.size} paths others may not read (more than ${MAX_PRIVATE_PATHS})`;
  const state = mkdtempSync(join(tmpdir(), 'patchloop-overlay-'));
  if (!isPlainPath(state)) {
    rmSync(state, { recursive: true, force: true });
    return `${state} cannot be named in the overlay's options`;
  }
  const relative = (p: string) => p.slice(workspace.length + 1);
  const access: OverlayAccess = {
    owner,
    ...(filter ? { reader: readerId(owner.uid, owner.gid, sandbox.uid, sandbox.gid) } : {}),
    hidden: {
      folders: [...identity].filter(([, i]) => i.folder).map(([p]) => p),
      files: [...identity].filter(([, i]) => !i.folder).map(([p]) => p),
    },
    state,
    next: 0,
    verify() {
      for (const [p, id] of identity) {
        let same: boolean;
        try {
          const st = lstatSync(p);
          same = st.dev === id.dev && st.ino === id.ino && realpathSync(p) === p;
        } catch {
          // removed (by patchloop's own git, or the file tools' delete): nothing left to cover
          same = !existsQuiet(p);
        }
        if (!same)
          throw new SandboxSetupError(`${relative(p)} is no longer the private path the set-up covered`);
      }
    },
    async apply(n) {
      const dir = join(state, String(n));
      // a command that wrote nothing (the layer is the sandbox user's 0755 folder): no step to run;
      // its empty layer goes with the state folder
      try {
        if (readdirSync(join(dir, 'up')).length === 0) return undefined;
      } catch {
        // unreadable or missing: the step says what it finds
      }
      const r = await detachedAsRoot(root, bins.perl, [
        ...PERL_FLAGS,
        '-e',
        APPLY_STEP,
        '--',
        String(numbers.lgetxattr),
        String(numbers.lremovexattr),
        String(numbers.fchownat),
        String(numbers.mknodat),
        access.followLinks ? '1' : '0',
        access.replacesPrivate ? '1' : '0',
        join(dir, 'up'),
        workspace,
        String(owner.uid),
        String(owner.gid),
        dir,
        String(identity.size),
        ...[...identity.keys()].map(relative),
      ]);
      if (r.code !== 0)
        return `what the command wrote could not be moved into the workspace (${firstLine(r.stderr) || `exit ${r.code}`}); it is kept in ${dir}`;
      const errors = r.stdout
        .split('\n')
        .filter((l) => l.startsWith('error '))
        .map((l) => l.slice(6));
      if (!errors.length) return undefined;
      return `${errors.length} of the command's changes could not be moved into the workspace (kept in ${dir}): ${errors.slice(0, 5).join('; ')}`;
    },
    async dispose() {
      // upper layers hold the sandbox user's files: root removes them
      await asRoot(root, bins.rm, ['-rf', '--', state]);
    },
  };
  return access;
}

function existsQuiet(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs a program as root in a process group of its own, with no time limit: the move of a layer
 * into the checkout must not be cut short by a Ctrl-C meant for patchloop (the terminal signals
 * the whole foreground group) or by a timer, or the rest of the command's work would be lost.
 */
function detachedAsRoot(root: RootAccess, bin: string, args: string[]): Promise<RunResult> {
  const [file, rest] = rootArgv(root, bin, args);
  return new Promise((done) => {
    const child = spawn(file, rest, {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.once('error', (e) => done({ code: 127, stdout: '', stderr: e.message }));
    child.once('close', (code) =>
      done({
        code: code ?? 1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
  });
}
