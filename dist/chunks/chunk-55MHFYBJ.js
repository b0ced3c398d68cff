import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{n as Te}from"./chunk-L5AAVJP4.js";import{D as Ne,k as R,u as Oe,v as Ee,w as Ae}from"./chunk-LVK2Q2AR.js";import{a as s}from"./chunk-4X7ZATFQ.js";import{BlockList as Le,isIP as _t}from"node:net";var Ot=/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;function hn(e){let t=e.trim().toLowerCase();if(t===""||t==="none")return{kind:"none"};if(t==="all")return{kind:"all"};let r=t.split(/[,\n]/).map(i=>i.trim().replace(/\.$/,"")).filter(Boolean),n=r.find(i=>!Ot.test(i));if(n!==void 0)throw new Error(`command-network is none, all, or host names such as registry.npmjs.org or *.pythonhosted.org (comma- or newline-separated); "${n}" is not a host name.`);return{kind:"hosts",hosts:[...new Set(r)]}}s(hn,"parseCommandNetwork");function W(e){return e.trim().toLowerCase().replace(/^\[(.*)\]$/,"$1").replace(/\.$/,"")}s(W,"normalHost");function Ce(e,t){let r=W(t);return e.some(n=>n.startsWith("*.")?r.endsWith(n.slice(1))&&r.length>n.length-1:r===n)}s(Ce,"hostAllowed");var[Et,At]=(()=>{let e=new Le,t=new Le,r=[["0.0.0.0",8],["10.0.0.0",8],["100.64.0.0",10],["127.0.0.0",8],["169.254.0.0",16],["172.16.0.0",12],["192.0.0.0",24],["192.0.2.0",24],["192.88.99.0",24],["192.168.0.0",16],["198.18.0.0",15],["198.51.100.0",24],["203.0.113.0",24],["224.0.0.0",3]],n=[["::",96],["64:ff9b:1::",48],["100::",64],["2001::",23],["2001:db8::",32],["2002::",16],["fc00::",7],["fe80::",10],["fec0::",10],["ff00::",8]];for(let[i,c]of r)e.addSubnet(i,c,"ipv4");for(let[i,c]of n)t.addSubnet(i,c,"ipv6");return[e,t]})();function fe(e){let t=_t(e);if(t===0)return!1;if(t===4)return!Et.check(e,"ipv4");let r=/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(e);return r?fe(r[1]):/^::ffff:/i.test(e)?!1:!At.check(e,"ipv6")}s(fe,"isPublicAddress");var Tt=10;function Z(e){return e.kind==="none"?"none (each command has its own loopback only)":e.kind==="all"?"all (commands use the runner\u2019s network)":`HTTP and HTTPS to ${e.hosts.join(", ")} only, through patchloop\u2019s proxy`}s(Z,"describeNetwork");function Ie(e,t=Tt){let r=e.slice(0,t).map(n=>n.count>1?`${n.host} (${n.count}\xD7)`:n.host);return e.length>t&&r.push(`and ${e.length-t} more`),r.join(", ")}s(Ie,"listRefused");function $n(e,t){let r=Z(e);return t.length?`${r}; refused: ${Ie(t)}`:r}s($n,"networkSummaryLine");var Nt=/ENETUNREACH|EAI_AGAIN|Network is unreachable|Could not resolve host|Temporary failure in name resolution|getaddrinfo ENOTFOUND|Name or service not known/i;function Me(e,t,r){if(e.kind!=="all"){if(t.length)return`[command-network refused ${Ie(t,5)} (${t[0].reason}). Commands may reach only ${e.kind==="hosts"?e.hosts.join(", "):"their own loopback"}; the workflow's command-network input sets this.]`;if(Nt.test(r))return e.kind==="none"?"[command-network is none: commands have no network but their own loopback, so downloads and outside services fail. The workflow\u2019s command-network input can allow hosts.]":`[command-network allows only HTTP and HTTPS to ${e.hosts.join(", ")}, through the proxy in HTTPS_PROXY / HTTP_PROXY; a program that ignores those variables finds no network.]`}}s(Me,"networkNote");import{chmodSync as Zr,lstatSync as kt,mkdtempSync as en,realpathSync as tn,rmSync as xt}from"node:fs";import{tmpdir as rn}from"node:os";import{spawnSync as nn}from"node:child_process";import{join as Se}from"node:path";import{chmodSync as Kt,lchownSync as Ft,lstatSync as he,mkdtempSync as Ut,readFileSync as re,realpathSync as Gt,rmSync as jt,writeFileSync as Wt}from"node:fs";import{tmpdir as Xt}from"node:os";import{join as D}from"node:path";var b=class extends Error{static{s(this,"SandboxSetupError")}constructor(t){super(t),this.name="SandboxSetupError"}};import{execFile as Lt}from"node:child_process";import{existsSync as Ct,readFileSync as It,statSync as Mt}from"node:fs";import{join as Dt}from"node:path";var ee="patchloop-sandbox";function H(e,t,r={}){return new Promise(n=>{Lt(e,t,{cwd:r.cwd,env:r.env??{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"},encoding:"utf8",timeout:r.timeoutMs??12e4,maxBuffer:4<<20},(i,c,d)=>{let l=i?typeof i.code=="number"?i.code:127:0;n({code:l,stdout:String(c),stderr:String(d||(i&&l===127?i.message:""))})})})}s(H,"run");function N(e){return e.trim().split(`
`)[0]??""}s(N,"firstLine");var Ht=["/usr/bin","/bin","/usr/sbin","/sbin"];function A(e){for(let t of Ht){let r=Dt(t,e);try{if(Mt(r).isFile())return r}catch{}}}s(A,"systemBin");async function He(){if(process.getuid?.()===0)return{prefix:[],viaSudo:!1};let e=A("sudo");return e?(await H(e,["-n","true"],{timeoutMs:1e4})).code!==0?"not root, and sudo asks for a password":{prefix:[e,"-n","--"],viaSudo:!0}:"not root, and sudo is not installed"}s(He,"findRootAccess");function T(e,t,r){return e.prefix.length?H(e.prefix[0],[...e.prefix.slice(1),t,...r]):H(t,r)}s(T,"asRoot");function Bt(e){let t;try{t=It("/etc/passwd","utf8")}catch{return}for(let r of t.split(`
`)){let n=r.split(":");if(n[0]!==e||n.length<7)continue;let i=Number(n[2]),c=Number(n[3]);return n[2]===""||n[3]===""||!Number.isInteger(i)||!Number.isInteger(c)?void 0:{user:e,uid:i,gid:c}}}s(Bt,"localAccount");async function De(e){let t=Bt(e);if(t)return t;let r=A("getent");if(!r)return;let n=await H(r,["passwd",e]);if(n.code!==0)return;let i=n.stdout.trim().split(":");return{user:e,uid:Number(i[2]),gid:Number(i[3])}}s(De,"lookup");async function Be(e,t){let r=await De(t);if(!r){let n=A("useradd");if(!n)throw new b("useradd is not installed, so the sandbox user cannot be created");let i=["/usr/sbin/nologin","/sbin/nologin"].find(d=>Ct(d))??"/bin/false",c=await T(e,n,["--system","--user-group","--no-create-home","--home-dir","/nonexistent","--shell",i,t]);if(r=await De(t),!r)throw new b(`could not create user ${t}: ${N(c.stderr)||`exit ${c.code}`}`)}if(!Number.isInteger(r.uid)||r.uid===0||!Number.isInteger(r.gid)||r.gid===0)throw new b(`user ${t} exists but is not an unprivileged user (uid ${r.uid})`);return r}s(Be,"ensureUser");function je(e,t){if(t.code!==0)throw new b(`${e}: ${N(t.stderr)||`exit ${t.code}`}`)}s(je,"check");async function te(e,t){(await t()).code!==0&&je(e,await t())}s(te,"twice");var Vt=["-type","f","-links","1","-perm","-004"],qt=["-type","f","(","-links","+1","-o","!","-perm","-004",")"],We=s(e=>["-type","d","!","-perm","-001","!","-samefile",e],"privateFolder");function U(e){let t=A(e);if(!t)throw new b(`${e} is not installed`);return t}s(U,"need");var Ke=3130;function X(e,t,r,n,i){return T(e,t,["-c",'f=$1; shift; exec "$@" > "$f"',"patchloop-walk",r,n,...i])}s(X,"toFile");var me=s((e,t)=>["-type","d","!","-perm","-001","!","-user",String(t),"!","-samefile",e,"-prune"],"closedFolder"),Yt=s(e=>e.replace(/\\([0-7]{3})/g,(t,r)=>String.fromCharCode(parseInt(r,8))),"unescapeAcl");function Fe(e){let t=[];for(let r of e.split(`

`)){let n=/^# file: (.*)$/m.exec(r);n&&t.push({path:Yt(n[1]),text:r.trim()})}return t}s(Fe,"aclBlocks");function Ue(e){let t=Buffer.from(e,"latin1");try{return he(t).isSymbolicLink()?!1:Gt(t,{encoding:"buffer"}).equals(t)}catch{return!1}}s(Ue,"leadsToItself");function Ge(e){let t=new Map;for(let r of e.split("\0")){let n=/^(\d+) ([0-7]+) (\d+) (\w) ([^]*)$/.exec(r);n&&t.set(n[5],{ino:BigInt(n[1]),mode:parseInt(n[2],8),gid:Number(n[3]),type:n[4]})}return t}s(Ge,"marks");function $e(e){jt(e,{recursive:!0,force:!0})}s($e,"cleanup");async function Xe(e,t,r,n){let i=D(r,".git"),c=(()=>{try{return he(i).isDirectory()}catch{return!1}})();if(n==="group"&&e.viaSudo)throw new b("setfacl (package acl) is needed to share the workspace when not running as root");let d=U("find"),l=U("sh"),p=Ut(D(Xt(),"patchloop-access-"));try{return n==="acl"?await zt(e,t,r,i,c,{find:d,sh:l,dir:p}):await Qt(e,t,r,i,c,{find:d,sh:l,dir:p})}catch(m){throw $e(p),m}}s(Xe,"openWorkspace");async function zt(e,t,r,n,i,{find:c,sh:d,dir:l}){let p=U("setfacl"),m=U("getfacl"),h=t.user,x=D(l,"before.acl");await te("could not read the workspace's ACLs",()=>X(e,d,x,c,[r,...me(r,t.uid),"-o","!","-type","l","-exec",m,"-s","-P","-p","--","{}","+"]));let $=s(async()=>{try{let a=D(l,"linked.acl"),f=await X(e,d,a,c,[r,...me(r,t.uid),"-o","-type","f","-links","+1","-exec",m,"-s","-P","-p","--","{}","+","-o","!","-type","l","-exec",p,"-P","-b","--","{}","+"]),y=[];f.code!==0&&y.push(N(f.stderr)||`exit ${f.code}`);let g=new RegExp(`^(default:)?user:${h.replace(/[.*+?^${}()|[\]\\]/g,"\\$&")}:`,"m"),k=Fe(re(a,"latin1")).filter(v=>g.test(v.text)&&Ue(v.path)).map(v=>v.path);for(let v=0;v<k.length;v+=500){let O=await T(e,p,["-P","-b","--",...k.slice(v,v+500)]);O.code!==0&&y.push(N(O.stderr)||`exit ${O.code}`)}let E=Fe(re(x,"latin1")).filter(v=>Ue(v.path));if(E.length){let v=D(l,"restore.acl");Wt(v,E.map(ce=>ce.text).join(`

`)+`

`,{encoding:"latin1",mode:384});let O=await T(e,p,[`--restore=${v}`]);O.code!==0&&y.push(N(O.stderr)||`exit ${O.code}`)}if(y.length)throw new b(`the workspace's ACLs were not all put back: ${y[0]}`)}finally{$e(l)}},"revoke"),S=process.getuid?.()??0,u=S===0?"":`,d:u:${S}:rwX`,o=s((a,f,y)=>T(e,c,[a,...y,...We(a),"-prune","-o","-type","d","-exec",p,"-P","-m",`u:${h}:${f},d:u:${h}:${f}${u},d:o::rX`,"{}","+","-o",...Vt,"-exec",p,"-P","-m",`u:${h}:${f}`,"{}","+"]),"grant");try{await te(`could not open the workspace to ${h}`,()=>o(r,"rwX",["-path",n,"-prune","-o"])),i&&await te(`could not make .git read-only to ${h}`,()=>o(n,"rX",[]))}catch(a){throw await $().catch(()=>{}),a}return{method:"acl",revoke:$}}s(zt,"openAcl");async function Qt(e,t,r,n,i,{find:c,sh:d,dir:l}){let p=U("chmod"),m=U("chown"),h=String(t.gid),x=["-printf","%i %m %G %y %p\\0"],$=s(a=>X(e,d,a,c,[r,...x,"(","-path",n,"-prune","-o",...qt,"-prune","-o",...We(r),"-prune","-o","!","-group",h,"-exec",m,"-h",`:${h}`,"{}","+","-false","-o","-type","d","!","-perm","-2070","-exec",p,"g+rwxs","{}","+","-o","!","-type","d","!","-type","l","!","-perm","-060","-exec",p,"g+rw","{}","+",")"]),"open"),S=s(a=>X(e,d,a,c,[n,"!","-type","l","-perm","-002",...x,"-exec",p,"o-w","{}","+"]),"closeGit"),u=[],o=s(async()=>{try{await Jt(e,t,r,c,d,l,u)}finally{$e(l)}},"revoke");try{if(await te(`could not give the workspace to group ${t.user}`,()=>{let a=D(l,`open-${u.length}`);return u.push(a),$(a)}),i){let a=D(l,"git");u.push(a),je("could not make .git read-only to others",await S(a))}}catch(a){throw await o().catch(()=>{}),a}return{method:"group",revoke:o}}s(Qt,"openGroup");async function Jt(e,t,r,n,i,c,d){let l=new Map;for(let u of d){let o;try{o=re(u,"latin1")}catch{continue}for(let[a,f]of Ge(o))l.has(a)||l.set(a,f)}let p=D(c,"after"),m=await X(e,i,p,n,[r,...me(r,t.uid),"-printf","%i %m %G %y %p\\0","-o","-printf","%i %m %G %y %p\\0"]),h=[];m.code!==0&&h.push(N(m.stderr)||`exit ${m.code}`);let x=he(r),$=new Map,S=s(u=>u.slice(0,u.lastIndexOf("/"))||"/","parentOf");for(let[u,o]of Ge(re(p,"latin1"))){let a=l.get(u),f=Buffer.from(u,"latin1"),y=o.gid,g=o.mode;a&&a.ino===o.ino?(y=a.gid,g=o.mode&~Ke|a.mode&Ke):o.gid===t.gid&&(y=$.get(S(u))??(a?a.gid:x.gid),o.type==="d"&&!(a&&a.mode&1024)&&(g=o.mode&-1025));try{y!==o.gid&&Ft(f,-1,y),o.type!=="l"&&(g!==o.mode||y!==o.gid)&&Kt(f,g)}catch(k){k.code!=="ENOENT"&&h.push(`${u}: ${k.message}`)}o.type==="d"&&$.set(u,y)}if(h.length)throw new b(`the workspace's groups and modes were not all put back (${h.length}): ${h[0]}`)}s(Jt,"restoreGroup");import{spawnSync as Ve}from"node:child_process";var Zt={x64:{keyctl:250,addKey:248,arch:"x86_64"},arm64:{keyctl:219,addKey:217,arch:"aarch64"}},V=["-t","-X"],er=String.raw`my $nr = 0 + shift @ARGV;
for my $ring (-4, -5) {
  if (syscall($nr, 7, $ring) != 0) { print STDERR "patchloop sandbox: the sandbox user's keyrings cannot be emptied\n"; exit 125; }
}
if (syscall($nr, 1, undef) < 0) { print STDERR "patchloop sandbox: no session keyring of its own: $!\n"; exit 125; }
exec { $ARGV[0] } @ARGV;
print STDERR "patchloop sandbox: $ARGV[0]: $!\n";
exit 127;`,tr=String.raw`k=$1 sh=$2; shift 2
{ "$k" clear @u && "$k" clear @us; } || { echo "patchloop sandbox: the sandbox user's keyrings cannot be emptied" >&2; exit 125; }
exec 3>&2
exec "$k" session - "$sh" -c 'exec 2>&3 3>&-; exec "$@"' patchloop-keyring "$@" 2>/dev/null`,rr=String.raw`my ($nr, $arch) = @ARGV;
require Config;
exit 3 unless $Config::Config{archname} =~ /^\Q$arch\E-linux/ && $Config::Config{ptrsize} == 8;
if (syscall(0 + $nr, 1, undef) < 0) { print 0 + $!; exit 4; }
exit 0;`,nr=String.raw`my ($nr, $name) = @ARGV;
local $/;
my $value = <STDIN>;
$value = '' unless defined $value;
my $type = 'user';
my $id = syscall(0 + $nr, $type, $name, $value, length($value), -3);
exit 1 if $id < 0;
print $id;`,or=String.raw`my ($nr, $id, $name) = @ARGV;
$nr = 0 + $nr;
my $buf = "\0" x 4096;
exit 0 if syscall($nr, 11, 0 + $id, $buf, 4096) >= 0;
my $type = 'user';
exit 0 if syscall($nr, 10, -3, $type, $name, 0) > 0;
exit 1;`,sr=String.raw`my ($nr, $id) = @ARGV;
exit(syscall(0 + $nr, 9, 0 + $id, -3) == 0 ? 0 : 1);`,ir=new Set([1,38]);function qe(e=[]){let t=[],r=e.includes("perl")?void 0:A("perl"),n=Zt[process.arch];r&&n&&t.push({kind:"perl",perl:r,...n});let i=e.includes("keyctl")?void 0:A("keyctl");return i&&t.push({kind:"keyctl",keyctl:i}),t.length?t:r?`keyctl is not installed (keyutils), and perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}: each command gets a keyring of its own with one of them`:"neither perl nor keyctl is installed (perl-base or keyutils): each command gets a keyring of its own with one of them"}s(qe,"findKeyringTools");async function Ye(e,t){if(e.kind==="keyctl")return(await H(e.keyctl,["session","-",t,"-c","exit 0"])).code===0?"works":"refused";let r=await H(e.perl,[...V,"-e",rr,"--",String(e.keyctl),e.arch]);return r.code===0?"works":r.code===4&&ir.has(Number(r.stdout.trim()))?"refused":r.code===3?`${e.perl} is not a 64-bit ${e.arch} perl`:`${e.perl} could not join a session keyring (exit ${r.code}${r.stdout.trim()?`, errno ${r.stdout.trim()}`:""})`}s(Ye,"probeKeyrings");function ze(e,t){return e.kind==="perl"?[e.perl,...V,"-e",er,"--",String(e.keyctl)]:[t,"-c",tr,"patchloop-keyring",e.keyctl,t]}s(ze,"keyringStep");var Qe={PATH:"/usr/sbin:/usr/bin:/sbin:/bin"};function Je(e,t,r){let[n,i]=e.kind==="perl"?[e.perl,[...V,"-e",nr,"--",String(e.addKey),t]]:[e.keyctl,["padd","user",t,"@s"]],c=Ve(n,i,{input:r,encoding:"utf8",env:Qe,timeout:1e4}),d=c.stdout?.trim();return c.status===0&&/^\d+$/.test(d??"")?d:void 0}s(Je,"plantKey");function Ze(e,t){let[r,n]=e.kind==="perl"?[e.perl,[...V,"-e",sr,"--",String(e.keyctl),t]]:[e.keyctl,["unlink",t,"@s"]];Ve(r,n,{stdio:"ignore",env:Qe,timeout:1e4})}s(Ze,"unlinkKey");function et(e,t,r){return e.kind==="perl"?[[e.perl,...V,"-e",or,"--",String(e.keyctl),t,r]]:[[e.keyctl,"print",t],[e.keyctl,"search","@s","user",r]]}s(et,"keyLookup");import{join as hr}from"node:path";import{readFileSync as ar}from"node:fs";var ye={processes:1024,dataBytes:8*1024**3,fileBytes:2*1024**3,openFiles:8192},cr=3600,dr={processes:"Max processes",dataBytes:"Max data size",fileBytes:"Max file size",openFiles:"Max open files",cpuSeconds:"Max cpu time"};function ge(e){let t=e;if(t===void 0)try{t=ar("/proc/self/limits","latin1")}catch{return{}}let r={};for(let[n,i]of Object.entries(dr)){let d=t.split(`
`).find(l=>l.startsWith(i))?.slice(i.length).trim().split(/\s+/)[1];d&&(r[n]=d==="unlimited"?1/0:Number(d))}return r}s(ge,"currentHardLimits");function tt(e,t,r=ge()){let n=e.cpuSeconds??(t!==void 0&&t>0?Math.ceil(t/1e3):cr),i=s((c,d)=>String(Math.max(1,Math.floor(Math.min(d,r[c]??1/0)))),"n");return[`--nproc=${i("processes",e.processes)}`,`--data=${i("dataBytes",e.dataBytes)}`,`--fsize=${i("fileBytes",e.fileBytes)}`,`--nofile=${i("openFiles",e.openFiles)}`,`--cpu=${i("cpuSeconds",n)}`]}s(tt,"prlimitArgs");import{lstatSync as Y,mkdtempSync as ot,realpathSync as lr}from"node:fs";import{tmpdir as st}from"node:os";import{join as q}from"node:path";var ur={x64:{unshare:272,lgetxattr:192,lremovexattr:198,mount:165},arm64:{unshare:97,lgetxattr:9,lremovexattr:15,mount:40}};function ne(){return ur[process.arch]}s(ne,"overlaySyscalls");var we=String.raw`my ($unshare, $src, $dst, $fu, $tu, $fg, $tg) = @ARGV;
sub fail { print STDERR "patchloop sandbox: the workspace's overlay: $_[0]\n"; exit 125; }
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
my $path = "" . $src; my $empty = ""; my $to = "" . $dst;
my $fd = syscall(428, -100, $path, 1 | 0x80000 | 0x8000);
$fd >= 0 or fail("open_tree: $!");
my $attr = pack('QQQQ', 0x00100000, 0, 0, fileno($ns));
syscall(442, $fd, $empty, 0x1000 | 0x8000, $attr, 32) == 0 or fail("idmapped mount: $!");
syscall(429, $fd, $empty, -100, $to, 4) == 0 or fail("move_mount: $!");`,pr=String.raw`use strict;
use Fcntl qw(:mode O_RDONLY O_WRONLY O_CREAT O_EXCL O_NOFOLLOW);
use POSIX ();
use File::Path ();
my ($lgetxattr, $lremovexattr, $follow, $up, $ws, $uid, $gid, $state, $n, @rest) = @ARGV;
my @hidden = @rest[0 .. $n - 1];
my ($applied, @errors) = (0);
sub err { my ($p, $why) = @_; $p =~ s/[\x00-\x1f\x7f]/?/g; push @errors, "$p: $why"; }
sub covers { my ($r) = @_; for my $h (@hidden) { return 1 if $h eq $r || index($h, "$r/") == 0 || index($r, "$h/") == 0; } return 0; }
sub opaque { my $p = "" . $_[0]; my $name = "trusted.overlay.opaque"; my $buf = "\0" x 8;
  my $got = syscall(0 + $lgetxattr, $p, $name, $buf, 8); return $got > 0 && substr($buf, 0, $got) eq 'y'; }
sub noacl { my $p = "" . $_[0]; for my $x ("system.posix_acl_access", "system.posix_acl_default") { my $name = "" . $x; syscall(0 + $lremovexattr, $p, $name); } }
sub remove { my ($r) = @_; my $p = "$ws/$r";
  return 1 unless defined((lstat $p)[2]);
  if (covers($r)) { err($r, "holds a private path: left in place"); return 0; }
  if (-d _) { File::Path::remove_tree($p, { error => \my $e }); if (@$e) { err($r, "could not be removed"); return 0; } return 1; }
  unlink($p) or do { err($r, "could not be removed: $!"); return 0; }; return 1; }
sub copyin { my ($src, $dst, $mode) = @_;
  my $tmp = "$dst.patchloop-$$";
  if (S_ISLNK($mode)) { my $t = readlink($src); defined $t or return 0; symlink($t, $tmp) or return 0; }
  elsif (S_ISFIFO($mode)) { POSIX::mkfifo($tmp, 0600) or return 0; }
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
    if (grep { $_ eq $r } @hidden) { err($r, "a private path: left in place"); next; }
    if (S_ISCHR($mode) && $s[6] == 0) { $applied++ if remove($r); next; }
    if (S_ISDIR($mode)) {
      my @d = $follow ? stat $dst : lstat $dst;
      if (@d && !S_ISDIR($d[2])) { remove($r) or next; @d = (); }
      my $made = !@d;
      if ($made) { mkdir($dst, 0700) or do { err($r, "could not be made: $!"); next; }; $applied++; chown($uid, $gid, $dst); }
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
      if (@d && S_ISDIR($d[2])) { remove($r) or next; }
      if (!rename($src, $dst)) {
        if ($! == POSIX::EXDEV()) { copyin($src, $dst, $mode) or do { err($r, "could not be copied in: $!"); next; }; }
        else { err($r, "could not be moved in: $!"); next; }
      }
      POSIX::lchown($uid, $gid, $dst);
      noacl($dst) unless S_ISLNK($mode);
      chmod($mode & 0777, $dst) unless S_ISLNK($mode);
      $applied++;
      next;
    }
    err($r, "a device: left out");
  }
}
walk('');
File::Path::remove_tree($state, { error => \my $e }) unless @errors;
print "applied $applied\n";
print "error $_\n" for @errors;
exit 0;`,it=String.raw`my ($nr, $d, $f, $nd, $nf, @rest) = @ARGV;
my @folders = @rest[0 .. $nd - 1]; my @files = @rest[$nd .. $nd + $nf - 1];
sub cover { my ($src, $p) = @_; my $none = undef;
  syscall(0 + $nr, "" . $src, "" . $p, $none, 4096, $none) == 0 or die "patchloop sandbox: $p could not be covered: $!\n";
  syscall(0 + $nr, $none, "" . $p, $none, 4096 | 32 | 1, $none) == 0 or die "patchloop sandbox: $p could not be made read-only: $!\n"; }
for (@folders) { cover($d, $_) if -d $_ && !-l $_; }
for (@files) { cover($f, $_) if -f $_ && !-l $_; }
`,fr=["-t","-X"],rt=5e3,nt=/^[^,:\\\s]+$/;async function at(e,t,r,n){let i=ne();if(!i)return`Perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}`;if(!nt.test(n))return`${n} cannot be named in the overlay's options`;let c=Y(t),d=ot(q(st(),"patchloop-overlay-probe-")),l=String.raw`set -eu
perl=$1 idmap=$2 mount=$3 mkdir=$4 nr=$5 ws=$6 state=$7 fu=$8 fg=$9
"$mkdir" "$state/l" "$state/up" "$state/work"
"$perl" -t -X -e "$idmap" -- "$nr" "$ws" "$state/l" "$fu" 65534 "$fg" 65534
"$mount" -t overlay patchloop-probe -o "lowerdir=$state/l,upperdir=$state/up,workdir=$state/work,redirect_dir=off,index=off,metacopy=off,xino=off" "$ws"`;try{if(!nt.test(d))return`${d} cannot be named in the overlay's options`;let p=await T(e,r.unshare,["--mount","--propagation","private","--",r.sh,"-c",l,"patchloop-overlay-probe",r.perl,we,r.mount,r.mkdir,String(i.unshare),t,d,String(c.uid),String(c.gid)]);return p.code===0?void 0:`no idmapped overlay of the workspace here (${N(p.stderr)||`exit ${p.code}`})`}finally{await T(e,r.rm,["-rf","--",d])}}s(at,"tryOverlay");async function ct(e,t,r,n){let i=ne();if(!i)return`Perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}`;let c=Y(t),d={uid:c.uid,gid:c.gid},l=q(t,".git"),p=await T(e,r.find,[t,"-path",l,"-prune","-o","-type","d","!","-perm","-001","!","-samefile",t,"-prune","-printf","d%p\\0","-o","-type","f","!","-perm","-004","-printf","f%p\\0","-o","-user",String(n),"-printf","u%p\\0"]);if(p.code!==0)throw new b(`could not list the workspace's private paths: ${N(p.stderr)||`exit ${p.code}`}`);let m=new Map,h=p.stdout.split("\0").filter(Boolean),x=h.filter(o=>o[0]==="u").map(o=>o.slice(1));for(let o=0;o<x.length;o+=500){let a=await T(e,r.chown,["-h","--",`${d.uid}:${d.gid}`,...x.slice(o,o+500)]);if(a.code!==0)throw new b(`could not give an earlier run's files back to the checkout's owner: ${N(a.stderr)||`exit ${a.code}`}`)}for(let o of h){if(o[0]==="u")continue;let a=o.slice(1);try{let f=Y(a);m.set(a,{dev:f.dev,ino:f.ino,folder:o[0]==="d"})}catch{}}if(m.size>rt)return`the workspace holds ${m.size} paths others may not read (more than ${rt})`;let $=ot(q(st(),"patchloop-overlay-")),S=s(o=>o.slice(t.length+1),"relative"),u={owner:d,hidden:{folders:[...m].filter(([,o])=>o.folder).map(([o])=>o),files:[...m].filter(([,o])=>!o.folder).map(([o])=>o)},state:$,next:0,verify(){for(let[o,a]of m){let f;try{let y=Y(o);f=y.dev===a.dev&&y.ino===a.ino&&lr(o)===o}catch{f=!mr(o)}if(!f)throw new b(`${S(o)} is no longer the private path the set-up covered`)}},async apply(o){let a=q($,String(o)),f=await T(e,r.perl,[...fr,"-e",pr,"--",String(i.lgetxattr),String(i.lremovexattr),u.followLinks?"1":"0",q(a,"up"),t,String(d.uid),String(d.gid),a,String(m.size),...[...m.keys()].map(S)]);if(f.code!==0)return`what the command wrote could not be moved into the workspace (${N(f.stderr)||`exit ${f.code}`}); it is kept in ${a}`;let y=f.stdout.split(`
`).filter(g=>g.startsWith("error ")).map(g=>g.slice(6));if(y.length)return`${y.length} of the command's changes could not be moved into the workspace (kept in ${a}): ${y.slice(0,5).join("; ")}`},async dispose(){await T(e,r.rm,["-rf","--",$])}};return u}s(ct,"openOverlay");function mr(e){try{return Y(e),!0}catch{return!1}}s(mr,"existsQuiet");var z="/tmp/home",G=["/tmp","/var/tmp","/dev/shm"],$r=String.raw`set -eu
umask 022
mount=$1 umount=$2 mkdir=$3 chown=$4 chmod=$5; shift 5
ws=$1 hide=$2 hide_mode=$3 stash=$4 owner=$5 home=$6 cwd=$7; shift 7
view=$1 perl=$2 idmap=$3 cover=$4 nr=$5 mnr=$6 layer=$7 fu=$8 fg=$9; shift 9
fail() { echo "patchloop sandbox: $*" >&2; exit 125; }
n=$1; shift
"$mount" -t tmpfs -o mode=0700,size=64k patchloop-stash "$stash"
if [ "$view" = overlay ] || [ "$view" = in-place ]; then
  "$mkdir" "$stash/l" "$stash/s" "$stash/d"
  : > "$stash/f"
  "$chmod" 000 "$stash/d" "$stash/f"
  "$mkdir" -p "$layer/up" "$layer/work"
  "$chown" "$owner" "$layer/up"
  "$chmod" 0755 "$layer/up"
  "$mount" --bind "$layer" "$stash/s"
  "$perl" -t -X -e "$idmap" -- "$nr" "$ws" "$stash/l" "$fu" "${"$"}{owner%%:*}" "$fg" "${"$"}{owner##*:}"
fi
i=0
for d do
  [ "$i" -lt "$n" ] || break
  if [ -h "$d" ]; then fail "$d is a symbolic link"
  elif [ -d "$d" ]; then "$mkdir" "$stash/$i"
  elif [ -f "$d" ]; then : > "$stash/$i"
  else fail "$d is neither a folder nor a file"; fi
  "$mount" --bind "$d" "$stash/$i"
  i=$((i+1))
done
if [ -n "$hide" ]; then
  "$mkdir" "$stash/ws"
  "$mount" --rbind "$ws" "$stash/ws"
  "$mount" -t tmpfs -o "mode=$hide_mode" patchloop-hidden "$hide"
  "$mkdir" -p "$ws"
  "$mount" --rbind "$stash/ws" "$ws"
fi
if [ "$view" = overlay ]; then
  "$mount" -t overlay patchloop-workspace -o "lowerdir=$stash/l,upperdir=$stash/s/up,workdir=$stash/s/work,redirect_dir=off,index=off,metacopy=off,xino=off" "$ws"
elif [ "$view" = in-place ]; then
  "$mount" --rbind "$stash/l" "$ws"
elif [ "$view" = read-only ]; then
  "$mount" --rbind "$ws" "$ws"
  "$mount" -o remount,bind,ro "$ws"
fi
shift "$n"
t=$1; shift
while [ "$t" -gt 0 ]; do
  "$chmod" 1777 "$1"
  shift; t=$((t-1))
done
t=$1; shift
while [ "$t" -gt 0 ]; do
  [ -d "$1" ] || "$mkdir" -p "$1"
  "$mount" -t tmpfs -o mode=1777 patchloop-scratch "$1"
  shift; t=$((t-1))
done
p=$1; shift
while [ "$p" -gt 0 ]; do
  "$mount" -t tmpfs -o mode=0755,size=64k patchloop-private "$1"
  shift; p=$((p-1))
done
w=$1; shift
while [ "$w" -gt 0 ]; do
  if [ -h "$1" ] || { [ -e "$1" ] && [ ! -d "$1" ]; }; then fail "$1 is no longer a folder"; fi
  [ ! -d "$1" ] || "$mount" -t tmpfs -o mode=1777 patchloop-shared "$1"
  shift; w=$((w-1))
done
r=$1; shift
while [ "$r" -gt 0 ]; do
  if [ -h "$1" ] || { [ -e "$1" ] && [ ! -d "$1" ]; }; then fail "$1 is no longer a folder"; fi
  if [ -d "$1" ]; then
    "$mount" --rbind "$1" "$1"
    "$mount" -o remount,bind,ro "$1"
  fi
  shift; r=$((r-1))
done
c=$1; shift
if [ "$c" -gt 0 ]; then
  "$perl" -t -X -e "$cover" -- "$mnr" "$stash/d" "$stash/f" "$@"
  shift "$c"
fi
"$mkdir" -p -m 0700 "$home"
"$chown" "$owner" "$home"
i=0
while [ "$i" -lt "$n" ]; do
  [ -e "$1" ] || "$mkdir" -p "$1"
  "$mount" --bind "$stash/$i" "$1"
  "$mount" -o remount,bind,ro "$1"
  shift; i=$((i+1))
done
"$umount" -l "$stash"
cd "$cwd" || fail "cannot enter $cwd"
exec "$@"`,yr=String.raw`g=$1 find=$2 chown=$3 chmod=$4 ws=$5; shift 5
f='{''}'
exec "$find" "$@" -mindepth 1 -maxdepth 1 -path "$ws/.git" -prune -o -type f \( -links +1 -o ! -perm -004 \) -prune -o -type d ! -perm -001 ! -samefile "$ws" -prune -o ! -group "$g" -exec "$chown" -h ":$g" "$f" + -false -o -type d ! -perm -2070 -exec "$chmod" g+rwxs "$f" + -o ! -type d ! -type l ! -perm -060 -exec "$chmod" g+rw "$f" +`,gr=String.raw`ws=$1 g=$2 find=$3 chown=$4 chmod=$5 sh=$6 since=$7 step=$8; shift 8
umask 002
"$find" "$ws" -path "$ws/.git" -prune -o -type d ! -perm -001 ! -samefile "$ws" -prune -o -type d -newermt "@$since" -exec "$sh" -c "$step" patchloop-refresh "$g" "$find" "$chown" "$chmod" "$ws" {} + 2>/dev/null || :
exec "$@"`,oe=2e3,wr=['for f in /proc/self/fd/*; do n=${f##*/}; [ "$n" -gt 2 ] && exec {n}>&-; done',"umask 002","exec 3>&2 2>/dev/null","set -m",`trap 'kill -TERM -- -"$c"' TERM INT HUP`,'"$2" -c "$1" 0<&0 2>&3 3>&- &',"c=$!",'while :; do wait "$c"; s=$?; kill -0 "$c" 2>/dev/null || exit "$s"; done'].join(`
`),dt=["--pid","--fork","--kill-child","--mount","--mount-proc","--propagation","private","--ipc","--uts"],kr="--net";function se(e){return e?[...dt,kr]:[...dt]}s(se,"namespaceOptions");var xr=String.raw`const net = require('net'), fs = require('fs');
process.setgroups([]); process.setgid(Number(process.argv[2])); process.setuid(Number(process.argv[1]));
const server = net.createServer((c) => {
  const u = net.connect('proxy.sock');
  c.on('error', () => u.destroy()); u.on('error', () => c.destroy());
  c.pipe(u); u.pipe(c);
});
server.listen(0, '127.0.0.1', () => fs.writeSync(1, server.address().port + '\n'));`,br=String.raw`set -eu
ip=$1 env=$2 node=$3 dir=$4 uid=$5 gid=$6 bridge=$7; shift 7
"$ip" link set lo up || { echo "patchloop sandbox: the command's loopback could not be brought up" >&2; exit 125; }
if [ -n "$node" ]; then
  exec {b}< <(cd "$dir" && exec "$env" -i "$node" -e "$bridge" "$uid" "$gid" </dev/null 2>/dev/null)
  read -r port <&"$b" || port=
  exec {b}<&-
  case $port in ''|*[!0-9]*) echo "patchloop sandbox: the network proxy's bridge did not start" >&2; exit 125;; esac
  p=http://127.0.0.1:$port
  export HTTP_PROXY=$p HTTPS_PROXY=$p http_proxy=$p https_proxy=$p ALL_PROXY=$p all_proxy=$p
  export NO_PROXY=localhost,127.0.0.1,::1 no_proxy=localhost,127.0.0.1,::1 NODE_USE_ENV_PROXY=1
fi
exec "$@"`;function Sr(e){let t=e.network;if(!t)return[];let{bins:r,account:n}=e;return[r.bash,"-c",br,"patchloop-network",t.ip,r.env,t.bridge?.node??"",t.bridge?.socketDir??"/",String(n.uid),String(n.gid),xr]}s(Sr,"networkStep");function vr(e,t,r,n,i={}){let{bins:c,account:d}=e,l=e.overlay,p=l!==void 0&&i.layer!==void 0&&!i.readOnly,m=p?l.access.hidden:{folders:[],files:[]},h=m.folders.length+m.files.length,x=[c.setpriv,"--pdeathsig","KILL","--",c.unshare,...se(e.network!==void 0).filter($=>!e.keepIpcUts||$!=="--ipc"&&$!=="--uts"),"--",...Sr(e),c.sh,"-c",$r,"patchloop-prelude",c.mount,c.umount,c.mkdir,c.chown,c.chmod,e.workspace,e.hide??"",e.hideMode,e.stash,`${d.uid}:${d.gid}`,z,r,p?l.inPlace?"in-place":"overlay":i.readOnly?"read-only":"shared",l?.perl??"",we,it,String(l?.syscalls.unshare??0),String(l?.syscalls.mount??0),p?hr(l.access.state,String(i.layer)):"",String(l?.access.owner.uid??0),String(l?.access.owner.gid??0),String(e.readOnly.length),...e.readOnly,String(e.sticky.length),...e.sticky,String(e.scratch.length),...e.scratch,String(e.covered.length),...e.covered,String(e.shared.length),...e.shared,String(e.sharedReadOnly.length),...e.sharedReadOnly,String(h?h+2:0),...h?[String(m.folders.length),String(m.files.length),...m.folders,...m.files]:[],...e.readOnly];return e.groupRefresh&&x.push(c.sh,"-c",gr,"patchloop-refresh",e.workspace,String(d.gid),c.find,c.chown,c.chmod,c.sh,((e.refreshSince??0)/1e3).toFixed(3),yr),e.limits&&x.push(c.prlimit,...tt(e.limits,n),"--"),x.push(c.setpriv,"--reuid",String(d.uid),"--regid",String(d.gid),"--clear-groups","--no-new-privs","--inh-caps=-all","--bounding-set=-all","--"),e.freshKeyring&&x.push(...ze(c.keyring,c.sh)),x.push(c.bash,"-c",wr,"patchloop-init",t,c.bash),x}s(vr,"commandArgv");function ie(e,t,r,n,i,c={}){let d=vr(e,t,r,i,c);if(e.groupRefresh&&(e.refreshSince=Date.now()-oe),!e.root.viaSudo)return{file:d[0],args:d.slice(1),env:n};let l=Object.entries(n).map(([p,m])=>`${p}=${m}`);return{file:e.root.prefix[0],args:[...e.root.prefix.slice(1),e.bins.env,"-i",...l,...d],env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"}}}s(ie,"launch");import{chmodSync as Pr}from"node:fs";import{createServer as Rr,request as _r}from"node:http";import{lookup as Or}from"node:dns/promises";import{connect as Er,isIP as Ar}from"node:net";var Tr=new Set([80,443]),lt=3e4,Nr=200,ke=1e4,Lr=s(async(e,t)=>Ar(e)?[{address:e,port:t}]:(await Or(e,{all:!0,verbatim:!0})).map(n=>({address:n.address,port:t})),"systemResolver");function xe(e){return/^[a-z0-9.:-]{1,253}$/.test(e)?e:"(a malformed destination)"}s(xe,"recordable");function Cr(e){let t=/^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):(\d{1,5})$/.exec(e);if(t)return{host:W(t[1]),port:Number(t[2])}}s(Cr,"splitAuthority");async function ut(e){let t=e.resolve??Lr,r=e.addressAllowed??fe,n=e.hosts.map(W),i=new Map,c=[],d=0,l=new Set,p=s((u,o)=>{let a=xe(u);!i.has(a)&&i.size>=Nr&&(a="(other hosts)");let f=i.get(a)??{host:a,reason:o,count:0};return f.count++,i.set(a,f),c.push(a),c.length>ke&&(d+=c.length-ke/2,c=c.slice(-ke/2)),e.onRefused?.(a,o),{ok:!1,reason:o}},"refuse"),m=s(async(u,o)=>{if(!u)return p("(a malformed destination)","not a host name");if(!Ce(n,u))return p(u,"not in command-network");if(!Tr.has(o))return p(`${u}:${o}`,"only ports 80 and 443 are allowed");let a;try{a=await t(u,o)}catch{return{ok:!1,reason:`${u} could not be resolved`}}let f=a.filter(y=>r(y.address));return f.length?{ok:!0,targets:f}:p(u,"it resolves to a loopback, private or link-local address")},"decide"),h=s(u=>new Promise((o,a)=>{let f=s((y,g)=>{let k=u[y];if(!k)return a(g??new Error("no address"));let E=Er({host:k.address,port:k.port});E.setTimeout(lt,()=>E.destroy(new Error("connect timeout"))),E.once("connect",()=>{E.setTimeout(0),o(E)}),E.once("error",v=>f(y+1,v))},"next");f(0)}),"open"),x=s(u=>{l.add(u),u.once("close",()=>l.delete(u))},"track"),$=Rr();$.on("connection",x),$.on("connect",(u,o,a)=>{o.on("error",()=>{});let f=Cr(u.url??"");(async()=>{let y=f?await m(f.host,f.port):p("","not a host name");if(!y.ok){let k=y.reason.includes("resolved")?"502 Bad Gateway":"403 Forbidden";o.end(`HTTP/1.1 ${k}\r
Content-Type: text/plain\r
Connection: close\r
\r
patchloop command-network: ${f?xe(f.host):"this destination"} is refused (${y.reason}).
`);return}let g;try{g=await h(y.targets)}catch(k){o.end(`HTTP/1.1 502 Bad Gateway\r
Connection: close\r
\r
${k.message}
`);return}x(g),g.on("error",()=>o.destroy()),o.on("error",()=>g.destroy()),o.on("close",()=>g.destroy()),g.on("close",()=>o.destroy()),o.write(`HTTP/1.1 200 Connection Established\r
\r
`),a.length&&g.write(a),g.pipe(o),o.pipe(g)})()}),$.on("request",(u,o)=>{(async()=>{let a;try{a=new URL(u.url??"")}catch{a=void 0}if(!a||a.protocol!=="http:"){p("","not an absolute http:// request"),o.writeHead(400,{"content-type":"text/plain"}).end(`patchloop command-network: the proxy takes CONNECT host:443 and absolute http:// requests only.
`);return}let f=W(a.hostname),y=a.port?Number(a.port):80,g=await m(f,y);if(!g.ok){o.writeHead(g.reason.includes("resolved")?502:403,{"content-type":"text/plain"}).end(`patchloop command-network: ${xe(f)} is refused (${g.reason}).
`);return}let k={...u.headers};for(let O of["proxy-authorization","proxy-connection","connection","keep-alive"])delete k[O];let E=g.targets[0],v=_r({host:E.address,port:E.port,method:u.method,path:`${a.pathname}${a.search}`,headers:{...k,host:a.host},setHost:!1});v.setTimeout(lt,()=>v.destroy(new Error("timeout"))),v.on("response",O=>{o.writeHead(O.statusCode??502,O.headers),O.pipe(o)}),v.on("error",O=>{o.headersSent?o.destroy():o.writeHead(502,{"content-type":"text/plain"}).end(`${O.message}
`)}),u.pipe(v)})()}),$.on("clientError",(u,o)=>{u.code!=="ECONNRESET"&&o.writable?(p("","not a valid request"),o.end(`HTTP/1.1 400 Bad Request\r
Connection: close\r
\r
`)):o.destroy()}),await new Promise((u,o)=>{$.once("error",o),$.listen(e.socketPath,()=>{$.off("error",o),u()})}),Pr(e.socketPath,438);let S=s(u=>{let o=new Map;for(let a of u){let f=o.get(a)??{host:a,reason:i.get(a)?.reason??"",count:0};f.count++,o.set(a,f)}return[...o.values()]},"dedupe");return{socketPath:e.socketPath,refused:s(()=>[...i.values()].map(u=>({...u})),"refused"),refusals:s(()=>d+c.length,"refusals"),refusedSince:s(u=>S(c.slice(Math.max(0,u-d))),"refusedSince"),close:s(()=>new Promise(u=>{for(let o of l)o.destroy();$.close(()=>u())}),"close")}}s(ut,"startNetworkProxy");import{spawnSync as ht}from"node:child_process";import{createHash as Ir,randomBytes as Mr}from"node:crypto";import{existsSync as Dr,readdirSync as Hr,readFileSync as Br,readlinkSync as Kr,rmSync as be,statSync as Fr,writeFileSync as pt}from"node:fs";import{createServer as Ur}from"node:net";import{dirname as ft,join as I,relative as Gr,sep as jr}from"node:path";function Wr(){return new Promise((e,t)=>{let r=Ur(n=>n.destroy());r.once("error",t),r.listen(0,"127.0.0.1",()=>{let n=r.address();e({port:typeof n=="object"&&n?n.port:0,server:r})})})}s(Wr,"hostListener");var mt="PATCHLOOP_SELF_CHECK_SECRET";async function $t(e,t){let r=Mr(6).toString("hex"),n=`s3cret-${r}`,i=Ne,c=[];for(let o of t.privateDirs){let a=I(o,`.patchloop-probe-${r}`);try{pt(a,n,{mode:420,flag:"wx"}),c.push(a)}catch{}}let d=t.network?await Wr():void 0,l=t.shared?[...new Set([...t.shared,...qr(t)?[Q]:[]])]:[],p=t.sharedReadOnly??[],m=`.patchloop-probe-${r}`,h=`patchloop-probe-${r}`,x=t.keyring?Je(t.keyring,h,n):void 0,$=t.ipcUts?Vr():void 0;for(let o of l){let a=I(o,m);try{pt(a,n,{mode:420,flag:"wx"}),c.push(a)}catch{}}let S=['echo "uid $(id -u)"',`if h=$({ sha256sum < /proc/${process.pid}/environ; } 2>/dev/null); then echo "environ $h"; fi`,`f=.patchloop-probe-${r}; if { : > "$f"; } 2>/dev/null && rm -f "$f"; then echo workspace-writable; fi`,t.processes===void 0?":":`[ "$(ulimit -u)" = ${t.processes} ] || echo "nproc $(ulimit -u)"`,`if printenv ${mt} >/dev/null; then echo env-secret-visible; fi`];if(x&&t.keyring){let o=et(t.keyring,x,h).map(a=>`${a.map(i).join(" ")} >/dev/null 2>&1`);S.push(`if ${o.join(" || ")}; then echo keyring-shared; fi`)}t.ipcUts&&S.push('echo "ns-ipc $(readlink /proc/self/ns/ipc)"','echo "ns-uts $(readlink /proc/self/ns/uts)"','if [ -r /proc/sysvipc/msg ] && [ "$(wc -l < /proc/sysvipc/msg)" -gt 1 ]; then echo ipc-visible; fi');for(let o of l)S.push(`if [ -e ${i(I(o,m))} ]; then echo shared-visible ${i(o)}; fi`,`{ : > ${i(I(o,`${m}-left`))}; } 2>/dev/null || echo shared-unwritable ${i(o)}`);for(let o of p)S.push(`if { : > ${i(I(o,`${m}-left`))}; } 2>/dev/null; then echo shared-writable ${i(o)}; fi`);t.hasGit&&S.push(`if mv .git .git-probe-${r} 2>/dev/null; then mv .git-probe-${r} .git; echo git-renamed; fi`,`if [ -d .git ] && { : > .git/probe-${r}; } 2>/dev/null; then rm -f .git/probe-${r}; echo git-written; fi`,"if [ -f .git ] && { : >> .git; } 2>/dev/null; then echo git-written; fi");let u=s((o,a)=>{let y=["''",...[t.workspace,z,...G,...t.readOnlyDirs].filter(g=>g!==o&&R(g,o)).map(g=>Gr(o,g).split(jr)[0]).map(i)].join("|");return`ls -A ${i(o)} 2>/dev/null | while IFS= read -r n; do case "$n" in ${y}) ;; *) echo ${a} ${i(o)}/"$n";; esac; done`},"onlyWays");d&&S.push('while IFS=: read -r n _; do n=$(printf %s $n); case "$n" in lo|Inter-*|face*) ;; *) echo "interface-visible $n";; esac; done < /proc/net/dev',`if (exec 3<>/dev/tcp/127.0.0.1/${d.port}) 2>/dev/null; then echo host-loopback-reachable; fi`,'case "$( (exec 3<>/dev/tcp/127.0.0.1/1) 2>&1)" in *refused*) ;; *) echo loopback-down;; esac',t.network?.proxy?'case "${HTTPS_PROXY:-}" in http://127.0.0.1:*) (exec 3<>/dev/tcp/127.0.0.1/"${HTTPS_PROXY##*:}") 2>/dev/null || echo proxy-unreachable;; *) echo proxy-unset;; esac':'[ -z "${HTTPS_PROXY:-}" ] || echo proxy-set');for(let o=ft(t.workspace);o!=="/";o=ft(o))S.push(u(o,"above-visible"));for(let o of t.privateDirs)S.push(u(o,"private-visible"));for(let o of t.readOnlyDirs)S.push(`ls ${i(o)} >/dev/null 2>&1 || echo read-only-unreadable ${i(o)}`,`if { : > ${i(I(o,`probe-${r}`))}; } 2>/dev/null; then echo read-only-writable ${i(o)}; fi`);try{if(t.keyring&&!x)return"a key could not be put in patchloop's session keyring to probe with";let o=await Te({command:S.join(`
`),cwd:t.workspace,env:{...t.env,[mt]:n},sandbox:e,timeoutMs:3e4}),a=o.text.trim().split(`
`);if(o.exitCode!==0||o.spawnError)return`the probe command failed (${o.spawnError??`exit ${o.exitCode??o.signal}`}): ${a.slice(-3).join(" / ")}`;if(a[0]!==`uid ${t.uid}`)return`the probe ran as ${a[0]??"nobody"}, not uid ${t.uid}`;let f=Ir("sha256").update(Br("/proc/self/environ")).digest("hex");if(a.some(k=>k.startsWith("environ ")&&k.includes(f)))return"the probe could read patchloop's /proc/<pid>/environ";if(!a.includes("workspace-writable"))return"the probe could not write in the workspace";if(o.text.includes(n))return"the probe saw a value it must not see";for(let k of t.ipcUts?["ipc","uts"]:[]){let E=a.find(v=>v.startsWith(`ns-${k} `))?.slice(`ns-${k} `.length);if(!E?.startsWith(`${k}:[`))return`the probe could not tell its ${k} namespace`;if(E===Kr(`/proc/self/ns/${k}`))return`the probe shares patchloop's ${k==="ipc"?"System V IPC":"host name"} namespace`}let y=[...l,...p].map(k=>I(k,`${m}-left`)).filter(k=>Dr(k));if(y.length)return`the probe left ${y.join(", ")} behind, outside its namespace`;let g=a.filter(k=>!k.startsWith("uid ")&&!k.startsWith("environ ")&&!k.startsWith("ns-")&&k!=="workspace-writable");return g.length?`the probe found: ${g.join("; ")}`:void 0}finally{d?.server.close();for(let o of c)be(o,{force:!0});for(let o of[...l,...p])be(I(o,`${m}-left`),{force:!0});x&&t.keyring&&Ze(t.keyring,x),$&&ht($.ipcrm,["-q",$.id],{stdio:"ignore"});for(let o of t.readOnlyDirs)for(let a of Xr(o))a===`probe-${r}`&&be(I(o,a),{force:!0})}}s($t,"selfCheck");function Xr(e){try{return Hr(e)}catch{return[]}}s(Xr,"safeList");function Vr(){let e=A("ipcmk"),t=A("ipcrm");if(!e||!t)return;let r=ht(e,["-Q","-p","0600"],{encoding:"utf8"}),n=/(\d+)\s*$/.exec(r.stdout?.trim()??"")?.[1];return r.status===0&&n?{id:n,ipcrm:t}:void 0}s(Vr,"plantQueue");var Q="/run/lock";function qr(e){try{let t=Fr(Q);return t.isDirectory()&&(t.mode&514)===514&&!(e.sharedReadOnly??[]).includes(Q)&&!R(e.workspace,Q)&&!R(Q,e.workspace)}catch{return!1}}s(qr,"isSharedLock");import{execFile as Yr}from"node:child_process";var zr=4,Qr=3e4;function Jr(e){return e.replace(/[*?[\]\\]/g,"\\$&")}s(Jr,"literal");function yt(e,t){let r=["/proc","/sys",...t].flatMap((i,c)=>[...c?["-o"]:[],"-path",Jr(i)]),n=["/","-mindepth","1","-maxdepth",String(zr),"(",...r,")","-prune","-o","-type","d","-perm","-0002","-printf","%m %p\\0","-prune"];return new Promise((i,c)=>{Yr(e,n,{env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin",LC_ALL:"C"},encoding:"buffer",timeout:Qr,maxBuffer:4<<20},(d,l)=>{if(d&&(d.killed||d.signal||typeof d.code!="number")){c(new b(`the machine's world-writable folders could not be listed: ${d.message}`));return}let p={scratch:[],other:[]};for(let m of l.toString("utf8").split("\0")){let h=m.indexOf(" ");if(h<0)continue;let x=parseInt(m.slice(0,h),8),$=m.slice(h+1);!$.startsWith("/")||$==="/"||(x&512?p.scratch:p.other).push($)}i(p)})})}s(yt,"findSharedDirs");var B=s(e=>({kind:"unavailable",reason:e}),"unavailable"),ae=["/media","/srv","/mnt","/opt","/run","/var"];function j(e){try{let t=tn(e);return kt(t).isDirectory()?t:void 0}catch{return}}s(j,"realDir");function on(){let e=["unshare","setpriv","mount","umount","mkdir","chown","chmod","find","prlimit","bash","sh","env","kill"],t={};for(let r of e){let n=A(r);if(!n)return`${r} is not installed (${r==="find"?"findutils":r==="bash"||r==="sh"?"a shell":"util-linux / coreutils"})`;t[r]=n}return t}s(on,"resolveBins");async function sn(e,t){let r=qe(t);if(typeof r=="string")return r;let n="";for(let i of r){let c=await Ye(i,e);if(c==="works"||c==="refused")return{tool:i,works:c==="works"};n=c}return n}s(sn,"findKeyring");async function an(e){try{return await e()}catch(t){if(!(t instanceof b))throw t;return e()}}s(an,"retryOnce");function cn(e,t,r){let{account:n,root:i}=e,c=new Set([...Oe,...t]);return{outputFileMode:420,envOptions:{pass:t,privateDirs:r},wrap(d){let l={};for(let[x,$]of Object.entries(d.env))c.has(x)&&(l[x]=$);l.PATH=Ae(l.PATH,r),l.HOME=z,l.TMPDIR="/tmp",l.USER=n.user,l.LOGNAME=n.user;let p=Number(l.GIT_CONFIG_COUNT??0)||0;l[`GIT_CONFIG_KEY_${p}`]="safe.directory",l[`GIT_CONFIG_VALUE_${p}`]="*",l.GIT_CONFIG_COUNT=String(p+1),Object.assign(l,d.ownEnv);let m=e.overlay?.access;if(!m)return ie(e,d.command,d.cwd,l,d.timeoutMs);if(d.readOnlyWorkspace)return ie(e,d.command,d.cwd,l,d.timeoutMs,{readOnly:!0});m.verify();let h=m.next++;return{...ie(e,d.command,d.cwd,l,d.timeoutMs,{layer:h}),settle:s(()=>m.apply(h),"settle")}},signal:s(((d,l)=>{if(!i.viaSudo){try{process.kill(-d,l)}catch{}return}nn(i.prefix[0],[...i.prefix.slice(1),e.bins.kill,"-s",l.replace(/^SIG/,""),"--",`-${d}`],{stdio:"ignore",timeout:1e4})}),"signal")}}s(cn,"makeSandbox");var gt=new Map,wt=new Map;function bt(e,t){let r=wt.get(t);return r||(r=an(()=>Be(e.root,t)),r.catch(()=>{}),wt.set(t,r)),r}s(bt,"accountOf");function dn(e=ee,t=[]){let r=[e,...[...t].sort()].join("\0"),n=gt.get(r);return n||(n=(async()=>{if(process.platform!=="linux")return`commands cannot be isolated on ${process.platform}; only Linux is supported`;let i=await He();if(typeof i=="string")return`commands cannot run as another user: ${i}`;let c=on();if(typeof c=="string")return`commands cannot be isolated: ${c}`;let[d,l,p]=await Promise.all([T(i,c.unshare,[...se(!1),"--",c.mount,"-t","tmpfs","patchloop-probe","/tmp"]),ln(i,c),sn(c.sh,t)]);if(d.code!==0)return`no PID and mount namespace for commands here (${N(d.stderr)||`exit ${d.code}`})`;if(typeof p=="string")return`commands cannot be isolated: ${p}`;let m={...c,keyring:p.tool},h={root:i,bins:m,network:l,keyrings:p.works};return bt(h,e),h})(),n.catch(()=>{}),gt.set(r,n)),n}s(dn,"probeMachine");async function ln(e,t){let r=A("ip");if(!r)return"ip (iproute2) is not installed, so a command network namespace cannot get its loopback";let n=await T(e,t.unshare,[...se(!0),"--",r,"link","set","lo","up"]);return n.code!==0?`no network namespace for commands here (${N(n.stderr)||`exit ${n.code}`})`:{ip:r}}s(ln,"probeNetwork");async function un(e,t){let r=en(Se(rn(),"patchloop-net-"));Zr(r,457);try{return{proxy:await ut({hosts:e,socketPath:Se(r,"proxy.sock"),...t}),dir:r}}catch(n){throw xt(r,{recursive:!0,force:!0}),new b(`the network proxy could not be started: ${n.message}`)}}s(un,"startProxy");async function jo(e){let t=await pn(e);return t.kind==="isolated"&&await t.ready,t}s(jo,"createSandbox");async function pn(e){if(e.mode==="off")return B("turned off");if(process.platform!=="linux")return B(`commands cannot be isolated on ${process.platform}; only Linux is supported`);let t=e.env??process.env,r=new Set(e.weaken??[]),n=j(e.workspace);if(!n)throw new b(`the workspace ${e.workspace} is not a folder`);if(n==="/"||n==="/tmp")throw new b(`the workspace cannot be ${n} itself`);let i=await dn(e.user,e.hideBins);if(typeof i=="string")return B(i);let{root:c,bins:d}=i,l=e.network??{kind:"none"},p=l.kind!=="all"&&!r.has("network");if(p&&typeof i.network=="string")return B(i.network);let m=A("setfacl")?"acl":"group",h=e.access??"overlay",x=n.split("/").filter(Boolean),$=x.length>1&&!r.has("hide-above")?`/${x[0]}`:void 0,S=ae.map(j).find(w=>w!==void 0&&!($&&R(w,$))&&!R(n,w)&&!R(w,n));if(!S)throw new b(`none of ${ae.join(", ")} can hold the workspace's mounts`);let u=A("perl"),o=A("rm"),a=ne(),f=u&&o?{find:d.find,perl:u,unshare:d.unshare,mount:d.mount,sh:d.sh,mkdir:d.mkdir,rm:o}:void 0;if(h==="overlay"){let w=!f||!a?f?`Perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}`:"perl is not installed":await at(c,n,f,S);if(w){if(e.access==="overlay")return B(w);h=m}}if(h==="acl"&&!A("setfacl"))return B("setfacl (package acl) is not installed");if(h==="group"&&c.viaSudo)return B("setfacl (package acl) is needed to share the workspace when not running as root");let y=G.map(j).filter(w=>w!==void 0&&!R(n,w)&&!R(w,n)),g=[...new Set((e.privateDirs??(t.RUNNER_TEMP?[t.RUNNER_TEMP]:[])).map(j))].filter(w=>w!==void 0&&w!=="/"),k=r.has("private-dirs")?[]:g.filter(w=>!($&&R(w,$))&&!y.some(M=>R(w,M))&&!R(n,w)),E=Se(n,".git"),v=(()=>{try{let w=kt(E);return w.isDirectory()||w.isFile()}catch{return!1}})(),O=[...new Set((e.readOnlyDirs??[]).map(j))].filter(w=>w!==void 0&&w!=="/"),ce=[...v&&!r.has("read-only-git")?[E]:[],...O],de={...ye,...e.limits},ve=Math.min(de.processes,ge().processes??1/0),St=(e.commandEnv??[]).filter(Ee),K=await bt(i,e.user??ee),C=p&&l.kind==="hosts"?await un(l.hosts,e.proxyOverride):void 0,Pe=s(async()=>{C&&(await C.proxy.close(),xt(C.dir,{recursive:!0,force:!0}))},"closeProxy"),_={root:c,account:K,bins:d,workspace:n,hide:$,hideMode:$&&G.includes($)?"1777":"0755",stash:S,scratch:y,sticky:G.filter(w=>$&&w!==$&&R(w,$)&&R(n,w)),covered:k,shared:[],sharedReadOnly:[],freshKeyring:i.keyrings&&!r.has("keyring"),keepIpcUts:r.has("ipc-uts"),readOnly:ce,limits:r.has("limits")?void 0:de,groupRefresh:h==="group",...p&&typeof i.network!="string"?{network:{ip:i.network.ip,...C?{bridge:{node:process.execPath,socketDir:C.dir}}:{}}}:{}},le={...cn(_,St,g),network:{mark:s(()=>C?.proxy.refusals()??0,"mark"),note:s((w,M)=>Me(l,C?C.proxy.refusedSince(w):[],M),"note")}},Re=!1,vt={...le,wrap(w){if(!Re)throw new b("no command runs before the sandbox self-check has passed");return le.wrap(w)}},F,ue,pe=(async()=>{await new Promise(P=>setImmediate(P)),_.groupRefresh&&(_.refreshSince=Date.now()-oe);let w=s(P=>(h=P,_.groupRefresh=P==="group",_.groupRefresh&&(_.refreshSince=Date.now()-oe),Xe(c,K,n,P).then(L=>F=L)),"openWalks");ue=h==="overlay"&&f&&a?ct(c,n,{...f,chown:d.chown},K.uid).then(P=>{if(typeof P!="string"){_.overlay={perl:f.perl,syscalls:a,access:r.has("cover-private")?{...P,hidden:{folders:[],files:[]}}:P,inPlace:r.has("overlay-in-place")},r.has("apply-follows-links")&&(P.followLinks=!0),F={method:"overlay",revoke:s(()=>P.dispose(),"revoke")};return}if(e.access==="overlay")throw new b(P);if(m==="group"&&c.viaSudo)throw new b(`${P}, and setfacl (package acl) is needed to share it when not running as root`);return w(m)}):w(h);let[,M]=await Promise.all([ue,r.has("shared-dirs")?{scratch:[],other:[]}:yt(d.find,[$??n,n,...y,...g,...O])]),J=s(P=>!R(n,P)&&!R(P,n),"apart");if(_.shared=M.scratch.filter(J),_.sharedReadOnly=M.other.filter(J),[..._.shared,..._.sharedReadOnly].some(P=>R(P,S)||R(S,P))){let P=ae.map(j).find(L=>L!==void 0&&!($&&R(L,$))&&!R(n,L)&&!R(L,n)&&![..._.shared,..._.sharedReadOnly].some(_e=>R(_e,L)||R(L,_e)));if(!P)throw new b(`none of ${ae.join(", ")} can hold the workspace's mounts apart from the world-writable folders`);_.stash=P}if(e.selfCheck!==!1){let P=s(()=>$t(le,{uid:K.uid,workspace:n,hasGit:v,privateDirs:g,readOnlyDirs:O,processes:r.has("limits")?void 0:ve,env:t,network:_.network?{proxy:C!==void 0}:void 0,keyring:i.keyrings?d.keyring:void 0,ipcUts:!0,shared:_.shared,sharedReadOnly:_.sharedReadOnly}),"check"),L=await P()&&await P();if(L)throw new b(`the sandbox self-check failed: ${L}`)}Re=!0})().catch(async w=>{await ue?.catch(()=>{});let M=F;throw F=void 0,await Promise.all([M?.revoke(),Pe()]).catch(J=>{throw new b(`${w.message}; and then: ${J.message}`)}),w});pe.catch(()=>{});let Pt=s(()=>[`commands run as user ${K.user} (uid ${K.uid}) in their own PID and mount namespace`,_.keepIpcUts?"":"with their own System V IPC and host name",_.freshKeyring?"a session keyring of their own":"",$?"with everything above the workspace hidden":"",g.length?`${g.join(", ")} hidden`:"",v?".git read-only":"",h==="overlay"?"the workspace as an overlay whose writes patchloop moves in after each command":`${h==="acl"?"ACL":"group"} access to the workspace`,`network: ${_.network?Z(l):Z({kind:"all"})}`,r.has("limits")?"":`limits of ${ve} processes and ${Math.round(de.fileBytes/1024**2)} MiB per file`].filter(Boolean).join(", "),"describe"),Rt;return{kind:"isolated",sandbox:vt,get reason(){return Pt()},ready:pe,dispose:s(()=>Rt??=pe.then(()=>{let w=F;return F=void 0,Promise.all([w?.revoke(),Pe()]).then(()=>{})},()=>{}),"dispose"),network:{policy:_.network?l:{kind:"all"},refused:s(()=>C?.proxy.refused()??[],"refused")}}}s(pn,"startSandbox");export{hn as a,Z as b,Ie as c,$n as d,dn as e,jo as f,pn as g};
