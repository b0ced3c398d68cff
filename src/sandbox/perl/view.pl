# A command's view of the machine (see view.ts and launch.ts), built as root first thing in the
# command's new mount, PID (and network) namespace, by this one process with direct system calls;
# then the command's next step is exec'd. The mounts are private to the namespace (unshare makes
# propagation private), so they vanish with it and nothing outside changes. prep.pl is part of
# the same program (launch.ts runs the two as one): the overlay's mounts are made by it here.
#
# Arguments, all named (--name=value), then `--` and the command line to exec:
#   --workspace --stash --cwd  the checkout; an existing folder outside the view's sources, which a
#                private tmpfs covers (the parked binds, the new root); the folder to enter at the end
#   --owner      UID:GID of the sandbox user (its HOME)       --home  the command's HOME in the view
#   --view       overlay | in-place | read-only | shared (how the workspace is shown)
#   --cache      the run's cache folder, bound at HOME/.cache ('' for none)
#   --account-home  the sandbox account's home, made a link to HOME ('' for none)
#   --read-only  (repeats) bound read-only at its own path, parked before the overlay is mounted
#   --tree       (repeats) a system folder bound read-only, with every mount below it
#   --scratch    (repeats) a fresh tmpfs every user may write to
#   --cover      (repeats) a folder of the view covered by an empty tmpfs
#   --bind=SRC --at=DST   (repeat) a home folder bound read-only, recursively
#   --layered    (repeats) a --bind source given a per-run writable layer instead (view.ts)
#   --layers     the run's folder of those layers ('' for none: every home folder read-only)
#   --layer-reader  the id whose rights the layers' lower layer is opened with (overlay.ts's reader)
#   --file=SRC --at=DST   (repeat) a single file bound read-only
#   --blank      (repeats) a path covered by an empty file or folder, read-only
#   --link=PATH --to=TARGET  (repeat) a symbolic link made again in the view
#   --rlimit=NAME:SOFT:HARD  (repeats; cpu, fsize, data, nproc, nofile) set just before the exec
#   --oom-first  1: the out-of-memory killer takes the command first (oom_score_adj 1000)
#   --fresh-keyring  1: a session keyring of its own (the sandbox user's keyrings emptied first)
#   --keep-bounding-set  1 (tests only): the capability bounding set is left as it is
#   --net-lo     1: bring the network namespace's loopback up
#   --bridge-node --bridge-dir --bridge-uid --bridge-gid --bridge-code  the network proxy's bridge
#   --sys-NAME   syscall numbers of this architecture (overlay.ts's table)
#   --prep ARGS --end  prep.pl's own arguments (overlay and in-place only)
#
# Steps, in this order (what launch.ts's comment above the bash version says, which is kept for
# machines without Perl):
#  0. The network namespace's loopback is brought up and, with a host list, the bridge to the
#     proxy is started (as the sandbox user) in the proxy's folder, before anything covers it; its
#     port goes into the proxy variables.
#  1. The binds that must be taken before the overlay is mounted (the checkout's own `.git`, the
#     saved outputs) are parked under a tmpfs on the stash. With the overlay, prep.pl then mounts
#     the command's overlay on the workspace and covers its private paths.
#  2. A new root is built on a tmpfs from the allowlist: the system folders, bound read-only with
#     every mount below them (each keeping its nosuid, nodev, noexec and atime flags); fresh /tmp,
#     /var/tmp and /dev/shm; empty tmpfs over the private folders inside those trees and over the
#     way down to a workspace that lies in one; the command's HOME with the run's cache folder and
#     the runner's toolchain folders (read-only; a credential file in one covered by an empty file,
#     Maven's settings by an empty <settings/>; the --layered ones, with --layers, as an overlay
#     with a writable upper layer of the run's own: home_layer below, and read-only where it cannot
#     be made, with why in PATCHLOOP_HOME_READ_ONLY); single files /etc links to; the workspace; the
#     parked binds, read-only; /proc of the command's PID namespace, /sys read-only (without the
#     cgroups below it) and a few device nodes with a pseudo-terminal instance of its own. Links
#     come last, so nothing is made through one.
#  3. pivot_root moves the namespace into it, and the old root is detached: whatever the machine
#     holds beyond the allowlist is not in the command's namespace at all.
#  4. The working folder is entered again in the new root; the limits are set.
#  5. The sandbox user's ids, no groups, no capabilities, no new privileges (checked in
#     /proc/self/status); a session keyring of its own; the rest of the command line is exec'd.
# Every failure ends it with exit 125 and "patchloop sandbox: ..." on stderr: no command runs.
package main;
use strict;

# PERL_UNICODE (the command's environment; -t does not ignore it) may have decoded the arguments
for (@ARGV) { utf8::encode($_) if utf8::is_utf8($_); }

sub fail { print STDERR "patchloop sandbox: $_[0]\n"; exit 125; }

my (%arg, @prep, @cmd);
my %list = map { $_ => [] } qw(read-only tree scratch cover blank bind file link rlimit layered);
my %pair = (bind => 'at', file => 'at', link => 'to');
{
  my ($i, $ended) = (0, 0);
  while ($i < @ARGV) {
    my $a = $ARGV[$i++];
    if ($a eq '--') { $ended = 1; last; }
    if ($a eq '--prep') {
      for (;;) {
        $i < @ARGV or fail("--prep without its --end");
        push @prep, $ARGV[$i++];
        last if $prep[-1] eq '--end';
      }
      next;
    }
    $a =~ /\A--([a-z][a-z0-9_-]*)=(.*)\z/s or fail("not a named argument: $a");
    my ($k, $v) = ($1, $2);
    if (my $second = $pair{$k}) {
      my $b = $ARGV[$i++];
      defined $b && $b =~ /\A--\Q$second\E=(.*)\z/s or fail("--$k without its --$second");
      push @{ $list{$k} }, [$v, $1];
    } elsif ($list{$k}) {
      push @{ $list{$k} }, $v;
    } else {
      exists $arg{$k} and fail("--$k given twice");
      $arg{$k} = $v;
    }
  }
  $ended && $i < @ARGV or fail("no command line after --");
  @cmd = @ARGV[$i .. $#ARGV];
}
sub need { my $v = $arg{$_[0]}; defined $v or fail("--$_[0] is missing"); return $v; }
sub num { my $v = need($_[0]); $v =~ /\A-?[0-9]+\z/ or fail("--$_[0] is not a number"); return 0 + $v; }
sub path { my $v = need($_[0]); $v =~ m{\A/} or fail("--$_[0] is not an absolute path"); return $v; }
my %nr = map { $_ => num("sys-$_") }
  qw(mount umount2 pivot_root prlimit64 setgroups setresuid setresgid capset prctl keyctl);
my ($ws, $stash, $cwd, $home) = (path('workspace'), path('stash'), path('cwd'), path('home'));
my $view = need('view');
$view =~ /\A(overlay|in-place|read-only|shared)\z/ or fail("--view is not known: $view");
need('owner') =~ /\A([0-9]+):([0-9]+)\z/ or fail("--owner is not UID:GID");
my ($uid, $gid) = (0 + $1, 0 + $2);
my ($cache, $uhome) = (need('cache'), need('account-home'));
for my $k (qw(read-only tree scratch cover blank layered)) {
  m{\A/} or fail("--$k is not an absolute path: $_") for @{ $list{$k} };
}
for my $k (qw(bind file link)) {
  for (@{ $list{$k} }) {
    $_->[0] =~ m{\A/} or fail("--$k is not an absolute path: $_->[0]");
    $k eq 'link' || $_->[1] =~ m{\A/} or fail("--at is not an absolute path: $_->[1]");
  }
}
@prep && $view !~ /\A(overlay|in-place)\z/ and fail("--prep is for the overlay only");
my $layers = $arg{layers} // '';
my ($hreader, %hnr, $HO_DIRECTORY) = ('');
if ($layers ne '') {
  $layers =~ m{\A/[^,:\\\s]*\z} or fail("--layers is not a plain absolute path");
  $hreader = need('layer-reader');
  $hreader =~ /\A[0-9]+\z/ or fail("--layer-reader is not an id");
  %hnr = map { $_ => num("sys-$_") }
    qw(unshare setfsuid setfsgid open_tree move_mount mount_setattr fsopen fsconfig fsmount);
  $HO_DIRECTORY = num('o-directory');
}

# the same on x86_64 and aarch64
my ($MS_RDONLY, $MS_NOSUID, $MS_NODEV, $MS_NOEXEC, $MS_REMOUNT, $MS_NOSYMFOLLOW, $MS_NOATIME, $MS_NODIRATIME,
  $MS_BIND, $MS_REC, $MS_RELATIME, $MS_STRICTATIME) =
  (1, 2, 4, 8, 32, 256, 1024, 2048, 4096, 16384, 1 << 21, 1 << 24);
my $MNT_DETACH = 2;
my %RLIMIT = (cpu => 0, fsize => 1, data => 2, nproc => 6, nofile => 7);
# mountinfo's per-mount options that a read-only remount keeps
my %KEEP = (nosuid => $MS_NOSUID, nodev => $MS_NODEV, noexec => $MS_NOEXEC, noatime => $MS_NOATIME,
  nodiratime => $MS_NODIRATIME, relatime => $MS_RELATIME, nosymfollow => $MS_NOSYMFOLLOW);

# (syscall() passes a string as a pointer to its buffer, a number as a number, and only a bare
# undef as NULL: every string is made a fresh one, every number a number)
sub tmpfs { my ($name, $dst, $flags, $data) = @_;
  syscall($nr{mount}, "" . $name, "" . $dst, my $t = "tmpfs", 0 + $flags, "" . $data) == 0
    or fail("cannot mount a tmpfs on $dst: $!"); }
sub bindmount { my ($src, $dst, $rec) = @_;
  syscall($nr{mount}, "" . $src, "" . $dst, undef, $MS_BIND | ($rec ? $MS_REC : 0), undef) == 0
    or fail("cannot bind $src on $dst: $!"); }
# [mount point, per-mount options] of every mount of this namespace, in the order they were made
sub mounts {
  open(my $h, '<', '/proc/self/mountinfo') or fail("cannot list the mounts of the new root: $!");
  my @m;
  while (my $l = <$h>) {
    my @f = split / /, $l;
    @f > 6 or fail("cannot read the mount table");
    (my $at = $f[4]) =~ s/\\([0-7]{3})/chr(oct($1))/ge;
    push @m, [$at, $f[5]];
  }
  close $h;
  return @m;
}
sub remount_ro { my ($at, $opts) = @_;
  my %o = map { $_ => 1 } split /,/, $opts;
  my $flags = $MS_REMOUNT | $MS_BIND | $MS_RDONLY;
  $flags |= $KEEP{$_} for grep { $o{$_} } keys %KEEP;
  $flags |= $MS_STRICTATIME unless $o{noatime} || $o{relatime};
  syscall($nr{mount}, undef, "" . $at, undef, $flags, undef) == 0 or fail("cannot make $at read-only: $!"); }
my $r = "$stash/root";
# read-only: every mount in the new root that is, or lies below, one of the paths given
sub ro_below {
  my @p = map { "$r$_" } @_;
  for my $m (mounts()) {
    for my $p (@p) {
      if ($m->[0] eq $p || index($m->[0], "$p/") == 0) { remount_ro(@$m); last; }
    }
  }
}
# read-only: the mount just made at this path (the last one there)
sub ro_at { my ($at) = @_;
  my @m = grep { $_->[0] eq $at } mounts();
  @m or fail("cannot make $at read-only: it is not a mount");
  remount_ro(@{ $m[-1] }); }
# mkdir -p (the last folder with $mode)
sub mkpath { my ($p, $mode) = @_;
  my $at = '';
  my @parts = grep { length } split m{/}, $p;
  for my $n (0 .. $#parts) {
    $at .= "/$parts[$n]";
    next if -d $at;
    mkdir($at, $n == $#parts && defined $mode ? $mode : 0777) or -d $at or fail("cannot make $at: $!");
  }
}
sub touch { my ($p, $text) = @_;
  open(my $h, '>', $p) or fail("cannot make $p: $!");
  print $h $text if defined $text;
  close($h) or fail("cannot make $p: $!"); }
sub parent { my ($p) = @_; $p =~ s{/[^/]*\z}{}; return $p; }

# The per-run writable layer over a home folder (view.ts's WRITABLE_HOME_DIRS: cargo's, Maven's,
# Gradle's and Go's caches), mounted at $at: an overlay whose upper layer is the run's own
# (<layers>/<i>/up, kept from one command to the next, removed with the run) and whose lower layer
# is the folder itself, as the workspace's is (prep.pl): an idmapped clone (the folder's owner
# shown as the sandbox user, so what the owner may write can be copied up and written), opened
# through a read-only overlay made with the reader's rights (what others may not read stays shut).
# The runner's folder is never written: the lower layers are read-only, every write lands in the
# run's layer. Returns undef, or why not (the folder is then bound read-only, as before).
my $hn = 0;
my ($HO_PATH, $HO_CLOEXEC, $HAT_FDCWD, $HAT_EMPTY_PATH, $HAT_RECURSIVE) = (010000000, 02000000, -100, 0x1000, 0x8000);
my ($HOPEN_TREE_CLONE, $HMOVE_MOUNT_F_EMPTY_PATH, $HMOUNT_ATTR_IDMAP, $HCLONE_NEWUSER) = (1, 4, 0x00100000, 0x10000000);
my ($HFSCONFIG_SET_STRING, $HFSCONFIG_CMD_CREATE, $HFSOPEN_CLOEXEC) = (1, 6, 1);
sub home_layer { my ($src, $i, $at) = @_;
  my @st = lstat($src) or return "$src: $!";
  my ($ou, $og) = @st[4, 5];
  return "its owner is the reader" if $ou == $hreader || $og == $hreader;
  my $base = "$layers/$i";
  for ($base, "$base/up") { mkdir($_, 0755) or -d $_ && !-l $_ or return "$_: $!"; }
  # the overlay's top folder is the upper layer's: the sandbox user's, as the idmap shows the folder
  chown($uid, $gid, "$base/up") or return "$base/up: $!";
  # a work folder of this command's own (another command of the run may be copying up in its own)
  my $work;
  for (1 .. 50) { my $w = "$base/w" . int(rand(1e9)); if (mkdir($w, 0700)) { $work = $w; last; } }
  defined $work or return "no work folder in $base: $!";
  my $d = "$stash/h" . $hn++;
  for ($d, "$d/l", "$d/a") { mkdir($_, 0755) or return "$_: $!"; }
  unless (-d "$stash/he") { mkdir("$stash/he", 0755) or return "$stash/he: $!"; }
  # the user namespace whose idmap is the folder's owner -> the sandbox user (a child that exists only to be mapped)
  pipe(my $r1, my $w1) or return "pipe: $!";
  pipe(my $r2, my $w2) or return "pipe: $!";
  my $pid = fork() // return "fork: $!";
  if ($pid == 0) {
    close $r1; close $w2;
    syscall($hnr{unshare}, $HCLONE_NEWUSER) == 0 or exit 1;
    syswrite $w1, "1"; close $w1;
    sysread $r2, my $x, 1; exit 0;
  }
  close $w1; close $r2;
  my ($ns, $why);
  $why = "no user namespace for the idmap" unless sysread($r1, my $x, 1);
  for (["uid_map", "$ou $uid 1\n"], ["gid_map", "$og $gid 1\n"]) {
    last if defined $why;
    my $h;
    $why = "$_->[0]: $!" unless open($h, '>', "/proc/$pid/$_->[0]") && (print $h $_->[1]) && close($h);
  }
  $why = "ns: $!" if !defined $why && !open($ns, '<', "/proc/$pid/ns/user");
  close $w2; waitpid $pid, 0;
  return $why if defined $why;
  my $fd = syscall($hnr{open_tree}, $HAT_FDCWD, "" . $src, $HOPEN_TREE_CLONE | $HO_CLOEXEC | $HAT_RECURSIVE);
  $fd >= 0 or return "open_tree: $!";
  my $attr = pack('QQQQ', $HMOUNT_ATTR_IDMAP, 0, 0, fileno($ns));
  syscall($hnr{mount_setattr}, $fd, my $e1 = "", $HAT_EMPTY_PATH | $HAT_RECURSIVE, $attr, 32) == 0 or return "idmapped mount: $!";
  syscall($hnr{move_mount}, $fd, my $e2 = "", $HAT_FDCWD, "$d/l", $HMOVE_MOUNT_F_EMPTY_PATH) == 0 or return "move_mount: $!";
  # (every descriptor here is close-on-exec: none reaches the command)
  # the reader's overlay of the clone (prep.pl's idmapped(), for the workspace): layers by descriptor
  sysopen(my $l, "$d/l", $HO_PATH | $HO_DIRECTORY) or return "$d/l: $!";
  sysopen(my $e, "$stash/he", $HO_PATH | $HO_DIRECTORY) or return "$stash/he: $!";
  my $fs = syscall($hnr{fsopen}, my $t = "overlay", $HFSOPEN_CLOEXEC);
  $fs >= 0 or return "fsopen: $!";
  my $lower = "/proc/self/fd/" . fileno($l) . ":/proc/self/fd/" . fileno($e);
  syscall($hnr{fsconfig}, $fs, $HFSCONFIG_SET_STRING, my $k = "lowerdir", $lower, 0) == 0 or return "lowerdir: $!";
  syscall($nr{setgroups}, 0, my $g = pack('L', 0)) == 0 or return "setgroups: $!";
  syscall($hnr{setfsgid}, 0 + $hreader); syscall($hnr{setfsuid}, 0 + $hreader);
  my $made = -1;
  my $err = "the reader's ids did not take";
  if (syscall($hnr{setfsuid}, -1) == $hreader && syscall($hnr{setfsgid}, -1) == $hreader) {
    $made = syscall($hnr{fsconfig}, $fs, $HFSCONFIG_CMD_CREATE, 0, 0, 0);
    $err = "the reader's overlay: $!";
  }
  syscall($hnr{setfsuid}, 0); syscall($hnr{setfsgid}, 0);
  $made == 0 or return $err;
  my $m = syscall($hnr{fsmount}, $fs, $HFSOPEN_CLOEXEC, 0);
  $m >= 0 or return "fsmount: $!";
  syscall($hnr{move_mount}, $m, my $e3 = "", $HAT_FDCWD, "$d/a", $HMOVE_MOUNT_F_EMPTY_PATH) == 0 or return "move_mount: $!";
  syscall($nr{mount}, my $o = "overlay", "" . $at, my $ot = "overlay", $MS_NOSUID | $MS_NODEV,
    "lowerdir=$d/a,upperdir=$base/up,workdir=$work,redirect_dir=off,index=off,metacopy=off,xino=off") == 0
    or return "the overlay: $!";
  return undef;
}

umask 022;

# 0. the network namespace
if (($arg{'net-lo'} // '') eq '1') {
  # SIOCGIFFLAGS, SIOCSIFFLAGS with IFF_UP on a struct ifreq (16 bytes of name, then the flags;
  # 40 bytes in all): `ip link set lo up`
  socket(my $s, 2, 2, 0) or fail("the command's loopback could not be brought up: $!");
  my $req = pack('a16 s x22', 'lo', 0);
  ioctl($s, 0x8913, $req) or fail("the command's loopback could not be brought up: $!");
  $req = pack('a16 s x22', 'lo', unpack('x16 s', $req) | 1);
  ioctl($s, 0x8914, $req) or fail("the command's loopback could not be brought up: $!");
  close $s;
}
if (($arg{'bridge-node'} // '') ne '') {
  my ($node, $dir, $code) = (path('bridge-node'), path('bridge-dir'), need('bridge-code'));
  my ($bu, $bg) = (num('bridge-uid'), num('bridge-gid'));
  pipe(my $rd, my $wr) or fail("the network proxy's bridge did not start: $!");
  my $pid = fork() // fail("the network proxy's bridge did not start: $!");
  if ($pid == 0) {
    close $rd;
    # its working folder is the proxy's socket's: it connects to proxy.sock relative to it, which
    # keeps working once the folder is covered
    chdir($dir) or exit 1;
    open(STDIN, '<', '/dev/null') or exit 1;
    open(STDOUT, '>&', $wr) or exit 1;
    open(STDERR, '>', '/dev/null') or exit 1;
    %ENV = ();
    exec { $node } $node, '-e', $code, $bu, $bg;
    exit 127;
  }
  close $wr;
  my $port = <$rd>;
  close $rd;
  defined $port && $port =~ /\A([0-9]+)\n\z/ or fail("the network proxy's bridge did not start");
  my $p = "http://127.0.0.1:$1";
  $ENV{$_} = $p for qw(HTTP_PROXY HTTPS_PROXY http_proxy https_proxy ALL_PROXY all_proxy);
  $ENV{$_} = 'localhost,127.0.0.1,::1' for qw(NO_PROXY no_proxy);
  $ENV{NODE_USE_ENV_PROXY} = '1';
}

# 1. the parked binds, then the overlay
tmpfs('patchloop-stash', $stash, 0, 'mode=0700,size=64k');
my @parked = @{ $list{'read-only'} };
for my $i (0 .. $#parked) {
  my $d = $parked[$i];
  if (-l $d) { fail("$d is a symbolic link"); }
  elsif (-d $d) { mkdir("$stash/$i") or fail("cannot make $stash/$i: $!"); }
  elsif (-f $d) { touch("$stash/$i"); }
  else { fail("$d is neither a folder nor a file"); }
  bindmount($d, "$stash/$i", 0);
}
PatchloopPrep::run(@prep) if @prep;

# 2. the new root
mkdir($r) or fail("cannot make $r: $!");
tmpfs('patchloop-root', $r, $MS_NOSUID | $MS_NODEV, 'mode=0755,size=1m');
my @trees = grep { -d $_ && !-l $_ } @{ $list{tree} };
mkpath("$r$_") for @trees, '/sys';
bindmount($_, "$r$_", 1) for @trees;
# /sys without what is mounted below it (cgroups)
bindmount('/sys', "$r/sys", 0) if -d '/sys';
ro_below(@trees, '/sys');
for my $d (@{ $list{scratch} }) {
  mkpath("$r$d");
  tmpfs('patchloop-scratch', "$r$d", $MS_NOSUID | $MS_NODEV, 'mode=1777');
}
for my $d (@{ $list{cover} }) {
  fail("$d is a symbolic link") if -l "$r$d";
  tmpfs('patchloop-private', "$r$d", 0, 'mode=0755,size=64k') if -d "$r$d";
}
mkpath("$r$home", 0700);
chown($uid, $gid, "$r$home") or fail("cannot give $r$home to the sandbox user: $!");
if ($cache ne '') {
  $cache =~ m{\A/} or fail("--cache is not an absolute path");
  mkdir("$r$home/.cache") or fail("cannot make $r$home/.cache: $!");
  bindmount($cache, "$r$home/.cache", 0);
}
touch("$stash/blank");
touch("$stash/blank-settings", "<settings/>\n");
touch("$stash/blank-security", "<settingsSecurity/>\n");
mkdir("$stash/blankd") or fail("cannot make $stash/blankd: $!");
chmod(0444, "$stash/blank", "$stash/blank-settings", "$stash/blank-security") == 3 or fail("chmod: $!");
chmod(0555, "$stash/blankd") or fail("chmod: $!");
my (@binds, @mine);
for my $b (@{ $list{bind} }) {
  my ($src, $dst) = @$b;
  next unless -d $src && !-l $src;
  push @binds, $b;
  # the folders made on the way down inside HOME are the command's own (a fresh tmpfs: no links)
  for (my $p = parent($dst); index($p, "$home/") == 0; $p = parent($p)) { push @mine, "$r$p"; }
}
if (@binds) {
  mkpath("$r$_->[1]") for @binds;
  for (@mine) { next if -l $_; chown($uid, $gid, $_) or fail("cannot give $_ to the sandbox user: $!"); }
  # the read-only ones first; then each layered one, its overlay made once and bound at its other place
  my %layered = map { $list{layered}[$_] => $_ } 0 .. $#{ $list{layered} };
  my @ro = grep { $layers eq '' || !exists $layered{$_->[0]} } @binds;
  bindmount($_->[0], "$r$_->[1]", 1) for @ro;
  ro_below(map { $_->[1] } @ro) if @ro;
  my (%first, @why);
  for my $b (grep { $layers ne '' && exists $layered{$_->[0]} } @binds) {
    my ($src, $dst) = @$b;
    if (!exists $first{$src}) {
      my $why = home_layer($src, $layered{$src}, "$r$dst");
      push @why, "$src: $why" if defined $why;
      $first{$src} = defined $why ? undef : "$r$dst";
    }
    if (defined $first{$src}) {
      bindmount($first{$src}, "$r$dst", 0) if $first{$src} ne "$r$dst";
    } else {
      bindmount($src, "$r$dst", 1);
      ro_below($dst);
    }
  }
  # (a folder that could not have its layer is read-only, as before; the command is told why in its environment)
  $ENV{PATCHLOOP_HOME_READ_ONLY} = join('; ', @why) if @why;
}
for my $f (@{ $list{file} }) {
  my ($src, $dst) = @$f;
  next unless -f $src && !-l $src;
  mkpath($r . parent($dst));
  touch("$r$dst");
  bindmount($src, "$r$dst", 0);
  ro_at("$r$dst");
}
for my $p (@{ $list{blank} }) {
  my $d = "$r$p";
  my $name = $p =~ s{\A.*/}{}sr;
  my $b = $name eq 'settings.xml' ? "$stash/blank-settings"
    : $name eq 'settings-security.xml' ? "$stash/blank-security" : "$stash/blank";
  if (-l $d) { next; }
  elsif (-f $d) { bindmount($b, $d, 0); }
  elsif (-d $d) { bindmount("$stash/blankd", $d, 0); }
  else { next; }
  ro_at($d);
}
mkpath("$r$ws");
bindmount($ws, "$r$ws", 1);
ro_below($ws) if $view eq 'read-only';
for my $i (0 .. $#parked) {
  my $d = "$r$parked[$i]";
  if (-d "$stash/$i") { mkpath($d) unless -d $d; }
  elsif (!-e $d) { touch($d); }
  bindmount("$stash/$i", $d, 0);
  ro_at($d);
}
mkpath("$r/proc");
mkpath("$r/dev/pts");
bindmount('/proc', "$r/proc", 1);
for my $d (qw(null zero full random urandom tty)) {
  next unless -c "/dev/$d";
  touch("$r/dev/$d");
  bindmount("/dev/$d", "$r/dev/$d", 0);
}
for (['/proc/self/fd', 'fd'], ['/proc/self/fd/0', 'stdin'], ['/proc/self/fd/1', 'stdout'], ['/proc/self/fd/2', 'stderr']) {
  symlink($_->[0], "$r/dev/$_->[1]") or fail("cannot make $r/dev/$_->[1]: $!");
}
# a pseudo-terminal instance of its own, where the kernel gives one
if (syscall($nr{mount}, my $pts = "patchloop-pts", "$r/dev/pts", my $t = "devpts", 0,
    my $o = "newinstance,ptmxmode=0666,mode=0620") == 0) {
  symlink('pts/ptmx', "$r/dev/ptmx") or fail("cannot make $r/dev/ptmx: $!");
}
if ($uhome ne '' && !-e "$r$uhome" && !-l "$r$uhome") {
  $uhome =~ m{\A/} or fail("--account-home is not an absolute path");
  mkpath($r . parent($uhome));
  symlink($home, "$r$uhome") or fail("cannot make $r$uhome: $!");
}
for my $l (@{ $list{link} }) {
  my ($p, $target) = @$l;
  next if -e "$r$p" || -l "$r$p";
  symlink($target, "$r$p") or fail("cannot make $r$p: $!");
}

# 3. into the new root; the old one detached
chdir($r) or fail("cannot enter $r: $!");
syscall($nr{pivot_root}, my $new = ".", my $old = ".") == 0 or fail("pivot_root: $!");
syscall($nr{umount2}, my $dot = ".", $MNT_DETACH) == 0 or fail("cannot detach the old root: $!");

# 4. the working folder, the limits
chdir($cwd) or fail("cannot enter $cwd");
for my $l (@{ $list{rlimit} }) {
  $l =~ /\A([a-z]+):([0-9]+):([0-9]+)\z/ && exists $RLIMIT{$1} or fail("not a limit: $l");
  my ($name, $lim) = ($1, pack('QQ', $2, $3));
  syscall($nr{prlimit64}, 0, $RLIMIT{$name}, $lim, undef) == 0 or fail("cannot set the $name limit: $!");
}
# the kernel's out-of-memory killer takes the command (and what it starts) first
if (($arg{'oom-first'} // '') eq '1' && open(my $h, '>', '/proc/self/oom_score_adj')) {
  print $h "1000\n";
  close $h;
}

# 5. the sandbox user (what `setpriv --reuid --regid --clear-groups --no-new-privs --inh-caps=-all
# --bounding-set=-all` does): no supplementary groups, every capability dropped from the bounding
# set, its ids (which empties the permitted and effective sets), the inheritable and ambient sets
# emptied, no new privileges; then the kernel's own account of the process is checked
open(my $cl, '<', '/proc/sys/kernel/cap_last_cap') or fail("cannot read cap_last_cap: $!");
my $last = <$cl>;
close $cl;
defined $last && $last =~ /\A([0-9]+)\n?\z/ or fail("cannot read cap_last_cap");
$last = 0 + $1;
syscall($nr{setgroups}, 0, undef) == 0 or fail("cannot clear the groups: $!");
unless (($arg{'keep-bounding-set'} // '') eq '1') {
  for my $c (0 .. $last) { syscall($nr{prctl}, 24, $c, 0, 0, 0) == 0 or fail("cannot drop capability $c: $!"); }
}
syscall($nr{setresgid}, $gid, $gid, $gid) == 0 or fail("cannot take the sandbox user's group: $!");
syscall($nr{setresuid}, $uid, $uid, $uid) == 0 or fail("cannot become the sandbox user: $!");
my ($caphdr, $capdata) = (pack('LL', 0x20080522, 0), pack('L6', 0, 0, 0, 0, 0, 0));
syscall($nr{capset}, $caphdr, $capdata) == 0 or fail("cannot empty the capability sets: $!");
# PR_CAP_AMBIENT_CLEAR_ALL (before Linux 4.3 there is no ambient set: EINVAL)
syscall($nr{prctl}, 47, 4, 0, 0, 0) == 0 or $! == 22 or fail("cannot empty the ambient capabilities: $!");
syscall($nr{prctl}, 38, 1, 0, 0, 0) == 0 or fail("cannot set no_new_privs: $!");
{
  open(my $st, '<', '/proc/self/status') or fail("cannot read /proc/self/status: $!");
  my %f;
  while (my $l = <$st>) { $f{$1} = $2 if $l =~ /\A(\w+):\s*(.*?)\s*\z/s; }
  close $st;
  my $bounding = ($arg{'keep-bounding-set'} // '') eq '1' ? qr/\A[0-9a-f]+\z/ : qr/\A0+\z/;
  ($f{Uid} // '') eq join("\t", ($uid) x 4) && ($f{Gid} // '') eq join("\t", ($gid) x 4)
    && ($f{Groups} // 'x') eq '' && ($f{NoNewPrivs} // '') eq '1'
    && (grep { ($f{$_} // '') =~ /\A0+\z/ } qw(CapInh CapPrm CapEff)) == 3
    && ($f{CapBnd} // '') =~ $bounding && ($f{CapAmb} // '0') =~ /\A0+\z/
    or fail("the command would keep privileges it must not have");
}
# a session keyring of its own, the sandbox user's own keyrings emptied first (keyring.ts):
# KEYCTL_CLEAR (7) of @u (-4) and @us (-5), KEYCTL_JOIN_SESSION_KEYRING (1) with no name
if (($arg{'fresh-keyring'} // '') eq '1') {
  for my $ring (-4, -5) { syscall($nr{keyctl}, 7, $ring) == 0 or fail("the sandbox user's keyrings cannot be emptied"); }
  syscall($nr{keyctl}, 1, undef) >= 0 or fail("no session keyring of its own: $!");
}
exec { $cmd[0] } @cmd;
fail("$cmd[0]: $!");
