# The overlay's move (see overlay.ts), run as root once a command has ended: what the command wrote
# in its upper layer (<layer>/up) goes into the workspace, owned by the checkout's owner.
#
# Arguments, all named (--name=value; --hidden may repeat):
#   --layer        the command's layer folder (up/, work/, and pidns, which PREP wrote)
#   --workspace    the checkout
#   --uid --gid    the checkout's owner
#   --own          the run's record of what earlier moves put into the checkout (made if missing)
#   --max-bytes    the most this move may write by copying (layer on another file system)
#   --max-seconds  the most time it may take before anything is put in place
#   --wait-seconds how long the command's PID namespace may take to be gone
#   --follow --spare  tests only (1): folders are opened through links; private paths are not kept
#   --hidden       a covered private path (relative), never touched
#   --sys-NAME --o-NAME  syscall numbers and open(2) flags of this architecture (overlay.ts's table)
#
# Rules it keeps:
#  1. It starts only once no task of the command's PID namespace is left (every process that could
#     write the layer is gone); it never waits past --wait-seconds (then nothing is moved).
#  2. Both trees are walked by descriptors: each folder is opened relative to the one above with
#     O_NOFOLLOW and every entry is named relative to an open folder, so a name swapped for a link
#     can never lead it elsewhere.
#  3. All or nothing on its budgets: a first pass counts what would be copied (a file counts by its
#     apparent size or its allocated one, whichever is larger: a sparse file would be written out
#     whole), then every copy is made in a staging folder; past --max-bytes or --max-seconds nothing
#     is put in place, the layer is discarded, and "refused WHY" is printed.
#  4. A whiteout removes its path; an opaque folder loses what it held before, and so does every
#     folder below it; a file, link or fifo
#     is renamed in, owned by the checkout's owner, its mode without setuid, setgid or sticky bits
#     and without ACLs. `.git` and covered paths are never touched. A private path of the checkout
#     (a file others may not read, a folder they may not list and enter) is neither removed nor
#     replaced, unless an earlier move of this run put it there (the same inode, under the same
#     name, in --own): what a command could not read was never its to swap.
# Prints "applied N", one "error PATH: WHY" per entry left out, or "refused WHY".
use strict;
use Fcntl qw(:mode);
use POSIX ();
use Time::HiRes qw(time);

my (%arg, @hidden);
sub fail { print STDERR "patchloop sandbox: the overlay's move: $_[0]\n"; exit 125; }
for my $a (@ARGV) {
  $a =~ /\A--([a-z][a-z0-9_-]*)=(.*)\z/s or fail("not a named argument: $a");
  if ($1 eq 'hidden') { push @hidden, $2; next; }
  exists $arg{$1} and fail("--$1 given twice");
  $arg{$1} = $2;
}
sub need { my $v = $arg{$_[0]}; defined $v or fail("--$_[0] is missing"); return $v; }
sub num { my $v = need($_[0]); $v =~ /\A-?[0-9]+\z/ or fail("--$_[0] is not a number"); return 0 + $v; }
my %nr = map { $_ => num("sys-$_") }
  qw(openat mkdirat fchownat unlinkat renameat2 fchmodat statx getdents64 fgetxattr fremovexattr
     lremovexattr mknodat readlinkat symlinkat utimensat);
my ($O_DIRECTORY, $O_NOFOLLOW) = (num('o-directory'), num('o-nofollow'));
# the same on x86_64 and aarch64
my ($O_WRONLY, $O_CREAT, $O_EXCL, $O_NONBLOCK, $O_CLOEXEC) = (1, 0100, 0200, 04000, 02000000);
my ($AT_FDCWD, $AT_NOFOLLOW, $AT_REMOVEDIR, $AT_EMPTY) = (-100, 0x100, 0x200, 0x1000);
my ($layer, $ws, $own_file) = (need('layer'), need('workspace'), need('own'));
my ($uid, $gid) = (num('uid'), num('gid'));
my ($max_bytes, $max_seconds, $wait_seconds) = (num('max-bytes'), num('max-seconds'), num('wait-seconds'));
my ($follow, $spare) = (num('follow'), num('spare'));
my $dirflags = $O_DIRECTORY | $O_CLOEXEC | ($follow ? 0 : $O_NOFOLLOW);

# ---- descriptors ----
sub openat { my ($dfd, $name, $flags, $mode) = @_;
  return syscall($nr{openat}, 0 + $dfd, "" . $name, 0 + $flags, 0 + ($mode // 0)); }
sub opendirat { my ($dfd, $name) = @_; my $fd = openat($dfd, $name, $dirflags); return $fd >= 0 ? $fd : undef; }
sub closefd { POSIX::close($_[0]) if defined $_[0] && $_[0] >= 0; }

# statx: type and mode, sizes, inode and device, times (the layout is the same on every architecture)
sub statat { my ($dfd, $name, $flags) = @_; my $buf = "\0" x 256;
  syscall($nr{statx}, 0 + $dfd, "" . $name, 0 + ($flags // $AT_NOFOLLOW), 0x7ff, $buf) == 0 or return undef;
  my ($mode, $ino, $size, $blocks) = (unpack('S', substr($buf, 28, 2)), unpack('Q', substr($buf, 32, 8)),
    unpack('Q', substr($buf, 40, 8)), unpack('Q', substr($buf, 48, 8)));
  my ($as, $an) = unpack('q L', substr($buf, 64, 12)); my ($ms, $mn) = unpack('q L', substr($buf, 112, 12));
  my ($rmaj, $rmin, $dmaj, $dmin) = unpack('L4', substr($buf, 128, 16));
  return { mode => $mode, ino => $ino, size => $size, blocks => $blocks, rdev => $rmaj * 4096 + $rmin,
    dev => "$dmaj:$dmin", times => pack('q q q q', $as, $an, $ms, $mn) }; }
# every name in a folder (from its start, however often it was read before)
sub names { my ($dfd) = @_; my @out; my $buf = "\0" x 65536;
  POSIX::lseek($dfd, 0, 0) // return undef;
  for (;;) {
    my $got = syscall($nr{getdents64}, 0 + $dfd, $buf, 65536);
    return undef if $got < 0; last if $got == 0;
    my $at = 0;
    while ($at < $got) {
      my $len = unpack('S', substr($buf, $at + 16, 2));
      my $name = unpack('Z*', substr($buf, $at + 19, $len - 19));
      push @out, $name unless $name eq '.' || $name eq '..';
      $at += $len;
    }
  }
  return [sort @out]; }

# ---- 1. the command's PID namespace must be gone ----
sub pidns_tasks { my ($want) = @_; my $n = 0;
  opendir(my $p, '/proc') or fail("/proc: $!");
  for my $pid (grep { /\A[0-9]+\z/ } readdir $p) {
    opendir(my $t, "/proc/$pid/task") or next;
    for my $tid (grep { /\A[0-9]+\z/ } readdir $t) {
      for my $link ('pid', 'pid_for_children') {
        my $l = readlink("/proc/$pid/task/$tid/ns/$link");
        $n++ if defined $l && $l eq $want;
      }
    }
  }
  return $n; }
my $started = time;
my $updir = "$layer/up";
my $ns_text;
if (open(my $h, "<", "$layer/pidns")) { local $/; $ns_text = <$h>; $ns_text =~ s/\n\z// if defined $ns_text; }
my $upfd = openat($AT_FDCWD, $updir, $O_DIRECTORY | $O_NOFOLLOW | $O_CLOEXEC);
$upfd >= 0 or fail("$updir: $!");
my $top = names($upfd) // fail("$updir: $!");
if (!@$top) { print "applied 0\n"; exit 0; }
defined $ns_text && $ns_text =~ /\Apid:\[[0-9]+\]\z/ or fail("no record of the command's PID namespace: nothing was moved");
my $until = time + $wait_seconds;
while (pidns_tasks($ns_text)) {
  if (time > $until) { print "refused the command's processes were still running ${wait_seconds}s after it ended\n"; exit 0; }
  select(undef, undef, undef, 0.02);
}
$started = time;

# ---- what earlier moves of this run put into the checkout ----
my %own;
if (open(my $h, '<', $own_file)) { local $/ = "\0";
  while (my $rec = <$h>) { chomp $rec; my ($dev, $ino, $r) = split / /, $rec, 3; $own{$r} = "$dev $ino" if defined $r; } }
sub mine { my ($r, $st) = @_; return defined $own{$r} && $own{$r} eq "$st->{dev} $st->{ino}"; }
# only what others may not read needs remembering: nothing else is kept from a later command
sub remember { my ($dfd, $name, $r) = @_; my $st = statat($dfd, $name) or return;
  my $m = $st->{mode}; my $shut = S_ISDIR($m) ? ($m & 5) != 5 : S_ISREG($m) ? !($m & 4) : 0;
  if ($shut) { $own{$r} = "$st->{dev} $st->{ino}"; } else { delete $own{$r}; } }

my ($applied, @errors) = (0);
sub err { my ($p, $why) = @_; $p =~ s/[\x00-\x1f\x7f]/?/g; push @errors, "$p: $why"; return 0; }
sub covers { my ($r) = @_; for my $h (@hidden) { return 1 if $h eq $r || index($h, "$r/") == 0 || index($r, "$h/") == 0; } return 0; }
sub is_hidden { my ($r) = @_; return scalar grep { $_ eq $r || index($r, "$_/") == 0 } @hidden; }
# what others may not read (a file) or list and enter (a folder), unless this run's moves made it
sub private { my ($st, $r) = @_; return 0 if $spare || mine($r, $st); my $m = $st->{mode};
  return S_ISDIR($m) ? ($m & 5) != 5 : S_ISREG($m) ? !($m & 4) : 0; }
sub join_rel { return $_[0] eq '' ? $_[1] : "$_[0]/$_[1]"; }

# ---- 2. the first pass: what would be copied, by the same walk ----
my $layer_dev = (statat($upfd, '', $AT_EMPTY) // fail("$updir: $!"))->{dev};
my $wsfd = openat($AT_FDCWD, $ws, $O_DIRECTORY | $O_NOFOLLOW | $O_CLOEXEC);
$wsfd >= 0 or fail("$ws: $!");
my $ws_dev = (statat($wsfd, '', $AT_EMPTY) // fail("$ws: $!"))->{dev};
my $copying = $layer_dev ne $ws_dev;
my ($bytes, $entries) = (0, 0);
sub refuse { my ($why) = @_; print "refused $why\n"; discard(); exit 0; }
sub over_time { refuse("it would have taken more than ${max_seconds}s") if time - $started > $max_seconds; }
sub count { my ($ufd, $rel) = @_;
  my $list = names($ufd) // return;
  for my $name (@$list) {
    my $r = join_rel($rel, $name);
    next if $r eq '.git';
    over_time() if ++$entries % 256 == 0;
    my $st = statat($ufd, $name) // next;
    if (S_ISDIR($st->{mode})) { my $c = opendirat($ufd, $name) // next; count($c, $r); closefd($c); next; }
    next unless $copying;
    my $cost = $st->{size} > $st->{blocks} * 512 ? $st->{size} : $st->{blocks} * 512;
    $bytes += S_ISREG($st->{mode}) ? $cost : 0;
    refuse("it would have written more than $max_bytes bytes (a sparse file counts by its apparent size)") if $bytes > $max_bytes;
  }
}
count($upfd, '');
over_time();

# ---- 3. the copies, into a staging folder on the checkout's file system ----
my (%staged, $stagefd, $stage_name);
sub discard { if (defined $stagefd) { rmtree_at($wsfd, $stage_name); }
  # the command's own layer (its work folder is 0000): no guard
  my $l = openat($AT_FDCWD, $layer, $O_DIRECTORY | $O_NOFOLLOW | $O_CLOEXEC);
  if ($l >= 0) { for my $n (@{names($l) // []}) { rmtree_at($l, $n); } closefd($l); }
  rmdir($layer); }
sub rmtree_at { my ($dfd, $name, $rel) = @_;
  my $st = statat($dfd, $name) // return 1;
  if (defined $rel) { return err($rel, "holds a private path: left in place") if covers($rel);
    if (private($st, $rel)) { our $held = 1; return 0; } }
  if (S_ISDIR($st->{mode})) {
    syscall($nr{fchmodat}, 0 + $dfd, "" . $name, 0700) if !defined $rel;
    my $c = opendirat($dfd, $name) // return 0; my $ok = 1;
    for my $n (@{names($c) // []}) { rmtree_at($c, $n, defined $rel ? "$rel/$n" : undef) or $ok = 0; }
    closefd($c);
    return $ok && syscall($nr{unlinkat}, 0 + $dfd, "" . $name, $AT_REMOVEDIR) == 0;
  }
  return syscall($nr{unlinkat}, 0 + $dfd, "" . $name, 0) == 0; }
sub stage { my ($ufd, $name, $st, $r) = @_;
  my $to = scalar(keys %staged);
  my $m = $st->{mode};
  if (S_ISLNK($m)) { my $t = "\0" x 4096; my $n = syscall($nr{readlinkat}, 0 + $ufd, "" . $name, $t, 4096);
    $n >= 0 or return err($r, "could not be read: $!");
    syscall($nr{symlinkat}, substr($t, 0, $n), 0 + $stagefd, "$to") == 0 or return err($r, "could not be copied: $!"); }
  elsif (S_ISFIFO($m)) { syscall($nr{mknodat}, 0 + $stagefd, "$to", S_IFIFO | 0600, 0) == 0 or return err($r, "could not be copied: $!"); }
  elsif (S_ISREG($m)) {
    my $in = openat($ufd, $name, $O_NOFOLLOW | $O_CLOEXEC); $in >= 0 or return err($r, "could not be read: $!");
    my $out = openat($stagefd, "$to", $O_WRONLY | $O_CREAT | $O_EXCL | $O_NOFOLLOW | $O_CLOEXEC, 0600);
    $out >= 0 or do { closefd($in); return err($r, "could not be copied: $!"); };
    open(my $ih, '<&=', $in) or fail("fdopen: $!"); open(my $oh, '>&=', $out) or fail("fdopen: $!");
    my ($buf, $ok, $got) = ('', 1);
    while ($got = sysread($ih, $buf, 1 << 20)) {
      $bytes += $got;
      if ($bytes > $max_bytes) { close $ih; close $oh; refuse("it would have written more than $max_bytes bytes"); }
      over_time();
      (syswrite($oh, $buf) // -1) == $got or do { $ok = 0; last; };
    }
    $ok = 0 unless defined $got;
    close $ih; close($oh) or $ok = 0;
    $ok or return err($r, "could not be copied: $!");
    syscall($nr{utimensat}, 0 + $stagefd, "$to", $st->{times}, 0);
  }
  else { return err($r, "a socket: left out"); }
  $staged{$r} = "$to";
  return 1; }
sub stage_all { my ($ufd, $rel) = @_;
  for my $name (@{names($ufd) // []}) {
    my $r = join_rel($rel, $name);
    next if $r eq '.git' || is_hidden($r);
    my $st = statat($ufd, $name) // next;
    if (S_ISDIR($st->{mode})) { my $c = opendirat($ufd, $name) // next; stage_all($c, $r); closefd($c); next; }
    next if S_ISCHR($st->{mode}) && $st->{rdev} == 0;
    stage($ufd, $name, $st, $r) if S_ISREG($st->{mode}) || S_ISLNK($st->{mode}) || S_ISFIFO($st->{mode});
  }
}
if ($copying) {
  $bytes = 0;
  $stage_name = ".patchloop-move-$$";
  syscall($nr{mkdirat}, 0 + $wsfd, $stage_name, 0700) == 0 or fail("$ws/$stage_name: $!");
  $stagefd = opendirat($wsfd, $stage_name) // fail("$ws/$stage_name: $!");
  stage_all($upfd, '');
  over_time();
}

# ---- 4. everything in place: renames only ----
sub lchown { my ($dfd, $name) = @_; return syscall($nr{fchownat}, 0 + $dfd, "" . $name, $uid, $gid, $AT_NOFOLLOW) == 0; }
# ENODATA (61): it had none; EOPNOTSUPP (95): the file system keeps none
sub noacl { my ($dfd, $name, $st) = @_;
  my $fd = openat($dfd, $name, $O_NOFOLLOW | $O_NONBLOCK | $O_CLOEXEC | (S_ISDIR($st->{mode}) ? $O_DIRECTORY : 0));
  my $ok = 1;
  for my $x ("system.posix_acl_access", "system.posix_acl_default") {
    my $r = $fd >= 0 ? syscall($nr{fremovexattr}, 0 + $fd, "" . $x)
      : syscall($nr{lremovexattr}, "/proc/self/fd/$dfd/$name", "" . $x);
    $ok = 0 if $r != 0 && $! != 61 && $! != 95;
  }
  closefd($fd); return $ok; }
sub opaque { my ($fd) = @_; my $buf = "\0" x 8;
  my $name = "trusted.overlay.opaque"; my $got = syscall($nr{fgetxattr}, 0 + $fd, $name, $buf, 8); return $got > 0 && substr($buf, 0, $got) eq 'y'; }
sub remove { my ($wfd, $name, $r) = @_;
  my $st = statat($wfd, $name) // return 1;
  return err($r, "holds a private path: left in place") if covers($r);
  our $held = 0;
  rmtree_at($wfd, $name, $r) or return err($r, $held ? "is or holds a private path: left in place" : "could not be removed: $!");
  return 1; }
# $under: the folder is in an opaque one (a folder removed and made again): the layer holds all of
# it, so each folder below is opaque too, whether or not the overlay marked it
sub walk { my ($ufd, $wfd, $rel, $under) = @_;
  my $list = names($ufd) // return err($rel, "could not be read: $!");
  for my $name (@$list) {
    my $r = join_rel($rel, $name);
    next if $r eq '.git';
    my $st = statat($ufd, $name) // do { err($r, "vanished"); next; };
    my $mode = $st->{mode};
    if (is_hidden($r)) { err($r, "a private path: left in place"); next; }
    if (S_ISCHR($mode) && $st->{rdev} == 0) { $applied++ if remove($wfd, $name, $r); next; }
    my $d = statat($wfd, $name, $follow && S_ISDIR($mode) ? 0 : $AT_NOFOLLOW);
    if (S_ISDIR($mode)) {
      if ($d && !S_ISDIR($d->{mode})) { remove($wfd, $name, $r) or next; $d = undef; }
      if ($d && private($d, $r)) { err($r, "a private path: left in place"); next; }
      my $made = !$d;
      if ($made) { syscall($nr{mkdirat}, 0 + $wfd, "" . $name, 0700) == 0 or do { err($r, "could not be made: $!"); next; };
        $applied++; lchown($wfd, $name) or err($r, "could not be given to the checkout's owner: $!"); }
      my $uc = opendirat($ufd, $name) // do { err($r, "could not be read: $!"); next; };
      my $wc = opendirat($wfd, $name) // do { closefd($uc); err($r, "could not be opened: $!"); next; };
      my $whole = $under || opaque($uc);
      if (!$made && $whole) {
        my %keep = map { $_ => 1 } @{names($uc) // []};
        for my $o (grep { !$keep{$_} } @{names($wc) // []}) { $applied++ if remove($wc, $o, "$r/$o"); }
      }
      # a folder only passed through keeps its inode untouched (no ctime for git to see)
      my $now = statat($wfd, $name);
      syscall($nr{fchmodat}, 0 + $wfd, "" . $name, $mode & 0777) if $made || ($now && ($now->{mode} & 07777) != ($mode & 0777));
      remember($wfd, $name, $r) if $made;
      walk($uc, $wc, $r, $whole);
      closefd($uc); closefd($wc);
      next;
    }
    if (S_ISREG($mode) || S_ISLNK($mode) || S_ISFIFO($mode) || S_ISSOCK($mode)) {
      if ($d && private($d, $r)) { err($r, "a private path: left in place"); next; }
      if ($d && S_ISDIR($d->{mode})) { remove($wfd, $name, $r) or next; }
      my ($from, $fname) = ($ufd, $name);
      if ($copying) { defined $staged{$r} or next; ($from, $fname) = ($stagefd, $staged{$r}); }
      syscall($nr{renameat2}, 0 + $from, "" . $fname, 0 + $wfd, "" . $name, 0) == 0
        or do { err($r, "could not be moved in: $!"); next; };
      # a file still the sandbox user's, or with its ACL, is reported, not passed over
      lchown($wfd, $name) or err($r, "could not be given to the checkout's owner: $!");
      S_ISLNK($mode) or noacl($wfd, $name, $st) or err($r, "its ACL could not be removed: $!");
      S_ISLNK($mode) or syscall($nr{fchmodat}, 0 + $wfd, "" . $name, $mode & 0777) == 0 or err($r, "its mode could not be set: $!");
      remember($wfd, $name, $r);
      $applied++;
      next;
    }
    err($r, "a device: left out");
  }
  return 1;
}
walk($upfd, $wsfd, '', 0);
rmtree_at($wsfd, $stage_name) if defined $stagefd;
undef $stagefd;
# the record, replaced whole (root's, in patchloop's own state folder); none while there is nothing in it
if ((%own || -e $own_file) && open(my $h, '>', "$own_file.new")) {
  print $h "$own{$_} $_\0" for sort keys %own;
  close($h) && rename("$own_file.new", $own_file) or err('', "the run's record could not be kept: $!");
}
discard() unless @errors;
print "applied $applied\n";
print "error $_\n" for @errors;
exit 0;
