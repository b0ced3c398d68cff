import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{n as Ce}from"./chunk-L5AAVJP4.js";import{D as Ie,k as _,u as Te,v as Ne,w as Le}from"./chunk-LVK2Q2AR.js";import{a as o}from"./chunk-4X7ZATFQ.js";import{BlockList as Me,isIP as Et}from"node:net";var At=/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;function xn(e){let t=e.trim().toLowerCase();if(t===""||t==="none")return{kind:"none"};if(t==="all")return{kind:"all"};let r=t.split(/[,\n]/).map(s=>s.trim().replace(/\.$/,"")).filter(Boolean),n=r.find(s=>!At.test(s));if(n!==void 0)throw new Error(`command-network is none, all, or host names such as registry.npmjs.org or *.pythonhosted.org (comma- or newline-separated); "${n}" is not a host name.`);return{kind:"hosts",hosts:[...new Set(r)]}}o(xn,"parseCommandNetwork");function Y(e){return e.trim().toLowerCase().replace(/^\[(.*)\]$/,"$1").replace(/\.$/,"")}o(Y,"normalHost");function De(e,t){let r=Y(t);return e.some(n=>n.startsWith("*.")?r.endsWith(n.slice(1))&&r.length>n.length-1:r===n)}o(De,"hostAllowed");var[Tt,Nt]=(()=>{let e=new Me,t=new Me,r=[["0.0.0.0",8],["10.0.0.0",8],["100.64.0.0",10],["127.0.0.0",8],["169.254.0.0",16],["172.16.0.0",12],["192.0.0.0",24],["192.0.2.0",24],["192.88.99.0",24],["192.168.0.0",16],["198.18.0.0",15],["198.51.100.0",24],["203.0.113.0",24],["224.0.0.0",3]],n=[["::",96],["64:ff9b:1::",48],["100::",64],["2001::",23],["2001:db8::",32],["2002::",16],["fc00::",7],["fe80::",10],["fec0::",10],["ff00::",8]];for(let[s,a]of r)e.addSubnet(s,a,"ipv4");for(let[s,a]of n)t.addSubnet(s,a,"ipv6");return[e,t]})();function me(e){let t=Et(e);if(t===0)return!1;if(t===4)return!Tt.check(e,"ipv4");let r=/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(e);return r?me(r[1]):/^::ffff:/i.test(e)?!1:!Nt.check(e,"ipv6")}o(me,"isPublicAddress");var Lt=10;function re(e){return e.kind==="none"?"none (each command has its own loopback only)":e.kind==="all"?"all (commands use the runner\u2019s network)":`HTTP and HTTPS to ${e.hosts.join(", ")} only, through patchloop\u2019s proxy`}o(re,"describeNetwork");function Be(e,t=Lt){let r=e.slice(0,t).map(n=>n.count>1?`${n.host} (${n.count}\xD7)`:n.host);return e.length>t&&r.push(`and ${e.length-t} more`),r.join(", ")}o(Be,"listRefused");function bn(e,t){let r=re(e);return t.length?`${r}; refused: ${Be(t)}`:r}o(bn,"networkSummaryLine");var Ct=/ENETUNREACH|EAI_AGAIN|Network is unreachable|Could not resolve host|Temporary failure in name resolution|getaddrinfo ENOTFOUND|Name or service not known/i;function He(e,t,r){if(e.kind!=="all"){if(t.length)return`[command-network refused ${Be(t,5)} (${t[0].reason}). Commands may reach only ${e.kind==="hosts"?e.hosts.join(", "):"their own loopback"}; the workflow's command-network input sets this.]`;if(Ct.test(r))return e.kind==="none"?"[command-network is none: commands have no network but their own loopback, so downloads and outside services fail. The workflow\u2019s command-network input can allow hosts.]":`[command-network allows only HTTP and HTTPS to ${e.hosts.join(", ")}, through the proxy in HTTPS_PROXY / HTTP_PROXY; a program that ignores those variables finds no network.]`}}o(He,"networkNote");import{chmodSync as sn,lstatSync as bt,mkdtempSync as an,realpathSync as cn,rmSync as St}from"node:fs";import{tmpdir as dn}from"node:os";import{spawnSync as ln}from"node:child_process";import{join as Pe}from"node:path";import{chmodSync as Ut,lchownSync as Gt,lstatSync as $e,mkdtempSync as jt,readFileSync as se,realpathSync as Wt,rmSync as Xt,writeFileSync as Vt}from"node:fs";import{tmpdir as qt}from"node:os";import{join as H}from"node:path";var v=class extends Error{static{o(this,"SandboxSetupError")}constructor(t){super(t),this.name="SandboxSetupError"}};import{execFile as It}from"node:child_process";import{existsSync as Mt,readFileSync as Dt,statSync as Bt}from"node:fs";import{join as Ht}from"node:path";var ne="patchloop-sandbox";function F(e,t,r={}){return new Promise(n=>{It(e,t,{cwd:r.cwd,env:r.env??{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"},encoding:"utf8",timeout:r.timeoutMs??12e4,maxBuffer:r.maxBuffer??4<<20},(s,a,d)=>{let l=s?typeof s.code=="number"?s.code:127:0;n({code:l,stdout:String(a),stderr:String(d||(s&&l===127?s.message:""))})})})}o(F,"run");function N(e){return e.trim().split(`
`)[0]??""}o(N,"firstLine");var Kt=["/usr/bin","/bin","/usr/sbin","/sbin"];function T(e){for(let t of Kt){let r=Ht(t,e);try{if(Bt(r).isFile())return r}catch{}}}o(T,"systemBin");async function Fe(){if(process.getuid?.()===0)return{prefix:[],viaSudo:!1};let e=T("sudo");return e?(await F(e,["-n","true"],{timeoutMs:1e4})).code!==0?"not root, and sudo asks for a password":{prefix:[e,"-n","--"],viaSudo:!0}:"not root, and sudo is not installed"}o(Fe,"findRootAccess");function L(e,t,r,n={}){return e.prefix.length?F(e.prefix[0],[...e.prefix.slice(1),t,...r],n):F(t,r,n)}o(L,"asRoot");function Ft(e){let t;try{t=Dt("/etc/passwd","utf8")}catch{return}for(let r of t.split(`
`)){let n=r.split(":");if(n[0]!==e||n.length<7)continue;let s=Number(n[2]),a=Number(n[3]);return n[2]===""||n[3]===""||!Number.isInteger(s)||!Number.isInteger(a)?void 0:{user:e,uid:s,gid:a}}}o(Ft,"localAccount");async function Ke(e){let t=Ft(e);if(t)return t;let r=T("getent");if(!r)return;let n=await F(r,["passwd",e]);if(n.code!==0)return;let s=n.stdout.trim().split(":");return{user:e,uid:Number(s[2]),gid:Number(s[3])}}o(Ke,"lookup");async function Ue(e,t){let r=await Ke(t);if(!r){let n=T("useradd");if(!n)throw new v("useradd is not installed, so the sandbox user cannot be created");let s=["/usr/sbin/nologin","/sbin/nologin"].find(d=>Mt(d))??"/bin/false",a=await L(e,n,["--system","--user-group","--no-create-home","--home-dir","/nonexistent","--shell",s,t]);if(r=await Ke(t),!r)throw new v(`could not create user ${t}: ${N(a.stderr)||`exit ${a.code}`}`)}if(!Number.isInteger(r.uid)||r.uid===0||!Number.isInteger(r.gid)||r.gid===0)throw new v(`user ${t} exists but is not an unprivileged user (uid ${r.uid})`);return r}o(Ue,"ensureUser");function Ve(e,t){if(t.code!==0)throw new v(`${e}: ${N(t.stderr)||`exit ${t.code}`}`)}o(Ve,"check");async function oe(e,t){(await t()).code!==0&&Ve(e,await t())}o(oe,"twice");var Yt=["-type","f","-links","1","-perm","-004"],zt=["-type","f","(","-links","+1","-o","!","-perm","-004",")"],qe=o(e=>["-type","d","!","-perm","-001","!","-samefile",e],"privateFolder");function X(e){let t=T(e);if(!t)throw new v(`${e} is not installed`);return t}o(X,"need");var Ge=3130;function z(e,t,r,n,s){return L(e,t,["-c",'f=$1; shift; exec "$@" > "$f"',"patchloop-walk",r,n,...s])}o(z,"toFile");var he=o((e,t)=>["-type","d","!","-perm","-001","!","-user",String(t),"!","-samefile",e,"-prune"],"closedFolder"),Qt=o(e=>e.replace(/\\([0-7]{3})/g,(t,r)=>String.fromCharCode(parseInt(r,8))),"unescapeAcl");function je(e){let t=[];for(let r of e.split(`

`)){let n=/^# file: (.*)$/m.exec(r);n&&t.push({path:Qt(n[1]),text:r.trim()})}return t}o(je,"aclBlocks");function We(e){let t=Buffer.from(e,"latin1");try{return $e(t).isSymbolicLink()?!1:Wt(t,{encoding:"buffer"}).equals(t)}catch{return!1}}o(We,"leadsToItself");function Xe(e){let t=new Map;for(let r of e.split("\0")){let n=/^(\d+) ([0-7]+) (\d+) (\w) ([^]*)$/.exec(r);n&&t.set(n[5],{ino:BigInt(n[1]),mode:parseInt(n[2],8),gid:Number(n[3]),type:n[4]})}return t}o(Xe,"marks");function ye(e){Xt(e,{recursive:!0,force:!0})}o(ye,"cleanup");async function Ye(e,t,r,n){let s=H(r,".git"),a=(()=>{try{return $e(s).isDirectory()}catch{return!1}})();if(n==="group"&&e.viaSudo)throw new v("setfacl (package acl) is needed to share the workspace when not running as root");let d=X("find"),l=X("sh"),p=jt(H(qt(),"patchloop-access-"));try{return n==="acl"?await Jt(e,t,r,s,a,{find:d,sh:l,dir:p}):await Zt(e,t,r,s,a,{find:d,sh:l,dir:p})}catch(m){throw ye(p),m}}o(Ye,"openWorkspace");async function Jt(e,t,r,n,s,{find:a,sh:d,dir:l}){let p=X("setfacl"),m=X("getfacl"),$=t.user,S=H(l,"before.acl");await oe("could not read the workspace's ACLs",()=>z(e,d,S,a,[r,...he(r,t.uid),"-o","!","-type","l","-exec",m,"-s","-P","-p","--","{}","+"]));let h=o(async()=>{try{let c=H(l,"linked.acl"),y=await z(e,d,c,a,[r,...he(r,t.uid),"-o","-type","f","-links","+1","-exec",m,"-s","-P","-p","--","{}","+","-o","!","-type","l","-exec",p,"-P","-b","--","{}","+"]),b=[];y.code!==0&&b.push(N(y.stderr)||`exit ${y.code}`);let w=new RegExp(`^(default:)?user:${$.replace(/[.*+?^${}()|[\]\\]/g,"\\$&")}:`,"m"),g=je(se(c,"latin1")).filter(u=>w.test(u.text)&&We(u.path)).map(u=>u.path);for(let u=0;u<g.length;u+=500){let k=await L(e,p,["-P","-b","--",...g.slice(u,u+500)]);k.code!==0&&b.push(N(k.stderr)||`exit ${k.code}`)}let E=je(se(S,"latin1")).filter(u=>We(u.path));if(E.length){let u=H(l,"restore.acl");Vt(u,E.map(A=>A.text).join(`

`)+`

`,{encoding:"latin1",mode:384});let k=await L(e,p,[`--restore=${u}`]);k.code!==0&&b.push(N(k.stderr)||`exit ${k.code}`)}if(b.length)throw new v(`the workspace's ACLs were not all put back: ${b[0]}`)}finally{ye(l)}},"revoke"),P=process.getuid?.()??0,f=P===0?"":`,d:u:${P}:rwX`,i=o((c,y,b)=>L(e,a,[c,...b,...qe(c),"-prune","-o","-type","d","-exec",p,"-P","-m",`u:${$}:${y},d:u:${$}:${y}${f},d:o::rX`,"{}","+","-o",...Yt,"-exec",p,"-P","-m",`u:${$}:${y}`,"{}","+"]),"grant");try{await oe(`could not open the workspace to ${$}`,()=>i(r,"rwX",["-path",n,"-prune","-o"])),s&&await oe(`could not make .git read-only to ${$}`,()=>i(n,"rX",[]))}catch(c){throw await h().catch(()=>{}),c}return{method:"acl",revoke:h}}o(Jt,"openAcl");async function Zt(e,t,r,n,s,{find:a,sh:d,dir:l}){let p=X("chmod"),m=X("chown"),$=String(t.gid),S=["-printf","%i %m %G %y %p\\0"],h=o(c=>z(e,d,c,a,[r,...S,"(","-path",n,"-prune","-o",...zt,"-prune","-o",...qe(r),"-prune","-o","!","-group",$,"-exec",m,"-h",`:${$}`,"{}","+","-false","-o","-type","d","!","-perm","-2070","-exec",p,"g+rwxs","{}","+","-o","!","-type","d","!","-type","l","!","-perm","-060","-exec",p,"g+rw","{}","+",")"]),"open"),P=o(c=>z(e,d,c,a,[n,"!","-type","l","-perm","-002",...S,"-exec",p,"o-w","{}","+"]),"closeGit"),f=[],i=o(async()=>{try{await er(e,t,r,a,d,l,f)}finally{ye(l)}},"revoke");try{if(await oe(`could not give the workspace to group ${t.user}`,()=>{let c=H(l,`open-${f.length}`);return f.push(c),h(c)}),s){let c=H(l,"git");f.push(c),Ve("could not make .git read-only to others",await P(c))}}catch(c){throw await i().catch(()=>{}),c}return{method:"group",revoke:i}}o(Zt,"openGroup");async function er(e,t,r,n,s,a,d){let l=new Map;for(let f of d){let i;try{i=se(f,"latin1")}catch{continue}for(let[c,y]of Xe(i))l.has(c)||l.set(c,y)}let p=H(a,"after"),m=await z(e,s,p,n,[r,...he(r,t.uid),"-printf","%i %m %G %y %p\\0","-o","-printf","%i %m %G %y %p\\0"]),$=[];m.code!==0&&$.push(N(m.stderr)||`exit ${m.code}`);let S=$e(r),h=new Map,P=o(f=>f.slice(0,f.lastIndexOf("/"))||"/","parentOf");for(let[f,i]of Xe(se(p,"latin1"))){let c=l.get(f),y=Buffer.from(f,"latin1"),b=i.gid,w=i.mode;c&&c.ino===i.ino?(b=c.gid,w=i.mode&~Ge|c.mode&Ge):i.gid===t.gid&&(b=h.get(P(f))??(c?c.gid:S.gid),i.type==="d"&&!(c&&c.mode&1024)&&(w=i.mode&-1025));try{b!==i.gid&&Gt(y,-1,b),i.type!=="l"&&(w!==i.mode||b!==i.gid)&&Ut(y,w)}catch(g){g.code!=="ENOENT"&&$.push(`${f}: ${g.message}`)}i.type==="d"&&h.set(f,b)}if($.length)throw new v(`the workspace's groups and modes were not all put back (${$.length}): ${$[0]}`)}o(er,"restoreGroup");import{spawnSync as ze}from"node:child_process";var tr={x64:{keyctl:250,addKey:248,arch:"x86_64"},arm64:{keyctl:219,addKey:217,arch:"aarch64"}},Q=["-t","-X"],rr=String.raw`my $nr = 0 + shift @ARGV;
for my $ring (-4, -5) {
  if (syscall($nr, 7, $ring) != 0) { print STDERR "patchloop sandbox: the sandbox user's keyrings cannot be emptied\n"; exit 125; }
}
if (syscall($nr, 1, undef) < 0) { print STDERR "patchloop sandbox: no session keyring of its own: $!\n"; exit 125; }
exec { $ARGV[0] } @ARGV;
print STDERR "patchloop sandbox: $ARGV[0]: $!\n";
exit 127;`,nr=String.raw`k=$1 sh=$2; shift 2
{ "$k" clear @u && "$k" clear @us; } || { echo "patchloop sandbox: the sandbox user's keyrings cannot be emptied" >&2; exit 125; }
exec 3>&2
exec "$k" session - "$sh" -c 'exec 2>&3 3>&-; exec "$@"' patchloop-keyring "$@" 2>/dev/null`,or=String.raw`my ($nr, $arch) = @ARGV;
require Config;
exit 3 unless $Config::Config{archname} =~ /^\Q$arch\E-linux/ && $Config::Config{ptrsize} == 8;
if (syscall(0 + $nr, 1, undef) < 0) { print 0 + $!; exit 4; }
exit 0;`,sr=String.raw`my ($nr, $name) = @ARGV;
local $/;
my $value = <STDIN>;
$value = '' unless defined $value;
my $type = 'user';
my $id = syscall(0 + $nr, $type, $name, $value, length($value), -3);
exit 1 if $id < 0;
print $id;`,ir=String.raw`my ($nr, $id, $name) = @ARGV;
$nr = 0 + $nr;
my $buf = "\0" x 4096;
exit 0 if syscall($nr, 11, 0 + $id, $buf, 4096) >= 0;
my $type = 'user';
exit 0 if syscall($nr, 10, -3, $type, $name, 0) > 0;
exit 1;`,ar=String.raw`my ($nr, $id) = @ARGV;
exit(syscall(0 + $nr, 9, 0 + $id, -3) == 0 ? 0 : 1);`,cr=new Set([1,38]);function Qe(e=[]){let t=[],r=e.includes("perl")?void 0:T("perl"),n=tr[process.arch];r&&n&&t.push({kind:"perl",perl:r,...n});let s=e.includes("keyctl")?void 0:T("keyctl");return s&&t.push({kind:"keyctl",keyctl:s}),t.length?t:r?`keyctl is not installed (keyutils), and perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}: each command gets a keyring of its own with one of them`:"neither perl nor keyctl is installed (perl-base or keyutils): each command gets a keyring of its own with one of them"}o(Qe,"findKeyringTools");async function Je(e,t){if(e.kind==="keyctl")return(await F(e.keyctl,["session","-",t,"-c","exit 0"])).code===0?"works":"refused";let r=await F(e.perl,[...Q,"-e",or,"--",String(e.keyctl),e.arch]);return r.code===0?"works":r.code===4&&cr.has(Number(r.stdout.trim()))?"refused":r.code===3?`${e.perl} is not a 64-bit ${e.arch} perl`:`${e.perl} could not join a session keyring (exit ${r.code}${r.stdout.trim()?`, errno ${r.stdout.trim()}`:""})`}o(Je,"probeKeyrings");function Ze(e,t){return e.kind==="perl"?[e.perl,...Q,"-e",rr,"--",String(e.keyctl)]:[t,"-c",nr,"patchloop-keyring",e.keyctl,t]}o(Ze,"keyringStep");var et={PATH:"/usr/sbin:/usr/bin:/sbin:/bin"};function tt(e,t,r){let[n,s]=e.kind==="perl"?[e.perl,[...Q,"-e",sr,"--",String(e.addKey),t]]:[e.keyctl,["padd","user",t,"@s"]],a=ze(n,s,{input:r,encoding:"utf8",env:et,timeout:1e4}),d=a.stdout?.trim();return a.status===0&&/^\d+$/.test(d??"")?d:void 0}o(tt,"plantKey");function rt(e,t){let[r,n]=e.kind==="perl"?[e.perl,[...Q,"-e",ar,"--",String(e.keyctl),t]]:[e.keyctl,["unlink",t,"@s"]];ze(r,n,{stdio:"ignore",env:et,timeout:1e4})}o(rt,"unlinkKey");function nt(e,t,r){return e.kind==="perl"?[[e.perl,...Q,"-e",ir,"--",String(e.keyctl),t,r]]:[[e.keyctl,"print",t],[e.keyctl,"search","@s","user",r]]}o(nt,"keyLookup");import{join as xr}from"node:path";import{readFileSync as dr}from"node:fs";var ge={processes:1024,dataBytes:8*1024**3,fileBytes:2*1024**3,openFiles:8192},lr=3600,ur={processes:"Max processes",dataBytes:"Max data size",fileBytes:"Max file size",openFiles:"Max open files",cpuSeconds:"Max cpu time"};function we(e){let t=e;if(t===void 0)try{t=dr("/proc/self/limits","latin1")}catch{return{}}let r={};for(let[n,s]of Object.entries(ur)){let d=t.split(`
`).find(l=>l.startsWith(s))?.slice(s.length).trim().split(/\s+/)[1];d&&(r[n]=d==="unlimited"?1/0:Number(d))}return r}o(we,"currentHardLimits");function ot(e,t,r=we()){let n=e.cpuSeconds??(t!==void 0&&t>0?Math.ceil(t/1e3):lr),s=o((a,d)=>String(Math.max(1,Math.floor(Math.min(d,r[a]??1/0)))),"n");return[`--nproc=${s("processes",e.processes)}`,`--data=${s("dataBytes",e.dataBytes)}`,`--fsize=${s("fileBytes",e.fileBytes)}`,`--nofile=${s("openFiles",e.openFiles)}`,`--cpu=${s("cpuSeconds",n)}`]}o(ot,"prlimitArgs");import{spawn as fr}from"node:child_process";import{lstatSync as J,mkdtempSync as it,readdirSync as pr,realpathSync as mr,rmSync as hr}from"node:fs";import{availableParallelism as $r,tmpdir as at}from"node:os";import{join as U}from"node:path";var yr={x64:{unshare:272,lgetxattr:192,lremovexattr:198,fchownat:260,mknodat:259,mount:165},arm64:{unshare:97,lgetxattr:9,lremovexattr:15,fchownat:54,mknodat:33,mount:40}};function ie(){return yr[process.arch]}o(ie,"overlaySyscalls");var xe=String.raw`use strict;
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
exit 0;`,gr=String.raw`use strict;
use Fcntl qw(:mode O_RDONLY O_WRONLY O_CREAT O_EXCL O_NOFOLLOW);
my ($lgetxattr, $lremovexattr, $fchownat, $mknodat, $follow, $up, $ws, $uid, $gid, $state, $n, @rest) = @ARGV;
my @hidden = @rest[0 .. $n - 1];
my ($applied, @errors) = (0);
sub err { my ($p, $why) = @_; $p =~ s/[\x00-\x1f\x7f]/?/g; push @errors, "$p: $why"; }
sub covers { my ($r) = @_; for my $h (@hidden) { return 1 if $h eq $r || index($h, "$r/") == 0 || index($r, "$h/") == 0; } return 0; }
sub opaque { my $p = "" . $_[0]; my $name = "trusted.overlay.opaque"; my $buf = "\0" x 8;
  my $got = syscall(0 + $lgetxattr, $p, $name, $buf, 8); return $got > 0 && substr($buf, 0, $got) eq 'y'; }
sub noacl { my $p = "" . $_[0]; for my $x ("system.posix_acl_access", "system.posix_acl_default") { my $name = "" . $x; syscall(0 + $lremovexattr, $p, $name); } }
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
    if (grep { $_ eq $r } @hidden) { err($r, "a private path: left in place"); next; }
    if (S_ISCHR($mode) && $s[6] == 0) { $applied++ if remove($r); next; }
    if (S_ISDIR($mode)) {
      my @d = $follow ? stat $dst : lstat $dst;
      if (@d && !S_ISDIR($d[2])) { remove($r) or next; @d = (); }
      my $made = !@d;
      if ($made) { mkdir($dst, 0700) or do { err($r, "could not be made: $!"); next; }; $applied++; lchown($dst); }
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
      lchown($dst);
      noacl($dst) unless S_ISLNK($mode);
      chmod($mode & 0777, $dst) unless S_ISLNK($mode);
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
exit 0;`,ct=["-t","-X"],st=5e3,ke=/^[^,:\\\s]+$/;async function dt(e,t,r,n){let s=ie();if(!s)return`Perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}`;if(!ke.test(n))return`${n} cannot be named in the overlay's options`;let a=J(t),d=it(U(at(),"patchloop-overlay-probe-"));try{if(!ke.test(d))return`${d} cannot be named in the overlay's options`;let l=await L(e,r.unshare,["--mount","--propagation","private","--",r.perl,...ct,"-e",xe,"--","overlay",String(s.unshare),String(s.mount),t,d,U(d,"layer"),String(a.uid),"65534",String(a.gid),"65534","0","0"]);return l.code===0?void 0:`no idmapped overlay of the workspace here (${N(l.stderr)||`exit ${l.code}`})`}finally{await L(e,r.rm,["-rf","--",d])}}o(dt,"tryOverlay");async function lt(e,t,r,n){let s=ie();if(!s)return`Perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}`;let a=J(t),d={uid:a.uid,gid:a.gid},l=U(t,".git"),p=o(()=>["-type","d","!","-perm","-001","-prune","-printf","d%p\\0","-o","-type","f","!","-perm","-004","-printf","f%p\\0","-o","-user",String(n),"-printf","u%p\\0"],"tests"),m=o(async u=>{let k=await L(e,r.find,u,{maxBuffer:1073741824,timeoutMs:18e5});if(k.code!==0)throw new v(`could not list the workspace's private paths: ${N(k.stderr)||`exit ${k.code}`}`);return k.stdout},"walk"),$=t.replace(/[[\]*?\\]/g,"\\$&"),S=await m([t,"-maxdepth","2","(","-path",l,"-prune","-o","-samefile",t,"-o","-path",`${$}/*/*`,"-type","d","-perm","-001","-printf","r%p\\0","-o",...p(),")"]),h=S.split("\0").filter(u=>u[0]==="r").map(u=>u.slice(1)),P=Math.max(1,Math.min($r(),8,h.length)),f=await Promise.all(Array.from({length:h.length?P:0},(u,k)=>m([...h.filter((A,I)=>I%P===k),...p()]))),i={stdout:[S,...f].join("\0")},c=new Map,y=i.stdout.split("\0").filter(Boolean),b=y.filter(u=>u[0]==="u").map(u=>u.slice(1));for(let u=0;u<b.length;u+=500){let k=await L(e,r.chown,["-h","--",`${d.uid}:${d.gid}`,...b.slice(u,u+500)]);if(k.code!==0)throw new v(`could not give an earlier run's files back to the checkout's owner: ${N(k.stderr)||`exit ${k.code}`}`)}for(let u of y){if(u[0]!=="d"&&u[0]!=="f")continue;let k=u.slice(1);try{let A=J(k);c.set(k,{dev:A.dev,ino:A.ino,folder:u[0]==="d"})}catch{}}if(c.size>st)return`the workspace holds ${c.size} paths others may not read (more than ${st})`;let w=it(U(at(),"patchloop-overlay-"));if(!ke.test(w))return hr(w,{recursive:!0,force:!0}),`${w} cannot be named in the overlay's options`;let g=o(u=>u.slice(t.length+1),"relative"),E={owner:d,hidden:{folders:[...c].filter(([,u])=>u.folder).map(([u])=>u),files:[...c].filter(([,u])=>!u.folder).map(([u])=>u)},state:w,next:0,verify(){for(let[u,k]of c){let A;try{let I=J(u);A=I.dev===k.dev&&I.ino===k.ino&&mr(u)===u}catch{A=!wr(u)}if(!A)throw new v(`${g(u)} is no longer the private path the set-up covered`)}},async apply(u){let k=U(w,String(u));try{if(pr(U(k,"up")).length===0)return}catch{}let A=await kr(e,r.perl,[...ct,"-e",gr,"--",String(s.lgetxattr),String(s.lremovexattr),String(s.fchownat),String(s.mknodat),E.followLinks?"1":"0",U(k,"up"),t,String(d.uid),String(d.gid),k,String(c.size),...[...c.keys()].map(g)]);if(A.code!==0)return`what the command wrote could not be moved into the workspace (${N(A.stderr)||`exit ${A.code}`}); it is kept in ${k}`;let I=A.stdout.split(`
`).filter(K=>K.startsWith("error ")).map(K=>K.slice(6));if(I.length)return`${I.length} of the command's changes could not be moved into the workspace (kept in ${k}): ${I.slice(0,5).join("; ")}`},async dispose(){await L(e,r.rm,["-rf","--",w])}};return E}o(lt,"openOverlay");function wr(e){try{return J(e),!0}catch{return!1}}o(wr,"existsQuiet");function kr(e,t,r){let[n,...s]=e.prefix.length?[...e.prefix,t,...r]:[t,...r];return new Promise(a=>{let d=fr(n,s,{detached:!0,stdio:["ignore","pipe","pipe"],env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"}}),l=[],p=[];d.stdout.on("data",m=>l.push(m)),d.stderr.on("data",m=>p.push(m)),d.once("error",m=>a({code:127,stdout:"",stderr:m.message})),d.once("close",m=>a({code:m??1,stdout:Buffer.concat(l).toString("utf8"),stderr:Buffer.concat(p).toString("utf8")}))})}o(kr,"detachedAsRoot");var Z="/tmp/home",V=["/tmp","/var/tmp","/dev/shm"],br=String.raw`set -eu
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
exec "$@"`,Sr=String.raw`g=$1 find=$2 chown=$3 chmod=$4 ws=$5; shift 5
f='{''}'
exec "$find" "$@" -mindepth 1 -maxdepth 1 -path "$ws/.git" -prune -o -type f \( -links +1 -o ! -perm -004 \) -prune -o -type d ! -perm -001 ! -samefile "$ws" -prune -o ! -group "$g" -exec "$chown" -h ":$g" "$f" + -false -o -type d ! -perm -2070 -exec "$chmod" g+rwxs "$f" + -o ! -type d ! -type l ! -perm -060 -exec "$chmod" g+rw "$f" +`,vr=String.raw`ws=$1 g=$2 find=$3 chown=$4 chmod=$5 sh=$6 since=$7 step=$8; shift 8
umask 002
"$find" "$ws" -path "$ws/.git" -prune -o -type d ! -perm -001 ! -samefile "$ws" -prune -o -type d -newermt "@$since" -exec "$sh" -c "$step" patchloop-refresh "$g" "$find" "$chown" "$chmod" "$ws" {} + 2>/dev/null || :
exec "$@"`,ae=2e3,Pr=['for f in /proc/self/fd/*; do n=${f##*/}; [ "$n" -gt 2 ] && exec {n}>&-; done',"umask 002","exec 3>&2 2>/dev/null","set -m",`trap 'kill -TERM -- -"$c"' TERM INT HUP`,'"$2" -c "$1" 0<&0 2>&3 3>&- &',"c=$!",'while :; do wait "$c"; s=$?; kill -0 "$c" 2>/dev/null || exit "$s"; done'].join(`
`),ut=["--pid","--fork","--kill-child","--mount","--mount-proc","--propagation","private","--ipc","--uts"],Rr="--net";function ce(e){return e?[...ut,Rr]:[...ut]}o(ce,"namespaceOptions");var _r=String.raw`const net = require('net'), fs = require('fs');
process.setgroups([]); process.setgid(Number(process.argv[2])); process.setuid(Number(process.argv[1]));
const server = net.createServer((c) => {
  const u = net.connect('proxy.sock');
  c.on('error', () => u.destroy()); u.on('error', () => c.destroy());
  c.pipe(u); u.pipe(c);
});
server.listen(0, '127.0.0.1', () => fs.writeSync(1, server.address().port + '\n'));`,Or=String.raw`set -eu
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
exec "$@"`;function Er(e){let t=e.network;if(!t)return[];let{bins:r,account:n}=e;return[r.bash,"-c",Or,"patchloop-network",t.ip,r.env,t.bridge?.node??"",t.bridge?.socketDir??"/",String(n.uid),String(n.gid),_r]}o(Er,"networkStep");function Ar(e,t,r,n,s={}){let{bins:a,account:d}=e,l=e.overlay,p=l!==void 0&&s.layer!==void 0&&!s.readOnly,m=p?l.access.hidden:{folders:[],files:[]},$=m.folders.length+m.files.length,S=[a.setpriv,"--pdeathsig","KILL","--",a.unshare,...ce(e.network!==void 0).filter(h=>!e.keepIpcUts||h!=="--ipc"&&h!=="--uts"),"--",...Er(e),a.sh,"-c",br,"patchloop-prelude",a.mount,a.umount,a.mkdir,a.chown,a.chmod,e.workspace,e.hide??"",e.hideMode,e.stash,`${d.uid}:${d.gid}`,Z,r,p?l.inPlace?"in-place":"overlay":s.readOnly?"read-only":"shared",l?.perl??"",xe,String(l?.syscalls.unshare??0),String(l?.syscalls.mount??0),p?xr(l.access.state,String(s.layer)):"",String(l?.access.owner.uid??0),String(l?.access.owner.gid??0),String(e.readOnly.length),...e.readOnly,String($+2),String(m.folders.length),String(m.files.length),...m.folders,...m.files,String(e.sticky.length),...e.sticky,String(e.scratch.length),...e.scratch,String(e.covered.length),...e.covered,String(e.shared.length),...e.shared,String(e.sharedReadOnly.length),...e.sharedReadOnly,...e.readOnly];return e.groupRefresh&&S.push(a.sh,"-c",vr,"patchloop-refresh",e.workspace,String(d.gid),a.find,a.chown,a.chmod,a.sh,((e.refreshSince??0)/1e3).toFixed(3),Sr),e.limits&&S.push(a.prlimit,...ot(e.limits,n),"--"),S.push(a.setpriv,"--reuid",String(d.uid),"--regid",String(d.gid),"--clear-groups","--no-new-privs","--inh-caps=-all","--bounding-set=-all","--"),e.freshKeyring&&S.push(...Ze(a.keyring,a.sh)),S.push(a.bash,"-c",Pr,"patchloop-init",t,a.bash),S}o(Ar,"commandArgv");function de(e,t,r,n,s,a={}){let d=Ar(e,t,r,s,a);if(e.groupRefresh&&(e.refreshSince=Date.now()-ae),!e.root.viaSudo)return{file:d[0],args:d.slice(1),env:n};let l=Object.entries(n).map(([p,m])=>`${p}=${m}`);return{file:e.root.prefix[0],args:[...e.root.prefix.slice(1),e.bins.env,"-i",...l,...d],env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"}}}o(de,"launch");import{chmodSync as Tr}from"node:fs";import{createServer as Nr,request as Lr}from"node:http";import{lookup as Cr}from"node:dns/promises";import{connect as Ir,isIP as Mr}from"node:net";var Dr=new Set([80,443]),ft=3e4,Br=200,be=1e4,Hr=o(async(e,t)=>Mr(e)?[{address:e,port:t}]:(await Cr(e,{all:!0,verbatim:!0})).map(n=>({address:n.address,port:t})),"systemResolver");function Se(e){return/^[a-z0-9.:-]{1,253}$/.test(e)?e:"(a malformed destination)"}o(Se,"recordable");function Kr(e){let t=/^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):(\d{1,5})$/.exec(e);if(t)return{host:Y(t[1]),port:Number(t[2])}}o(Kr,"splitAuthority");async function pt(e){let t=e.resolve??Hr,r=e.addressAllowed??me,n=e.hosts.map(Y),s=new Map,a=[],d=0,l=new Set,p=o((f,i)=>{let c=Se(f);!s.has(c)&&s.size>=Br&&(c="(other hosts)");let y=s.get(c)??{host:c,reason:i,count:0};return y.count++,s.set(c,y),a.push(c),a.length>be&&(d+=a.length-be/2,a=a.slice(-be/2)),e.onRefused?.(c,i),{ok:!1,reason:i}},"refuse"),m=o(async(f,i)=>{if(!f)return p("(a malformed destination)","not a host name");if(!De(n,f))return p(f,"not in command-network");if(!Dr.has(i))return p(`${f}:${i}`,"only ports 80 and 443 are allowed");let c;try{c=await t(f,i)}catch{return{ok:!1,reason:`${f} could not be resolved`}}let y=c.filter(b=>r(b.address));return y.length?{ok:!0,targets:y}:p(f,"it resolves to a loopback, private or link-local address")},"decide"),$=o(f=>new Promise((i,c)=>{let y=o((b,w)=>{let g=f[b];if(!g)return c(w??new Error("no address"));let E=Ir({host:g.address,port:g.port});E.setTimeout(ft,()=>E.destroy(new Error("connect timeout"))),E.once("connect",()=>{E.setTimeout(0),i(E)}),E.once("error",u=>y(b+1,u))},"next");y(0)}),"open"),S=o(f=>{l.add(f),f.once("close",()=>l.delete(f))},"track"),h=Nr();h.on("connection",S),h.on("connect",(f,i,c)=>{i.on("error",()=>{});let y=Kr(f.url??"");(async()=>{let b=y?await m(y.host,y.port):p("","not a host name");if(!b.ok){let g=b.reason.includes("resolved")?"502 Bad Gateway":"403 Forbidden";i.end(`HTTP/1.1 ${g}\r
Content-Type: text/plain\r
Connection: close\r
\r
patchloop command-network: ${y?Se(y.host):"this destination"} is refused (${b.reason}).
`);return}let w;try{w=await $(b.targets)}catch(g){i.end(`HTTP/1.1 502 Bad Gateway\r
Connection: close\r
\r
${g.message}
`);return}S(w),w.on("error",()=>i.destroy()),i.on("error",()=>w.destroy()),i.on("close",()=>w.destroy()),w.on("close",()=>i.destroy()),i.write(`HTTP/1.1 200 Connection Established\r
\r
`),c.length&&w.write(c),w.pipe(i),i.pipe(w)})()}),h.on("request",(f,i)=>{(async()=>{let c;try{c=new URL(f.url??"")}catch{c=void 0}if(!c||c.protocol!=="http:"){p("","not an absolute http:// request"),i.writeHead(400,{"content-type":"text/plain"}).end(`patchloop command-network: the proxy takes CONNECT host:443 and absolute http:// requests only.
`);return}let y=Y(c.hostname),b=c.port?Number(c.port):80,w=await m(y,b);if(!w.ok){i.writeHead(w.reason.includes("resolved")?502:403,{"content-type":"text/plain"}).end(`patchloop command-network: ${Se(y)} is refused (${w.reason}).
`);return}let g={...f.headers};for(let k of["proxy-authorization","proxy-connection","connection","keep-alive"])delete g[k];let E=w.targets[0],u=Lr({host:E.address,port:E.port,method:f.method,path:`${c.pathname}${c.search}`,headers:{...g,host:c.host},setHost:!1});u.setTimeout(ft,()=>u.destroy(new Error("timeout"))),u.on("response",k=>{i.writeHead(k.statusCode??502,k.headers),k.pipe(i)}),u.on("error",k=>{i.headersSent?i.destroy():i.writeHead(502,{"content-type":"text/plain"}).end(`${k.message}
`)}),f.pipe(u)})()}),h.on("clientError",(f,i)=>{f.code!=="ECONNRESET"&&i.writable?(p("","not a valid request"),i.end(`HTTP/1.1 400 Bad Request\r
Connection: close\r
\r
`)):i.destroy()}),await new Promise((f,i)=>{h.once("error",i),h.listen(e.socketPath,()=>{h.off("error",i),f()})}),Tr(e.socketPath,438);let P=o(f=>{let i=new Map;for(let c of f){let y=i.get(c)??{host:c,reason:s.get(c)?.reason??"",count:0};y.count++,i.set(c,y)}return[...i.values()]},"dedupe");return{socketPath:e.socketPath,refused:o(()=>[...s.values()].map(f=>({...f})),"refused"),refusals:o(()=>d+a.length,"refusals"),refusedSince:o(f=>P(a.slice(Math.max(0,f-d))),"refusedSince"),close:o(()=>new Promise(f=>{for(let i of l)i.destroy();h.close(()=>f())}),"close")}}o(pt,"startNetworkProxy");import{spawnSync as yt}from"node:child_process";import{createHash as Fr,randomBytes as Ur}from"node:crypto";import{existsSync as Gr,readdirSync as jr,readFileSync as Wr,readlinkSync as Xr,rmSync as ve,statSync as Vr,writeFileSync as mt}from"node:fs";import{createServer as qr}from"node:net";import{dirname as ht,join as D,relative as Yr,sep as zr}from"node:path";function Qr(){return new Promise((e,t)=>{let r=qr(n=>n.destroy());r.once("error",t),r.listen(0,"127.0.0.1",()=>{let n=r.address();e({port:typeof n=="object"&&n?n.port:0,server:r})})})}o(Qr,"hostListener");var $t="PATCHLOOP_SELF_CHECK_SECRET";async function gt(e,t){let r=Ur(6).toString("hex"),n=`s3cret-${r}`,s=Ie,a=[];for(let i of t.privateDirs){let c=D(i,`.patchloop-probe-${r}`);try{mt(c,n,{mode:420,flag:"wx"}),a.push(c)}catch{}}let d=t.network?await Qr():void 0,l=t.shared?[...new Set([...t.shared,...en(t)?[ee]:[]])]:[],p=t.sharedReadOnly??[],m=`.patchloop-probe-${r}`,$=`patchloop-probe-${r}`,S=t.keyring?tt(t.keyring,$,n):void 0,h=t.ipcUts?Zr():void 0;for(let i of l){let c=D(i,m);try{mt(c,n,{mode:420,flag:"wx"}),a.push(c)}catch{}}let P=['echo "uid $(id -u)"',`if h=$({ sha256sum < /proc/${process.pid}/environ; } 2>/dev/null); then echo "environ $h"; fi`,`f=.patchloop-probe-${r}; if { : > "$f"; } 2>/dev/null && rm -f "$f"; then echo workspace-writable; fi`,t.processes===void 0?":":`[ "$(ulimit -u)" = ${t.processes} ] || echo "nproc $(ulimit -u)"`,`if printenv ${$t} >/dev/null; then echo env-secret-visible; fi`];if(S&&t.keyring){let i=nt(t.keyring,S,$).map(c=>`${c.map(s).join(" ")} >/dev/null 2>&1`);P.push(`if ${i.join(" || ")}; then echo keyring-shared; fi`)}t.ipcUts&&P.push('echo "ns-ipc $(readlink /proc/self/ns/ipc)"','echo "ns-uts $(readlink /proc/self/ns/uts)"','if [ -r /proc/sysvipc/msg ] && [ "$(wc -l < /proc/sysvipc/msg)" -gt 1 ]; then echo ipc-visible; fi');for(let i of l)P.push(`if [ -e ${s(D(i,m))} ]; then echo shared-visible ${s(i)}; fi`,`{ : > ${s(D(i,`${m}-left`))}; } 2>/dev/null || echo shared-unwritable ${s(i)}`);for(let i of p)P.push(`if { : > ${s(D(i,`${m}-left`))}; } 2>/dev/null; then echo shared-writable ${s(i)}; fi`);t.hasGit&&P.push(`if mv .git .git-probe-${r} 2>/dev/null; then mv .git-probe-${r} .git; echo git-renamed; fi`,`if [ -d .git ] && { : > .git/probe-${r}; } 2>/dev/null; then rm -f .git/probe-${r}; echo git-written; fi`,"if [ -f .git ] && { : >> .git; } 2>/dev/null; then echo git-written; fi");let f=o((i,c)=>{let b=["''",...[t.workspace,Z,...V,...t.readOnlyDirs].filter(w=>w!==i&&_(w,i)).map(w=>Yr(i,w).split(zr)[0]).map(s)].join("|");return`ls -A ${s(i)} 2>/dev/null | while IFS= read -r n; do case "$n" in ${b}) ;; *) echo ${c} ${s(i)}/"$n";; esac; done`},"onlyWays");d&&P.push('while IFS=: read -r n _; do n=$(printf %s $n); case "$n" in lo|Inter-*|face*) ;; *) echo "interface-visible $n";; esac; done < /proc/net/dev',`if (exec 3<>/dev/tcp/127.0.0.1/${d.port}) 2>/dev/null; then echo host-loopback-reachable; fi`,'case "$( (exec 3<>/dev/tcp/127.0.0.1/1) 2>&1)" in *refused*) ;; *) echo loopback-down;; esac',t.network?.proxy?'case "${HTTPS_PROXY:-}" in http://127.0.0.1:*) (exec 3<>/dev/tcp/127.0.0.1/"${HTTPS_PROXY##*:}") 2>/dev/null || echo proxy-unreachable;; *) echo proxy-unset;; esac':'[ -z "${HTTPS_PROXY:-}" ] || echo proxy-set');for(let i=ht(t.workspace);i!=="/";i=ht(i))P.push(f(i,"above-visible"));for(let i of t.privateDirs)P.push(f(i,"private-visible"));for(let i of t.readOnlyDirs)P.push(`ls ${s(i)} >/dev/null 2>&1 || echo read-only-unreadable ${s(i)}`,`if { : > ${s(D(i,`probe-${r}`))}; } 2>/dev/null; then echo read-only-writable ${s(i)}; fi`);try{if(t.keyring&&!S)return"a key could not be put in patchloop's session keyring to probe with";let i=await Ce({command:P.join(`
`),cwd:t.workspace,env:{...t.env,[$t]:n},sandbox:e,timeoutMs:3e4}),c=i.text.trim().split(`
`);if(i.exitCode!==0||i.spawnError)return`the probe command failed (${i.spawnError??`exit ${i.exitCode??i.signal}`}): ${c.slice(-3).join(" / ")}`;if(c[0]!==`uid ${t.uid}`)return`the probe ran as ${c[0]??"nobody"}, not uid ${t.uid}`;let y=Fr("sha256").update(Wr("/proc/self/environ")).digest("hex");if(c.some(g=>g.startsWith("environ ")&&g.includes(y)))return"the probe could read patchloop's /proc/<pid>/environ";if(!c.includes("workspace-writable"))return"the probe could not write in the workspace";if(i.text.includes(n))return"the probe saw a value it must not see";for(let g of t.ipcUts?["ipc","uts"]:[]){let E=c.find(u=>u.startsWith(`ns-${g} `))?.slice(`ns-${g} `.length);if(!E?.startsWith(`${g}:[`))return`the probe could not tell its ${g} namespace`;if(E===Xr(`/proc/self/ns/${g}`))return`the probe shares patchloop's ${g==="ipc"?"System V IPC":"host name"} namespace`}let b=[...l,...p].map(g=>D(g,`${m}-left`)).filter(g=>Gr(g));if(b.length)return`the probe left ${b.join(", ")} behind, outside its namespace`;let w=c.filter(g=>!g.startsWith("uid ")&&!g.startsWith("environ ")&&!g.startsWith("ns-")&&g!=="workspace-writable");return w.length?`the probe found: ${w.join("; ")}`:void 0}finally{d?.server.close();for(let i of a)ve(i,{force:!0});for(let i of[...l,...p])ve(D(i,`${m}-left`),{force:!0});S&&t.keyring&&rt(t.keyring,S),h&&yt(h.ipcrm,["-q",h.id],{stdio:"ignore"});for(let i of t.readOnlyDirs)for(let c of Jr(i))c===`probe-${r}`&&ve(D(i,c),{force:!0})}}o(gt,"selfCheck");function Jr(e){try{return jr(e)}catch{return[]}}o(Jr,"safeList");function Zr(){let e=T("ipcmk"),t=T("ipcrm");if(!e||!t)return;let r=yt(e,["-Q","-p","0600"],{encoding:"utf8"}),n=/(\d+)\s*$/.exec(r.stdout?.trim()??"")?.[1];return r.status===0&&n?{id:n,ipcrm:t}:void 0}o(Zr,"plantQueue");var ee="/run/lock";function en(e){try{let t=Vr(ee);return t.isDirectory()&&(t.mode&514)===514&&!(e.sharedReadOnly??[]).includes(ee)&&!_(e.workspace,ee)&&!_(ee,e.workspace)}catch{return!1}}o(en,"isSharedLock");import{execFile as tn}from"node:child_process";var rn=4,nn=3e4;function on(e){return e.replace(/[*?[\]\\]/g,"\\$&")}o(on,"literal");function wt(e,t){let r=["/proc","/sys",...t].flatMap((s,a)=>[...a?["-o"]:[],"-path",on(s)]),n=["/","-mindepth","1","-maxdepth",String(rn),"(",...r,")","-prune","-o","-type","d","-perm","-0002","-printf","%m %p\\0","-prune"];return new Promise((s,a)=>{tn(e,n,{env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin",LC_ALL:"C"},encoding:"buffer",timeout:nn,maxBuffer:4<<20},(d,l)=>{if(d&&(d.killed||d.signal||typeof d.code!="number")){a(new v(`the machine's world-writable folders could not be listed: ${d.message}`));return}let p={scratch:[],other:[]};for(let m of l.toString("utf8").split("\0")){let $=m.indexOf(" ");if($<0)continue;let S=parseInt(m.slice(0,$),8),h=m.slice($+1);!h.startsWith("/")||h==="/"||(S&512?p.scratch:p.other).push(h)}s(p)})})}o(wt,"findSharedDirs");var G=o(e=>({kind:"unavailable",reason:e}),"unavailable"),le=["/media","/srv","/mnt","/opt","/run","/var"];function q(e){try{let t=cn(e);return bt(t).isDirectory()?t:void 0}catch{return}}o(q,"realDir");function un(){let e=["unshare","setpriv","mount","umount","mkdir","chown","chmod","find","prlimit","bash","sh","env","kill"],t={};for(let r of e){let n=T(r);if(!n)return`${r} is not installed (${r==="find"?"findutils":r==="bash"||r==="sh"?"a shell":"util-linux / coreutils"})`;t[r]=n}return t}o(un,"resolveBins");async function fn(e,t){let r=Qe(t);if(typeof r=="string")return r;let n="";for(let s of r){let a=await Je(s,e);if(a==="works"||a==="refused")return{tool:s,works:a==="works"};n=a}return n}o(fn,"findKeyring");async function pn(e){try{return await e()}catch(t){if(!(t instanceof v))throw t;return e()}}o(pn,"retryOnce");function mn(e,t,r){let{account:n,root:s}=e,a=new Set([...Te,...t]);return{outputFileMode:420,envOptions:{pass:t,privateDirs:r},wrap(d){let l={};for(let[S,h]of Object.entries(d.env))a.has(S)&&(l[S]=h);l.PATH=Le(l.PATH,r),l.HOME=Z,l.TMPDIR="/tmp",l.USER=n.user,l.LOGNAME=n.user;let p=Number(l.GIT_CONFIG_COUNT??0)||0;l[`GIT_CONFIG_KEY_${p}`]="safe.directory",l[`GIT_CONFIG_VALUE_${p}`]="*",l.GIT_CONFIG_COUNT=String(p+1),Object.assign(l,d.ownEnv);let m=e.overlay?.access;if(!m)return de(e,d.command,d.cwd,l,d.timeoutMs);if(d.readOnlyWorkspace)return de(e,d.command,d.cwd,l,d.timeoutMs,{readOnly:!0});m.verify();let $=m.next++;return{...de(e,d.command,d.cwd,l,d.timeoutMs,{layer:$}),settle:o(()=>m.apply($),"settle")}},signal:o(((d,l)=>{if(!s.viaSudo){try{process.kill(-d,l)}catch{}return}ln(s.prefix[0],[...s.prefix.slice(1),e.bins.kill,"-s",l.replace(/^SIG/,""),"--",`-${d}`],{stdio:"ignore",timeout:1e4})}),"signal")}}o(mn,"makeSandbox");var kt=new Map,xt=new Map;function vt(e,t){let r=xt.get(t);return r||(r=pn(()=>Ue(e.root,t)),r.catch(()=>{}),xt.set(t,r)),r}o(vt,"accountOf");function hn(e=ne,t=[]){let r=[e,...[...t].sort()].join("\0"),n=kt.get(r);return n||(n=(async()=>{if(process.platform!=="linux")return`commands cannot be isolated on ${process.platform}; only Linux is supported`;let s=await Fe();if(typeof s=="string")return`commands cannot run as another user: ${s}`;let a=un();if(typeof a=="string")return`commands cannot be isolated: ${a}`;let[d,l,p]=await Promise.all([L(s,a.unshare,[...ce(!1),"--",a.mount,"-t","tmpfs","patchloop-probe","/tmp"]),$n(s,a),fn(a.sh,t)]);if(d.code!==0)return`no PID and mount namespace for commands here (${N(d.stderr)||`exit ${d.code}`})`;if(typeof p=="string")return`commands cannot be isolated: ${p}`;let m={...a,keyring:p.tool},$={root:s,bins:m,network:l,keyrings:p.works};return vt($,e),$})(),n.catch(()=>{}),kt.set(r,n)),n}o(hn,"probeMachine");async function $n(e,t){let r=T("ip");if(!r)return"ip (iproute2) is not installed, so a command network namespace cannot get its loopback";let n=await L(e,t.unshare,[...ce(!0),"--",r,"link","set","lo","up"]);return n.code!==0?`no network namespace for commands here (${N(n.stderr)||`exit ${n.code}`})`:{ip:r}}o($n,"probeNetwork");async function yn(e,t){let r=an(Pe(dn(),"patchloop-net-"));sn(r,457);try{return{proxy:await pt({hosts:e,socketPath:Pe(r,"proxy.sock"),...t}),dir:r}}catch(n){throw St(r,{recursive:!0,force:!0}),new v(`the network proxy could not be started: ${n.message}`)}}o(yn,"startProxy");async function Qo(e){let t=await gn(e);return t.kind==="isolated"&&await t.ready,t}o(Qo,"createSandbox");async function gn(e){if(e.mode==="off")return G("turned off");if(process.platform!=="linux")return G(`commands cannot be isolated on ${process.platform}; only Linux is supported`);let t=e.env??process.env,r=new Set(e.weaken??[]),n=q(e.workspace);if(!n)throw new v(`the workspace ${e.workspace} is not a folder`);if(n==="/"||n==="/tmp")throw new v(`the workspace cannot be ${n} itself`);let s=await hn(e.user,e.hideBins);if(typeof s=="string")return G(s);let{root:a,bins:d}=s,l=e.network??{kind:"none"},p=l.kind!=="all"&&!r.has("network");if(p&&typeof s.network=="string")return G(s.network);let m=T("setfacl")?"acl":"group",$=e.access??"overlay",S=n.split("/").filter(Boolean),h=S.length>1&&!r.has("hide-above")?`/${S[0]}`:void 0,P=le.map(q).find(x=>x!==void 0&&!(h&&_(x,h))&&!_(n,x)&&!_(x,n));if(!P)throw new v(`none of ${le.join(", ")} can hold the workspace's mounts`);let f=e.hideBins?.includes("perl")?void 0:T("perl"),i=T("rm"),c=ie(),y=f&&i?{find:d.find,perl:f,unshare:d.unshare,mount:d.mount,sh:d.sh,mkdir:d.mkdir,rm:i}:void 0,b=$!=="overlay"?void 0:y?c?dt(a,n,y,P).catch(x=>`the overlay could not be tried: ${x.message}`):Promise.resolve(`Perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}`):Promise.resolve("perl is not installed"),w=V.map(q).filter(x=>x!==void 0&&!_(n,x)&&!_(x,n)),g=[...new Set((e.privateDirs??(t.RUNNER_TEMP?[t.RUNNER_TEMP]:[])).map(q))].filter(x=>x!==void 0&&x!=="/"),E=r.has("private-dirs")?[]:g.filter(x=>!(h&&_(x,h))&&!w.some(B=>_(x,B))&&!_(n,x)),u=Pe(n,".git"),k=(()=>{try{let x=bt(u);return x.isDirectory()||x.isFile()}catch{return!1}})(),A=[...new Set((e.readOnlyDirs??[]).map(q))].filter(x=>x!==void 0&&x!=="/"),I=[...k&&!r.has("read-only-git")?[u]:[],...A],K={...ge,...e.limits},Re=Math.min(K.processes,we().processes??1/0),Pt=(e.commandEnv??[]).filter(Ne),[j,_e]=await Promise.all([vt(s,e.user??ne),b]);if(_e){if(e.access==="overlay")return G(_e);$=m}if($==="acl"&&!T("setfacl"))return G("setfacl (package acl) is not installed");if($==="group"&&a.viaSudo)return G("setfacl (package acl) is needed to share the workspace when not running as root");let M=p&&l.kind==="hosts"?await yn(l.hosts,e.proxyOverride):void 0,Oe=o(async()=>{M&&(await M.proxy.close(),St(M.dir,{recursive:!0,force:!0}))},"closeProxy"),O={root:a,account:j,bins:d,workspace:n,hide:h,hideMode:h&&V.includes(h)?"1777":"0755",stash:P,scratch:w,sticky:V.filter(x=>h&&x!==h&&_(x,h)&&_(n,x)),covered:E,shared:[],sharedReadOnly:[],freshKeyring:s.keyrings&&!r.has("keyring"),keepIpcUts:r.has("ipc-uts"),readOnly:I,limits:r.has("limits")?void 0:K,groupRefresh:$==="group",...p&&typeof s.network!="string"?{network:{ip:s.network.ip,...M?{bridge:{node:process.execPath,socketDir:M.dir}}:{}}}:{}},ue={...mn(O,Pt,g),network:{mark:o(()=>M?.proxy.refusals()??0,"mark"),note:o((x,B)=>He(l,M?M.proxy.refusedSince(x):[],B),"note")}},Ee=!1,Rt={...ue,wrap(x){if(!Ee)throw new v("no command runs before the sandbox self-check has passed");return ue.wrap(x)}},W,fe,pe=(async()=>{await new Promise(R=>setImmediate(R)),O.groupRefresh&&(O.refreshSince=Date.now()-ae);let x=o(R=>($=R,O.groupRefresh=R==="group",O.groupRefresh&&(O.refreshSince=Date.now()-ae),Ye(a,j,n,R).then(C=>W=C)),"openWalks");fe=$==="overlay"&&y&&c?lt(a,n,{...y,chown:d.chown},j.uid).then(R=>{if(typeof R!="string"){O.overlay={perl:y.perl,syscalls:c,access:r.has("cover-private")?{...R,hidden:{folders:[],files:[]}}:R,inPlace:r.has("overlay-in-place")},r.has("apply-follows-links")&&(R.followLinks=!0),W={method:"overlay",revoke:o(()=>R.dispose(),"revoke")};return}if(e.access==="overlay")throw new v(R);if(m==="group"&&a.viaSudo)throw new v(`${R}, and setfacl (package acl) is needed to share it when not running as root`);return x(m)}):x($);let[,B]=await Promise.all([fe,r.has("shared-dirs")?{scratch:[],other:[]}:wt(d.find,[h??n,n,...w,...g,...A])]),te=o(R=>!_(n,R)&&!_(R,n),"apart");if(O.shared=B.scratch.filter(te),O.sharedReadOnly=B.other.filter(te),[...O.shared,...O.sharedReadOnly].some(R=>_(R,P)||_(P,R))){let R=le.map(q).find(C=>C!==void 0&&!(h&&_(C,h))&&!_(n,C)&&!_(C,n)&&![...O.shared,...O.sharedReadOnly].some(Ae=>_(Ae,C)||_(C,Ae)));if(!R)throw new v(`none of ${le.join(", ")} can hold the workspace's mounts apart from the world-writable folders`);O.stash=R}if(e.selfCheck!==!1){let R=o(()=>gt(ue,{uid:j.uid,workspace:n,hasGit:k,privateDirs:g,readOnlyDirs:A,processes:r.has("limits")?void 0:Re,env:t,network:O.network?{proxy:M!==void 0}:void 0,keyring:s.keyrings?d.keyring:void 0,ipcUts:!0,shared:O.shared,sharedReadOnly:O.sharedReadOnly}),"check"),C=await R()&&await R();if(C)throw new v(`the sandbox self-check failed: ${C}`)}Ee=!0})().catch(async x=>{await fe?.catch(()=>{});let B=W;throw W=void 0,await Promise.all([B?.revoke(),Oe()]).catch(te=>{throw new v(`${x.message}; and then: ${te.message}`)}),x});pe.catch(()=>{});let _t=o(()=>[`commands run as user ${j.user} (uid ${j.uid}) in their own PID and mount namespace`,O.keepIpcUts?"":"with their own System V IPC and host name",O.freshKeyring?"a session keyring of their own":"",h?"with everything above the workspace hidden":"",g.length?`${g.join(", ")} hidden`:"",k?".git read-only":"",$==="overlay"?"the workspace as an overlay whose writes patchloop moves in after each command":`${$==="acl"?"ACL":"group"} access to the workspace`,`network: ${O.network?re(l):re({kind:"all"})}`,r.has("limits")?"":`limits of ${Re} processes and ${Math.round(K.fileBytes/1024**2)} MiB per file`].filter(Boolean).join(", "),"describe"),Ot;return{kind:"isolated",sandbox:Rt,get reason(){return _t()},ready:pe,dispose:o(()=>Ot??=pe.then(()=>{let x=W;return W=void 0,Promise.all([x?.revoke(),Oe()]).then(()=>{})},()=>{}),"dispose"),network:{policy:O.network?l:{kind:"all"},refused:o(()=>M?.proxy.refused()??[],"refused")}}}o(gn,"startSandbox");export{xn as a,re as b,Be as c,bn as d,hn as e,Qo as f,gn as g};
