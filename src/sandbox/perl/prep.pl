# The overlay's mounts in a command's namespace (see overlay.ts and launch.ts's prelude), run as
# root before the workspace's top folder is hidden: one program for every mount the overlay needs.
#
# PatchloopPrep::run takes the arguments (view.pl calls it in the same process; run alone, as the
# set-up's trial is, PREP_STEP calls it with the program's own). All named (--name=value; --folder
# and --file may repeat):
#   --view       overlay | in-place (tests only: the idmapped clone itself, no layer) | probe (the
#                set-up's trial: first checks the reader's overlay on a probe tree of its own)
#   --workspace  the checkout          --stash  a private tmpfs of this namespace
#   --layer      the command's layer folder (made here: up/, work/, pidns)
#   --owner-uid --owner-gid      the checkout's owner
#   --sandbox-uid --sandbox-gid  the sandbox user, whom the idmap shows as that owner
#   --reader     the id whose rights the reader's overlay is made with ('' for none: covers instead)
#   --end        the last argument read
#   --folder --file  private paths to cover with an empty 0000 folder or file, mounted read-only
#   --sys-NAME --o-NAME  syscall numbers and open(2) flags of this architecture (overlay.ts's table)
#
#  1. The command's layer: <layer>/up (the sandbox user's, 0755: the overlay's top folder) and
#     <layer>/work, and <layer>/pidns: this namespace's PID namespace, which the move waits to be
#     gone. In the stash, when there are paths to cover, the empty 0000 folder d and file f.
#  2. The idmapped clone of the workspace's mount tree at <stash>/l (open_tree OPEN_TREE_CLONE |
#     AT_RECURSIVE, mount_setattr MOUNT_ATTR_IDMAP, move_mount): the idmap is that of a user
#     namespace whose only mapping is the checkout's owner -> the sandbox user, made by a child that
#     exists only to be mapped. With a reader, the read-only overlay of that clone made with the
#     reader's rights (no groups, file-system ids the reader's: root's file capabilities are
#     dropped), at <stash>/a: the kernel then opens only what others may.
#  3. The overlay on the workspace: step 2's lower layer, the command's layer above.
#  4. Each private folder covered by d and each private file by f, bound read-only. A path that is
#     no longer a folder (or file), or is a link, is passed over: its inode was checked just before
#     the launch (verify), and no command of this namespace has run yet.
# The overlay's options name only the stash and the layer, whose paths the set-up checked to hold
# no separator.
package PatchloopPrep;
use strict;

my (%arg, @folders, @files, %nr, $O_DIRECTORY, $view, $ws, $stash, $layer, $fu, $fg, $tu, $tg, $reader, $ns);
sub fail { print STDERR "patchloop sandbox: the workspace's overlay: $_[0]\n"; exit 125; }
sub need { my $v = $arg{$_[0]}; defined $v or fail("--$_[0] is missing"); return $v; }
sub num { my $v = need($_[0]); $v =~ /\A-?[0-9]+\z/ or fail("--$_[0] is not a number"); return 0 + $v; }
# the same on x86_64 and aarch64
my ($O_PATH, $O_CLOEXEC, $AT_FDCWD, $AT_EMPTY_PATH, $AT_RECURSIVE) = (010000000, 02000000, -100, 0x1000, 0x8000);
my ($OPEN_TREE_CLONE, $MOVE_MOUNT_F_EMPTY_PATH, $MOUNT_ATTR_IDMAP, $CLONE_NEWUSER) = (1, 4, 0x00100000, 0x10000000);
my ($FSCONFIG_SET_STRING, $FSCONFIG_CMD_CREATE, $FSOPEN_CLOEXEC) = (1, 6, 1);
my ($MS_RDONLY, $MS_REMOUNT, $MS_BIND, $MS_REC) = (1, 32, 4096, 16384);
my $none = undef;
my $empty = "";
sub mnt { my ($src, $dst, $type, $flags, $data) = @_;
  syscall($nr{mount}, defined $src ? "" . $src : $none, "" . $dst, defined $type ? "" . $type : $none, 0 + $flags, defined $data ? "" . $data : $none) == 0 or fail("mount $dst: $!"); }
# $src's mount tree, idmapped, at $at/l; with a reader, the read-only overlay of it made with the
# reader's rights at $at/a (returned: the lower layer the command's overlay is to use)
sub idmapped { my ($src, $at) = @_;
  mkdir("$at/l") or fail("$at/l: $!");
  my $fd = syscall($nr{open_tree}, $AT_FDCWD, "" . $src, $OPEN_TREE_CLONE | $O_CLOEXEC | $AT_RECURSIVE);
  $fd >= 0 or fail("open_tree: $!");
  my $attr = pack('QQQQ', $MOUNT_ATTR_IDMAP, 0, 0, fileno($ns));
  syscall($nr{mount_setattr}, $fd, $empty, $AT_EMPTY_PATH | $AT_RECURSIVE, $attr, 32) == 0 or fail("idmapped mount: $!");
  syscall($nr{move_mount}, $fd, $empty, $AT_FDCWD, "$at/l", $MOVE_MOUNT_F_EMPTY_PATH) == 0 or fail("move_mount: $!");
  return "$at/l" if $reader eq '';
  mkdir("$at/a") or fail("$at/a: $!");
  # the layers by descriptor: the reader may not enter the stash, and needs not
  sysopen(my $l, "$at/l", $O_PATH | $O_DIRECTORY) or fail("$at/l: $!");
  sysopen(my $e, "$stash/e", $O_PATH | $O_DIRECTORY) or fail("$stash/e: $!");
  my $fs = syscall($nr{fsopen}, my $t = "overlay", $FSOPEN_CLOEXEC);
  $fs >= 0 or fail("fsopen: $!");
  my $lower = "/proc/self/fd/" . fileno($l) . ":/proc/self/fd/" . fileno($e);
  syscall($nr{fsconfig}, $fs, $FSCONFIG_SET_STRING, my $k = "lowerdir", $lower, 0) == 0 or fail("lowerdir: $!");
  # the overlay keeps the credentials it is made with and checks every access to a layer with them
  # as well as with the caller's: made as the reader (no groups, and, once the file system uid is not
  # root, none of root's file capabilities), it opens only what others may
  my $g = pack('L', 0);
  syscall($nr{setgroups}, 0, $g) == 0 or fail("setgroups: $!");
  syscall($nr{setfsgid}, 0 + $reader); syscall($nr{setfsuid}, 0 + $reader);
  # (setfsuid says nothing when it fails; asked with -1, each returns the id in force)
  syscall($nr{setfsuid}, -1) == $reader && syscall($nr{setfsgid}, -1) == $reader or fail("the reader's ids did not take");
  my $made = syscall($nr{fsconfig}, $fs, $FSCONFIG_CMD_CREATE, 0, 0, 0);
  my $why = $!;
  syscall($nr{setfsuid}, 0); syscall($nr{setfsgid}, 0);
  $made == 0 or fail("the reader's overlay: $why");
  my $m = syscall($nr{fsmount}, $fs, $FSOPEN_CLOEXEC, 0);
  $m >= 0 or fail("fsmount: $!");
  syscall($nr{move_mount}, $m, $empty, $AT_FDCWD, "$at/a", $MOVE_MOUNT_F_EMPTY_PATH) == 0 or fail("move_mount: $!");
  return "$at/a";
}
sub run {
  # --end closes the list: what follows it is not prep's (a caller may pass more)
  for my $a (@_) {
    last if $a eq '--end';
    $a =~ /\A--([a-z][a-z0-9_-]*)=(.*)\z/s or fail("not a named argument: $a");
    if ($1 eq 'folder') { push @folders, $2; next; }
    if ($1 eq 'file') { push @files, $2; next; }
    exists $arg{$1} and fail("--$1 given twice");
    $arg{$1} = $2;
  }
  %nr = map { $_ => num("sys-$_") }
    qw(unshare mount setfsuid setfsgid setgroups open_tree move_mount mount_setattr fsopen fsconfig fsmount);
  $O_DIRECTORY = num('o-directory');
  ($view, $ws, $stash, $layer) = (need('view'), need('workspace'), need('stash'), need('layer'));
  ($fu, $fg, $tu, $tg) = (num('owner-uid'), num('owner-gid'), num('sandbox-uid'), num('sandbox-gid'));
  $reader = need('reader');
  $reader eq '' || $reader =~ /\A[0-9]+\z/ or fail("--reader is not an id");
  $view =~ /\A(overlay|in-place|probe)\z/ or fail("--view is not known: $view");
  # tests only: the idmapped clone itself, bound on the workspace (there is no layer to write to)
  $reader = '' if $view eq 'in-place';
  # the user namespace whose idmap is the checkout's owner -> the sandbox user (a child that exists only to be mapped)
  pipe(my $r, my $w) or fail("pipe: $!");
  pipe(my $r2, my $w2) or fail("pipe: $!");
  my $pid = fork() // fail("fork: $!");
  if ($pid == 0) {
    close $r; close $w2;
    syscall($nr{unshare}, $CLONE_NEWUSER) == 0 or exit 1;
    syswrite $w, "1"; close $w;
    sysread $r2, my $x, 1; exit 0;
  }
  close $w; close $r2;
  sysread($r, my $x, 1) or fail("no user namespace for the idmap");
  for (["uid_map", "$fu $tu 1\n"], ["gid_map", "$fg $tg 1\n"]) {
    open(my $h, '>', "/proc/$pid/$_->[0]") or fail("$_->[0]: $!");
    print $h $_->[1]; close($h) or fail("$_->[0]: $!");
  }
  open($ns, '<', "/proc/$pid/ns/user") or fail("ns: $!");
  close $w2; waitpid $pid, 0;
  mkdir("$stash/e", 0755) or fail("$stash/e: $!");
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
  # the move starts only once no task of this PID namespace is left
  my $pidns = readlink("/proc/self/ns/pid") // fail("/proc/self/ns/pid: $!");
  open(my $rec, '>', "$layer/pidns") or fail("$layer/pidns: $!");
  print $rec "$pidns\n"; close($rec) or fail("$layer/pidns: $!");
  if (@folders + @files) {
    mkdir("$stash/d", 0) or fail("$stash/d: $!"); chmod(0, "$stash/d");
    open(my $fh, '>', "$stash/f") or fail("$stash/f: $!"); close $fh; chmod(0, "$stash/f");
  }
  my $lower = idmapped($ws, $stash);
  if ($view eq 'in-place') { mnt($lower, $ws, undef, $MS_BIND | $MS_REC, undef); }
  else { mnt("overlay", $ws, "overlay", 0, "lowerdir=$lower,upperdir=$layer/up,workdir=$layer/work,redirect_dir=off,index=off,metacopy=off,xino=off"); }
  for my $p (@folders) { next unless -d $p && !-l $p; mnt("$stash/d", $p, undef, $MS_BIND, undef); mnt(undef, $p, undef, $MS_BIND | $MS_REMOUNT | $MS_RDONLY, undef); }
  for my $p (@files) { next unless -f $p && !-l $p; mnt("$stash/f", $p, undef, $MS_BIND, undef); mnt(undef, $p, undef, $MS_BIND | $MS_REMOUNT | $MS_RDONLY, undef); }
  return;
}
