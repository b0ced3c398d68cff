import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{n as Ie}from"./chunk-L5AAVJP4.js";import{D as Me,k as _,u as Ne,v as Le,w as Ce}from"./chunk-LVK2Q2AR.js";import{a as s}from"./chunk-4X7ZATFQ.js";import{BlockList as De,isIP as Nt}from"node:net";var Lt=/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;function Sn(e){let t=e.trim().toLowerCase();if(t===""||t==="none")return{kind:"none"};if(t==="all")return{kind:"all"};let r=t.split(/[,\n]/).map(i=>i.trim().replace(/\.$/,"")).filter(Boolean),n=r.find(i=>!Lt.test(i));if(n!==void 0)throw new Error(`command-network is none, all, or host names such as registry.npmjs.org or *.pythonhosted.org (comma- or newline-separated); "${n}" is not a host name.`);return{kind:"hosts",hosts:[...new Set(r)]}}s(Sn,"parseCommandNetwork");function q(e){return e.trim().toLowerCase().replace(/^\[(.*)\]$/,"$1").replace(/\.$/,"")}s(q,"normalHost");function Be(e,t){let r=q(t);return e.some(n=>n.startsWith("*.")?r.endsWith(n.slice(1))&&r.length>n.length-1:r===n)}s(Be,"hostAllowed");var[Ct,It]=(()=>{let e=new De,t=new De,r=[["0.0.0.0",8],["10.0.0.0",8],["100.64.0.0",10],["127.0.0.0",8],["169.254.0.0",16],["172.16.0.0",12],["192.0.0.0",24],["192.0.2.0",24],["192.88.99.0",24],["192.168.0.0",16],["198.18.0.0",15],["198.51.100.0",24],["203.0.113.0",24],["224.0.0.0",3]],n=[["::",96],["64:ff9b:1::",48],["100::",64],["2001::",23],["2001:db8::",32],["2002::",16],["fc00::",7],["fe80::",10],["fec0::",10],["ff00::",8]];for(let[i,a]of r)e.addSubnet(i,a,"ipv4");for(let[i,a]of n)t.addSubnet(i,a,"ipv6");return[e,t]})();function he(e){let t=Nt(e);if(t===0)return!1;if(t===4)return!Ct.check(e,"ipv4");let r=/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(e);return r?he(r[1]):/^::ffff:/i.test(e)?!1:!It.check(e,"ipv6")}s(he,"isPublicAddress");var Mt=10;function te(e){return e.kind==="none"?"none (each command has its own loopback only)":e.kind==="all"?"all (commands use the runner\u2019s network)":`HTTP and HTTPS to ${e.hosts.join(", ")} only, through patchloop\u2019s proxy`}s(te,"describeNetwork");function He(e,t=Mt){let r=e.slice(0,t).map(n=>n.count>1?`${n.host} (${n.count}\xD7)`:n.host);return e.length>t&&r.push(`and ${e.length-t} more`),r.join(", ")}s(He,"listRefused");function Pn(e,t){let r=te(e);return t.length?`${r}; refused: ${He(t)}`:r}s(Pn,"networkSummaryLine");var Dt=/ENETUNREACH|EAI_AGAIN|Network is unreachable|Could not resolve host|Temporary failure in name resolution|getaddrinfo ENOTFOUND|Name or service not known/i;function Ke(e,t,r){if(e.kind!=="all"){if(t.length)return`[command-network refused ${He(t,5)} (${t[0].reason}). Commands may reach only ${e.kind==="hosts"?e.hosts.join(", "):"their own loopback"}; the workflow's command-network input sets this.]`;if(Dt.test(r))return e.kind==="none"?"[command-network is none: commands have no network but their own loopback, so downloads and outside services fail. The workflow\u2019s command-network input can allow hosts.]":`[command-network allows only HTTP and HTTPS to ${e.hosts.join(", ")}, through the proxy in HTTPS_PROXY / HTTP_PROXY; a program that ignores those variables finds no network.]`}}s(Ke,"networkNote");import{chmodSync as dn,lstatSync as St,mkdtempSync as ln,realpathSync as un,rmSync as Pt}from"node:fs";import{tmpdir as fn}from"node:os";import{spawnSync as pn}from"node:child_process";import{join as Pe}from"node:path";import{chmodSync as Wt,lchownSync as Xt,lstatSync as ye,mkdtempSync as Vt,readFileSync as oe,realpathSync as qt,rmSync as Yt,writeFileSync as zt}from"node:fs";import{tmpdir as Qt}from"node:os";import{join as D}from"node:path";var S=class extends Error{static{s(this,"SandboxSetupError")}constructor(t){super(t),this.name="SandboxSetupError"}};import{execFile as Bt}from"node:child_process";import{existsSync as Ht,readFileSync as Kt,statSync as Ft}from"node:fs";import{join as Ut}from"node:path";var re="patchloop-sandbox";function K(e,t,r={}){return new Promise(n=>{Bt(e,t,{cwd:r.cwd,env:r.env??{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"},encoding:"utf8",timeout:r.timeoutMs??12e4,maxBuffer:r.maxBuffer??4<<20},(i,a,c)=>{let l=i?typeof i.code=="number"?i.code:127:0;n({code:l,stdout:String(a),stderr:String(c||(i&&l===127?i.message:""))})})})}s(K,"run");function N(e){return e.trim().split(`
`)[0]??""}s(N,"firstLine");var Gt=["/usr/bin","/bin","/usr/sbin","/sbin"];function T(e){for(let t of Gt){let r=Ut(t,e);try{if(Ft(r).isFile())return r}catch{}}}s(T,"systemBin");async function Ue(){if(process.getuid?.()===0)return{prefix:[],viaSudo:!1};let e=T("sudo");return e?(await K(e,["-n","true"],{timeoutMs:1e4})).code!==0?"not root, and sudo asks for a password":{prefix:[e,"-n","--"],viaSudo:!0}:"not root, and sudo is not installed"}s(Ue,"findRootAccess");function L(e,t,r,n={}){return e.prefix.length?K(e.prefix[0],[...e.prefix.slice(1),t,...r],n):K(t,r,n)}s(L,"asRoot");function jt(e){let t;try{t=Kt("/etc/passwd","utf8")}catch{return}for(let r of t.split(`
`)){let n=r.split(":");if(n[0]!==e||n.length<7)continue;let i=Number(n[2]),a=Number(n[3]);return n[2]===""||n[3]===""||!Number.isInteger(i)||!Number.isInteger(a)?void 0:{user:e,uid:i,gid:a}}}s(jt,"localAccount");async function Fe(e){let t=jt(e);if(t)return t;let r=T("getent");if(!r)return;let n=await K(r,["passwd",e]);if(n.code!==0)return;let i=n.stdout.trim().split(":");return{user:e,uid:Number(i[2]),gid:Number(i[3])}}s(Fe,"lookup");async function Ge(e,t){let r=await Fe(t);if(!r){let n=T("useradd");if(!n)throw new S("useradd is not installed, so the sandbox user cannot be created");let i=["/usr/sbin/nologin","/sbin/nologin"].find(c=>Ht(c))??"/bin/false",a=await L(e,n,["--system","--user-group","--no-create-home","--home-dir","/nonexistent","--shell",i,t]);if(r=await Fe(t),!r)throw new S(`could not create user ${t}: ${N(a.stderr)||`exit ${a.code}`}`)}if(!Number.isInteger(r.uid)||r.uid===0||!Number.isInteger(r.gid)||r.gid===0)throw new S(`user ${t} exists but is not an unprivileged user (uid ${r.uid})`);return r}s(Ge,"ensureUser");function qe(e,t){if(t.code!==0)throw new S(`${e}: ${N(t.stderr)||`exit ${t.code}`}`)}s(qe,"check");async function ne(e,t){(await t()).code!==0&&qe(e,await t())}s(ne,"twice");var Jt=["-type","f","-links","1","-perm","-004"],Zt=["-type","f","(","-links","+1","-o","!","-perm","-004",")"],Ye=s(e=>["-type","d","!","-perm","-001","!","-samefile",e],"privateFolder");function W(e){let t=T(e);if(!t)throw new S(`${e} is not installed`);return t}s(W,"need");var je=3130;function Y(e,t,r,n,i){return L(e,t,["-c",'f=$1; shift; exec "$@" > "$f"',"patchloop-walk",r,n,...i])}s(Y,"toFile");var $e=s((e,t)=>["-type","d","!","-perm","-001","!","-user",String(t),"!","-samefile",e,"-prune"],"closedFolder"),er=s(e=>e.replace(/\\([0-7]{3})/g,(t,r)=>String.fromCharCode(parseInt(r,8))),"unescapeAcl");function We(e){let t=[];for(let r of e.split(`

`)){let n=/^# file: (.*)$/m.exec(r);n&&t.push({path:er(n[1]),text:r.trim()})}return t}s(We,"aclBlocks");function Xe(e){let t=Buffer.from(e,"latin1");try{return ye(t).isSymbolicLink()?!1:qt(t,{encoding:"buffer"}).equals(t)}catch{return!1}}s(Xe,"leadsToItself");function Ve(e){let t=new Map;for(let r of e.split("\0")){let n=/^(\d+) ([0-7]+) (\d+) (\w) ([^]*)$/.exec(r);n&&t.set(n[5],{ino:BigInt(n[1]),mode:parseInt(n[2],8),gid:Number(n[3]),type:n[4]})}return t}s(Ve,"marks");function ge(e){Yt(e,{recursive:!0,force:!0})}s(ge,"cleanup");async function ze(e,t,r,n){let i=D(r,".git"),a=(()=>{try{return ye(i).isDirectory()}catch{return!1}})();if(n==="group"&&e.viaSudo)throw new S("setfacl (package acl) is needed to share the workspace when not running as root");let c=W("find"),l=W("sh"),p=Vt(D(Qt(),"patchloop-access-"));try{return n==="acl"?await tr(e,t,r,i,a,{find:c,sh:l,dir:p}):await rr(e,t,r,i,a,{find:c,sh:l,dir:p})}catch(m){throw ge(p),m}}s(ze,"openWorkspace");async function tr(e,t,r,n,i,{find:a,sh:c,dir:l}){let p=W("setfacl"),m=W("getfacl"),y=t.user,v=D(l,"before.acl");await ne("could not read the workspace's ACLs",()=>Y(e,c,v,a,[r,...$e(r,t.uid),"-o","!","-type","l","-exec",m,"-s","-P","-p","--","{}","+"]));let g=s(async()=>{try{let d=D(l,"linked.acl"),$=await Y(e,c,d,a,[r,...$e(r,t.uid),"-o","-type","f","-links","+1","-exec",m,"-s","-P","-p","--","{}","+","-o","!","-type","l","-exec",p,"-P","-b","--","{}","+"]),w=[];$.code!==0&&w.push(N($.stderr)||`exit ${$.code}`);let x=new RegExp(`^(default:)?user:${y.replace(/[.*+?^${}()|[\]\\]/g,"\\$&")}:`,"m"),k=We(oe(d,"latin1")).filter(h=>x.test(h.text)&&Xe(h.path)).map(h=>h.path);for(let h=0;h<k.length;h+=500){let P=await L(e,p,["-P","-b","--",...k.slice(h,h+500)]);P.code!==0&&w.push(N(P.stderr)||`exit ${P.code}`)}let f=We(oe(v,"latin1")).filter(h=>Xe(h.path));if(f.length){let h=D(l,"restore.acl");zt(h,f.map(C=>C.text).join(`

`)+`

`,{encoding:"latin1",mode:384});let P=await L(e,p,[`--restore=${h}`]);P.code!==0&&w.push(N(P.stderr)||`exit ${P.code}`)}if(w.length)throw new S(`the workspace's ACLs were not all put back: ${w[0]}`)}finally{ge(l)}},"revoke"),R=process.getuid?.()??0,u=R===0?"":`,d:u:${R}:rwX`,o=s((d,$,w)=>L(e,a,[d,...w,...Ye(d),"-prune","-o","-type","d","-exec",p,"-P","-m",`u:${y}:${$},d:u:${y}:${$}${u},d:o::rX`,"{}","+","-o",...Jt,"-exec",p,"-P","-m",`u:${y}:${$}`,"{}","+"]),"grant");try{await ne(`could not open the workspace to ${y}`,()=>o(r,"rwX",["-path",n,"-prune","-o"])),i&&await ne(`could not make .git read-only to ${y}`,()=>o(n,"rX",[]))}catch(d){throw await g().catch(()=>{}),d}return{method:"acl",revoke:g}}s(tr,"openAcl");async function rr(e,t,r,n,i,{find:a,sh:c,dir:l}){let p=W("chmod"),m=W("chown"),y=String(t.gid),v=["-printf","%i %m %G %y %p\\0"],g=s(d=>Y(e,c,d,a,[r,...v,"(","-path",n,"-prune","-o",...Zt,"-prune","-o",...Ye(r),"-prune","-o","!","-group",y,"-exec",m,"-h",`:${y}`,"{}","+","-false","-o","-type","d","!","-perm","-2070","-exec",p,"g+rwxs","{}","+","-o","!","-type","d","!","-type","l","!","-perm","-060","-exec",p,"g+rw","{}","+",")"]),"open"),R=s(d=>Y(e,c,d,a,[n,"!","-type","l","-perm","-002",...v,"-exec",p,"o-w","{}","+"]),"closeGit"),u=[],o=s(async()=>{try{await nr(e,t,r,a,c,l,u)}finally{ge(l)}},"revoke");try{if(await ne(`could not give the workspace to group ${t.user}`,()=>{let d=D(l,`open-${u.length}`);return u.push(d),g(d)}),i){let d=D(l,"git");u.push(d),qe("could not make .git read-only to others",await R(d))}}catch(d){throw await o().catch(()=>{}),d}return{method:"group",revoke:o}}s(rr,"openGroup");async function nr(e,t,r,n,i,a,c){let l=new Map;for(let u of c){let o;try{o=oe(u,"latin1")}catch{continue}for(let[d,$]of Ve(o))l.has(d)||l.set(d,$)}let p=D(a,"after"),m=await Y(e,i,p,n,[r,...$e(r,t.uid),"-printf","%i %m %G %y %p\\0","-o","-printf","%i %m %G %y %p\\0"]),y=[];m.code!==0&&y.push(N(m.stderr)||`exit ${m.code}`);let v=ye(r),g=new Map,R=s(u=>u.slice(0,u.lastIndexOf("/"))||"/","parentOf");for(let[u,o]of Ve(oe(p,"latin1"))){let d=l.get(u),$=Buffer.from(u,"latin1"),w=o.gid,x=o.mode;d&&d.ino===o.ino?(w=d.gid,x=o.mode&~je|d.mode&je):o.gid===t.gid&&(w=g.get(R(u))??(d?d.gid:v.gid),o.type==="d"&&!(d&&d.mode&1024)&&(x=o.mode&-1025));try{w!==o.gid&&Xt($,-1,w),o.type!=="l"&&(x!==o.mode||w!==o.gid)&&Wt($,x)}catch(k){k.code!=="ENOENT"&&y.push(`${u}: ${k.message}`)}o.type==="d"&&g.set(u,w)}if(y.length)throw new S(`the workspace's groups and modes were not all put back (${y.length}): ${y[0]}`)}s(nr,"restoreGroup");import{spawnSync as Qe}from"node:child_process";var or={x64:{keyctl:250,addKey:248,arch:"x86_64"},arm64:{keyctl:219,addKey:217,arch:"aarch64"}},z=["-t","-X"],sr=String.raw`my $nr = 0 + shift @ARGV;
for my $ring (-4, -5) {
  if (syscall($nr, 7, $ring) != 0) { print STDERR "patchloop sandbox: the sandbox user's keyrings cannot be emptied\n"; exit 125; }
}
if (syscall($nr, 1, undef) < 0) { print STDERR "patchloop sandbox: no session keyring of its own: $!\n"; exit 125; }
exec { $ARGV[0] } @ARGV;
print STDERR "patchloop sandbox: $ARGV[0]: $!\n";
exit 127;`,ir=String.raw`k=$1 sh=$2; shift 2
{ "$k" clear @u && "$k" clear @us; } || { echo "patchloop sandbox: the sandbox user's keyrings cannot be emptied" >&2; exit 125; }
exec 3>&2
exec "$k" session - "$sh" -c 'exec 2>&3 3>&-; exec "$@"' patchloop-keyring "$@" 2>/dev/null`,ar=String.raw`my ($nr, $arch) = @ARGV;
require Config;
exit 3 unless $Config::Config{archname} =~ /^\Q$arch\E-linux/ && $Config::Config{ptrsize} == 8;
if (syscall(0 + $nr, 1, undef) < 0) { print 0 + $!; exit 4; }
exit 0;`,cr=String.raw`my ($nr, $name) = @ARGV;
local $/;
my $value = <STDIN>;
$value = '' unless defined $value;
my $type = 'user';
my $id = syscall(0 + $nr, $type, $name, $value, length($value), -3);
exit 1 if $id < 0;
print $id;`,dr=String.raw`my ($nr, $id, $name) = @ARGV;
$nr = 0 + $nr;
my $buf = "\0" x 4096;
exit 0 if syscall($nr, 11, 0 + $id, $buf, 4096) >= 0;
my $type = 'user';
exit 0 if syscall($nr, 10, -3, $type, $name, 0) > 0;
exit 1;`,lr=String.raw`my ($nr, $id) = @ARGV;
exit(syscall(0 + $nr, 9, 0 + $id, -3) == 0 ? 0 : 1);`,ur=new Set([1,38]);function Je(e=[]){let t=[],r=e.includes("perl")?void 0:T("perl"),n=or[process.arch];r&&n&&t.push({kind:"perl",perl:r,...n});let i=e.includes("keyctl")?void 0:T("keyctl");return i&&t.push({kind:"keyctl",keyctl:i}),t.length?t:r?`keyctl is not installed (keyutils), and perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}: each command gets a keyring of its own with one of them`:"neither perl nor keyctl is installed (perl-base or keyutils): each command gets a keyring of its own with one of them"}s(Je,"findKeyringTools");async function Ze(e,t){if(e.kind==="keyctl")return(await K(e.keyctl,["session","-",t,"-c","exit 0"])).code===0?"works":"refused";let r=await K(e.perl,[...z,"-e",ar,"--",String(e.keyctl),e.arch]);return r.code===0?"works":r.code===4&&ur.has(Number(r.stdout.trim()))?"refused":r.code===3?`${e.perl} is not a 64-bit ${e.arch} perl`:`${e.perl} could not join a session keyring (exit ${r.code}${r.stdout.trim()?`, errno ${r.stdout.trim()}`:""})`}s(Ze,"probeKeyrings");function et(e,t){return e.kind==="perl"?[e.perl,...z,"-e",sr,"--",String(e.keyctl)]:[t,"-c",ir,"patchloop-keyring",e.keyctl,t]}s(et,"keyringStep");var tt={PATH:"/usr/sbin:/usr/bin:/sbin:/bin"};function rt(e,t,r){let[n,i]=e.kind==="perl"?[e.perl,[...z,"-e",cr,"--",String(e.addKey),t]]:[e.keyctl,["padd","user",t,"@s"]],a=Qe(n,i,{input:r,encoding:"utf8",env:tt,timeout:1e4}),c=a.stdout?.trim();return a.status===0&&/^\d+$/.test(c??"")?c:void 0}s(rt,"plantKey");function nt(e,t){let[r,n]=e.kind==="perl"?[e.perl,[...z,"-e",lr,"--",String(e.keyctl),t]]:[e.keyctl,["unlink",t,"@s"]];Qe(r,n,{stdio:"ignore",env:tt,timeout:1e4})}s(nt,"unlinkKey");function ot(e,t,r){return e.kind==="perl"?[[e.perl,...z,"-e",dr,"--",String(e.keyctl),t,r]]:[[e.keyctl,"print",t],[e.keyctl,"search","@s","user",r]]}s(ot,"keyLookup");import{join as Sr}from"node:path";import{readFileSync as fr}from"node:fs";var we={processes:1024,dataBytes:8*1024**3,fileBytes:2*1024**3,openFiles:8192},pr=3600,mr={processes:"Max processes",dataBytes:"Max data size",fileBytes:"Max file size",openFiles:"Max open files",cpuSeconds:"Max cpu time"};function ke(e){let t=e;if(t===void 0)try{t=fr("/proc/self/limits","latin1")}catch{return{}}let r={};for(let[n,i]of Object.entries(mr)){let c=t.split(`
`).find(l=>l.startsWith(i))?.slice(i.length).trim().split(/\s+/)[1];c&&(r[n]=c==="unlimited"?1/0:Number(c))}return r}s(ke,"currentHardLimits");function st(e,t,r=ke()){let n=e.cpuSeconds??(t!==void 0&&t>0?Math.ceil(t/1e3):pr),i=s((a,c)=>String(Math.max(1,Math.floor(Math.min(c,r[a]??1/0)))),"n");return[`--nproc=${i("processes",e.processes)}`,`--data=${i("dataBytes",e.dataBytes)}`,`--fsize=${i("fileBytes",e.fileBytes)}`,`--nofile=${i("openFiles",e.openFiles)}`,`--cpu=${i("cpuSeconds",n)}`]}s(st,"prlimitArgs");import{spawn as hr}from"node:child_process";import{lstatSync as Q,mkdtempSync as at,readdirSync as $r,realpathSync as yr,rmSync as gr}from"node:fs";import{availableParallelism as wr,tmpdir as ct}from"node:os";import{join as F}from"node:path";var kr={x64:{unshare:272,lgetxattr:192,lremovexattr:198,fchownat:260,mknodat:259,mount:165},arm64:{unshare:97,lgetxattr:9,lremovexattr:15,fchownat:54,mknodat:33,mount:40}};function dt(){return kr[process.arch]}s(dt,"overlaySyscalls");var be=String.raw`use strict;
my ($view, $unshare, $mnr, $ws, $stash, $layer, $fu, $tu, $fg, $tg, $nd, $nf, @rest) = @ARGV;
sub fail { print STDERR "patchloop sandbox: the workspace's overlay: $_[0]\n"; exit 125; }
my $none = undef;
sub mnt { my ($src, $dst, $type, $flags, $data) = @_;
  syscall(0 + $mnr, defined $src ? "" . $src : $none, "" . $dst, defined $type ? "" . $type : $none, 0 + $flags, defined $data ? "" . $data : $none) == 0 or fail("mount $dst: $!"); }
mkdir("$layer") or fail("$layer: $!");
for ("$layer/up", "$layer/work") { mkdir($_, 0755) or fail("$_: $!"); }
chown($tu, $tg, "$layer/up") or fail("chown: $!");
mkdir("$stash/l") or fail("$stash/l: $!");
mkdir("$stash/d", 0) or fail("$stash/d: $!"); chmod(0, "$stash/d");
open(my $fh, '>', "$stash/f") or fail("$stash/f: $!"); close $fh; chmod(0, "$stash/f");
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
my $empty = "";
my $fd = syscall(428, -100, "" . $ws, 1 | 0x80000 | 0x8000);
$fd >= 0 or fail("open_tree: $!");
my $attr = pack('QQQQ', 0x00100000, 0, 0, fileno($ns));
syscall(442, $fd, $empty, 0x1000 | 0x8000, $attr, 32) == 0 or fail("idmapped mount: $!");
syscall(429, $fd, $empty, -100, "$stash/l", 4) == 0 or fail("move_mount: $!");
if ($view eq 'in-place') { mnt("$stash/l", $ws, undef, 4096 | 16384, undef); }
else { mnt("overlay", $ws, "overlay", 0, "lowerdir=$stash/l,upperdir=$layer/up,workdir=$layer/work,redirect_dir=off,index=off,metacopy=off,xino=off"); }
my @folders = @rest[0 .. $nd - 1]; my @files = @rest[$nd .. $nd + $nf - 1];
for my $p (@folders) { next unless -d $p && !-l $p; mnt("$stash/d", $p, undef, 4096, undef); mnt(undef, $p, undef, 4096 | 32 | 1, undef); }
for my $p (@files) { next unless -f $p && !-l $p; mnt("$stash/f", $p, undef, 4096, undef); mnt(undef, $p, undef, 4096 | 32 | 1, undef); }
exit 0;`,br=String.raw`use strict;
use Fcntl qw(:mode O_RDONLY O_WRONLY O_CREAT O_EXCL O_NOFOLLOW);
my ($lgetxattr, $lremovexattr, $fchownat, $mknodat, $follow, $up, $ws, $uid, $gid, $state, $n, @rest) = @ARGV;
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
# removes a tree without following a link (lstat: a link is removed, never entered)
sub rmtree { my ($p) = @_; my @s = lstat $p or return 1;
  if (-d _) { opendir(my $h, $p) or return 0; my @e = grep { $_ ne '.' && $_ ne '..' } readdir $h; closedir $h;
    for (@e) { rmtree("$p/$_") or return 0; } return rmdir $p; }
  return unlink $p; }
sub remove { my ($r) = @_; my $p = "$ws/$r";
  return 1 unless defined((lstat $p)[2]);
  if (covers($r)) { err($r, "holds a private path: left in place"); return 0; }
  rmtree($p) or do { err($r, "could not be removed: $!"); return 0; }; return 1; }
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
rmtree($state) unless @errors;
print "applied $applied\n";
print "error $_\n" for @errors;
exit 0;`,lt=["-t","-X"],it=5e3;function se(e){return/^[^,:\\\s]+$/.test(e)}s(se,"isPlainPath");async function ut(e,t,r,n){let i=Q(t),a=at(F(ct(),"patchloop-overlay-probe-"));try{if(!se(a))return`${a} cannot be named in the overlay's options`;let c=await L(e,r.unshare,["--mount","--propagation","private","--",r.perl,...lt,"-e",be,"--","overlay",String(n.unshare),String(n.mount),t,a,F(a,"layer"),String(i.uid),"65534",String(i.gid),"65534","0","0"]);return c.code===0?void 0:`no idmapped overlay of the workspace here (${N(c.stderr)||`exit ${c.code}`})`}finally{await L(e,r.rm,["-rf","--",a])}}s(ut,"tryOverlay");async function ft(e,t,r,n,i){let a=Q(t),c={uid:a.uid,gid:a.gid},l=F(t,".git"),p=["-type","d","!","-perm","-001","-prune","-printf","d%p\\0","-o","-type","f","!","-perm","-004","-printf","f%p\\0","-o","-user",String(i),"-printf","u%p\\0"],m=s(async f=>{let h=await L(e,r.find,f,{maxBuffer:1073741824,timeoutMs:18e5});if(h.code!==0)throw new S(`could not list the workspace's private paths: ${N(h.stderr)||`exit ${h.code}`}`);return h.stdout},"walk"),y=t.replace(/[[\]*?\\]/g,"\\$&"),v=await m([t,"-maxdepth","2","(","-path",l,"-prune","-o","-samefile",t,"-o","-path",`${y}/*/*`,"-type","d","-perm","-001","-printf","r%p\\0","-o",...p,")"]),g=v.split("\0").filter(f=>f[0]==="r").map(f=>f.slice(1)),R=Math.max(1,Math.min(wr(),8,g.length)),u=await Promise.all(Array.from({length:g.length?R:0},(f,h)=>m([...g.filter((P,C)=>C%R===h),...p]))),o=new Map,d=[v,...u].join("\0").split("\0").filter(Boolean),$=d.filter(f=>f[0]==="u").map(f=>f.slice(1));for(let f=0;f<$.length;f+=500){let h=await L(e,r.chown,["-h","--",`${c.uid}:${c.gid}`,...$.slice(f,f+500)]);if(h.code!==0)throw new S(`could not give an earlier run's files back to the checkout's owner: ${N(h.stderr)||`exit ${h.code}`}`)}for(let f of d){if(f[0]!=="d"&&f[0]!=="f")continue;let h=f.slice(1);try{let P=Q(h);o.set(h,{dev:P.dev,ino:P.ino,folder:f[0]==="d"})}catch{}}if(o.size>it)return`the workspace holds ${o.size} paths others may not read (more than ${it})`;let w=at(F(ct(),"patchloop-overlay-"));if(!se(w))return gr(w,{recursive:!0,force:!0}),`${w} cannot be named in the overlay's options`;let x=s(f=>f.slice(t.length+1),"relative"),k={owner:c,hidden:{folders:[...o].filter(([,f])=>f.folder).map(([f])=>f),files:[...o].filter(([,f])=>!f.folder).map(([f])=>f)},state:w,next:0,verify(){for(let[f,h]of o){let P;try{let C=Q(f);P=C.dev===h.dev&&C.ino===h.ino&&yr(f)===f}catch{P=!xr(f)}if(!P)throw new S(`${x(f)} is no longer the private path the set-up covered`)}},async apply(f){let h=F(w,String(f));try{if($r(F(h,"up")).length===0)return}catch{}let P=await vr(e,r.perl,[...lt,"-e",br,"--",String(n.lgetxattr),String(n.lremovexattr),String(n.fchownat),String(n.mknodat),k.followLinks?"1":"0",F(h,"up"),t,String(c.uid),String(c.gid),h,String(o.size),...[...o.keys()].map(x)]);if(P.code!==0)return`what the command wrote could not be moved into the workspace (${N(P.stderr)||`exit ${P.code}`}); it is kept in ${h}`;let C=P.stdout.split(`
`).filter(H=>H.startsWith("error ")).map(H=>H.slice(6));if(C.length)return`${C.length} of the command's changes could not be moved into the workspace (kept in ${h}): ${C.slice(0,5).join("; ")}`},async dispose(){await L(e,r.rm,["-rf","--",w])}};return k}s(ft,"openOverlay");function xr(e){try{return Q(e),!0}catch{return!1}}s(xr,"existsQuiet");function vr(e,t,r){let[n,...i]=e.prefix.length?[...e.prefix,t,...r]:[t,...r];return new Promise(a=>{let c=hr(n,i,{detached:!0,stdio:["ignore","pipe","pipe"],env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"}}),l=[],p=[];c.stdout.on("data",m=>l.push(m)),c.stderr.on("data",m=>p.push(m)),c.once("error",m=>a({code:127,stdout:"",stderr:m.message})),c.once("close",m=>a({code:m??1,stdout:Buffer.concat(l).toString("utf8"),stderr:Buffer.concat(p).toString("utf8")}))})}s(vr,"detachedAsRoot");var J="/tmp/home",X=["/tmp","/var/tmp","/dev/shm"],Pr=String.raw`set -eu
umask 022
mount=$1 umount=$2 mkdir=$3 chown=$4 chmod=$5; shift 5
ws=$1 hide=$2 hide_mode=$3 stash=$4 owner=$5 home=$6 cwd=$7; shift 7
view=$1 perl=$2 prep=$3 nr=$4 mnr=$5 layer=$6 fu=$7 fg=$8; shift 8
fail() { echo "patchloop sandbox: $*" >&2; exit 125; }
n=$1; shift
"$mount" -t tmpfs -o mode=0700,size=64k patchloop-stash "$stash"
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
shift "$n"
c=$1; shift
if [ "$view" = overlay ] || [ "$view" = in-place ]; then
  "$perl" -t -X -e "$prep" -- "$view" "$nr" "$mnr" "$ws" "$stash" "$layer" "$fu" "${"$"}{owner%%:*}" "$fg" "${"$"}{owner##*:}" "$@"
fi
shift "$c"
if [ -n "$hide" ]; then
  "$mkdir" "$stash/ws"
  "$mount" --rbind "$ws" "$stash/ws"
  "$mount" -t tmpfs -o "mode=$hide_mode" patchloop-hidden "$hide"
  "$mkdir" -p "$ws"
  "$mount" --rbind "$stash/ws" "$ws"
fi
if [ "$view" = read-only ]; then
  "$mount" --rbind "$ws" "$ws"
  "$mount" -o remount,bind,ro "$ws"
fi
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
exec "$@"`,Rr=String.raw`g=$1 find=$2 chown=$3 chmod=$4 ws=$5; shift 5
f='{''}'
exec "$find" "$@" -mindepth 1 -maxdepth 1 -path "$ws/.git" -prune -o -type f \( -links +1 -o ! -perm -004 \) -prune -o -type d ! -perm -001 ! -samefile "$ws" -prune -o ! -group "$g" -exec "$chown" -h ":$g" "$f" + -false -o -type d ! -perm -2070 -exec "$chmod" g+rwxs "$f" + -o ! -type d ! -type l ! -perm -060 -exec "$chmod" g+rw "$f" +`,_r=String.raw`ws=$1 g=$2 find=$3 chown=$4 chmod=$5 sh=$6 since=$7 step=$8; shift 8
umask 002
"$find" "$ws" -path "$ws/.git" -prune -o -type d ! -perm -001 ! -samefile "$ws" -prune -o -type d -newermt "@$since" -exec "$sh" -c "$step" patchloop-refresh "$g" "$find" "$chown" "$chmod" "$ws" {} + 2>/dev/null || :
exec "$@"`,ie=2e3,Or=['for f in /proc/self/fd/*; do n=${f##*/}; [ "$n" -gt 2 ] && exec {n}>&-; done',"umask 002","exec 3>&2 2>/dev/null","set -m",`trap 'kill -TERM -- -"$c"' TERM INT HUP`,'"$2" -c "$1" 0<&0 2>&3 3>&- &',"c=$!",'while :; do wait "$c"; s=$?; kill -0 "$c" 2>/dev/null || exit "$s"; done'].join(`
`),pt=["--pid","--fork","--kill-child","--mount","--mount-proc","--propagation","private","--ipc","--uts"],Er="--net";function ae(e){return e?[...pt,Er]:[...pt]}s(ae,"namespaceOptions");var Ar=String.raw`const net = require('net'), fs = require('fs');
process.setgroups([]); process.setgid(Number(process.argv[2])); process.setuid(Number(process.argv[1]));
const server = net.createServer((c) => {
  const u = net.connect('proxy.sock');
  c.on('error', () => u.destroy()); u.on('error', () => c.destroy());
  c.pipe(u); u.pipe(c);
});
server.listen(0, '127.0.0.1', () => fs.writeSync(1, server.address().port + '\n'));`,Tr=String.raw`set -eu
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
exec "$@"`;function Nr(e){let t=e.network;if(!t)return[];let{bins:r,account:n}=e;return[r.bash,"-c",Tr,"patchloop-network",t.ip,r.env,t.bridge?.node??"",t.bridge?.socketDir??"/",String(n.uid),String(n.gid),Ar]}s(Nr,"networkStep");function Lr(e,t,r,n,i={}){let{bins:a,account:c}=e,l=e.overlay,p=l!==void 0&&i.layer!==void 0&&!i.readOnly,m=p?l.access.hidden:{folders:[],files:[]},y=m.folders.length+m.files.length,v=[a.setpriv,"--pdeathsig","KILL","--",a.unshare,...ae(e.network!==void 0).filter(g=>!e.keepIpcUts||g!=="--ipc"&&g!=="--uts"),"--",...Nr(e),a.sh,"-c",Pr,"patchloop-prelude",a.mount,a.umount,a.mkdir,a.chown,a.chmod,e.workspace,e.hide??"",e.hideMode,e.stash,`${c.uid}:${c.gid}`,J,r,p?l.inPlace?"in-place":"overlay":i.readOnly?"read-only":"shared",l?.perl??"",be,String(l?.syscalls.unshare??0),String(l?.syscalls.mount??0),p?Sr(l.access.state,String(i.layer)):"",String(l?.access.owner.uid??0),String(l?.access.owner.gid??0),String(e.readOnly.length),...e.readOnly,String(y+2),String(m.folders.length),String(m.files.length),...m.folders,...m.files,String(e.sticky.length),...e.sticky,String(e.scratch.length),...e.scratch,String(e.covered.length),...e.covered,String(e.shared.length),...e.shared,String(e.sharedReadOnly.length),...e.sharedReadOnly,...e.readOnly];return e.groupRefresh&&v.push(a.sh,"-c",_r,"patchloop-refresh",e.workspace,String(c.gid),a.find,a.chown,a.chmod,a.sh,((e.refreshSince??0)/1e3).toFixed(3),Rr),e.limits&&v.push(a.prlimit,...st(e.limits,n),"--"),v.push(a.setpriv,"--reuid",String(c.uid),"--regid",String(c.gid),"--clear-groups","--no-new-privs","--inh-caps=-all","--bounding-set=-all","--"),e.freshKeyring&&v.push(...et(a.keyring,a.sh)),v.push(a.bash,"-c",Or,"patchloop-init",t,a.bash),v}s(Lr,"commandArgv");function ce(e,t,r,n,i,a={}){let c=Lr(e,t,r,i,a);if(e.groupRefresh&&(e.refreshSince=Date.now()-ie),!e.root.viaSudo)return{file:c[0],args:c.slice(1),env:n};let l=Object.entries(n).map(([p,m])=>`${p}=${m}`);return{file:e.root.prefix[0],args:[...e.root.prefix.slice(1),e.bins.env,"-i",...l,...c],env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"}}}s(ce,"launch");import{chmodSync as Cr}from"node:fs";import{createServer as Ir,request as Mr}from"node:http";import{lookup as Dr}from"node:dns/promises";import{connect as Br,isIP as Hr}from"node:net";var Kr=new Set([80,443]),mt=3e4,Fr=200,xe=1e4,Ur=s(async(e,t)=>Hr(e)?[{address:e,port:t}]:(await Dr(e,{all:!0,verbatim:!0})).map(n=>({address:n.address,port:t})),"systemResolver");function ve(e){return/^[a-z0-9.:-]{1,253}$/.test(e)?e:"(a malformed destination)"}s(ve,"recordable");function Gr(e){let t=/^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):(\d{1,5})$/.exec(e);if(t)return{host:q(t[1]),port:Number(t[2])}}s(Gr,"splitAuthority");async function ht(e){let t=e.resolve??Ur,r=e.addressAllowed??he,n=e.hosts.map(q),i=new Map,a=[],c=0,l=new Set,p=s((u,o)=>{let d=ve(u);!i.has(d)&&i.size>=Fr&&(d="(other hosts)");let $=i.get(d)??{host:d,reason:o,count:0};return $.count++,i.set(d,$),a.push(d),a.length>xe&&(c+=a.length-xe/2,a=a.slice(-xe/2)),e.onRefused?.(d,o),{ok:!1,reason:o}},"refuse"),m=s(async(u,o)=>{if(!u)return p("(a malformed destination)","not a host name");if(!Be(n,u))return p(u,"not in command-network");if(!Kr.has(o))return p(`${u}:${o}`,"only ports 80 and 443 are allowed");let d;try{d=await t(u,o)}catch{return{ok:!1,reason:`${u} could not be resolved`}}let $=d.filter(w=>r(w.address));return $.length?{ok:!0,targets:$}:p(u,"it resolves to a loopback, private or link-local address")},"decide"),y=s(u=>new Promise((o,d)=>{let $=s((w,x)=>{let k=u[w];if(!k)return d(x??new Error("no address"));let f=Br({host:k.address,port:k.port});f.setTimeout(mt,()=>f.destroy(new Error("connect timeout"))),f.once("connect",()=>{f.setTimeout(0),o(f)}),f.once("error",h=>$(w+1,h))},"next");$(0)}),"open"),v=s(u=>{l.add(u),u.once("close",()=>l.delete(u))},"track"),g=Ir();g.on("connection",v),g.on("connect",(u,o,d)=>{o.on("error",()=>{});let $=Gr(u.url??"");(async()=>{let w=$?await m($.host,$.port):p("","not a host name");if(!w.ok){let k=w.reason.includes("resolved")?"502 Bad Gateway":"403 Forbidden";o.end(`HTTP/1.1 ${k}\r
Content-Type: text/plain\r
Connection: close\r
\r
patchloop command-network: ${$?ve($.host):"this destination"} is refused (${w.reason}).
`);return}let x;try{x=await y(w.targets)}catch(k){o.end(`HTTP/1.1 502 Bad Gateway\r
Connection: close\r
\r
${k.message}
`);return}v(x),x.on("error",()=>o.destroy()),o.on("error",()=>x.destroy()),o.on("close",()=>x.destroy()),x.on("close",()=>o.destroy()),o.write(`HTTP/1.1 200 Connection Established\r
\r
`),d.length&&x.write(d),x.pipe(o),o.pipe(x)})()}),g.on("request",(u,o)=>{(async()=>{let d;try{d=new URL(u.url??"")}catch{d=void 0}if(!d||d.protocol!=="http:"){p("","not an absolute http:// request"),o.writeHead(400,{"content-type":"text/plain"}).end(`patchloop command-network: the proxy takes CONNECT host:443 and absolute http:// requests only.
`);return}let $=q(d.hostname),w=d.port?Number(d.port):80,x=await m($,w);if(!x.ok){o.writeHead(x.reason.includes("resolved")?502:403,{"content-type":"text/plain"}).end(`patchloop command-network: ${ve($)} is refused (${x.reason}).
`);return}let k={...u.headers};for(let P of["proxy-authorization","proxy-connection","connection","keep-alive"])delete k[P];let f=x.targets[0],h=Mr({host:f.address,port:f.port,method:u.method,path:`${d.pathname}${d.search}`,headers:{...k,host:d.host},setHost:!1});h.setTimeout(mt,()=>h.destroy(new Error("timeout"))),h.on("response",P=>{o.writeHead(P.statusCode??502,P.headers),P.pipe(o)}),h.on("error",P=>{o.headersSent?o.destroy():o.writeHead(502,{"content-type":"text/plain"}).end(`${P.message}
`)}),u.pipe(h)})()}),g.on("clientError",(u,o)=>{u.code!=="ECONNRESET"&&o.writable?(p("","not a valid request"),o.end(`HTTP/1.1 400 Bad Request\r
Connection: close\r
\r
`)):o.destroy()}),await new Promise((u,o)=>{g.once("error",o),g.listen(e.socketPath,()=>{g.off("error",o),u()})}),Cr(e.socketPath,438);let R=s(u=>{let o=new Map;for(let d of u){let $=o.get(d)??{host:d,reason:i.get(d)?.reason??"",count:0};$.count++,o.set(d,$)}return[...o.values()]},"dedupe");return{socketPath:e.socketPath,refused:s(()=>[...i.values()].map(u=>({...u})),"refused"),refusals:s(()=>c+a.length,"refusals"),refusedSince:s(u=>R(a.slice(Math.max(0,u-c))),"refusedSince"),close:s(()=>new Promise(u=>{for(let o of l)o.destroy();g.close(()=>u())}),"close")}}s(ht,"startNetworkProxy");import{spawnSync as wt}from"node:child_process";import{createHash as jr,randomBytes as Wr}from"node:crypto";import{existsSync as Xr,readdirSync as Vr,readFileSync as qr,readlinkSync as Yr,rmSync as Se,statSync as zr,writeFileSync as $t}from"node:fs";import{createServer as Qr}from"node:net";import{dirname as yt,join as M,relative as Jr,sep as Zr}from"node:path";function en(){return new Promise((e,t)=>{let r=Qr(n=>n.destroy());r.once("error",t),r.listen(0,"127.0.0.1",()=>{let n=r.address();e({port:typeof n=="object"&&n?n.port:0,server:r})})})}s(en,"hostListener");var gt="PATCHLOOP_SELF_CHECK_SECRET";async function kt(e,t){let r=Wr(6).toString("hex"),n=`s3cret-${r}`,i=Me,a=[];for(let o of t.privateDirs){let d=M(o,`.patchloop-probe-${r}`);try{$t(d,n,{mode:420,flag:"wx"}),a.push(d)}catch{}}let c=t.network?await en():void 0,l=t.shared?[...new Set([...t.shared,...nn(t)?[Z]:[]])]:[],p=t.sharedReadOnly??[],m=`.patchloop-probe-${r}`,y=`patchloop-probe-${r}`,v=t.keyring?rt(t.keyring,y,n):void 0,g=t.ipcUts?rn():void 0;for(let o of l){let d=M(o,m);try{$t(d,n,{mode:420,flag:"wx"}),a.push(d)}catch{}}let R=['echo "uid $(id -u)"',`if h=$({ sha256sum < /proc/${process.pid}/environ; } 2>/dev/null); then echo "environ $h"; fi`,`f=.patchloop-probe-${r}; if { : > "$f"; } 2>/dev/null && rm -f "$f"; then echo workspace-writable; fi`,t.processes===void 0?":":`[ "$(ulimit -u)" = ${t.processes} ] || echo "nproc $(ulimit -u)"`,`if printenv ${gt} >/dev/null; then echo env-secret-visible; fi`];if(v&&t.keyring){let o=ot(t.keyring,v,y).map(d=>`${d.map(i).join(" ")} >/dev/null 2>&1`);R.push(`if ${o.join(" || ")}; then echo keyring-shared; fi`)}t.ipcUts&&R.push('echo "ns-ipc $(readlink /proc/self/ns/ipc)"','echo "ns-uts $(readlink /proc/self/ns/uts)"','if [ -r /proc/sysvipc/msg ] && [ "$(wc -l < /proc/sysvipc/msg)" -gt 1 ]; then echo ipc-visible; fi');for(let o of l)R.push(`if [ -e ${i(M(o,m))} ]; then echo shared-visible ${i(o)}; fi`,`{ : > ${i(M(o,`${m}-left`))}; } 2>/dev/null || echo shared-unwritable ${i(o)}`);for(let o of p)R.push(`if { : > ${i(M(o,`${m}-left`))}; } 2>/dev/null; then echo shared-writable ${i(o)}; fi`);t.hasGit&&R.push(`if mv .git .git-probe-${r} 2>/dev/null; then mv .git-probe-${r} .git; echo git-renamed; fi`,`if [ -d .git ] && { : > .git/probe-${r}; } 2>/dev/null; then rm -f .git/probe-${r}; echo git-written; fi`,"if [ -f .git ] && { : >> .git; } 2>/dev/null; then echo git-written; fi");let u=s((o,d)=>{let w=["''",...[t.workspace,J,...X,...t.readOnlyDirs].filter(x=>x!==o&&_(x,o)).map(x=>Jr(o,x).split(Zr)[0]).map(i)].join("|");return`ls -A ${i(o)} 2>/dev/null | while IFS= read -r n; do case "$n" in ${w}) ;; *) echo ${d} ${i(o)}/"$n";; esac; done`},"onlyWays");c&&R.push('while IFS=: read -r n _; do n=$(printf %s $n); case "$n" in lo|Inter-*|face*) ;; *) echo "interface-visible $n";; esac; done < /proc/net/dev',`if (exec 3<>/dev/tcp/127.0.0.1/${c.port}) 2>/dev/null; then echo host-loopback-reachable; fi`,'case "$( (exec 3<>/dev/tcp/127.0.0.1/1) 2>&1)" in *refused*) ;; *) echo loopback-down;; esac',t.network?.proxy?'case "${HTTPS_PROXY:-}" in http://127.0.0.1:*) (exec 3<>/dev/tcp/127.0.0.1/"${HTTPS_PROXY##*:}") 2>/dev/null || echo proxy-unreachable;; *) echo proxy-unset;; esac':'[ -z "${HTTPS_PROXY:-}" ] || echo proxy-set');for(let o=yt(t.workspace);o!=="/";o=yt(o))R.push(u(o,"above-visible"));for(let o of t.privateDirs)R.push(u(o,"private-visible"));for(let o of t.readOnlyDirs)R.push(`ls ${i(o)} >/dev/null 2>&1 || echo read-only-unreadable ${i(o)}`,`if { : > ${i(M(o,`probe-${r}`))}; } 2>/dev/null; then echo read-only-writable ${i(o)}; fi`);try{if(t.keyring&&!v)return"a key could not be put in patchloop's session keyring to probe with";let o=await Ie({command:R.join(`
`),cwd:t.workspace,env:{...t.env,[gt]:n},sandbox:e,timeoutMs:3e4}),d=o.text.trim().split(`
`);if(o.exitCode!==0||o.spawnError)return`the probe command failed (${o.spawnError??`exit ${o.exitCode??o.signal}`}): ${d.slice(-3).join(" / ")}`;if(d[0]!==`uid ${t.uid}`)return`the probe ran as ${d[0]??"nobody"}, not uid ${t.uid}`;let $=jr("sha256").update(qr("/proc/self/environ")).digest("hex");if(d.some(k=>k.startsWith("environ ")&&k.includes($)))return"the probe could read patchloop's /proc/<pid>/environ";if(!d.includes("workspace-writable"))return"the probe could not write in the workspace";if(o.text.includes(n))return"the probe saw a value it must not see";for(let k of t.ipcUts?["ipc","uts"]:[]){let f=d.find(h=>h.startsWith(`ns-${k} `))?.slice(`ns-${k} `.length);if(!f?.startsWith(`${k}:[`))return`the probe could not tell its ${k} namespace`;if(f===Yr(`/proc/self/ns/${k}`))return`the probe shares patchloop's ${k==="ipc"?"System V IPC":"host name"} namespace`}let w=[...l,...p].map(k=>M(k,`${m}-left`)).filter(k=>Xr(k));if(w.length)return`the probe left ${w.join(", ")} behind, outside its namespace`;let x=d.filter(k=>!k.startsWith("uid ")&&!k.startsWith("environ ")&&!k.startsWith("ns-")&&k!=="workspace-writable");return x.length?`the probe found: ${x.join("; ")}`:void 0}finally{c?.server.close();for(let o of a)Se(o,{force:!0});for(let o of[...l,...p])Se(M(o,`${m}-left`),{force:!0});v&&t.keyring&&nt(t.keyring,v),g&&wt(g.ipcrm,["-q",g.id],{stdio:"ignore"});for(let o of t.readOnlyDirs)for(let d of tn(o))d===`probe-${r}`&&Se(M(o,d),{force:!0})}}s(kt,"selfCheck");function tn(e){try{return Vr(e)}catch{return[]}}s(tn,"safeList");function rn(){let e=T("ipcmk"),t=T("ipcrm");if(!e||!t)return;let r=wt(e,["-Q","-p","0600"],{encoding:"utf8"}),n=/(\d+)\s*$/.exec(r.stdout?.trim()??"")?.[1];return r.status===0&&n?{id:n,ipcrm:t}:void 0}s(rn,"plantQueue");var Z="/run/lock";function nn(e){try{let t=zr(Z);return t.isDirectory()&&(t.mode&514)===514&&!(e.sharedReadOnly??[]).includes(Z)&&!_(e.workspace,Z)&&!_(Z,e.workspace)}catch{return!1}}s(nn,"isSharedLock");import{execFile as on}from"node:child_process";var sn=4,an=3e4;function cn(e){return e.replace(/[*?[\]\\]/g,"\\$&")}s(cn,"literal");function bt(e,t){let r=["/proc","/sys",...t].flatMap((i,a)=>[...a?["-o"]:[],"-path",cn(i)]),n=["/","-mindepth","1","-maxdepth",String(sn),"(",...r,")","-prune","-o","-type","d","-perm","-0002","-printf","%m %p\\0","-prune"];return new Promise((i,a)=>{on(e,n,{env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin",LC_ALL:"C"},encoding:"buffer",timeout:an,maxBuffer:4<<20},(c,l)=>{if(c&&(c.killed||c.signal||typeof c.code!="number")){a(new S(`the machine's world-writable folders could not be listed: ${c.message}`));return}let p={scratch:[],other:[]};for(let m of l.toString("utf8").split("\0")){let y=m.indexOf(" ");if(y<0)continue;let v=parseInt(m.slice(0,y),8),g=m.slice(y+1);!g.startsWith("/")||g==="/"||(v&512?p.scratch:p.other).push(g)}i(p)})})}s(bt,"findSharedDirs");var B=s(e=>({kind:"unavailable",reason:e}),"unavailable"),de=["/media","/srv","/mnt","/opt","/run","/var"];function V(e){try{let t=un(e);return St(t).isDirectory()?t:void 0}catch{return}}s(V,"realDir");function mn(){let e=["unshare","setpriv","mount","umount","mkdir","chown","chmod","find","prlimit","bash","sh","env","kill"],t={};for(let r of e){let n=T(r);if(!n)return`${r} is not installed (${r==="find"?"findutils":r==="bash"||r==="sh"?"a shell":"util-linux / coreutils"})`;t[r]=n}return t}s(mn,"resolveBins");async function hn(e,t){let r=Je(t);if(typeof r=="string")return r;let n="";for(let i of r){let a=await Ze(i,e);if(a==="works"||a==="refused")return{tool:i,works:a==="works"};n=a}return n}s(hn,"findKeyring");async function $n(e){try{return await e()}catch(t){if(!(t instanceof S))throw t;return e()}}s($n,"retryOnce");function yn(e,t,r){let{account:n,root:i}=e,a=new Set([...Ne,...t]);return{outputFileMode:420,envOptions:{pass:t,privateDirs:r},wrap(c){let l={};for(let[v,g]of Object.entries(c.env))a.has(v)&&(l[v]=g);l.PATH=Ce(l.PATH,r),l.HOME=J,l.TMPDIR="/tmp",l.USER=n.user,l.LOGNAME=n.user;let p=Number(l.GIT_CONFIG_COUNT??0)||0;l[`GIT_CONFIG_KEY_${p}`]="safe.directory",l[`GIT_CONFIG_VALUE_${p}`]="*",l.GIT_CONFIG_COUNT=String(p+1),Object.assign(l,c.ownEnv);let m=e.overlay?.access;if(!m)return ce(e,c.command,c.cwd,l,c.timeoutMs);if(c.readOnlyWorkspace)return ce(e,c.command,c.cwd,l,c.timeoutMs,{readOnly:!0});m.verify();let y=m.next++;return{...ce(e,c.command,c.cwd,l,c.timeoutMs,{layer:y}),settle:s(()=>m.apply(y),"settle")}},signal:s(((c,l)=>{if(!i.viaSudo){try{process.kill(-c,l)}catch{}return}pn(i.prefix[0],[...i.prefix.slice(1),e.bins.kill,"-s",l.replace(/^SIG/,""),"--",`-${c}`],{stdio:"ignore",timeout:1e4})}),"signal")}}s(yn,"makeSandbox");var xt=new Map,vt=new Map;function Rt(e,t){let r=vt.get(t);return r||(r=$n(()=>Ge(e.root,t)),r.catch(()=>{}),vt.set(t,r)),r}s(Rt,"accountOf");function gn(e=re,t=[]){let r=[e,...[...t].sort()].join("\0"),n=xt.get(r);return n||(n=(async()=>{if(process.platform!=="linux")return`commands cannot be isolated on ${process.platform}; only Linux is supported`;let i=await Ue();if(typeof i=="string")return`commands cannot run as another user: ${i}`;let a=mn();if(typeof a=="string")return`commands cannot be isolated: ${a}`;let[c,l,p]=await Promise.all([L(i,a.unshare,[...ae(!1),"--",a.mount,"-t","tmpfs","patchloop-probe","/tmp"]),wn(i,a),hn(a.sh,t)]);if(c.code!==0)return`no PID and mount namespace for commands here (${N(c.stderr)||`exit ${c.code}`})`;if(typeof p=="string")return`commands cannot be isolated: ${p}`;let m={...a,keyring:p.tool},y={root:i,bins:m,network:l,keyrings:p.works};return Rt(y,e),y})(),n.catch(()=>{}),xt.set(r,n)),n}s(gn,"probeMachine");async function wn(e,t){let r=T("ip");if(!r)return"ip (iproute2) is not installed, so a command network namespace cannot get its loopback";let n=await L(e,t.unshare,[...ae(!0),"--",r,"link","set","lo","up"]);return n.code!==0?`no network namespace for commands here (${N(n.stderr)||`exit ${n.code}`})`:{ip:r}}s(wn,"probeNetwork");async function kn(e,t){let r=ln(Pe(fn(),"patchloop-net-"));dn(r,457);try{return{proxy:await ht({hosts:e,socketPath:Pe(r,"proxy.sock"),...t}),dir:r}}catch(n){throw Pt(r,{recursive:!0,force:!0}),new S(`the network proxy could not be started: ${n.message}`)}}s(kn,"startProxy");async function es(e){let t=await bn(e);return t.kind==="isolated"&&await t.ready,t}s(es,"createSandbox");async function bn(e){if(e.mode==="off")return B("turned off");if(process.platform!=="linux")return B(`commands cannot be isolated on ${process.platform}; only Linux is supported`);let t=e.env??process.env,r=new Set(e.weaken??[]),n=V(e.workspace);if(!n)throw new S(`the workspace ${e.workspace} is not a folder`);if(n==="/"||n==="/tmp")throw new S(`the workspace cannot be ${n} itself`);let i=await gn(e.user,e.hideBins);if(typeof i=="string")return B(i);let{root:a,bins:c}=i,l=e.network??{kind:"none"},p=l.kind!=="all"&&!r.has("network");if(p&&typeof i.network=="string")return B(i.network);let m=T("setfacl")?"acl":"group",y=e.access??"overlay",v=n.split("/").filter(Boolean),g=v.length>1&&!r.has("hide-above")?`/${v[0]}`:void 0,R=de.map(V).find(b=>b!==void 0&&!(g&&_(b,g))&&!_(n,b)&&!_(b,n));if(!R)throw new S(`none of ${de.join(", ")} can hold the workspace's mounts`);let u=e.hideBins?.includes("perl")?void 0:T("perl"),o=T("rm"),d=dt(),$=!u||!o?"perl is not installed":d?{bins:{find:c.find,perl:u,unshare:c.unshare,mount:c.mount,mkdir:c.mkdir,rm:o},syscalls:d}:`Perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}`;if(y==="overlay"&&typeof $=="string"){if(e.access==="overlay")return B($);y=m}let w=s(()=>typeof $=="string"?Promise.resolve($):ut(a,n,$.bins,$.syscalls).catch(b=>`the overlay could not be tried: ${b.message}`),"tryMounts"),x=y==="overlay"&&m==="group"&&a.viaSudo,k=x?w():void 0,f=X.map(V).filter(b=>b!==void 0&&!_(n,b)&&!_(b,n)),h=[...new Set((e.privateDirs??(t.RUNNER_TEMP?[t.RUNNER_TEMP]:[])).map(V))].filter(b=>b!==void 0&&b!=="/"),P=r.has("private-dirs")?[]:h.filter(b=>!(g&&_(b,g))&&!f.some(j=>_(b,j))&&!_(n,b)),C=Pe(n,".git"),H=(()=>{try{let b=St(C);return b.isDirectory()||b.isFile()}catch{return!1}})(),le=[...new Set((e.readOnlyDirs??[]).map(V))].filter(b=>b!==void 0&&b!=="/"),_t=[...H&&!r.has("read-only-git")?[C]:[],...le],ue={...we,...e.limits},Re=Math.min(ue.processes,ke().processes??1/0),Ot=(e.commandEnv??[]).filter(Le),[U,_e]=await Promise.all([Rt(i,e.user??re),k]);if(_e){if(e.access==="overlay")return B(_e);y=m}if(y==="overlay"&&!se(R))throw new S(`${R} cannot be named in the overlay's options`);if(y==="acl"&&!T("setfacl"))return B("setfacl (package acl) is not installed");if(y==="group"&&a.viaSudo)return B("setfacl (package acl) is needed to share the workspace when not running as root");let I=p&&l.kind==="hosts"?await kn(l.hosts,e.proxyOverride):void 0,Oe=s(async()=>{I&&(await I.proxy.close(),Pt(I.dir,{recursive:!0,force:!0}))},"closeProxy"),O={root:a,account:U,bins:c,workspace:n,hide:g,hideMode:g&&X.includes(g)?"1777":"0755",stash:R,scratch:f,sticky:X.filter(b=>g&&b!==g&&_(b,g)&&_(n,b)),covered:P,shared:[],sharedReadOnly:[],freshKeyring:i.keyrings&&!r.has("keyring"),keepIpcUts:r.has("ipc-uts"),readOnly:_t,limits:r.has("limits")?void 0:ue,groupRefresh:y==="group",...p&&typeof i.network!="string"?{network:{ip:i.network.ip,...I?{bridge:{node:process.execPath,socketDir:I.dir}}:{}}}:{}},fe={...yn(O,Ot,h),network:{mark:s(()=>I?.proxy.refusals()??0,"mark"),note:s((b,j)=>Ke(l,I?I.proxy.refusedSince(b):[],j),"note")}},Ee=!1,Et={...fe,wrap(b){if(!Ee)throw new S("no command runs before the sandbox self-check has passed");return fe.wrap(b)}},G,pe,me=(async()=>{await new Promise(A=>setImmediate(A)),O.groupRefresh&&(O.refreshSince=Date.now()-ie);let b=s(A=>(y=A,O.groupRefresh=A==="group",O.groupRefresh&&(O.refreshSince=Date.now()-ie),ze(a,U,n,A).then(E=>G=E)),"openWalks");pe=y==="overlay"?s(async()=>{if(typeof $=="string")throw new S($);let E=(x?void 0:await w())??await ft(a,n,{...$.bins,chown:c.chown},$.syscalls,U.uid);if(typeof E!="string"){r.has("cover-private")&&(E.hidden={folders:[],files:[]}),r.has("apply-follows-links")&&(E.followLinks=!0),O.overlay={perl:$.bins.perl,syscalls:$.syscalls,access:E,inPlace:r.has("overlay-in-place")},G={method:"overlay",revoke:s(()=>E.dispose(),"revoke")};return}if(e.access==="overlay")throw new S(E);if(m==="group"&&a.viaSudo)throw new S(`${E}, and setfacl (package acl) is needed to share it when not running as root`);return b(m)},"openOverlayOrWalks")():b(y);let[,ee]=await Promise.all([pe,r.has("shared-dirs")?{scratch:[],other:[]}:bt(c.find,[g??n,n,...f,...h,...le])]),Ae=s(A=>!_(n,A)&&!_(A,n),"apart");if(O.shared=ee.scratch.filter(Ae),O.sharedReadOnly=ee.other.filter(Ae),[...O.shared,...O.sharedReadOnly].some(A=>_(A,R)||_(R,A))){let A=de.map(V).find(E=>E!==void 0&&!(g&&_(E,g))&&!_(n,E)&&!_(E,n)&&![...O.shared,...O.sharedReadOnly].some(Te=>_(Te,E)||_(E,Te)));if(!A)throw new S(`none of ${de.join(", ")} can hold the workspace's mounts apart from the world-writable folders`);O.stash=A}if(e.selfCheck!==!1){let A=s(()=>kt(fe,{uid:U.uid,workspace:n,hasGit:H,privateDirs:h,readOnlyDirs:le,processes:r.has("limits")?void 0:Re,env:t,network:O.network?{proxy:I!==void 0}:void 0,keyring:i.keyrings?c.keyring:void 0,ipcUts:!0,shared:O.shared,sharedReadOnly:O.sharedReadOnly}),"check"),E=await A()&&await A();if(E)throw new S(`the sandbox self-check failed: ${E}`)}Ee=!0})().catch(async b=>{await pe?.catch(()=>{});let j=G;throw G=void 0,await Promise.all([j?.revoke(),Oe()]).catch(ee=>{throw new S(`${b.message}; and then: ${ee.message}`)}),b});me.catch(()=>{});let At=s(()=>[`commands run as user ${U.user} (uid ${U.uid}) in their own PID and mount namespace`,O.keepIpcUts?"":"with their own System V IPC and host name",O.freshKeyring?"a session keyring of their own":"",g?"with everything above the workspace hidden":"",h.length?`${h.join(", ")} hidden`:"",H?".git read-only":"",y==="overlay"?"the workspace as an overlay whose writes patchloop moves in after each command":`${y==="acl"?"ACL":"group"} access to the workspace`,`network: ${O.network?te(l):te({kind:"all"})}`,r.has("limits")?"":`limits of ${Re} processes and ${Math.round(ue.fileBytes/1024**2)} MiB per file`].filter(Boolean).join(", "),"describe"),Tt;return{kind:"isolated",sandbox:Et,get reason(){return At()},ready:me,dispose:s(()=>Tt??=me.then(()=>{let b=G;return G=void 0,Promise.all([b?.revoke(),Oe()]).then(()=>{})},()=>{}),"dispose"),network:{policy:O.network?l:{kind:"all"},refused:s(()=>I?.proxy.refused()??[],"refused")}}}s(bn,"startSandbox");export{Sn as a,te as b,He as c,Pn as d,gn as e,es as f,bn as g};
