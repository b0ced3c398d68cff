import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{n as Le}from"./chunk-L5AAVJP4.js";import{D as Ce,k as R,u as Ae,v as Te,w as Ne}from"./chunk-LVK2Q2AR.js";import{a as i}from"./chunk-4X7ZATFQ.js";import{BlockList as Ie,isIP as Et}from"node:net";var At=/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;function gn(e){let t=e.trim().toLowerCase();if(t===""||t==="none")return{kind:"none"};if(t==="all")return{kind:"all"};let r=t.split(/[,\n]/).map(s=>s.trim().replace(/\.$/,"")).filter(Boolean),n=r.find(s=>!At.test(s));if(n!==void 0)throw new Error(`command-network is none, all, or host names such as registry.npmjs.org or *.pythonhosted.org (comma- or newline-separated); "${n}" is not a host name.`);return{kind:"hosts",hosts:[...new Set(r)]}}i(gn,"parseCommandNetwork");function V(e){return e.trim().toLowerCase().replace(/^\[(.*)\]$/,"$1").replace(/\.$/,"")}i(V,"normalHost");function Me(e,t){let r=V(t);return e.some(n=>n.startsWith("*.")?r.endsWith(n.slice(1))&&r.length>n.length-1:r===n)}i(Me,"hostAllowed");var[Tt,Nt]=(()=>{let e=new Ie,t=new Ie,r=[["0.0.0.0",8],["10.0.0.0",8],["100.64.0.0",10],["127.0.0.0",8],["169.254.0.0",16],["172.16.0.0",12],["192.0.0.0",24],["192.0.2.0",24],["192.88.99.0",24],["192.168.0.0",16],["198.18.0.0",15],["198.51.100.0",24],["203.0.113.0",24],["224.0.0.0",3]],n=[["::",96],["64:ff9b:1::",48],["100::",64],["2001::",23],["2001:db8::",32],["2002::",16],["fc00::",7],["fe80::",10],["fec0::",10],["ff00::",8]];for(let[s,c]of r)e.addSubnet(s,c,"ipv4");for(let[s,c]of n)t.addSubnet(s,c,"ipv6");return[e,t]})();function fe(e){let t=Et(e);if(t===0)return!1;if(t===4)return!Tt.check(e,"ipv4");let r=/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(e);return r?fe(r[1]):/^::ffff:/i.test(e)?!1:!Nt.check(e,"ipv6")}i(fe,"isPublicAddress");var Lt=10;function ee(e){return e.kind==="none"?"none (each command has its own loopback only)":e.kind==="all"?"all (commands use the runner\u2019s network)":`HTTP and HTTPS to ${e.hosts.join(", ")} only, through patchloop\u2019s proxy`}i(ee,"describeNetwork");function De(e,t=Lt){let r=e.slice(0,t).map(n=>n.count>1?`${n.host} (${n.count}\xD7)`:n.host);return e.length>t&&r.push(`and ${e.length-t} more`),r.join(", ")}i(De,"listRefused");function wn(e,t){let r=ee(e);return t.length?`${r}; refused: ${De(t)}`:r}i(wn,"networkSummaryLine");var Ct=/ENETUNREACH|EAI_AGAIN|Network is unreachable|Could not resolve host|Temporary failure in name resolution|getaddrinfo ENOTFOUND|Name or service not known/i;function He(e,t,r){if(e.kind!=="all"){if(t.length)return`[command-network refused ${De(t,5)} (${t[0].reason}). Commands may reach only ${e.kind==="hosts"?e.hosts.join(", "):"their own loopback"}; the workflow's command-network input sets this.]`;if(Ct.test(r))return e.kind==="none"?"[command-network is none: commands have no network but their own loopback, so downloads and outside services fail. The workflow\u2019s command-network input can allow hosts.]":`[command-network allows only HTTP and HTTPS to ${e.hosts.join(", ")}, through the proxy in HTTPS_PROXY / HTTP_PROXY; a program that ignores those variables finds no network.]`}}i(He,"networkNote");import{chmodSync as rn,lstatSync as xt,mkdtempSync as nn,realpathSync as on,rmSync as bt}from"node:fs";import{tmpdir as sn}from"node:os";import{spawnSync as an}from"node:child_process";import{join as ve}from"node:path";import{chmodSync as Ut,lchownSync as Gt,lstatSync as he,mkdtempSync as jt,readFileSync as ne,realpathSync as Wt,rmSync as Xt,writeFileSync as Vt}from"node:fs";import{tmpdir as qt}from"node:os";import{join as D}from"node:path";var b=class extends Error{static{i(this,"SandboxSetupError")}constructor(t){super(t),this.name="SandboxSetupError"}};import{execFile as It}from"node:child_process";import{existsSync as Mt,readFileSync as Dt,statSync as Ht}from"node:fs";import{join as Bt}from"node:path";var te="patchloop-sandbox";function H(e,t,r={}){return new Promise(n=>{It(e,t,{cwd:r.cwd,env:r.env??{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"},encoding:"utf8",timeout:r.timeoutMs??12e4,maxBuffer:4<<20},(s,c,d)=>{let l=s?typeof s.code=="number"?s.code:127:0;n({code:l,stdout:String(c),stderr:String(d||(s&&l===127?s.message:""))})})})}i(H,"run");function N(e){return e.trim().split(`
`)[0]??""}i(N,"firstLine");var Kt=["/usr/bin","/bin","/usr/sbin","/sbin"];function E(e){for(let t of Kt){let r=Bt(t,e);try{if(Ht(r).isFile())return r}catch{}}}i(E,"systemBin");async function Ke(){if(process.getuid?.()===0)return{prefix:[],viaSudo:!1};let e=E("sudo");return e?(await H(e,["-n","true"],{timeoutMs:1e4})).code!==0?"not root, and sudo asks for a password":{prefix:[e,"-n","--"],viaSudo:!0}:"not root, and sudo is not installed"}i(Ke,"findRootAccess");function T(e,t,r){return e.prefix.length?H(e.prefix[0],[...e.prefix.slice(1),t,...r]):H(t,r)}i(T,"asRoot");function Ft(e){let t;try{t=Dt("/etc/passwd","utf8")}catch{return}for(let r of t.split(`
`)){let n=r.split(":");if(n[0]!==e||n.length<7)continue;let s=Number(n[2]),c=Number(n[3]);return n[2]===""||n[3]===""||!Number.isInteger(s)||!Number.isInteger(c)?void 0:{user:e,uid:s,gid:c}}}i(Ft,"localAccount");async function Be(e){let t=Ft(e);if(t)return t;let r=E("getent");if(!r)return;let n=await H(r,["passwd",e]);if(n.code!==0)return;let s=n.stdout.trim().split(":");return{user:e,uid:Number(s[2]),gid:Number(s[3])}}i(Be,"lookup");async function Fe(e,t){let r=await Be(t);if(!r){let n=E("useradd");if(!n)throw new b("useradd is not installed, so the sandbox user cannot be created");let s=["/usr/sbin/nologin","/sbin/nologin"].find(d=>Mt(d))??"/bin/false",c=await T(e,n,["--system","--user-group","--no-create-home","--home-dir","/nonexistent","--shell",s,t]);if(r=await Be(t),!r)throw new b(`could not create user ${t}: ${N(c.stderr)||`exit ${c.code}`}`)}if(!Number.isInteger(r.uid)||r.uid===0||!Number.isInteger(r.gid)||r.gid===0)throw new b(`user ${t} exists but is not an unprivileged user (uid ${r.uid})`);return r}i(Fe,"ensureUser");function Xe(e,t){if(t.code!==0)throw new b(`${e}: ${N(t.stderr)||`exit ${t.code}`}`)}i(Xe,"check");async function re(e,t){(await t()).code!==0&&Xe(e,await t())}i(re,"twice");var Yt=["-type","f","-links","1","-perm","-004"],zt=["-type","f","(","-links","+1","-o","!","-perm","-004",")"],Ve=i(e=>["-type","d","!","-perm","-001","!","-samefile",e],"privateFolder");function G(e){let t=E(e);if(!t)throw new b(`${e} is not installed`);return t}i(G,"need");var Ue=3130;function q(e,t,r,n,s){return T(e,t,["-c",'f=$1; shift; exec "$@" > "$f"',"patchloop-walk",r,n,...s])}i(q,"toFile");var me=i((e,t)=>["-type","d","!","-perm","-001","!","-user",String(t),"!","-samefile",e,"-prune"],"closedFolder"),Qt=i(e=>e.replace(/\\([0-7]{3})/g,(t,r)=>String.fromCharCode(parseInt(r,8))),"unescapeAcl");function Ge(e){let t=[];for(let r of e.split(`

`)){let n=/^# file: (.*)$/m.exec(r);n&&t.push({path:Qt(n[1]),text:r.trim()})}return t}i(Ge,"aclBlocks");function je(e){let t=Buffer.from(e,"latin1");try{return he(t).isSymbolicLink()?!1:Wt(t,{encoding:"buffer"}).equals(t)}catch{return!1}}i(je,"leadsToItself");function We(e){let t=new Map;for(let r of e.split("\0")){let n=/^(\d+) ([0-7]+) (\d+) (\w) ([^]*)$/.exec(r);n&&t.set(n[5],{ino:BigInt(n[1]),mode:parseInt(n[2],8),gid:Number(n[3]),type:n[4]})}return t}i(We,"marks");function $e(e){Xt(e,{recursive:!0,force:!0})}i($e,"cleanup");async function qe(e,t,r,n){let s=D(r,".git"),c=(()=>{try{return he(s).isDirectory()}catch{return!1}})();if(n==="group"&&e.viaSudo)throw new b("setfacl (package acl) is needed to share the workspace when not running as root");let d=G("find"),l=G("sh"),p=jt(D(qt(),"patchloop-access-"));try{return n==="acl"?await Jt(e,t,r,s,c,{find:d,sh:l,dir:p}):await Zt(e,t,r,s,c,{find:d,sh:l,dir:p})}catch(m){throw $e(p),m}}i(qe,"openWorkspace");async function Jt(e,t,r,n,s,{find:c,sh:d,dir:l}){let p=G("setfacl"),m=G("getfacl"),$=t.user,x=D(l,"before.acl");await re("could not read the workspace's ACLs",()=>q(e,d,x,c,[r,...me(r,t.uid),"-o","!","-type","l","-exec",m,"-s","-P","-p","--","{}","+"]));let h=i(async()=>{try{let a=D(l,"linked.acl"),f=await q(e,d,a,c,[r,...me(r,t.uid),"-o","-type","f","-links","+1","-exec",m,"-s","-P","-p","--","{}","+","-o","!","-type","l","-exec",p,"-P","-b","--","{}","+"]),g=[];f.code!==0&&g.push(N(f.stderr)||`exit ${f.code}`);let w=new RegExp(`^(default:)?user:${$.replace(/[.*+?^${}()|[\]\\]/g,"\\$&")}:`,"m"),y=Ge(ne(a,"latin1")).filter(v=>w.test(v.text)&&je(v.path)).map(v=>v.path);for(let v=0;v<y.length;v+=500){let O=await T(e,p,["-P","-b","--",...y.slice(v,v+500)]);O.code!==0&&g.push(N(O.stderr)||`exit ${O.code}`)}let A=Ge(ne(x,"latin1")).filter(v=>je(v.path));if(A.length){let v=D(l,"restore.acl");Vt(v,A.map(X=>X.text).join(`

`)+`

`,{encoding:"latin1",mode:384});let O=await T(e,p,[`--restore=${v}`]);O.code!==0&&g.push(N(O.stderr)||`exit ${O.code}`)}if(g.length)throw new b(`the workspace's ACLs were not all put back: ${g[0]}`)}finally{$e(l)}},"revoke"),S=process.getuid?.()??0,u=S===0?"":`,d:u:${S}:rwX`,o=i((a,f,g)=>T(e,c,[a,...g,...Ve(a),"-prune","-o","-type","d","-exec",p,"-P","-m",`u:${$}:${f},d:u:${$}:${f}${u},d:o::rX`,"{}","+","-o",...Yt,"-exec",p,"-P","-m",`u:${$}:${f}`,"{}","+"]),"grant");try{await re(`could not open the workspace to ${$}`,()=>o(r,"rwX",["-path",n,"-prune","-o"])),s&&await re(`could not make .git read-only to ${$}`,()=>o(n,"rX",[]))}catch(a){throw await h().catch(()=>{}),a}return{method:"acl",revoke:h}}i(Jt,"openAcl");async function Zt(e,t,r,n,s,{find:c,sh:d,dir:l}){let p=G("chmod"),m=G("chown"),$=String(t.gid),x=["-printf","%i %m %G %y %p\\0"],h=i(a=>q(e,d,a,c,[r,...x,"(","-path",n,"-prune","-o",...zt,"-prune","-o",...Ve(r),"-prune","-o","!","-group",$,"-exec",m,"-h",`:${$}`,"{}","+","-false","-o","-type","d","!","-perm","-2070","-exec",p,"g+rwxs","{}","+","-o","!","-type","d","!","-type","l","!","-perm","-060","-exec",p,"g+rw","{}","+",")"]),"open"),S=i(a=>q(e,d,a,c,[n,"!","-type","l","-perm","-002",...x,"-exec",p,"o-w","{}","+"]),"closeGit"),u=[],o=i(async()=>{try{await er(e,t,r,c,d,l,u)}finally{$e(l)}},"revoke");try{if(await re(`could not give the workspace to group ${t.user}`,()=>{let a=D(l,`open-${u.length}`);return u.push(a),h(a)}),s){let a=D(l,"git");u.push(a),Xe("could not make .git read-only to others",await S(a))}}catch(a){throw await o().catch(()=>{}),a}return{method:"group",revoke:o}}i(Zt,"openGroup");async function er(e,t,r,n,s,c,d){let l=new Map;for(let u of d){let o;try{o=ne(u,"latin1")}catch{continue}for(let[a,f]of We(o))l.has(a)||l.set(a,f)}let p=D(c,"after"),m=await q(e,s,p,n,[r,...me(r,t.uid),"-printf","%i %m %G %y %p\\0","-o","-printf","%i %m %G %y %p\\0"]),$=[];m.code!==0&&$.push(N(m.stderr)||`exit ${m.code}`);let x=he(r),h=new Map,S=i(u=>u.slice(0,u.lastIndexOf("/"))||"/","parentOf");for(let[u,o]of We(ne(p,"latin1"))){let a=l.get(u),f=Buffer.from(u,"latin1"),g=o.gid,w=o.mode;a&&a.ino===o.ino?(g=a.gid,w=o.mode&~Ue|a.mode&Ue):o.gid===t.gid&&(g=h.get(S(u))??(a?a.gid:x.gid),o.type==="d"&&!(a&&a.mode&1024)&&(w=o.mode&-1025));try{g!==o.gid&&Gt(f,-1,g),o.type!=="l"&&(w!==o.mode||g!==o.gid)&&Ut(f,w)}catch(y){y.code!=="ENOENT"&&$.push(`${u}: ${y.message}`)}o.type==="d"&&h.set(u,g)}if($.length)throw new b(`the workspace's groups and modes were not all put back (${$.length}): ${$[0]}`)}i(er,"restoreGroup");import{spawnSync as Ye}from"node:child_process";var tr={x64:{keyctl:250,addKey:248,arch:"x86_64"},arm64:{keyctl:219,addKey:217,arch:"aarch64"}},Y=["-t","-X"],rr=String.raw`my $nr = 0 + shift @ARGV;
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
exit(syscall(0 + $nr, 9, 0 + $id, -3) == 0 ? 0 : 1);`,cr=new Set([1,38]);function ze(e=[]){let t=[],r=e.includes("perl")?void 0:E("perl"),n=tr[process.arch];r&&n&&t.push({kind:"perl",perl:r,...n});let s=e.includes("keyctl")?void 0:E("keyctl");return s&&t.push({kind:"keyctl",keyctl:s}),t.length?t:r?`keyctl is not installed (keyutils), and perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}: each command gets a keyring of its own with one of them`:"neither perl nor keyctl is installed (perl-base or keyutils): each command gets a keyring of its own with one of them"}i(ze,"findKeyringTools");async function Qe(e,t){if(e.kind==="keyctl")return(await H(e.keyctl,["session","-",t,"-c","exit 0"])).code===0?"works":"refused";let r=await H(e.perl,[...Y,"-e",or,"--",String(e.keyctl),e.arch]);return r.code===0?"works":r.code===4&&cr.has(Number(r.stdout.trim()))?"refused":r.code===3?`${e.perl} is not a 64-bit ${e.arch} perl`:`${e.perl} could not join a session keyring (exit ${r.code}${r.stdout.trim()?`, errno ${r.stdout.trim()}`:""})`}i(Qe,"probeKeyrings");function Je(e,t){return e.kind==="perl"?[e.perl,...Y,"-e",rr,"--",String(e.keyctl)]:[t,"-c",nr,"patchloop-keyring",e.keyctl,t]}i(Je,"keyringStep");var Ze={PATH:"/usr/sbin:/usr/bin:/sbin:/bin"};function et(e,t,r){let[n,s]=e.kind==="perl"?[e.perl,[...Y,"-e",sr,"--",String(e.addKey),t]]:[e.keyctl,["padd","user",t,"@s"]],c=Ye(n,s,{input:r,encoding:"utf8",env:Ze,timeout:1e4}),d=c.stdout?.trim();return c.status===0&&/^\d+$/.test(d??"")?d:void 0}i(et,"plantKey");function tt(e,t){let[r,n]=e.kind==="perl"?[e.perl,[...Y,"-e",ar,"--",String(e.keyctl),t]]:[e.keyctl,["unlink",t,"@s"]];Ye(r,n,{stdio:"ignore",env:Ze,timeout:1e4})}i(tt,"unlinkKey");function rt(e,t,r){return e.kind==="perl"?[[e.perl,...Y,"-e",ir,"--",String(e.keyctl),t,r]]:[[e.keyctl,"print",t],[e.keyctl,"search","@s","user",r]]}i(rt,"keyLookup");import{join as gr}from"node:path";import{readFileSync as dr}from"node:fs";var ye={processes:1024,dataBytes:8*1024**3,fileBytes:2*1024**3,openFiles:8192},lr=3600,ur={processes:"Max processes",dataBytes:"Max data size",fileBytes:"Max file size",openFiles:"Max open files",cpuSeconds:"Max cpu time"};function ge(e){let t=e;if(t===void 0)try{t=dr("/proc/self/limits","latin1")}catch{return{}}let r={};for(let[n,s]of Object.entries(ur)){let d=t.split(`
`).find(l=>l.startsWith(s))?.slice(s.length).trim().split(/\s+/)[1];d&&(r[n]=d==="unlimited"?1/0:Number(d))}return r}i(ge,"currentHardLimits");function nt(e,t,r=ge()){let n=e.cpuSeconds??(t!==void 0&&t>0?Math.ceil(t/1e3):lr),s=i((c,d)=>String(Math.max(1,Math.floor(Math.min(d,r[c]??1/0)))),"n");return[`--nproc=${s("processes",e.processes)}`,`--data=${s("dataBytes",e.dataBytes)}`,`--fsize=${s("fileBytes",e.fileBytes)}`,`--nofile=${s("openFiles",e.openFiles)}`,`--cpu=${s("cpuSeconds",n)}`]}i(nt,"prlimitArgs");import{lstatSync as z,mkdtempSync as st,readdirSync as pr,realpathSync as fr,rmSync as mr}from"node:fs";import{tmpdir as it}from"node:os";import{join as B}from"node:path";var hr={x64:{unshare:272,lgetxattr:192,lremovexattr:198,fchownat:260,mknodat:259,mount:165},arm64:{unshare:97,lgetxattr:9,lremovexattr:15,fchownat:54,mknodat:33,mount:40}};function oe(){return hr[process.arch]}i(oe,"overlaySyscalls");var ke=String.raw`use strict;
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
exit 0;`,$r=String.raw`use strict;
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
exit 0;`,at=["-t","-X"],ot=5e3,we=/^[^,:\\\s]+$/;async function ct(e,t,r,n){let s=oe();if(!s)return`Perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}`;if(!we.test(n))return`${n} cannot be named in the overlay's options`;let c=z(t),d=st(B(it(),"patchloop-overlay-probe-"));try{if(!we.test(d))return`${d} cannot be named in the overlay's options`;let l=await T(e,r.unshare,["--mount","--propagation","private","--",r.perl,...at,"-e",ke,"--","overlay",String(s.unshare),String(s.mount),t,d,B(d,"layer"),String(c.uid),"65534",String(c.gid),"65534","0","0"]);return l.code===0?void 0:`no idmapped overlay of the workspace here (${N(l.stderr)||`exit ${l.code}`})`}finally{await T(e,r.rm,["-rf","--",d])}}i(ct,"tryOverlay");async function dt(e,t,r,n){let s=oe();if(!s)return`Perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}`;let c=z(t),d={uid:c.uid,gid:c.gid},l=B(t,".git"),p=await T(e,r.find,[t,"-path",l,"-prune","-o","-type","d","!","-perm","-001","!","-samefile",t,"-prune","-printf","d%p\\0","-o","-type","f","!","-perm","-004","-printf","f%p\\0","-o","-user",String(n),"-printf","u%p\\0"]);if(p.code!==0)throw new b(`could not list the workspace's private paths: ${N(p.stderr)||`exit ${p.code}`}`);let m=new Map,$=p.stdout.split("\0").filter(Boolean),x=$.filter(o=>o[0]==="u").map(o=>o.slice(1));for(let o=0;o<x.length;o+=500){let a=await T(e,r.chown,["-h","--",`${d.uid}:${d.gid}`,...x.slice(o,o+500)]);if(a.code!==0)throw new b(`could not give an earlier run's files back to the checkout's owner: ${N(a.stderr)||`exit ${a.code}`}`)}for(let o of $){if(o[0]==="u")continue;let a=o.slice(1);try{let f=z(a);m.set(a,{dev:f.dev,ino:f.ino,folder:o[0]==="d"})}catch{}}if(m.size>ot)return`the workspace holds ${m.size} paths others may not read (more than ${ot})`;let h=st(B(it(),"patchloop-overlay-"));if(!we.test(h))return mr(h,{recursive:!0,force:!0}),`${h} cannot be named in the overlay's options`;let S=i(o=>o.slice(t.length+1),"relative"),u={owner:d,hidden:{folders:[...m].filter(([,o])=>o.folder).map(([o])=>o),files:[...m].filter(([,o])=>!o.folder).map(([o])=>o)},state:h,next:0,verify(){for(let[o,a]of m){let f;try{let g=z(o);f=g.dev===a.dev&&g.ino===a.ino&&fr(o)===o}catch{f=!yr(o)}if(!f)throw new b(`${S(o)} is no longer the private path the set-up covered`)}},async apply(o){let a=B(h,String(o));try{if(pr(B(a,"up")).length===0)return}catch{}let f=await T(e,r.perl,[...at,"-e",$r,"--",String(s.lgetxattr),String(s.lremovexattr),String(s.fchownat),String(s.mknodat),u.followLinks?"1":"0",B(a,"up"),t,String(d.uid),String(d.gid),a,String(m.size),...[...m.keys()].map(S)]);if(f.code!==0)return`what the command wrote could not be moved into the workspace (${N(f.stderr)||`exit ${f.code}`}); it is kept in ${a}`;let g=f.stdout.split(`
`).filter(w=>w.startsWith("error ")).map(w=>w.slice(6));if(g.length)return`${g.length} of the command's changes could not be moved into the workspace (kept in ${a}): ${g.slice(0,5).join("; ")}`},async dispose(){await T(e,r.rm,["-rf","--",h])}};return u}i(dt,"openOverlay");function yr(e){try{return z(e),!0}catch{return!1}}i(yr,"existsQuiet");var Q="/tmp/home",j=["/tmp","/var/tmp","/dev/shm"],wr=String.raw`set -eu
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
exec "$@"`,kr=String.raw`g=$1 find=$2 chown=$3 chmod=$4 ws=$5; shift 5
f='{''}'
exec "$find" "$@" -mindepth 1 -maxdepth 1 -path "$ws/.git" -prune -o -type f \( -links +1 -o ! -perm -004 \) -prune -o -type d ! -perm -001 ! -samefile "$ws" -prune -o ! -group "$g" -exec "$chown" -h ":$g" "$f" + -false -o -type d ! -perm -2070 -exec "$chmod" g+rwxs "$f" + -o ! -type d ! -type l ! -perm -060 -exec "$chmod" g+rw "$f" +`,xr=String.raw`ws=$1 g=$2 find=$3 chown=$4 chmod=$5 sh=$6 since=$7 step=$8; shift 8
umask 002
"$find" "$ws" -path "$ws/.git" -prune -o -type d ! -perm -001 ! -samefile "$ws" -prune -o -type d -newermt "@$since" -exec "$sh" -c "$step" patchloop-refresh "$g" "$find" "$chown" "$chmod" "$ws" {} + 2>/dev/null || :
exec "$@"`,se=2e3,br=['for f in /proc/self/fd/*; do n=${f##*/}; [ "$n" -gt 2 ] && exec {n}>&-; done',"umask 002","exec 3>&2 2>/dev/null","set -m",`trap 'kill -TERM -- -"$c"' TERM INT HUP`,'"$2" -c "$1" 0<&0 2>&3 3>&- &',"c=$!",'while :; do wait "$c"; s=$?; kill -0 "$c" 2>/dev/null || exit "$s"; done'].join(`
`),lt=["--pid","--fork","--kill-child","--mount","--mount-proc","--propagation","private","--ipc","--uts"],Sr="--net";function ie(e){return e?[...lt,Sr]:[...lt]}i(ie,"namespaceOptions");var vr=String.raw`const net = require('net'), fs = require('fs');
process.setgroups([]); process.setgid(Number(process.argv[2])); process.setuid(Number(process.argv[1]));
const server = net.createServer((c) => {
  const u = net.connect('proxy.sock');
  c.on('error', () => u.destroy()); u.on('error', () => c.destroy());
  c.pipe(u); u.pipe(c);
});
server.listen(0, '127.0.0.1', () => fs.writeSync(1, server.address().port + '\n'));`,Pr=String.raw`set -eu
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
exec "$@"`;function Rr(e){let t=e.network;if(!t)return[];let{bins:r,account:n}=e;return[r.bash,"-c",Pr,"patchloop-network",t.ip,r.env,t.bridge?.node??"",t.bridge?.socketDir??"/",String(n.uid),String(n.gid),vr]}i(Rr,"networkStep");function _r(e,t,r,n,s={}){let{bins:c,account:d}=e,l=e.overlay,p=l!==void 0&&s.layer!==void 0&&!s.readOnly,m=p?l.access.hidden:{folders:[],files:[]},$=m.folders.length+m.files.length,x=[c.setpriv,"--pdeathsig","KILL","--",c.unshare,...ie(e.network!==void 0).filter(h=>!e.keepIpcUts||h!=="--ipc"&&h!=="--uts"),"--",...Rr(e),c.sh,"-c",wr,"patchloop-prelude",c.mount,c.umount,c.mkdir,c.chown,c.chmod,e.workspace,e.hide??"",e.hideMode,e.stash,`${d.uid}:${d.gid}`,Q,r,p?l.inPlace?"in-place":"overlay":s.readOnly?"read-only":"shared",l?.perl??"",ke,String(l?.syscalls.unshare??0),String(l?.syscalls.mount??0),p?gr(l.access.state,String(s.layer)):"",String(l?.access.owner.uid??0),String(l?.access.owner.gid??0),String(e.readOnly.length),...e.readOnly,String($+2),String(m.folders.length),String(m.files.length),...m.folders,...m.files,String(e.sticky.length),...e.sticky,String(e.scratch.length),...e.scratch,String(e.covered.length),...e.covered,String(e.shared.length),...e.shared,String(e.sharedReadOnly.length),...e.sharedReadOnly,...e.readOnly];return e.groupRefresh&&x.push(c.sh,"-c",xr,"patchloop-refresh",e.workspace,String(d.gid),c.find,c.chown,c.chmod,c.sh,((e.refreshSince??0)/1e3).toFixed(3),kr),e.limits&&x.push(c.prlimit,...nt(e.limits,n),"--"),x.push(c.setpriv,"--reuid",String(d.uid),"--regid",String(d.gid),"--clear-groups","--no-new-privs","--inh-caps=-all","--bounding-set=-all","--"),e.freshKeyring&&x.push(...Je(c.keyring,c.sh)),x.push(c.bash,"-c",br,"patchloop-init",t,c.bash),x}i(_r,"commandArgv");function ae(e,t,r,n,s,c={}){let d=_r(e,t,r,s,c);if(e.groupRefresh&&(e.refreshSince=Date.now()-se),!e.root.viaSudo)return{file:d[0],args:d.slice(1),env:n};let l=Object.entries(n).map(([p,m])=>`${p}=${m}`);return{file:e.root.prefix[0],args:[...e.root.prefix.slice(1),e.bins.env,"-i",...l,...d],env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"}}}i(ae,"launch");import{chmodSync as Or}from"node:fs";import{createServer as Er,request as Ar}from"node:http";import{lookup as Tr}from"node:dns/promises";import{connect as Nr,isIP as Lr}from"node:net";var Cr=new Set([80,443]),ut=3e4,Ir=200,xe=1e4,Mr=i(async(e,t)=>Lr(e)?[{address:e,port:t}]:(await Tr(e,{all:!0,verbatim:!0})).map(n=>({address:n.address,port:t})),"systemResolver");function be(e){return/^[a-z0-9.:-]{1,253}$/.test(e)?e:"(a malformed destination)"}i(be,"recordable");function Dr(e){let t=/^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):(\d{1,5})$/.exec(e);if(t)return{host:V(t[1]),port:Number(t[2])}}i(Dr,"splitAuthority");async function pt(e){let t=e.resolve??Mr,r=e.addressAllowed??fe,n=e.hosts.map(V),s=new Map,c=[],d=0,l=new Set,p=i((u,o)=>{let a=be(u);!s.has(a)&&s.size>=Ir&&(a="(other hosts)");let f=s.get(a)??{host:a,reason:o,count:0};return f.count++,s.set(a,f),c.push(a),c.length>xe&&(d+=c.length-xe/2,c=c.slice(-xe/2)),e.onRefused?.(a,o),{ok:!1,reason:o}},"refuse"),m=i(async(u,o)=>{if(!u)return p("(a malformed destination)","not a host name");if(!Me(n,u))return p(u,"not in command-network");if(!Cr.has(o))return p(`${u}:${o}`,"only ports 80 and 443 are allowed");let a;try{a=await t(u,o)}catch{return{ok:!1,reason:`${u} could not be resolved`}}let f=a.filter(g=>r(g.address));return f.length?{ok:!0,targets:f}:p(u,"it resolves to a loopback, private or link-local address")},"decide"),$=i(u=>new Promise((o,a)=>{let f=i((g,w)=>{let y=u[g];if(!y)return a(w??new Error("no address"));let A=Nr({host:y.address,port:y.port});A.setTimeout(ut,()=>A.destroy(new Error("connect timeout"))),A.once("connect",()=>{A.setTimeout(0),o(A)}),A.once("error",v=>f(g+1,v))},"next");f(0)}),"open"),x=i(u=>{l.add(u),u.once("close",()=>l.delete(u))},"track"),h=Er();h.on("connection",x),h.on("connect",(u,o,a)=>{o.on("error",()=>{});let f=Dr(u.url??"");(async()=>{let g=f?await m(f.host,f.port):p("","not a host name");if(!g.ok){let y=g.reason.includes("resolved")?"502 Bad Gateway":"403 Forbidden";o.end(`HTTP/1.1 ${y}\r
Content-Type: text/plain\r
Connection: close\r
\r
patchloop command-network: ${f?be(f.host):"this destination"} is refused (${g.reason}).
`);return}let w;try{w=await $(g.targets)}catch(y){o.end(`HTTP/1.1 502 Bad Gateway\r
Connection: close\r
\r
${y.message}
`);return}x(w),w.on("error",()=>o.destroy()),o.on("error",()=>w.destroy()),o.on("close",()=>w.destroy()),w.on("close",()=>o.destroy()),o.write(`HTTP/1.1 200 Connection Established\r
\r
`),a.length&&w.write(a),w.pipe(o),o.pipe(w)})()}),h.on("request",(u,o)=>{(async()=>{let a;try{a=new URL(u.url??"")}catch{a=void 0}if(!a||a.protocol!=="http:"){p("","not an absolute http:// request"),o.writeHead(400,{"content-type":"text/plain"}).end(`patchloop command-network: the proxy takes CONNECT host:443 and absolute http:// requests only.
`);return}let f=V(a.hostname),g=a.port?Number(a.port):80,w=await m(f,g);if(!w.ok){o.writeHead(w.reason.includes("resolved")?502:403,{"content-type":"text/plain"}).end(`patchloop command-network: ${be(f)} is refused (${w.reason}).
`);return}let y={...u.headers};for(let O of["proxy-authorization","proxy-connection","connection","keep-alive"])delete y[O];let A=w.targets[0],v=Ar({host:A.address,port:A.port,method:u.method,path:`${a.pathname}${a.search}`,headers:{...y,host:a.host},setHost:!1});v.setTimeout(ut,()=>v.destroy(new Error("timeout"))),v.on("response",O=>{o.writeHead(O.statusCode??502,O.headers),O.pipe(o)}),v.on("error",O=>{o.headersSent?o.destroy():o.writeHead(502,{"content-type":"text/plain"}).end(`${O.message}
`)}),u.pipe(v)})()}),h.on("clientError",(u,o)=>{u.code!=="ECONNRESET"&&o.writable?(p("","not a valid request"),o.end(`HTTP/1.1 400 Bad Request\r
Connection: close\r
\r
`)):o.destroy()}),await new Promise((u,o)=>{h.once("error",o),h.listen(e.socketPath,()=>{h.off("error",o),u()})}),Or(e.socketPath,438);let S=i(u=>{let o=new Map;for(let a of u){let f=o.get(a)??{host:a,reason:s.get(a)?.reason??"",count:0};f.count++,o.set(a,f)}return[...o.values()]},"dedupe");return{socketPath:e.socketPath,refused:i(()=>[...s.values()].map(u=>({...u})),"refused"),refusals:i(()=>d+c.length,"refusals"),refusedSince:i(u=>S(c.slice(Math.max(0,u-d))),"refusedSince"),close:i(()=>new Promise(u=>{for(let o of l)o.destroy();h.close(()=>u())}),"close")}}i(pt,"startNetworkProxy");import{spawnSync as $t}from"node:child_process";import{createHash as Hr,randomBytes as Br}from"node:crypto";import{existsSync as Kr,readdirSync as Fr,readFileSync as Ur,readlinkSync as Gr,rmSync as Se,statSync as jr,writeFileSync as ft}from"node:fs";import{createServer as Wr}from"node:net";import{dirname as mt,join as I,relative as Xr,sep as Vr}from"node:path";function qr(){return new Promise((e,t)=>{let r=Wr(n=>n.destroy());r.once("error",t),r.listen(0,"127.0.0.1",()=>{let n=r.address();e({port:typeof n=="object"&&n?n.port:0,server:r})})})}i(qr,"hostListener");var ht="PATCHLOOP_SELF_CHECK_SECRET";async function yt(e,t){let r=Br(6).toString("hex"),n=`s3cret-${r}`,s=Ce,c=[];for(let o of t.privateDirs){let a=I(o,`.patchloop-probe-${r}`);try{ft(a,n,{mode:420,flag:"wx"}),c.push(a)}catch{}}let d=t.network?await qr():void 0,l=t.shared?[...new Set([...t.shared,...Qr(t)?[J]:[]])]:[],p=t.sharedReadOnly??[],m=`.patchloop-probe-${r}`,$=`patchloop-probe-${r}`,x=t.keyring?et(t.keyring,$,n):void 0,h=t.ipcUts?zr():void 0;for(let o of l){let a=I(o,m);try{ft(a,n,{mode:420,flag:"wx"}),c.push(a)}catch{}}let S=['echo "uid $(id -u)"',`if h=$({ sha256sum < /proc/${process.pid}/environ; } 2>/dev/null); then echo "environ $h"; fi`,`f=.patchloop-probe-${r}; if { : > "$f"; } 2>/dev/null && rm -f "$f"; then echo workspace-writable; fi`,t.processes===void 0?":":`[ "$(ulimit -u)" = ${t.processes} ] || echo "nproc $(ulimit -u)"`,`if printenv ${ht} >/dev/null; then echo env-secret-visible; fi`];if(x&&t.keyring){let o=rt(t.keyring,x,$).map(a=>`${a.map(s).join(" ")} >/dev/null 2>&1`);S.push(`if ${o.join(" || ")}; then echo keyring-shared; fi`)}t.ipcUts&&S.push('echo "ns-ipc $(readlink /proc/self/ns/ipc)"','echo "ns-uts $(readlink /proc/self/ns/uts)"','if [ -r /proc/sysvipc/msg ] && [ "$(wc -l < /proc/sysvipc/msg)" -gt 1 ]; then echo ipc-visible; fi');for(let o of l)S.push(`if [ -e ${s(I(o,m))} ]; then echo shared-visible ${s(o)}; fi`,`{ : > ${s(I(o,`${m}-left`))}; } 2>/dev/null || echo shared-unwritable ${s(o)}`);for(let o of p)S.push(`if { : > ${s(I(o,`${m}-left`))}; } 2>/dev/null; then echo shared-writable ${s(o)}; fi`);t.hasGit&&S.push(`if mv .git .git-probe-${r} 2>/dev/null; then mv .git-probe-${r} .git; echo git-renamed; fi`,`if [ -d .git ] && { : > .git/probe-${r}; } 2>/dev/null; then rm -f .git/probe-${r}; echo git-written; fi`,"if [ -f .git ] && { : >> .git; } 2>/dev/null; then echo git-written; fi");let u=i((o,a)=>{let g=["''",...[t.workspace,Q,...j,...t.readOnlyDirs].filter(w=>w!==o&&R(w,o)).map(w=>Xr(o,w).split(Vr)[0]).map(s)].join("|");return`ls -A ${s(o)} 2>/dev/null | while IFS= read -r n; do case "$n" in ${g}) ;; *) echo ${a} ${s(o)}/"$n";; esac; done`},"onlyWays");d&&S.push('while IFS=: read -r n _; do n=$(printf %s $n); case "$n" in lo|Inter-*|face*) ;; *) echo "interface-visible $n";; esac; done < /proc/net/dev',`if (exec 3<>/dev/tcp/127.0.0.1/${d.port}) 2>/dev/null; then echo host-loopback-reachable; fi`,'case "$( (exec 3<>/dev/tcp/127.0.0.1/1) 2>&1)" in *refused*) ;; *) echo loopback-down;; esac',t.network?.proxy?'case "${HTTPS_PROXY:-}" in http://127.0.0.1:*) (exec 3<>/dev/tcp/127.0.0.1/"${HTTPS_PROXY##*:}") 2>/dev/null || echo proxy-unreachable;; *) echo proxy-unset;; esac':'[ -z "${HTTPS_PROXY:-}" ] || echo proxy-set');for(let o=mt(t.workspace);o!=="/";o=mt(o))S.push(u(o,"above-visible"));for(let o of t.privateDirs)S.push(u(o,"private-visible"));for(let o of t.readOnlyDirs)S.push(`ls ${s(o)} >/dev/null 2>&1 || echo read-only-unreadable ${s(o)}`,`if { : > ${s(I(o,`probe-${r}`))}; } 2>/dev/null; then echo read-only-writable ${s(o)}; fi`);try{if(t.keyring&&!x)return"a key could not be put in patchloop's session keyring to probe with";let o=await Le({command:S.join(`
`),cwd:t.workspace,env:{...t.env,[ht]:n},sandbox:e,timeoutMs:3e4}),a=o.text.trim().split(`
`);if(o.exitCode!==0||o.spawnError)return`the probe command failed (${o.spawnError??`exit ${o.exitCode??o.signal}`}): ${a.slice(-3).join(" / ")}`;if(a[0]!==`uid ${t.uid}`)return`the probe ran as ${a[0]??"nobody"}, not uid ${t.uid}`;let f=Hr("sha256").update(Ur("/proc/self/environ")).digest("hex");if(a.some(y=>y.startsWith("environ ")&&y.includes(f)))return"the probe could read patchloop's /proc/<pid>/environ";if(!a.includes("workspace-writable"))return"the probe could not write in the workspace";if(o.text.includes(n))return"the probe saw a value it must not see";for(let y of t.ipcUts?["ipc","uts"]:[]){let A=a.find(v=>v.startsWith(`ns-${y} `))?.slice(`ns-${y} `.length);if(!A?.startsWith(`${y}:[`))return`the probe could not tell its ${y} namespace`;if(A===Gr(`/proc/self/ns/${y}`))return`the probe shares patchloop's ${y==="ipc"?"System V IPC":"host name"} namespace`}let g=[...l,...p].map(y=>I(y,`${m}-left`)).filter(y=>Kr(y));if(g.length)return`the probe left ${g.join(", ")} behind, outside its namespace`;let w=a.filter(y=>!y.startsWith("uid ")&&!y.startsWith("environ ")&&!y.startsWith("ns-")&&y!=="workspace-writable");return w.length?`the probe found: ${w.join("; ")}`:void 0}finally{d?.server.close();for(let o of c)Se(o,{force:!0});for(let o of[...l,...p])Se(I(o,`${m}-left`),{force:!0});x&&t.keyring&&tt(t.keyring,x),h&&$t(h.ipcrm,["-q",h.id],{stdio:"ignore"});for(let o of t.readOnlyDirs)for(let a of Yr(o))a===`probe-${r}`&&Se(I(o,a),{force:!0})}}i(yt,"selfCheck");function Yr(e){try{return Fr(e)}catch{return[]}}i(Yr,"safeList");function zr(){let e=E("ipcmk"),t=E("ipcrm");if(!e||!t)return;let r=$t(e,["-Q","-p","0600"],{encoding:"utf8"}),n=/(\d+)\s*$/.exec(r.stdout?.trim()??"")?.[1];return r.status===0&&n?{id:n,ipcrm:t}:void 0}i(zr,"plantQueue");var J="/run/lock";function Qr(e){try{let t=jr(J);return t.isDirectory()&&(t.mode&514)===514&&!(e.sharedReadOnly??[]).includes(J)&&!R(e.workspace,J)&&!R(J,e.workspace)}catch{return!1}}i(Qr,"isSharedLock");import{execFile as Jr}from"node:child_process";var Zr=4,en=3e4;function tn(e){return e.replace(/[*?[\]\\]/g,"\\$&")}i(tn,"literal");function gt(e,t){let r=["/proc","/sys",...t].flatMap((s,c)=>[...c?["-o"]:[],"-path",tn(s)]),n=["/","-mindepth","1","-maxdepth",String(Zr),"(",...r,")","-prune","-o","-type","d","-perm","-0002","-printf","%m %p\\0","-prune"];return new Promise((s,c)=>{Jr(e,n,{env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin",LC_ALL:"C"},encoding:"buffer",timeout:en,maxBuffer:4<<20},(d,l)=>{if(d&&(d.killed||d.signal||typeof d.code!="number")){c(new b(`the machine's world-writable folders could not be listed: ${d.message}`));return}let p={scratch:[],other:[]};for(let m of l.toString("utf8").split("\0")){let $=m.indexOf(" ");if($<0)continue;let x=parseInt(m.slice(0,$),8),h=m.slice($+1);!h.startsWith("/")||h==="/"||(x&512?p.scratch:p.other).push(h)}s(p)})})}i(gt,"findSharedDirs");var K=i(e=>({kind:"unavailable",reason:e}),"unavailable"),ce=["/media","/srv","/mnt","/opt","/run","/var"];function W(e){try{let t=on(e);return xt(t).isDirectory()?t:void 0}catch{return}}i(W,"realDir");function cn(){let e=["unshare","setpriv","mount","umount","mkdir","chown","chmod","find","prlimit","bash","sh","env","kill"],t={};for(let r of e){let n=E(r);if(!n)return`${r} is not installed (${r==="find"?"findutils":r==="bash"||r==="sh"?"a shell":"util-linux / coreutils"})`;t[r]=n}return t}i(cn,"resolveBins");async function dn(e,t){let r=ze(t);if(typeof r=="string")return r;let n="";for(let s of r){let c=await Qe(s,e);if(c==="works"||c==="refused")return{tool:s,works:c==="works"};n=c}return n}i(dn,"findKeyring");async function ln(e){try{return await e()}catch(t){if(!(t instanceof b))throw t;return e()}}i(ln,"retryOnce");function un(e,t,r){let{account:n,root:s}=e,c=new Set([...Ae,...t]);return{outputFileMode:420,envOptions:{pass:t,privateDirs:r},wrap(d){let l={};for(let[x,h]of Object.entries(d.env))c.has(x)&&(l[x]=h);l.PATH=Ne(l.PATH,r),l.HOME=Q,l.TMPDIR="/tmp",l.USER=n.user,l.LOGNAME=n.user;let p=Number(l.GIT_CONFIG_COUNT??0)||0;l[`GIT_CONFIG_KEY_${p}`]="safe.directory",l[`GIT_CONFIG_VALUE_${p}`]="*",l.GIT_CONFIG_COUNT=String(p+1),Object.assign(l,d.ownEnv);let m=e.overlay?.access;if(!m)return ae(e,d.command,d.cwd,l,d.timeoutMs);if(d.readOnlyWorkspace)return ae(e,d.command,d.cwd,l,d.timeoutMs,{readOnly:!0});m.verify();let $=m.next++;return{...ae(e,d.command,d.cwd,l,d.timeoutMs,{layer:$}),settle:i(()=>m.apply($),"settle")}},signal:i(((d,l)=>{if(!s.viaSudo){try{process.kill(-d,l)}catch{}return}an(s.prefix[0],[...s.prefix.slice(1),e.bins.kill,"-s",l.replace(/^SIG/,""),"--",`-${d}`],{stdio:"ignore",timeout:1e4})}),"signal")}}i(un,"makeSandbox");var wt=new Map,kt=new Map;function St(e,t){let r=kt.get(t);return r||(r=ln(()=>Fe(e.root,t)),r.catch(()=>{}),kt.set(t,r)),r}i(St,"accountOf");function pn(e=te,t=[]){let r=[e,...[...t].sort()].join("\0"),n=wt.get(r);return n||(n=(async()=>{if(process.platform!=="linux")return`commands cannot be isolated on ${process.platform}; only Linux is supported`;let s=await Ke();if(typeof s=="string")return`commands cannot run as another user: ${s}`;let c=cn();if(typeof c=="string")return`commands cannot be isolated: ${c}`;let[d,l,p]=await Promise.all([T(s,c.unshare,[...ie(!1),"--",c.mount,"-t","tmpfs","patchloop-probe","/tmp"]),fn(s,c),dn(c.sh,t)]);if(d.code!==0)return`no PID and mount namespace for commands here (${N(d.stderr)||`exit ${d.code}`})`;if(typeof p=="string")return`commands cannot be isolated: ${p}`;let m={...c,keyring:p.tool},$={root:s,bins:m,network:l,keyrings:p.works};return St($,e),$})(),n.catch(()=>{}),wt.set(r,n)),n}i(pn,"probeMachine");async function fn(e,t){let r=E("ip");if(!r)return"ip (iproute2) is not installed, so a command network namespace cannot get its loopback";let n=await T(e,t.unshare,[...ie(!0),"--",r,"link","set","lo","up"]);return n.code!==0?`no network namespace for commands here (${N(n.stderr)||`exit ${n.code}`})`:{ip:r}}i(fn,"probeNetwork");async function mn(e,t){let r=nn(ve(sn(),"patchloop-net-"));rn(r,457);try{return{proxy:await pt({hosts:e,socketPath:ve(r,"proxy.sock"),...t}),dir:r}}catch(n){throw bt(r,{recursive:!0,force:!0}),new b(`the network proxy could not be started: ${n.message}`)}}i(mn,"startProxy");async function Vo(e){let t=await hn(e);return t.kind==="isolated"&&await t.ready,t}i(Vo,"createSandbox");async function hn(e){if(e.mode==="off")return K("turned off");if(process.platform!=="linux")return K(`commands cannot be isolated on ${process.platform}; only Linux is supported`);let t=e.env??process.env,r=new Set(e.weaken??[]),n=W(e.workspace);if(!n)throw new b(`the workspace ${e.workspace} is not a folder`);if(n==="/"||n==="/tmp")throw new b(`the workspace cannot be ${n} itself`);let s=await pn(e.user,e.hideBins);if(typeof s=="string")return K(s);let{root:c,bins:d}=s,l=e.network??{kind:"none"},p=l.kind!=="all"&&!r.has("network");if(p&&typeof s.network=="string")return K(s.network);let m=E("setfacl")?"acl":"group",$=e.access??"overlay",x=n.split("/").filter(Boolean),h=x.length>1&&!r.has("hide-above")?`/${x[0]}`:void 0,S=ce.map(W).find(k=>k!==void 0&&!(h&&R(k,h))&&!R(n,k)&&!R(k,n));if(!S)throw new b(`none of ${ce.join(", ")} can hold the workspace's mounts`);let u=E("perl"),o=E("rm"),a=oe(),f=u&&o?{find:d.find,perl:u,unshare:d.unshare,mount:d.mount,sh:d.sh,mkdir:d.mkdir,rm:o}:void 0,g=$!=="overlay"?void 0:f?a?ct(c,n,f,S).catch(k=>`the overlay could not be tried: ${k.message}`):Promise.resolve(`Perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}`):Promise.resolve("perl is not installed"),w=j.map(W).filter(k=>k!==void 0&&!R(n,k)&&!R(k,n)),y=[...new Set((e.privateDirs??(t.RUNNER_TEMP?[t.RUNNER_TEMP]:[])).map(W))].filter(k=>k!==void 0&&k!=="/"),A=r.has("private-dirs")?[]:y.filter(k=>!(h&&R(k,h))&&!w.some(M=>R(k,M))&&!R(n,k)),v=ve(n,".git"),O=(()=>{try{let k=xt(v);return k.isDirectory()||k.isFile()}catch{return!1}})(),X=[...new Set((e.readOnlyDirs??[]).map(W))].filter(k=>k!==void 0&&k!=="/"),vt=[...O&&!r.has("read-only-git")?[v]:[],...X],de={...ye,...e.limits},Pe=Math.min(de.processes,ge().processes??1/0),Pt=(e.commandEnv??[]).filter(Te),[F,Re]=await Promise.all([St(s,e.user??te),g]);if(Re){if(e.access==="overlay")return K(Re);$=m}if($==="acl"&&!E("setfacl"))return K("setfacl (package acl) is not installed");if($==="group"&&c.viaSudo)return K("setfacl (package acl) is needed to share the workspace when not running as root");let C=p&&l.kind==="hosts"?await mn(l.hosts,e.proxyOverride):void 0,_e=i(async()=>{C&&(await C.proxy.close(),bt(C.dir,{recursive:!0,force:!0}))},"closeProxy"),_={root:c,account:F,bins:d,workspace:n,hide:h,hideMode:h&&j.includes(h)?"1777":"0755",stash:S,scratch:w,sticky:j.filter(k=>h&&k!==h&&R(k,h)&&R(n,k)),covered:A,shared:[],sharedReadOnly:[],freshKeyring:s.keyrings&&!r.has("keyring"),keepIpcUts:r.has("ipc-uts"),readOnly:vt,limits:r.has("limits")?void 0:de,groupRefresh:$==="group",...p&&typeof s.network!="string"?{network:{ip:s.network.ip,...C?{bridge:{node:process.execPath,socketDir:C.dir}}:{}}}:{}},le={...un(_,Pt,y),network:{mark:i(()=>C?.proxy.refusals()??0,"mark"),note:i((k,M)=>He(l,C?C.proxy.refusedSince(k):[],M),"note")}},Oe=!1,Rt={...le,wrap(k){if(!Oe)throw new b("no command runs before the sandbox self-check has passed");return le.wrap(k)}},U,ue,pe=(async()=>{await new Promise(P=>setImmediate(P)),_.groupRefresh&&(_.refreshSince=Date.now()-se);let k=i(P=>($=P,_.groupRefresh=P==="group",_.groupRefresh&&(_.refreshSince=Date.now()-se),qe(c,F,n,P).then(L=>U=L)),"openWalks");ue=$==="overlay"&&f&&a?dt(c,n,{...f,chown:d.chown},F.uid).then(P=>{if(typeof P!="string"){_.overlay={perl:f.perl,syscalls:a,access:r.has("cover-private")?{...P,hidden:{folders:[],files:[]}}:P,inPlace:r.has("overlay-in-place")},r.has("apply-follows-links")&&(P.followLinks=!0),U={method:"overlay",revoke:i(()=>P.dispose(),"revoke")};return}if(e.access==="overlay")throw new b(P);if(m==="group"&&c.viaSudo)throw new b(`${P}, and setfacl (package acl) is needed to share it when not running as root`);return k(m)}):k($);let[,M]=await Promise.all([ue,r.has("shared-dirs")?{scratch:[],other:[]}:gt(d.find,[h??n,n,...w,...y,...X])]),Z=i(P=>!R(n,P)&&!R(P,n),"apart");if(_.shared=M.scratch.filter(Z),_.sharedReadOnly=M.other.filter(Z),[..._.shared,..._.sharedReadOnly].some(P=>R(P,S)||R(S,P))){let P=ce.map(W).find(L=>L!==void 0&&!(h&&R(L,h))&&!R(n,L)&&!R(L,n)&&![..._.shared,..._.sharedReadOnly].some(Ee=>R(Ee,L)||R(L,Ee)));if(!P)throw new b(`none of ${ce.join(", ")} can hold the workspace's mounts apart from the world-writable folders`);_.stash=P}if(e.selfCheck!==!1){let P=i(()=>yt(le,{uid:F.uid,workspace:n,hasGit:O,privateDirs:y,readOnlyDirs:X,processes:r.has("limits")?void 0:Pe,env:t,network:_.network?{proxy:C!==void 0}:void 0,keyring:s.keyrings?d.keyring:void 0,ipcUts:!0,shared:_.shared,sharedReadOnly:_.sharedReadOnly}),"check"),L=await P()&&await P();if(L)throw new b(`the sandbox self-check failed: ${L}`)}Oe=!0})().catch(async k=>{await ue?.catch(()=>{});let M=U;throw U=void 0,await Promise.all([M?.revoke(),_e()]).catch(Z=>{throw new b(`${k.message}; and then: ${Z.message}`)}),k});pe.catch(()=>{});let _t=i(()=>[`commands run as user ${F.user} (uid ${F.uid}) in their own PID and mount namespace`,_.keepIpcUts?"":"with their own System V IPC and host name",_.freshKeyring?"a session keyring of their own":"",h?"with everything above the workspace hidden":"",y.length?`${y.join(", ")} hidden`:"",O?".git read-only":"",$==="overlay"?"the workspace as an overlay whose writes patchloop moves in after each command":`${$==="acl"?"ACL":"group"} access to the workspace`,`network: ${_.network?ee(l):ee({kind:"all"})}`,r.has("limits")?"":`limits of ${Pe} processes and ${Math.round(de.fileBytes/1024**2)} MiB per file`].filter(Boolean).join(", "),"describe"),Ot;return{kind:"isolated",sandbox:Rt,get reason(){return _t()},ready:pe,dispose:i(()=>Ot??=pe.then(()=>{let k=U;return U=void 0,Promise.all([k?.revoke(),_e()]).then(()=>{})},()=>{}),"dispose"),network:{policy:_.network?l:{kind:"all"},refused:i(()=>C?.proxy.refused()??[],"refused")}}}i(hn,"startSandbox");export{gn as a,ee as b,De as c,wn as d,pn as e,Vo as f,hn as g};
