import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{n as Ce}from"./chunk-L5AAVJP4.js";import{D as Ie,k as _,u as Te,v as Ne,w as Le}from"./chunk-LVK2Q2AR.js";import{a as o}from"./chunk-4X7ZATFQ.js";import{BlockList as Me,isIP as Et}from"node:net";var At=/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;function wn(e){let t=e.trim().toLowerCase();if(t===""||t==="none")return{kind:"none"};if(t==="all")return{kind:"all"};let r=t.split(/[,\n]/).map(i=>i.trim().replace(/\.$/,"")).filter(Boolean),n=r.find(i=>!At.test(i));if(n!==void 0)throw new Error(`command-network is none, all, or host names such as registry.npmjs.org or *.pythonhosted.org (comma- or newline-separated); "${n}" is not a host name.`);return{kind:"hosts",hosts:[...new Set(r)]}}o(wn,"parseCommandNetwork");function Y(e){return e.trim().toLowerCase().replace(/^\[(.*)\]$/,"$1").replace(/\.$/,"")}o(Y,"normalHost");function De(e,t){let r=Y(t);return e.some(n=>n.startsWith("*.")?r.endsWith(n.slice(1))&&r.length>n.length-1:r===n)}o(De,"hostAllowed");var[Tt,Nt]=(()=>{let e=new Me,t=new Me,r=[["0.0.0.0",8],["10.0.0.0",8],["100.64.0.0",10],["127.0.0.0",8],["169.254.0.0",16],["172.16.0.0",12],["192.0.0.0",24],["192.0.2.0",24],["192.88.99.0",24],["192.168.0.0",16],["198.18.0.0",15],["198.51.100.0",24],["203.0.113.0",24],["224.0.0.0",3]],n=[["::",96],["64:ff9b:1::",48],["100::",64],["2001::",23],["2001:db8::",32],["2002::",16],["fc00::",7],["fe80::",10],["fec0::",10],["ff00::",8]];for(let[i,c]of r)e.addSubnet(i,c,"ipv4");for(let[i,c]of n)t.addSubnet(i,c,"ipv6");return[e,t]})();function me(e){let t=Et(e);if(t===0)return!1;if(t===4)return!Tt.check(e,"ipv4");let r=/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(e);return r?me(r[1]):/^::ffff:/i.test(e)?!1:!Nt.check(e,"ipv6")}o(me,"isPublicAddress");var Lt=10;function re(e){return e.kind==="none"?"none (each command has its own loopback only)":e.kind==="all"?"all (commands use the runner\u2019s network)":`HTTP and HTTPS to ${e.hosts.join(", ")} only, through patchloop\u2019s proxy`}o(re,"describeNetwork");function He(e,t=Lt){let r=e.slice(0,t).map(n=>n.count>1?`${n.host} (${n.count}\xD7)`:n.host);return e.length>t&&r.push(`and ${e.length-t} more`),r.join(", ")}o(He,"listRefused");function kn(e,t){let r=re(e);return t.length?`${r}; refused: ${He(t)}`:r}o(kn,"networkSummaryLine");var Ct=/ENETUNREACH|EAI_AGAIN|Network is unreachable|Could not resolve host|Temporary failure in name resolution|getaddrinfo ENOTFOUND|Name or service not known/i;function Be(e,t,r){if(e.kind!=="all"){if(t.length)return`[command-network refused ${He(t,5)} (${t[0].reason}). Commands may reach only ${e.kind==="hosts"?e.hosts.join(", "):"their own loopback"}; the workflow's command-network input sets this.]`;if(Ct.test(r))return e.kind==="none"?"[command-network is none: commands have no network but their own loopback, so downloads and outside services fail. The workflow\u2019s command-network input can allow hosts.]":`[command-network allows only HTTP and HTTPS to ${e.hosts.join(", ")}, through the proxy in HTTPS_PROXY / HTTP_PROXY; a program that ignores those variables finds no network.]`}}o(Be,"networkNote");import{chmodSync as nn,lstatSync as bt,mkdtempSync as on,realpathSync as sn,rmSync as St}from"node:fs";import{tmpdir as an}from"node:os";import{spawnSync as cn}from"node:child_process";import{join as Pe}from"node:path";import{chmodSync as Ut,lchownSync as Gt,lstatSync as $e,mkdtempSync as jt,readFileSync as se,realpathSync as Wt,rmSync as Xt,writeFileSync as Vt}from"node:fs";import{tmpdir as qt}from"node:os";import{join as B}from"node:path";var v=class extends Error{static{o(this,"SandboxSetupError")}constructor(t){super(t),this.name="SandboxSetupError"}};import{execFile as It}from"node:child_process";import{existsSync as Mt,readFileSync as Dt,statSync as Ht}from"node:fs";import{join as Bt}from"node:path";var ne="patchloop-sandbox";function F(e,t,r={}){return new Promise(n=>{It(e,t,{cwd:r.cwd,env:r.env??{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"},encoding:"utf8",timeout:r.timeoutMs??12e4,maxBuffer:4<<20},(i,c,d)=>{let l=i?typeof i.code=="number"?i.code:127:0;n({code:l,stdout:String(c),stderr:String(d||(i&&l===127?i.message:""))})})})}o(F,"run");function L(e){return e.trim().split(`
`)[0]??""}o(L,"firstLine");var Kt=["/usr/bin","/bin","/usr/sbin","/sbin"];function T(e){for(let t of Kt){let r=Bt(t,e);try{if(Ht(r).isFile())return r}catch{}}}o(T,"systemBin");async function Fe(){if(process.getuid?.()===0)return{prefix:[],viaSudo:!1};let e=T("sudo");return e?(await F(e,["-n","true"],{timeoutMs:1e4})).code!==0?"not root, and sudo asks for a password":{prefix:[e,"-n","--"],viaSudo:!0}:"not root, and sudo is not installed"}o(Fe,"findRootAccess");function N(e,t,r){return e.prefix.length?F(e.prefix[0],[...e.prefix.slice(1),t,...r]):F(t,r)}o(N,"asRoot");function Ft(e){let t;try{t=Dt("/etc/passwd","utf8")}catch{return}for(let r of t.split(`
`)){let n=r.split(":");if(n[0]!==e||n.length<7)continue;let i=Number(n[2]),c=Number(n[3]);return n[2]===""||n[3]===""||!Number.isInteger(i)||!Number.isInteger(c)?void 0:{user:e,uid:i,gid:c}}}o(Ft,"localAccount");async function Ke(e){let t=Ft(e);if(t)return t;let r=T("getent");if(!r)return;let n=await F(r,["passwd",e]);if(n.code!==0)return;let i=n.stdout.trim().split(":");return{user:e,uid:Number(i[2]),gid:Number(i[3])}}o(Ke,"lookup");async function Ue(e,t){let r=await Ke(t);if(!r){let n=T("useradd");if(!n)throw new v("useradd is not installed, so the sandbox user cannot be created");let i=["/usr/sbin/nologin","/sbin/nologin"].find(d=>Mt(d))??"/bin/false",c=await N(e,n,["--system","--user-group","--no-create-home","--home-dir","/nonexistent","--shell",i,t]);if(r=await Ke(t),!r)throw new v(`could not create user ${t}: ${L(c.stderr)||`exit ${c.code}`}`)}if(!Number.isInteger(r.uid)||r.uid===0||!Number.isInteger(r.gid)||r.gid===0)throw new v(`user ${t} exists but is not an unprivileged user (uid ${r.uid})`);return r}o(Ue,"ensureUser");function Ve(e,t){if(t.code!==0)throw new v(`${e}: ${L(t.stderr)||`exit ${t.code}`}`)}o(Ve,"check");async function oe(e,t){(await t()).code!==0&&Ve(e,await t())}o(oe,"twice");var Yt=["-type","f","-links","1","-perm","-004"],zt=["-type","f","(","-links","+1","-o","!","-perm","-004",")"],qe=o(e=>["-type","d","!","-perm","-001","!","-samefile",e],"privateFolder");function X(e){let t=T(e);if(!t)throw new v(`${e} is not installed`);return t}o(X,"need");var Ge=3130;function z(e,t,r,n,i){return N(e,t,["-c",'f=$1; shift; exec "$@" > "$f"',"patchloop-walk",r,n,...i])}o(z,"toFile");var he=o((e,t)=>["-type","d","!","-perm","-001","!","-user",String(t),"!","-samefile",e,"-prune"],"closedFolder"),Qt=o(e=>e.replace(/\\([0-7]{3})/g,(t,r)=>String.fromCharCode(parseInt(r,8))),"unescapeAcl");function je(e){let t=[];for(let r of e.split(`

`)){let n=/^# file: (.*)$/m.exec(r);n&&t.push({path:Qt(n[1]),text:r.trim()})}return t}o(je,"aclBlocks");function We(e){let t=Buffer.from(e,"latin1");try{return $e(t).isSymbolicLink()?!1:Wt(t,{encoding:"buffer"}).equals(t)}catch{return!1}}o(We,"leadsToItself");function Xe(e){let t=new Map;for(let r of e.split("\0")){let n=/^(\d+) ([0-7]+) (\d+) (\w) ([^]*)$/.exec(r);n&&t.set(n[5],{ino:BigInt(n[1]),mode:parseInt(n[2],8),gid:Number(n[3]),type:n[4]})}return t}o(Xe,"marks");function ye(e){Xt(e,{recursive:!0,force:!0})}o(ye,"cleanup");async function Ye(e,t,r,n){let i=B(r,".git"),c=(()=>{try{return $e(i).isDirectory()}catch{return!1}})();if(n==="group"&&e.viaSudo)throw new v("setfacl (package acl) is needed to share the workspace when not running as root");let d=X("find"),l=X("sh"),f=jt(B(qt(),"patchloop-access-"));try{return n==="acl"?await Jt(e,t,r,i,c,{find:d,sh:l,dir:f}):await Zt(e,t,r,i,c,{find:d,sh:l,dir:f})}catch(h){throw ye(f),h}}o(Ye,"openWorkspace");async function Jt(e,t,r,n,i,{find:c,sh:d,dir:l}){let f=X("setfacl"),h=X("getfacl"),$=t.user,S=B(l,"before.acl");await oe("could not read the workspace's ACLs",()=>z(e,d,S,c,[r,...he(r,t.uid),"-o","!","-type","l","-exec",h,"-s","-P","-p","--","{}","+"]));let m=o(async()=>{try{let a=B(l,"linked.acl"),y=await z(e,d,a,c,[r,...he(r,t.uid),"-o","-type","f","-links","+1","-exec",h,"-s","-P","-p","--","{}","+","-o","!","-type","l","-exec",f,"-P","-b","--","{}","+"]),b=[];y.code!==0&&b.push(L(y.stderr)||`exit ${y.code}`);let w=new RegExp(`^(default:)?user:${$.replace(/[.*+?^${}()|[\]\\]/g,"\\$&")}:`,"m"),g=je(se(a,"latin1")).filter(u=>w.test(u.text)&&We(u.path)).map(u=>u.path);for(let u=0;u<g.length;u+=500){let k=await N(e,f,["-P","-b","--",...g.slice(u,u+500)]);k.code!==0&&b.push(L(k.stderr)||`exit ${k.code}`)}let E=je(se(S,"latin1")).filter(u=>We(u.path));if(E.length){let u=B(l,"restore.acl");Vt(u,E.map(A=>A.text).join(`

`)+`

`,{encoding:"latin1",mode:384});let k=await N(e,f,[`--restore=${u}`]);k.code!==0&&b.push(L(k.stderr)||`exit ${k.code}`)}if(b.length)throw new v(`the workspace's ACLs were not all put back: ${b[0]}`)}finally{ye(l)}},"revoke"),P=process.getuid?.()??0,p=P===0?"":`,d:u:${P}:rwX`,s=o((a,y,b)=>N(e,c,[a,...b,...qe(a),"-prune","-o","-type","d","-exec",f,"-P","-m",`u:${$}:${y},d:u:${$}:${y}${p},d:o::rX`,"{}","+","-o",...Yt,"-exec",f,"-P","-m",`u:${$}:${y}`,"{}","+"]),"grant");try{await oe(`could not open the workspace to ${$}`,()=>s(r,"rwX",["-path",n,"-prune","-o"])),i&&await oe(`could not make .git read-only to ${$}`,()=>s(n,"rX",[]))}catch(a){throw await m().catch(()=>{}),a}return{method:"acl",revoke:m}}o(Jt,"openAcl");async function Zt(e,t,r,n,i,{find:c,sh:d,dir:l}){let f=X("chmod"),h=X("chown"),$=String(t.gid),S=["-printf","%i %m %G %y %p\\0"],m=o(a=>z(e,d,a,c,[r,...S,"(","-path",n,"-prune","-o",...zt,"-prune","-o",...qe(r),"-prune","-o","!","-group",$,"-exec",h,"-h",`:${$}`,"{}","+","-false","-o","-type","d","!","-perm","-2070","-exec",f,"g+rwxs","{}","+","-o","!","-type","d","!","-type","l","!","-perm","-060","-exec",f,"g+rw","{}","+",")"]),"open"),P=o(a=>z(e,d,a,c,[n,"!","-type","l","-perm","-002",...S,"-exec",f,"o-w","{}","+"]),"closeGit"),p=[],s=o(async()=>{try{await er(e,t,r,c,d,l,p)}finally{ye(l)}},"revoke");try{if(await oe(`could not give the workspace to group ${t.user}`,()=>{let a=B(l,`open-${p.length}`);return p.push(a),m(a)}),i){let a=B(l,"git");p.push(a),Ve("could not make .git read-only to others",await P(a))}}catch(a){throw await s().catch(()=>{}),a}return{method:"group",revoke:s}}o(Zt,"openGroup");async function er(e,t,r,n,i,c,d){let l=new Map;for(let p of d){let s;try{s=se(p,"latin1")}catch{continue}for(let[a,y]of Xe(s))l.has(a)||l.set(a,y)}let f=B(c,"after"),h=await z(e,i,f,n,[r,...he(r,t.uid),"-printf","%i %m %G %y %p\\0","-o","-printf","%i %m %G %y %p\\0"]),$=[];h.code!==0&&$.push(L(h.stderr)||`exit ${h.code}`);let S=$e(r),m=new Map,P=o(p=>p.slice(0,p.lastIndexOf("/"))||"/","parentOf");for(let[p,s]of Xe(se(f,"latin1"))){let a=l.get(p),y=Buffer.from(p,"latin1"),b=s.gid,w=s.mode;a&&a.ino===s.ino?(b=a.gid,w=s.mode&~Ge|a.mode&Ge):s.gid===t.gid&&(b=m.get(P(p))??(a?a.gid:S.gid),s.type==="d"&&!(a&&a.mode&1024)&&(w=s.mode&-1025));try{b!==s.gid&&Gt(y,-1,b),s.type!=="l"&&(w!==s.mode||b!==s.gid)&&Ut(y,w)}catch(g){g.code!=="ENOENT"&&$.push(`${p}: ${g.message}`)}s.type==="d"&&m.set(p,b)}if($.length)throw new v(`the workspace's groups and modes were not all put back (${$.length}): ${$[0]}`)}o(er,"restoreGroup");import{spawnSync as ze}from"node:child_process";var tr={x64:{keyctl:250,addKey:248,arch:"x86_64"},arm64:{keyctl:219,addKey:217,arch:"aarch64"}},Q=["-t","-X"],rr=String.raw`my $nr = 0 + shift @ARGV;
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
exit(syscall(0 + $nr, 9, 0 + $id, -3) == 0 ? 0 : 1);`,cr=new Set([1,38]);function Qe(e=[]){let t=[],r=e.includes("perl")?void 0:T("perl"),n=tr[process.arch];r&&n&&t.push({kind:"perl",perl:r,...n});let i=e.includes("keyctl")?void 0:T("keyctl");return i&&t.push({kind:"keyctl",keyctl:i}),t.length?t:r?`keyctl is not installed (keyutils), and perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}: each command gets a keyring of its own with one of them`:"neither perl nor keyctl is installed (perl-base or keyutils): each command gets a keyring of its own with one of them"}o(Qe,"findKeyringTools");async function Je(e,t){if(e.kind==="keyctl")return(await F(e.keyctl,["session","-",t,"-c","exit 0"])).code===0?"works":"refused";let r=await F(e.perl,[...Q,"-e",or,"--",String(e.keyctl),e.arch]);return r.code===0?"works":r.code===4&&cr.has(Number(r.stdout.trim()))?"refused":r.code===3?`${e.perl} is not a 64-bit ${e.arch} perl`:`${e.perl} could not join a session keyring (exit ${r.code}${r.stdout.trim()?`, errno ${r.stdout.trim()}`:""})`}o(Je,"probeKeyrings");function Ze(e,t){return e.kind==="perl"?[e.perl,...Q,"-e",rr,"--",String(e.keyctl)]:[t,"-c",nr,"patchloop-keyring",e.keyctl,t]}o(Ze,"keyringStep");var et={PATH:"/usr/sbin:/usr/bin:/sbin:/bin"};function tt(e,t,r){let[n,i]=e.kind==="perl"?[e.perl,[...Q,"-e",sr,"--",String(e.addKey),t]]:[e.keyctl,["padd","user",t,"@s"]],c=ze(n,i,{input:r,encoding:"utf8",env:et,timeout:1e4}),d=c.stdout?.trim();return c.status===0&&/^\d+$/.test(d??"")?d:void 0}o(tt,"plantKey");function rt(e,t){let[r,n]=e.kind==="perl"?[e.perl,[...Q,"-e",ar,"--",String(e.keyctl),t]]:[e.keyctl,["unlink",t,"@s"]];ze(r,n,{stdio:"ignore",env:et,timeout:1e4})}o(rt,"unlinkKey");function nt(e,t,r){return e.kind==="perl"?[[e.perl,...Q,"-e",ir,"--",String(e.keyctl),t,r]]:[[e.keyctl,"print",t],[e.keyctl,"search","@s","user",r]]}o(nt,"keyLookup");import{join as wr}from"node:path";import{readFileSync as dr}from"node:fs";var ge={processes:1024,dataBytes:8*1024**3,fileBytes:2*1024**3,openFiles:8192},lr=3600,ur={processes:"Max processes",dataBytes:"Max data size",fileBytes:"Max file size",openFiles:"Max open files",cpuSeconds:"Max cpu time"};function we(e){let t=e;if(t===void 0)try{t=dr("/proc/self/limits","latin1")}catch{return{}}let r={};for(let[n,i]of Object.entries(ur)){let d=t.split(`
`).find(l=>l.startsWith(i))?.slice(i.length).trim().split(/\s+/)[1];d&&(r[n]=d==="unlimited"?1/0:Number(d))}return r}o(we,"currentHardLimits");function ot(e,t,r=we()){let n=e.cpuSeconds??(t!==void 0&&t>0?Math.ceil(t/1e3):lr),i=o((c,d)=>String(Math.max(1,Math.floor(Math.min(d,r[c]??1/0)))),"n");return[`--nproc=${i("processes",e.processes)}`,`--data=${i("dataBytes",e.dataBytes)}`,`--fsize=${i("fileBytes",e.fileBytes)}`,`--nofile=${i("openFiles",e.openFiles)}`,`--cpu=${i("cpuSeconds",n)}`]}o(ot,"prlimitArgs");import{lstatSync as J,mkdtempSync as it,readdirSync as pr,realpathSync as fr,rmSync as mr}from"node:fs";import{availableParallelism as hr,tmpdir as at}from"node:os";import{join as U}from"node:path";var $r={x64:{unshare:272,lgetxattr:192,lremovexattr:198,fchownat:260,mknodat:259,mount:165},arm64:{unshare:97,lgetxattr:9,lremovexattr:15,fchownat:54,mknodat:33,mount:40}};function ie(){return $r[process.arch]}o(ie,"overlaySyscalls");var xe=String.raw`use strict;
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
exit 0;`,yr=String.raw`use strict;
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
exit 0;`,ct=["-t","-X"],st=5e3,ke=/^[^,:\\\s]+$/;async function dt(e,t,r,n){let i=ie();if(!i)return`Perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}`;if(!ke.test(n))return`${n} cannot be named in the overlay's options`;let c=J(t),d=it(U(at(),"patchloop-overlay-probe-"));try{if(!ke.test(d))return`${d} cannot be named in the overlay's options`;let l=await N(e,r.unshare,["--mount","--propagation","private","--",r.perl,...ct,"-e",xe,"--","overlay",String(i.unshare),String(i.mount),t,d,U(d,"layer"),String(c.uid),"65534",String(c.gid),"65534","0","0"]);return l.code===0?void 0:`no idmapped overlay of the workspace here (${L(l.stderr)||`exit ${l.code}`})`}finally{await N(e,r.rm,["-rf","--",d])}}o(dt,"tryOverlay");async function lt(e,t,r,n){let i=ie();if(!i)return`Perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}`;let c=J(t),d={uid:c.uid,gid:c.gid},l=U(t,".git"),f=o(()=>["-type","d","!","-perm","-001","-prune","-printf","d%p\\0","-o","-type","f","!","-perm","-004","-printf","f%p\\0","-o","-user",String(n),"-printf","u%p\\0"],"tests"),h=o(async u=>{let k=await N(e,r.find,u);if(k.code!==0)throw new v(`could not list the workspace's private paths: ${L(k.stderr)||`exit ${k.code}`}`);return k.stdout},"walk"),$=t.replace(/[[\]*?\\]/g,"\\$&"),S=await h([t,"-maxdepth","2","(","-path",l,"-prune","-o","-samefile",t,"-o","-path",`${$}/*/*`,"-type","d","-perm","-001","-printf","r%p\\0","-o",...f(),")"]),m=S.split("\0").filter(u=>u[0]==="r").map(u=>u.slice(1)),P=Math.max(1,Math.min(hr(),8,m.length)),p=await Promise.all(Array.from({length:m.length?P:0},(u,k)=>h([...m.filter((A,I)=>I%P===k),...f()]))),s={stdout:[S,...p].join("\0")},a=new Map,y=s.stdout.split("\0").filter(Boolean),b=y.filter(u=>u[0]==="u").map(u=>u.slice(1));for(let u=0;u<b.length;u+=500){let k=await N(e,r.chown,["-h","--",`${d.uid}:${d.gid}`,...b.slice(u,u+500)]);if(k.code!==0)throw new v(`could not give an earlier run's files back to the checkout's owner: ${L(k.stderr)||`exit ${k.code}`}`)}for(let u of y){if(u[0]!=="d"&&u[0]!=="f")continue;let k=u.slice(1);try{let A=J(k);a.set(k,{dev:A.dev,ino:A.ino,folder:u[0]==="d"})}catch{}}if(a.size>st)return`the workspace holds ${a.size} paths others may not read (more than ${st})`;let w=it(U(at(),"patchloop-overlay-"));if(!ke.test(w))return mr(w,{recursive:!0,force:!0}),`${w} cannot be named in the overlay's options`;let g=o(u=>u.slice(t.length+1),"relative"),E={owner:d,hidden:{folders:[...a].filter(([,u])=>u.folder).map(([u])=>u),files:[...a].filter(([,u])=>!u.folder).map(([u])=>u)},state:w,next:0,verify(){for(let[u,k]of a){let A;try{let I=J(u);A=I.dev===k.dev&&I.ino===k.ino&&fr(u)===u}catch{A=!gr(u)}if(!A)throw new v(`${g(u)} is no longer the private path the set-up covered`)}},async apply(u){let k=U(w,String(u));try{if(pr(U(k,"up")).length===0)return}catch{}let A=await N(e,r.perl,[...ct,"-e",yr,"--",String(i.lgetxattr),String(i.lremovexattr),String(i.fchownat),String(i.mknodat),E.followLinks?"1":"0",U(k,"up"),t,String(d.uid),String(d.gid),k,String(a.size),...[...a.keys()].map(g)]);if(A.code!==0)return`what the command wrote could not be moved into the workspace (${L(A.stderr)||`exit ${A.code}`}); it is kept in ${k}`;let I=A.stdout.split(`
`).filter(K=>K.startsWith("error ")).map(K=>K.slice(6));if(I.length)return`${I.length} of the command's changes could not be moved into the workspace (kept in ${k}): ${I.slice(0,5).join("; ")}`},async dispose(){await N(e,r.rm,["-rf","--",w])}};return E}o(lt,"openOverlay");function gr(e){try{return J(e),!0}catch{return!1}}o(gr,"existsQuiet");var Z="/tmp/home",V=["/tmp","/var/tmp","/dev/shm"],kr=String.raw`set -eu
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
exec "$@"`,xr=String.raw`g=$1 find=$2 chown=$3 chmod=$4 ws=$5; shift 5
f='{''}'
exec "$find" "$@" -mindepth 1 -maxdepth 1 -path "$ws/.git" -prune -o -type f \( -links +1 -o ! -perm -004 \) -prune -o -type d ! -perm -001 ! -samefile "$ws" -prune -o ! -group "$g" -exec "$chown" -h ":$g" "$f" + -false -o -type d ! -perm -2070 -exec "$chmod" g+rwxs "$f" + -o ! -type d ! -type l ! -perm -060 -exec "$chmod" g+rw "$f" +`,br=String.raw`ws=$1 g=$2 find=$3 chown=$4 chmod=$5 sh=$6 since=$7 step=$8; shift 8
umask 002
"$find" "$ws" -path "$ws/.git" -prune -o -type d ! -perm -001 ! -samefile "$ws" -prune -o -type d -newermt "@$since" -exec "$sh" -c "$step" patchloop-refresh "$g" "$find" "$chown" "$chmod" "$ws" {} + 2>/dev/null || :
exec "$@"`,ae=2e3,Sr=['for f in /proc/self/fd/*; do n=${f##*/}; [ "$n" -gt 2 ] && exec {n}>&-; done',"umask 002","exec 3>&2 2>/dev/null","set -m",`trap 'kill -TERM -- -"$c"' TERM INT HUP`,'"$2" -c "$1" 0<&0 2>&3 3>&- &',"c=$!",'while :; do wait "$c"; s=$?; kill -0 "$c" 2>/dev/null || exit "$s"; done'].join(`
`),ut=["--pid","--fork","--kill-child","--mount","--mount-proc","--propagation","private","--ipc","--uts"],vr="--net";function ce(e){return e?[...ut,vr]:[...ut]}o(ce,"namespaceOptions");var Pr=String.raw`const net = require('net'), fs = require('fs');
process.setgroups([]); process.setgid(Number(process.argv[2])); process.setuid(Number(process.argv[1]));
const server = net.createServer((c) => {
  const u = net.connect('proxy.sock');
  c.on('error', () => u.destroy()); u.on('error', () => c.destroy());
  c.pipe(u); u.pipe(c);
});
server.listen(0, '127.0.0.1', () => fs.writeSync(1, server.address().port + '\n'));`,Rr=String.raw`set -eu
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
exec "$@"`;function _r(e){let t=e.network;if(!t)return[];let{bins:r,account:n}=e;return[r.bash,"-c",Rr,"patchloop-network",t.ip,r.env,t.bridge?.node??"",t.bridge?.socketDir??"/",String(n.uid),String(n.gid),Pr]}o(_r,"networkStep");function Or(e,t,r,n,i={}){let{bins:c,account:d}=e,l=e.overlay,f=l!==void 0&&i.layer!==void 0&&!i.readOnly,h=f?l.access.hidden:{folders:[],files:[]},$=h.folders.length+h.files.length,S=[c.setpriv,"--pdeathsig","KILL","--",c.unshare,...ce(e.network!==void 0).filter(m=>!e.keepIpcUts||m!=="--ipc"&&m!=="--uts"),"--",..._r(e),c.sh,"-c",kr,"patchloop-prelude",c.mount,c.umount,c.mkdir,c.chown,c.chmod,e.workspace,e.hide??"",e.hideMode,e.stash,`${d.uid}:${d.gid}`,Z,r,f?l.inPlace?"in-place":"overlay":i.readOnly?"read-only":"shared",l?.perl??"",xe,String(l?.syscalls.unshare??0),String(l?.syscalls.mount??0),f?wr(l.access.state,String(i.layer)):"",String(l?.access.owner.uid??0),String(l?.access.owner.gid??0),String(e.readOnly.length),...e.readOnly,String($+2),String(h.folders.length),String(h.files.length),...h.folders,...h.files,String(e.sticky.length),...e.sticky,String(e.scratch.length),...e.scratch,String(e.covered.length),...e.covered,String(e.shared.length),...e.shared,String(e.sharedReadOnly.length),...e.sharedReadOnly,...e.readOnly];return e.groupRefresh&&S.push(c.sh,"-c",br,"patchloop-refresh",e.workspace,String(d.gid),c.find,c.chown,c.chmod,c.sh,((e.refreshSince??0)/1e3).toFixed(3),xr),e.limits&&S.push(c.prlimit,...ot(e.limits,n),"--"),S.push(c.setpriv,"--reuid",String(d.uid),"--regid",String(d.gid),"--clear-groups","--no-new-privs","--inh-caps=-all","--bounding-set=-all","--"),e.freshKeyring&&S.push(...Ze(c.keyring,c.sh)),S.push(c.bash,"-c",Sr,"patchloop-init",t,c.bash),S}o(Or,"commandArgv");function de(e,t,r,n,i,c={}){let d=Or(e,t,r,i,c);if(e.groupRefresh&&(e.refreshSince=Date.now()-ae),!e.root.viaSudo)return{file:d[0],args:d.slice(1),env:n};let l=Object.entries(n).map(([f,h])=>`${f}=${h}`);return{file:e.root.prefix[0],args:[...e.root.prefix.slice(1),e.bins.env,"-i",...l,...d],env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"}}}o(de,"launch");import{chmodSync as Er}from"node:fs";import{createServer as Ar,request as Tr}from"node:http";import{lookup as Nr}from"node:dns/promises";import{connect as Lr,isIP as Cr}from"node:net";var Ir=new Set([80,443]),pt=3e4,Mr=200,be=1e4,Dr=o(async(e,t)=>Cr(e)?[{address:e,port:t}]:(await Nr(e,{all:!0,verbatim:!0})).map(n=>({address:n.address,port:t})),"systemResolver");function Se(e){return/^[a-z0-9.:-]{1,253}$/.test(e)?e:"(a malformed destination)"}o(Se,"recordable");function Hr(e){let t=/^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):(\d{1,5})$/.exec(e);if(t)return{host:Y(t[1]),port:Number(t[2])}}o(Hr,"splitAuthority");async function ft(e){let t=e.resolve??Dr,r=e.addressAllowed??me,n=e.hosts.map(Y),i=new Map,c=[],d=0,l=new Set,f=o((p,s)=>{let a=Se(p);!i.has(a)&&i.size>=Mr&&(a="(other hosts)");let y=i.get(a)??{host:a,reason:s,count:0};return y.count++,i.set(a,y),c.push(a),c.length>be&&(d+=c.length-be/2,c=c.slice(-be/2)),e.onRefused?.(a,s),{ok:!1,reason:s}},"refuse"),h=o(async(p,s)=>{if(!p)return f("(a malformed destination)","not a host name");if(!De(n,p))return f(p,"not in command-network");if(!Ir.has(s))return f(`${p}:${s}`,"only ports 80 and 443 are allowed");let a;try{a=await t(p,s)}catch{return{ok:!1,reason:`${p} could not be resolved`}}let y=a.filter(b=>r(b.address));return y.length?{ok:!0,targets:y}:f(p,"it resolves to a loopback, private or link-local address")},"decide"),$=o(p=>new Promise((s,a)=>{let y=o((b,w)=>{let g=p[b];if(!g)return a(w??new Error("no address"));let E=Lr({host:g.address,port:g.port});E.setTimeout(pt,()=>E.destroy(new Error("connect timeout"))),E.once("connect",()=>{E.setTimeout(0),s(E)}),E.once("error",u=>y(b+1,u))},"next");y(0)}),"open"),S=o(p=>{l.add(p),p.once("close",()=>l.delete(p))},"track"),m=Ar();m.on("connection",S),m.on("connect",(p,s,a)=>{s.on("error",()=>{});let y=Hr(p.url??"");(async()=>{let b=y?await h(y.host,y.port):f("","not a host name");if(!b.ok){let g=b.reason.includes("resolved")?"502 Bad Gateway":"403 Forbidden";s.end(`HTTP/1.1 ${g}\r
Content-Type: text/plain\r
Connection: close\r
\r
patchloop command-network: ${y?Se(y.host):"this destination"} is refused (${b.reason}).
`);return}let w;try{w=await $(b.targets)}catch(g){s.end(`HTTP/1.1 502 Bad Gateway\r
Connection: close\r
\r
${g.message}
`);return}S(w),w.on("error",()=>s.destroy()),s.on("error",()=>w.destroy()),s.on("close",()=>w.destroy()),w.on("close",()=>s.destroy()),s.write(`HTTP/1.1 200 Connection Established\r
\r
`),a.length&&w.write(a),w.pipe(s),s.pipe(w)})()}),m.on("request",(p,s)=>{(async()=>{let a;try{a=new URL(p.url??"")}catch{a=void 0}if(!a||a.protocol!=="http:"){f("","not an absolute http:// request"),s.writeHead(400,{"content-type":"text/plain"}).end(`patchloop command-network: the proxy takes CONNECT host:443 and absolute http:// requests only.
`);return}let y=Y(a.hostname),b=a.port?Number(a.port):80,w=await h(y,b);if(!w.ok){s.writeHead(w.reason.includes("resolved")?502:403,{"content-type":"text/plain"}).end(`patchloop command-network: ${Se(y)} is refused (${w.reason}).
`);return}let g={...p.headers};for(let k of["proxy-authorization","proxy-connection","connection","keep-alive"])delete g[k];let E=w.targets[0],u=Tr({host:E.address,port:E.port,method:p.method,path:`${a.pathname}${a.search}`,headers:{...g,host:a.host},setHost:!1});u.setTimeout(pt,()=>u.destroy(new Error("timeout"))),u.on("response",k=>{s.writeHead(k.statusCode??502,k.headers),k.pipe(s)}),u.on("error",k=>{s.headersSent?s.destroy():s.writeHead(502,{"content-type":"text/plain"}).end(`${k.message}
`)}),p.pipe(u)})()}),m.on("clientError",(p,s)=>{p.code!=="ECONNRESET"&&s.writable?(f("","not a valid request"),s.end(`HTTP/1.1 400 Bad Request\r
Connection: close\r
\r
`)):s.destroy()}),await new Promise((p,s)=>{m.once("error",s),m.listen(e.socketPath,()=>{m.off("error",s),p()})}),Er(e.socketPath,438);let P=o(p=>{let s=new Map;for(let a of p){let y=s.get(a)??{host:a,reason:i.get(a)?.reason??"",count:0};y.count++,s.set(a,y)}return[...s.values()]},"dedupe");return{socketPath:e.socketPath,refused:o(()=>[...i.values()].map(p=>({...p})),"refused"),refusals:o(()=>d+c.length,"refusals"),refusedSince:o(p=>P(c.slice(Math.max(0,p-d))),"refusedSince"),close:o(()=>new Promise(p=>{for(let s of l)s.destroy();m.close(()=>p())}),"close")}}o(ft,"startNetworkProxy");import{spawnSync as yt}from"node:child_process";import{createHash as Br,randomBytes as Kr}from"node:crypto";import{existsSync as Fr,readdirSync as Ur,readFileSync as Gr,readlinkSync as jr,rmSync as ve,statSync as Wr,writeFileSync as mt}from"node:fs";import{createServer as Xr}from"node:net";import{dirname as ht,join as D,relative as Vr,sep as qr}from"node:path";function Yr(){return new Promise((e,t)=>{let r=Xr(n=>n.destroy());r.once("error",t),r.listen(0,"127.0.0.1",()=>{let n=r.address();e({port:typeof n=="object"&&n?n.port:0,server:r})})})}o(Yr,"hostListener");var $t="PATCHLOOP_SELF_CHECK_SECRET";async function gt(e,t){let r=Kr(6).toString("hex"),n=`s3cret-${r}`,i=Ie,c=[];for(let s of t.privateDirs){let a=D(s,`.patchloop-probe-${r}`);try{mt(a,n,{mode:420,flag:"wx"}),c.push(a)}catch{}}let d=t.network?await Yr():void 0,l=t.shared?[...new Set([...t.shared,...Jr(t)?[ee]:[]])]:[],f=t.sharedReadOnly??[],h=`.patchloop-probe-${r}`,$=`patchloop-probe-${r}`,S=t.keyring?tt(t.keyring,$,n):void 0,m=t.ipcUts?Qr():void 0;for(let s of l){let a=D(s,h);try{mt(a,n,{mode:420,flag:"wx"}),c.push(a)}catch{}}let P=['echo "uid $(id -u)"',`if h=$({ sha256sum < /proc/${process.pid}/environ; } 2>/dev/null); then echo "environ $h"; fi`,`f=.patchloop-probe-${r}; if { : > "$f"; } 2>/dev/null && rm -f "$f"; then echo workspace-writable; fi`,t.processes===void 0?":":`[ "$(ulimit -u)" = ${t.processes} ] || echo "nproc $(ulimit -u)"`,`if printenv ${$t} >/dev/null; then echo env-secret-visible; fi`];if(S&&t.keyring){let s=nt(t.keyring,S,$).map(a=>`${a.map(i).join(" ")} >/dev/null 2>&1`);P.push(`if ${s.join(" || ")}; then echo keyring-shared; fi`)}t.ipcUts&&P.push('echo "ns-ipc $(readlink /proc/self/ns/ipc)"','echo "ns-uts $(readlink /proc/self/ns/uts)"','if [ -r /proc/sysvipc/msg ] && [ "$(wc -l < /proc/sysvipc/msg)" -gt 1 ]; then echo ipc-visible; fi');for(let s of l)P.push(`if [ -e ${i(D(s,h))} ]; then echo shared-visible ${i(s)}; fi`,`{ : > ${i(D(s,`${h}-left`))}; } 2>/dev/null || echo shared-unwritable ${i(s)}`);for(let s of f)P.push(`if { : > ${i(D(s,`${h}-left`))}; } 2>/dev/null; then echo shared-writable ${i(s)}; fi`);t.hasGit&&P.push(`if mv .git .git-probe-${r} 2>/dev/null; then mv .git-probe-${r} .git; echo git-renamed; fi`,`if [ -d .git ] && { : > .git/probe-${r}; } 2>/dev/null; then rm -f .git/probe-${r}; echo git-written; fi`,"if [ -f .git ] && { : >> .git; } 2>/dev/null; then echo git-written; fi");let p=o((s,a)=>{let b=["''",...[t.workspace,Z,...V,...t.readOnlyDirs].filter(w=>w!==s&&_(w,s)).map(w=>Vr(s,w).split(qr)[0]).map(i)].join("|");return`ls -A ${i(s)} 2>/dev/null | while IFS= read -r n; do case "$n" in ${b}) ;; *) echo ${a} ${i(s)}/"$n";; esac; done`},"onlyWays");d&&P.push('while IFS=: read -r n _; do n=$(printf %s $n); case "$n" in lo|Inter-*|face*) ;; *) echo "interface-visible $n";; esac; done < /proc/net/dev',`if (exec 3<>/dev/tcp/127.0.0.1/${d.port}) 2>/dev/null; then echo host-loopback-reachable; fi`,'case "$( (exec 3<>/dev/tcp/127.0.0.1/1) 2>&1)" in *refused*) ;; *) echo loopback-down;; esac',t.network?.proxy?'case "${HTTPS_PROXY:-}" in http://127.0.0.1:*) (exec 3<>/dev/tcp/127.0.0.1/"${HTTPS_PROXY##*:}") 2>/dev/null || echo proxy-unreachable;; *) echo proxy-unset;; esac':'[ -z "${HTTPS_PROXY:-}" ] || echo proxy-set');for(let s=ht(t.workspace);s!=="/";s=ht(s))P.push(p(s,"above-visible"));for(let s of t.privateDirs)P.push(p(s,"private-visible"));for(let s of t.readOnlyDirs)P.push(`ls ${i(s)} >/dev/null 2>&1 || echo read-only-unreadable ${i(s)}`,`if { : > ${i(D(s,`probe-${r}`))}; } 2>/dev/null; then echo read-only-writable ${i(s)}; fi`);try{if(t.keyring&&!S)return"a key could not be put in patchloop's session keyring to probe with";let s=await Ce({command:P.join(`
`),cwd:t.workspace,env:{...t.env,[$t]:n},sandbox:e,timeoutMs:3e4}),a=s.text.trim().split(`
`);if(s.exitCode!==0||s.spawnError)return`the probe command failed (${s.spawnError??`exit ${s.exitCode??s.signal}`}): ${a.slice(-3).join(" / ")}`;if(a[0]!==`uid ${t.uid}`)return`the probe ran as ${a[0]??"nobody"}, not uid ${t.uid}`;let y=Br("sha256").update(Gr("/proc/self/environ")).digest("hex");if(a.some(g=>g.startsWith("environ ")&&g.includes(y)))return"the probe could read patchloop's /proc/<pid>/environ";if(!a.includes("workspace-writable"))return"the probe could not write in the workspace";if(s.text.includes(n))return"the probe saw a value it must not see";for(let g of t.ipcUts?["ipc","uts"]:[]){let E=a.find(u=>u.startsWith(`ns-${g} `))?.slice(`ns-${g} `.length);if(!E?.startsWith(`${g}:[`))return`the probe could not tell its ${g} namespace`;if(E===jr(`/proc/self/ns/${g}`))return`the probe shares patchloop's ${g==="ipc"?"System V IPC":"host name"} namespace`}let b=[...l,...f].map(g=>D(g,`${h}-left`)).filter(g=>Fr(g));if(b.length)return`the probe left ${b.join(", ")} behind, outside its namespace`;let w=a.filter(g=>!g.startsWith("uid ")&&!g.startsWith("environ ")&&!g.startsWith("ns-")&&g!=="workspace-writable");return w.length?`the probe found: ${w.join("; ")}`:void 0}finally{d?.server.close();for(let s of c)ve(s,{force:!0});for(let s of[...l,...f])ve(D(s,`${h}-left`),{force:!0});S&&t.keyring&&rt(t.keyring,S),m&&yt(m.ipcrm,["-q",m.id],{stdio:"ignore"});for(let s of t.readOnlyDirs)for(let a of zr(s))a===`probe-${r}`&&ve(D(s,a),{force:!0})}}o(gt,"selfCheck");function zr(e){try{return Ur(e)}catch{return[]}}o(zr,"safeList");function Qr(){let e=T("ipcmk"),t=T("ipcrm");if(!e||!t)return;let r=yt(e,["-Q","-p","0600"],{encoding:"utf8"}),n=/(\d+)\s*$/.exec(r.stdout?.trim()??"")?.[1];return r.status===0&&n?{id:n,ipcrm:t}:void 0}o(Qr,"plantQueue");var ee="/run/lock";function Jr(e){try{let t=Wr(ee);return t.isDirectory()&&(t.mode&514)===514&&!(e.sharedReadOnly??[]).includes(ee)&&!_(e.workspace,ee)&&!_(ee,e.workspace)}catch{return!1}}o(Jr,"isSharedLock");import{execFile as Zr}from"node:child_process";var en=4,tn=3e4;function rn(e){return e.replace(/[*?[\]\\]/g,"\\$&")}o(rn,"literal");function wt(e,t){let r=["/proc","/sys",...t].flatMap((i,c)=>[...c?["-o"]:[],"-path",rn(i)]),n=["/","-mindepth","1","-maxdepth",String(en),"(",...r,")","-prune","-o","-type","d","-perm","-0002","-printf","%m %p\\0","-prune"];return new Promise((i,c)=>{Zr(e,n,{env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin",LC_ALL:"C"},encoding:"buffer",timeout:tn,maxBuffer:4<<20},(d,l)=>{if(d&&(d.killed||d.signal||typeof d.code!="number")){c(new v(`the machine's world-writable folders could not be listed: ${d.message}`));return}let f={scratch:[],other:[]};for(let h of l.toString("utf8").split("\0")){let $=h.indexOf(" ");if($<0)continue;let S=parseInt(h.slice(0,$),8),m=h.slice($+1);!m.startsWith("/")||m==="/"||(S&512?f.scratch:f.other).push(m)}i(f)})})}o(wt,"findSharedDirs");var G=o(e=>({kind:"unavailable",reason:e}),"unavailable"),le=["/media","/srv","/mnt","/opt","/run","/var"];function q(e){try{let t=sn(e);return bt(t).isDirectory()?t:void 0}catch{return}}o(q,"realDir");function dn(){let e=["unshare","setpriv","mount","umount","mkdir","chown","chmod","find","prlimit","bash","sh","env","kill"],t={};for(let r of e){let n=T(r);if(!n)return`${r} is not installed (${r==="find"?"findutils":r==="bash"||r==="sh"?"a shell":"util-linux / coreutils"})`;t[r]=n}return t}o(dn,"resolveBins");async function ln(e,t){let r=Qe(t);if(typeof r=="string")return r;let n="";for(let i of r){let c=await Je(i,e);if(c==="works"||c==="refused")return{tool:i,works:c==="works"};n=c}return n}o(ln,"findKeyring");async function un(e){try{return await e()}catch(t){if(!(t instanceof v))throw t;return e()}}o(un,"retryOnce");function pn(e,t,r){let{account:n,root:i}=e,c=new Set([...Te,...t]);return{outputFileMode:420,envOptions:{pass:t,privateDirs:r},wrap(d){let l={};for(let[S,m]of Object.entries(d.env))c.has(S)&&(l[S]=m);l.PATH=Le(l.PATH,r),l.HOME=Z,l.TMPDIR="/tmp",l.USER=n.user,l.LOGNAME=n.user;let f=Number(l.GIT_CONFIG_COUNT??0)||0;l[`GIT_CONFIG_KEY_${f}`]="safe.directory",l[`GIT_CONFIG_VALUE_${f}`]="*",l.GIT_CONFIG_COUNT=String(f+1),Object.assign(l,d.ownEnv);let h=e.overlay?.access;if(!h)return de(e,d.command,d.cwd,l,d.timeoutMs);if(d.readOnlyWorkspace)return de(e,d.command,d.cwd,l,d.timeoutMs,{readOnly:!0});h.verify();let $=h.next++;return{...de(e,d.command,d.cwd,l,d.timeoutMs,{layer:$}),settle:o(()=>h.apply($),"settle")}},signal:o(((d,l)=>{if(!i.viaSudo){try{process.kill(-d,l)}catch{}return}cn(i.prefix[0],[...i.prefix.slice(1),e.bins.kill,"-s",l.replace(/^SIG/,""),"--",`-${d}`],{stdio:"ignore",timeout:1e4})}),"signal")}}o(pn,"makeSandbox");var kt=new Map,xt=new Map;function vt(e,t){let r=xt.get(t);return r||(r=un(()=>Ue(e.root,t)),r.catch(()=>{}),xt.set(t,r)),r}o(vt,"accountOf");function fn(e=ne,t=[]){let r=[e,...[...t].sort()].join("\0"),n=kt.get(r);return n||(n=(async()=>{if(process.platform!=="linux")return`commands cannot be isolated on ${process.platform}; only Linux is supported`;let i=await Fe();if(typeof i=="string")return`commands cannot run as another user: ${i}`;let c=dn();if(typeof c=="string")return`commands cannot be isolated: ${c}`;let[d,l,f]=await Promise.all([N(i,c.unshare,[...ce(!1),"--",c.mount,"-t","tmpfs","patchloop-probe","/tmp"]),mn(i,c),ln(c.sh,t)]);if(d.code!==0)return`no PID and mount namespace for commands here (${L(d.stderr)||`exit ${d.code}`})`;if(typeof f=="string")return`commands cannot be isolated: ${f}`;let h={...c,keyring:f.tool},$={root:i,bins:h,network:l,keyrings:f.works};return vt($,e),$})(),n.catch(()=>{}),kt.set(r,n)),n}o(fn,"probeMachine");async function mn(e,t){let r=T("ip");if(!r)return"ip (iproute2) is not installed, so a command network namespace cannot get its loopback";let n=await N(e,t.unshare,[...ce(!0),"--",r,"link","set","lo","up"]);return n.code!==0?`no network namespace for commands here (${L(n.stderr)||`exit ${n.code}`})`:{ip:r}}o(mn,"probeNetwork");async function hn(e,t){let r=on(Pe(an(),"patchloop-net-"));nn(r,457);try{return{proxy:await ft({hosts:e,socketPath:Pe(r,"proxy.sock"),...t}),dir:r}}catch(n){throw St(r,{recursive:!0,force:!0}),new v(`the network proxy could not be started: ${n.message}`)}}o(hn,"startProxy");async function qo(e){let t=await $n(e);return t.kind==="isolated"&&await t.ready,t}o(qo,"createSandbox");async function $n(e){if(e.mode==="off")return G("turned off");if(process.platform!=="linux")return G(`commands cannot be isolated on ${process.platform}; only Linux is supported`);let t=e.env??process.env,r=new Set(e.weaken??[]),n=q(e.workspace);if(!n)throw new v(`the workspace ${e.workspace} is not a folder`);if(n==="/"||n==="/tmp")throw new v(`the workspace cannot be ${n} itself`);let i=await fn(e.user,e.hideBins);if(typeof i=="string")return G(i);let{root:c,bins:d}=i,l=e.network??{kind:"none"},f=l.kind!=="all"&&!r.has("network");if(f&&typeof i.network=="string")return G(i.network);let h=T("setfacl")?"acl":"group",$=e.access??"overlay",S=n.split("/").filter(Boolean),m=S.length>1&&!r.has("hide-above")?`/${S[0]}`:void 0,P=le.map(q).find(x=>x!==void 0&&!(m&&_(x,m))&&!_(n,x)&&!_(x,n));if(!P)throw new v(`none of ${le.join(", ")} can hold the workspace's mounts`);let p=e.hideBins?.includes("perl")?void 0:T("perl"),s=T("rm"),a=ie(),y=p&&s?{find:d.find,perl:p,unshare:d.unshare,mount:d.mount,sh:d.sh,mkdir:d.mkdir,rm:s}:void 0,b=$!=="overlay"?void 0:y?a?dt(c,n,y,P).catch(x=>`the overlay could not be tried: ${x.message}`):Promise.resolve(`Perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}`):Promise.resolve("perl is not installed"),w=V.map(q).filter(x=>x!==void 0&&!_(n,x)&&!_(x,n)),g=[...new Set((e.privateDirs??(t.RUNNER_TEMP?[t.RUNNER_TEMP]:[])).map(q))].filter(x=>x!==void 0&&x!=="/"),E=r.has("private-dirs")?[]:g.filter(x=>!(m&&_(x,m))&&!w.some(H=>_(x,H))&&!_(n,x)),u=Pe(n,".git"),k=(()=>{try{let x=bt(u);return x.isDirectory()||x.isFile()}catch{return!1}})(),A=[...new Set((e.readOnlyDirs??[]).map(q))].filter(x=>x!==void 0&&x!=="/"),I=[...k&&!r.has("read-only-git")?[u]:[],...A],K={...ge,...e.limits},Re=Math.min(K.processes,we().processes??1/0),Pt=(e.commandEnv??[]).filter(Ne),[j,_e]=await Promise.all([vt(i,e.user??ne),b]);if(_e){if(e.access==="overlay")return G(_e);$=h}if($==="acl"&&!T("setfacl"))return G("setfacl (package acl) is not installed");if($==="group"&&c.viaSudo)return G("setfacl (package acl) is needed to share the workspace when not running as root");let M=f&&l.kind==="hosts"?await hn(l.hosts,e.proxyOverride):void 0,Oe=o(async()=>{M&&(await M.proxy.close(),St(M.dir,{recursive:!0,force:!0}))},"closeProxy"),O={root:c,account:j,bins:d,workspace:n,hide:m,hideMode:m&&V.includes(m)?"1777":"0755",stash:P,scratch:w,sticky:V.filter(x=>m&&x!==m&&_(x,m)&&_(n,x)),covered:E,shared:[],sharedReadOnly:[],freshKeyring:i.keyrings&&!r.has("keyring"),keepIpcUts:r.has("ipc-uts"),readOnly:I,limits:r.has("limits")?void 0:K,groupRefresh:$==="group",...f&&typeof i.network!="string"?{network:{ip:i.network.ip,...M?{bridge:{node:process.execPath,socketDir:M.dir}}:{}}}:{}},ue={...pn(O,Pt,g),network:{mark:o(()=>M?.proxy.refusals()??0,"mark"),note:o((x,H)=>Be(l,M?M.proxy.refusedSince(x):[],H),"note")}},Ee=!1,Rt={...ue,wrap(x){if(!Ee)throw new v("no command runs before the sandbox self-check has passed");return ue.wrap(x)}},W,pe,fe=(async()=>{await new Promise(R=>setImmediate(R)),O.groupRefresh&&(O.refreshSince=Date.now()-ae);let x=o(R=>($=R,O.groupRefresh=R==="group",O.groupRefresh&&(O.refreshSince=Date.now()-ae),Ye(c,j,n,R).then(C=>W=C)),"openWalks");pe=$==="overlay"&&y&&a?lt(c,n,{...y,chown:d.chown},j.uid).then(R=>{if(typeof R!="string"){O.overlay={perl:y.perl,syscalls:a,access:r.has("cover-private")?{...R,hidden:{folders:[],files:[]}}:R,inPlace:r.has("overlay-in-place")},r.has("apply-follows-links")&&(R.followLinks=!0),W={method:"overlay",revoke:o(()=>R.dispose(),"revoke")};return}if(e.access==="overlay")throw new v(R);if(h==="group"&&c.viaSudo)throw new v(`${R}, and setfacl (package acl) is needed to share it when not running as root`);return x(h)}):x($);let[,H]=await Promise.all([pe,r.has("shared-dirs")?{scratch:[],other:[]}:wt(d.find,[m??n,n,...w,...g,...A])]),te=o(R=>!_(n,R)&&!_(R,n),"apart");if(O.shared=H.scratch.filter(te),O.sharedReadOnly=H.other.filter(te),[...O.shared,...O.sharedReadOnly].some(R=>_(R,P)||_(P,R))){let R=le.map(q).find(C=>C!==void 0&&!(m&&_(C,m))&&!_(n,C)&&!_(C,n)&&![...O.shared,...O.sharedReadOnly].some(Ae=>_(Ae,C)||_(C,Ae)));if(!R)throw new v(`none of ${le.join(", ")} can hold the workspace's mounts apart from the world-writable folders`);O.stash=R}if(e.selfCheck!==!1){let R=o(()=>gt(ue,{uid:j.uid,workspace:n,hasGit:k,privateDirs:g,readOnlyDirs:A,processes:r.has("limits")?void 0:Re,env:t,network:O.network?{proxy:M!==void 0}:void 0,keyring:i.keyrings?d.keyring:void 0,ipcUts:!0,shared:O.shared,sharedReadOnly:O.sharedReadOnly}),"check"),C=await R()&&await R();if(C)throw new v(`the sandbox self-check failed: ${C}`)}Ee=!0})().catch(async x=>{await pe?.catch(()=>{});let H=W;throw W=void 0,await Promise.all([H?.revoke(),Oe()]).catch(te=>{throw new v(`${x.message}; and then: ${te.message}`)}),x});fe.catch(()=>{});let _t=o(()=>[`commands run as user ${j.user} (uid ${j.uid}) in their own PID and mount namespace`,O.keepIpcUts?"":"with their own System V IPC and host name",O.freshKeyring?"a session keyring of their own":"",m?"with everything above the workspace hidden":"",g.length?`${g.join(", ")} hidden`:"",k?".git read-only":"",$==="overlay"?"the workspace as an overlay whose writes patchloop moves in after each command":`${$==="acl"?"ACL":"group"} access to the workspace`,`network: ${O.network?re(l):re({kind:"all"})}`,r.has("limits")?"":`limits of ${Re} processes and ${Math.round(K.fileBytes/1024**2)} MiB per file`].filter(Boolean).join(", "),"describe"),Ot;return{kind:"isolated",sandbox:Rt,get reason(){return _t()},ready:fe,dispose:o(()=>Ot??=fe.then(()=>{let x=W;return W=void 0,Promise.all([x?.revoke(),Oe()]).then(()=>{})},()=>{}),"dispose"),network:{policy:O.network?l:{kind:"all"},refused:o(()=>M?.proxy.refused()??[],"refused")}}}o($n,"startSandbox");export{wn as a,re as b,He as c,kn as d,fn as e,qo as f,$n as g};
