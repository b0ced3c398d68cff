import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{n as De}from"./chunk-LDZVIREE.js";import{D as Be,k as P,u as Ce,v as Ie,w as Me}from"./chunk-NQHI6V7R.js";import{a as o}from"./chunk-4X7ZATFQ.js";import{BlockList as He,isIP as It}from"node:net";var Mt=/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;function Rn(e){let t=e.trim().toLowerCase();if(t===""||t==="none")return{kind:"none"};if(t==="all")return{kind:"all"};let r=t.split(/[,\n]/).map(s=>s.trim().replace(/\.$/,"")).filter(Boolean),n=r.find(s=>!Mt.test(s));if(n!==void 0)throw new Error(`command-network is none, all, or host names such as registry.npmjs.org or *.pythonhosted.org (comma- or newline-separated); "${n}" is not a host name.`);return{kind:"hosts",hosts:[...new Set(r)]}}o(Rn,"parseCommandNetwork");function q(e){return e.trim().toLowerCase().replace(/^\[(.*)\]$/,"$1").replace(/\.$/,"")}o(q,"normalHost");function Ke(e,t){let r=q(t);return e.some(n=>n.startsWith("*.")?r.endsWith(n.slice(1))&&r.length>n.length-1:r===n)}o(Ke,"hostAllowed");var[Dt,Bt]=(()=>{let e=new He,t=new He,r=[["0.0.0.0",8],["10.0.0.0",8],["100.64.0.0",10],["127.0.0.0",8],["169.254.0.0",16],["172.16.0.0",12],["192.0.0.0",24],["192.0.2.0",24],["192.88.99.0",24],["192.168.0.0",16],["198.18.0.0",15],["198.51.100.0",24],["203.0.113.0",24],["224.0.0.0",3]],n=[["::",96],["64:ff9b:1::",48],["100::",64],["2001::",23],["2001:db8::",32],["2002::",16],["fc00::",7],["fe80::",10],["fec0::",10],["ff00::",8]];for(let[s,c]of r)e.addSubnet(s,c,"ipv4");for(let[s,c]of n)t.addSubnet(s,c,"ipv6");return[e,t]})();function he(e){let t=It(e);if(t===0)return!1;if(t===4)return!Dt.check(e,"ipv4");let r=/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(e);return r?he(r[1]):/^::ffff:/i.test(e)?!1:!Bt.check(e,"ipv6")}o(he,"isPublicAddress");var Ht=10;function ee(e){return e.kind==="none"?"none (each command has its own loopback only)":e.kind==="all"?"all (commands use the runner\u2019s network)":`HTTP and HTTPS to ${e.hosts.join(", ")} only, through patchloop\u2019s proxy`}o(ee,"describeNetwork");function Fe(e,t=Ht){let r=e.slice(0,t).map(n=>n.count>1?`${n.host} (${n.count}\xD7)`:n.host);return e.length>t&&r.push(`and ${e.length-t} more`),r.join(", ")}o(Fe,"listRefused");function _n(e,t){let r=ee(e);return t.length?`${r}; refused: ${Fe(t)}`:r}o(_n,"networkSummaryLine");var Kt=/ENETUNREACH|EAI_AGAIN|Network is unreachable|Could not resolve host|Temporary failure in name resolution|getaddrinfo ENOTFOUND|Name or service not known/i;function Ue(e,t,r){if(e.kind!=="all"){if(t.length)return`[command-network refused ${Fe(t,5)} (${t[0].reason}). Commands may reach only ${e.kind==="hosts"?e.hosts.join(", "):"their own loopback"}; the workflow's command-network input sets this.]`;if(Kt.test(r))return e.kind==="none"?"[command-network is none: commands have no network but their own loopback, so downloads and outside services fail. The workflow\u2019s command-network input can allow hosts.]":`[command-network allows only HTTP and HTTPS to ${e.hosts.join(", ")}, through the proxy in HTTPS_PROXY / HTTP_PROXY; a program that ignores those variables finds no network.]`}}o(Ue,"networkNote");import{chmodSync as un,lstatSync as _t,mkdtempSync as pn,realpathSync as fn,rmSync as Ot}from"node:fs";import{tmpdir as mn}from"node:os";import{spawnSync as $n}from"node:child_process";import{join as Oe}from"node:path";import{chmodSync as Vt,lchownSync as Yt,lstatSync as oe,mkdtempSync as zt,readFileSync as ne,realpathSync as Qt,rmSync as Jt,writeFileSync as Zt}from"node:fs";import{tmpdir as er}from"node:os";import{join as M}from"node:path";var v=class extends Error{static{o(this,"SandboxSetupError")}constructor(t){super(t),this.name="SandboxSetupError"}};import{execFile as Ft}from"node:child_process";import{existsSync as Ut,readFileSync as Gt,statSync as jt}from"node:fs";import{join as Wt}from"node:path";var te="patchloop-sandbox";function G(e,t,r={}){return new Promise(n=>{Ft(e,t,{cwd:r.cwd,env:r.env??{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"},encoding:"utf8",timeout:r.timeoutMs??12e4,maxBuffer:r.maxBuffer??4<<20},(s,c,d)=>{let l=s?typeof s.code=="number"?s.code:127:0;n({code:l,stdout:String(c),stderr:String(d||(s&&l===127?s.message:""))})})})}o(G,"run");function N(e){return e.trim().split(`
`)[0]??""}o(N,"firstLine");var qt=["/usr/bin","/bin","/usr/sbin","/sbin"];function A(e){for(let t of qt){let r=Wt(t,e);try{if(jt(r).isFile())return r}catch{}}}o(A,"systemBin");async function je(){if(process.getuid?.()===0)return{prefix:[],viaSudo:!1};let e=A("sudo");return e?(await G(e,["-n","true"],{timeoutMs:1e4})).code!==0?"not root, and sudo asks for a password":{prefix:[e,"-n","--"],viaSudo:!0}:"not root, and sudo is not installed"}o(je,"findRootAccess");function L(e,t,r,n={}){let[s,c]=ye(e,t,r);return G(s,c,n)}o(L,"asRoot");function ye(e,t,r){return e.prefix.length?[e.prefix[0],[...e.prefix.slice(1),t,...r]]:[t,r]}o(ye,"rootArgv");function Xt(e){let t;try{t=Gt("/etc/passwd","utf8")}catch{return}for(let r of t.split(`
`)){let n=r.split(":");if(n[0]!==e||n.length<7)continue;let s=Number(n[2]),c=Number(n[3]);return n[2]===""||n[3]===""||!Number.isInteger(s)||!Number.isInteger(c)?void 0:{user:e,uid:s,gid:c}}}o(Xt,"localAccount");async function Ge(e){let t=Xt(e);if(t)return t;let r=A("getent");if(!r)return;let n=await G(r,["passwd",e]);if(n.code!==0)return;let s=n.stdout.trim().split(":");return{user:e,uid:Number(s[2]),gid:Number(s[3])}}o(Ge,"lookup");async function We(e,t){let r=await Ge(t);if(!r){let n=A("useradd");if(!n)throw new v("useradd is not installed, so the sandbox user cannot be created");let s=["/usr/sbin/nologin","/sbin/nologin"].find(d=>Ut(d))??"/bin/false",c=await L(e,n,["--system","--user-group","--no-create-home","--home-dir","/nonexistent","--shell",s,t]);if(r=await Ge(t),!r)throw new v(`could not create user ${t}: ${N(c.stderr)||`exit ${c.code}`}`)}if(!Number.isInteger(r.uid)||r.uid===0||!Number.isInteger(r.gid)||r.gid===0)throw new v(`user ${t} exists but is not an unprivileged user (uid ${r.uid})`);return r}o(We,"ensureUser");function ze(e,t){if(t.code!==0)throw new v(`${e}: ${N(t.stderr)||`exit ${t.code}`}`)}o(ze,"check");async function re(e,t){(await t()).code!==0&&ze(e,await t())}o(re,"twice");var tr=["-type","f","-links","1","-perm","-004"],rr=["-type","f","(","-links","+1","-o","!","-perm","-004",")"],Qe=o(e=>["-type","d","!","-perm","-001","!","-samefile",e],"privateFolder");function B(e){let t=A(e);if(!t)throw new v(`${e} is not installed`);return t}o(B,"need");var qe=3130;function X(e,t,r,n,s){return L(e,t,["-c",'f=$1; shift; exec "$@" > "$f"',"patchloop-walk",r,n,...s])}o(X,"toFile");var ge=o((e,t)=>["-type","d","!","-perm","-001","!","-user",String(t),"!","-samefile",e,"-prune"],"closedFolder"),Je=o((e,t)=>["-user",String(t),"-exec",B("chown"),"-h",String(oe(e).uid),"{}","+","-false"],"toOwner"),nr=o(e=>e.replace(/\\([0-7]{3})/g,(t,r)=>String.fromCharCode(parseInt(r,8))),"unescapeAcl");function Xe(e){let t=[];for(let r of e.split(`

`)){let n=/^# file: (.*)$/m.exec(r);n&&t.push({path:nr(n[1]),text:r.trim()})}return t}o(Xe,"aclBlocks");function Ve(e){let t=Buffer.from(e,"latin1");try{return oe(t).isSymbolicLink()?!1:Qt(t,{encoding:"buffer"}).equals(t)}catch{return!1}}o(Ve,"leadsToItself");function Ye(e){let t=new Map;for(let r of e.split("\0")){let n=/^(\d+) ([0-7]+) (\d+) (\w) ([^]*)$/.exec(r);n&&t.set(n[5],{ino:BigInt(n[1]),mode:parseInt(n[2],8),gid:Number(n[3]),type:n[4]})}return t}o(Ye,"marks");function we(e){Jt(e,{recursive:!0,force:!0})}o(we,"cleanup");async function Ze(e,t,r,n){let s=M(r,".git"),c=(()=>{try{return oe(s).isDirectory()}catch{return!1}})();if(n==="group"&&e.viaSudo)throw new v("setfacl (package acl) is needed to share the workspace when not running as root");let d=B("find"),l=B("sh"),p=zt(M(er(),"patchloop-access-"));try{return n==="acl"?await or(e,t,r,s,c,{find:d,sh:l,dir:p}):await sr(e,t,r,s,c,{find:d,sh:l,dir:p})}catch($){throw we(p),$}}o(Ze,"openWorkspace");async function or(e,t,r,n,s,{find:c,sh:d,dir:l}){let p=B("setfacl"),$=B("getfacl"),h=t.user,y=M(l,"before.acl");await re("could not read the workspace's ACLs",()=>X(e,d,y,c,[r,...ge(r,t.uid),"-o","!","-type","l","-exec",$,"-s","-P","-p","--","{}","+"]));let f=o(async()=>{try{let a=M(l,"linked.acl"),m=await X(e,d,a,c,[r,...ge(r,t.uid),"-o",...Je(r,t.uid),"-o","-type","f","-links","+1","-exec",$,"-s","-P","-p","--","{}","+","-o","!","-type","l","-exec",p,"-P","-b","--","{}","+"]),k=[];m.code!==0&&k.push(N(m.stderr)||`exit ${m.code}`);let x=new RegExp(`^(default:)?user:${h.replace(/[.*+?^${}()|[\]\\]/g,"\\$&")}:`,"m"),b=Xe(ne(a,"latin1")).filter(S=>x.test(S.text)&&Ve(S.path)).map(S=>S.path);for(let S=0;S<b.length;S+=500){let E=await L(e,p,["-P","-b","--",...b.slice(S,S+500)]);E.code!==0&&k.push(N(E.stderr)||`exit ${E.code}`)}let O=Xe(ne(y,"latin1")).filter(S=>Ve(S.path));if(O.length){let S=M(l,"restore.acl");Zt(S,O.map(J=>J.text).join(`

`)+`

`,{encoding:"latin1",mode:384});let E=await L(e,p,[`--restore=${S}`]);E.code!==0&&k.push(N(E.stderr)||`exit ${E.code}`)}if(k.length)throw new v(`the workspace's ACLs were not all put back: ${k[0]}`)}finally{we(l)}},"revoke"),w=process.getuid?.()??0,u=w===0?"":`,d:u:${w}:rwX`,i=o((a,m,k)=>L(e,c,[a,...k,...Qe(a),"-prune","-o","-type","d","-exec",p,"-P","-m",`u:${h}:${m},d:u:${h}:${m}${u},d:o::rX`,"{}","+","-o",...tr,"-exec",p,"-P","-m",`u:${h}:${m}`,"{}","+"]),"grant");try{await re(`could not open the workspace to ${h}`,()=>i(r,"rwX",["-path",n,"-prune","-o"])),s&&await re(`could not make .git read-only to ${h}`,()=>i(n,"rX",[]))}catch(a){throw await f().catch(()=>{}),a}return{method:"acl",revoke:f}}o(or,"openAcl");async function sr(e,t,r,n,s,{find:c,sh:d,dir:l}){let p=B("chmod"),$=B("chown"),h=String(t.gid),y=["-printf","%i %m %G %y %p\\0"],f=o(a=>X(e,d,a,c,[r,...y,"(","-path",n,"-prune","-o",...rr,"-prune","-o",...Qe(r),"-prune","-o","!","-group",h,"-exec",$,"-h",`:${h}`,"{}","+","-false","-o","-type","d","!","-perm","-2070","-exec",p,"g+rwxs","{}","+","-o","!","-type","d","!","-type","l","!","-perm","-060","-exec",p,"g+rw","{}","+",")"]),"open"),w=o(a=>X(e,d,a,c,[n,"!","-type","l","-perm","-002",...y,"-exec",p,"o-w","{}","+"]),"closeGit"),u=[],i=o(async()=>{try{await ir(e,t,r,c,d,l,u)}finally{we(l)}},"revoke");try{if(await re(`could not give the workspace to group ${t.user}`,()=>{let a=M(l,`open-${u.length}`);return u.push(a),f(a)}),s){let a=M(l,"git");u.push(a),ze("could not make .git read-only to others",await w(a))}}catch(a){throw await i().catch(()=>{}),a}return{method:"group",revoke:i}}o(sr,"openGroup");async function ir(e,t,r,n,s,c,d){let l=new Map;for(let u of d){let i;try{i=ne(u,"latin1")}catch{continue}for(let[a,m]of Ye(i))l.has(a)||l.set(a,m)}let p=M(c,"after"),$=await X(e,s,p,n,[r,...ge(r,t.uid),"-printf","%i %m %G %y %p\\0","-o",...Je(r,t.uid),"-o","-printf","%i %m %G %y %p\\0"]),h=[];$.code!==0&&h.push(N($.stderr)||`exit ${$.code}`);let y=oe(r),f=new Map,w=o(u=>u.slice(0,u.lastIndexOf("/"))||"/","parentOf");for(let[u,i]of Ye(ne(p,"latin1"))){let a=l.get(u),m=Buffer.from(u,"latin1"),k=i.gid,x=i.mode;a&&a.ino===i.ino?(k=a.gid,x=i.mode&~qe|a.mode&qe):i.gid===t.gid&&(k=f.get(w(u))??(a?a.gid:y.gid),i.type==="d"&&!(a&&a.mode&1024)&&(x=i.mode&-1025));try{k!==i.gid&&Yt(m,-1,k),i.type!=="l"&&(x!==i.mode||k!==i.gid)&&Vt(m,x)}catch(b){b.code!=="ENOENT"&&h.push(`${u}: ${b.message}`)}i.type==="d"&&f.set(u,k)}if(h.length)throw new v(`the workspace's groups and modes were not all put back (${h.length}): ${h[0]}`)}o(ir,"restoreGroup");import{spawnSync as et}from"node:child_process";var ar={x64:{keyctl:250,addKey:248,arch:"x86_64"},arm64:{keyctl:219,addKey:217,arch:"aarch64"}},V=["-t","-X"],cr=String.raw`my $nr = 0 + shift @ARGV;
for my $ring (-4, -5) {
  if (syscall($nr, 7, $ring) != 0) { print STDERR "patchloop sandbox: the sandbox user's keyrings cannot be emptied\n"; exit 125; }
}
if (syscall($nr, 1, undef) < 0) { print STDERR "patchloop sandbox: no session keyring of its own: $!\n"; exit 125; }
exec { $ARGV[0] } @ARGV;
print STDERR "patchloop sandbox: $ARGV[0]: $!\n";
exit 127;`,dr=String.raw`k=$1 sh=$2; shift 2
{ "$k" clear @u && "$k" clear @us; } || { echo "patchloop sandbox: the sandbox user's keyrings cannot be emptied" >&2; exit 125; }
exec 3>&2
exec "$k" session - "$sh" -c 'exec 2>&3 3>&-; exec "$@"' patchloop-keyring "$@" 2>/dev/null`,lr=String.raw`my ($nr, $arch) = @ARGV;
require Config;
exit 3 unless $Config::Config{archname} =~ /^\Q$arch\E-linux/ && $Config::Config{ptrsize} == 8;
if (syscall(0 + $nr, 1, undef) < 0) { print 0 + $!; exit 4; }
exit 0;`,ur=String.raw`my ($nr, $name) = @ARGV;
local $/;
my $value = <STDIN>;
$value = '' unless defined $value;
my $type = 'user';
my $id = syscall(0 + $nr, $type, $name, $value, length($value), -3);
exit 1 if $id < 0;
print $id;`,pr=String.raw`my ($nr, $id, $name) = @ARGV;
$nr = 0 + $nr;
my $buf = "\0" x 4096;
exit 0 if syscall($nr, 11, 0 + $id, $buf, 4096) >= 0;
my $type = 'user';
exit 0 if syscall($nr, 10, -3, $type, $name, 0) > 0;
exit 1;`,fr=String.raw`my ($nr, $id) = @ARGV;
exit(syscall(0 + $nr, 9, 0 + $id, -3) == 0 ? 0 : 1);`,mr=new Set([1,38]);function tt(e=[]){let t=[],r=e.includes("perl")?void 0:A("perl"),n=ar[process.arch];r&&n&&t.push({kind:"perl",perl:r,...n});let s=e.includes("keyctl")?void 0:A("keyctl");return s&&t.push({kind:"keyctl",keyctl:s}),t.length?t:r?`keyctl is not installed (keyutils), and perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}: each command gets a keyring of its own with one of them`:"neither perl nor keyctl is installed (perl-base or keyutils): each command gets a keyring of its own with one of them"}o(tt,"findKeyringTools");async function rt(e,t){if(e.kind==="keyctl")return(await G(e.keyctl,["session","-",t,"-c","exit 0"])).code===0?"works":"refused";let r=await G(e.perl,[...V,"-e",lr,"--",String(e.keyctl),e.arch]);return r.code===0?"works":r.code===4&&mr.has(Number(r.stdout.trim()))?"refused":r.code===3?`${e.perl} is not a 64-bit ${e.arch} perl`:`${e.perl} could not join a session keyring (exit ${r.code}${r.stdout.trim()?`, errno ${r.stdout.trim()}`:""})`}o(rt,"probeKeyrings");function nt(e,t){return e.kind==="perl"?[e.perl,...V,"-e",cr,"--",String(e.keyctl)]:[t,"-c",dr,"patchloop-keyring",e.keyctl,t]}o(nt,"keyringStep");var ot={PATH:"/usr/sbin:/usr/bin:/sbin:/bin"};function st(e,t,r){let[n,s]=e.kind==="perl"?[e.perl,[...V,"-e",ur,"--",String(e.addKey),t]]:[e.keyctl,["padd","user",t,"@s"]],c=et(n,s,{input:r,encoding:"utf8",env:ot,timeout:1e4}),d=c.stdout?.trim();return c.status===0&&/^\d+$/.test(d??"")?d:void 0}o(st,"plantKey");function it(e,t){let[r,n]=e.kind==="perl"?[e.perl,[...V,"-e",fr,"--",String(e.keyctl),t]]:[e.keyctl,["unlink",t,"@s"]];et(r,n,{stdio:"ignore",env:ot,timeout:1e4})}o(it,"unlinkKey");function at(e,t,r){return e.kind==="perl"?[[e.perl,...V,"-e",pr,"--",String(e.keyctl),t,r]]:[[e.keyctl,"print",t],[e.keyctl,"search","@s","user",r]]}o(at,"keyLookup");import{join as Or}from"node:path";import{readFileSync as $r}from"node:fs";var ke={processes:1024,dataBytes:8*1024**3,fileBytes:2*1024**3,openFiles:8192},hr=3600,yr={processes:"Max processes",dataBytes:"Max data size",fileBytes:"Max file size",openFiles:"Max open files",cpuSeconds:"Max cpu time"};function be(e){let t=e;if(t===void 0)try{t=$r("/proc/self/limits","latin1")}catch{return{}}let r={};for(let[n,s]of Object.entries(yr)){let d=t.split(`
`).find(l=>l.startsWith(s))?.slice(s.length).trim().split(/\s+/)[1];d&&(r[n]=d==="unlimited"?1/0:Number(d))}return r}o(be,"currentHardLimits");function ct(e,t,r=be()){let n=e.cpuSeconds??(t!==void 0&&t>0?Math.ceil(t/1e3):hr),s=o((c,d)=>String(Math.max(1,Math.floor(Math.min(d,r[c]??1/0)))),"n");return[`--nproc=${s("processes",e.processes)}`,`--data=${s("dataBytes",e.dataBytes)}`,`--fsize=${s("fileBytes",e.fileBytes)}`,`--nofile=${s("openFiles",e.openFiles)}`,`--cpu=${s("cpuSeconds",n)}`]}o(ct,"prlimitArgs");import{spawn as gr}from"node:child_process";import{lstatSync as Y,mkdtempSync as lt,readdirSync as wr,realpathSync as kr,rmSync as br}from"node:fs";import{availableParallelism as xr,tmpdir as ut}from"node:os";import{join as H}from"node:path";var vr={x64:{unshare:272,lgetxattr:192,lremovexattr:198,fchownat:260,mknodat:259,mount:165,setfsuid:122,setfsgid:123,setgroups:116},arm64:{unshare:97,lgetxattr:9,lremovexattr:15,fchownat:54,mknodat:33,mount:40,setfsuid:151,setfsgid:152,setgroups:159}};function pt(){return vr[process.arch]}o(pt,"overlaySyscalls");var ve=String.raw`use strict;
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
exit 0;`,Sr=String.raw`use strict;
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
exit 0;`,ft=["-t","-X"],dt=5e3;function se(e){return/^[^,:\\\s]+$/.test(e)}o(se,"isPlainPath");function xe(...e){return[65534,65533,65532].find(t=>!e.includes(t))}o(xe,"readerId");function Se(e,t,r,n,s){return[String(t.uid),String(r.uid),String(t.gid),String(r.gid),n===void 0?"":String(n),String(e.setfsuid),String(e.setfsgid),String(e.setgroups),String(s.folders.length),String(s.files.length),...s.folders,...s.files]}o(Se,"prepArgs");async function mt(e,t,r,n){let s=Y(t),c={uid:s.uid,gid:s.gid},d=xe(c.uid,c.gid),l={uid:d,gid:d},p=o(async h=>{let y=lt(H(ut(),"patchloop-overlay-probe-"));try{if(!se(y))return`${y} cannot be named in the overlay's options`;let f=await L(e,r.unshare,["--mount","--propagation","private","--",r.perl,...ft,"-e",ve,"--",h?"probe":"overlay",String(n.unshare),String(n.mount),t,y,H(y,"layer"),...Se(n,c,l,h?xe(c.uid,c.gid,d):void 0,{folders:[],files:[]})]);return f.code===0?void 0:`no idmapped overlay of the workspace here (${N(f.stderr)||`exit ${f.code}`})`}finally{await L(e,r.rm,["-rf","--",y])}},"attempt");return(s.mode&5)===5&&await p(!0)===void 0?{filter:!0}:await p(!1)??{filter:!1}}o(mt,"tryOverlay");async function Pr(e,t,r,n,s){let c=H(t,".git"),d=["-type","d","!","-perm","-001","-prune","-printf","d%p\\0","-o","-type","f","!","-perm","-004","-printf","f%p\\0","-o","-user",String(s),"-printf","u%p\\0"],l=o(async a=>{let m=await L(e,r.find,a,{maxBuffer:1073741824,timeoutMs:18e5});if(m.code!==0)throw new v(`could not list the workspace's private paths: ${N(m.stderr)||`exit ${m.code}`}`);return m.stdout},"walk"),p=t.replace(/[[\]*?\\]/g,"\\$&"),$=await l([t,"-maxdepth","2","(","-path",c,"-prune","-o","-samefile",t,"-o","-path",`${p}/*/*`,"-type","d","-perm","-001","-printf","r%p\\0","-o",...d,")"]),h=$.split("\0").filter(a=>a[0]==="r").map(a=>a.slice(1)),y=Math.max(1,Math.min(xr(),8,h.length)),f=await Promise.all(Array.from({length:h.length?y:0},(a,m)=>l([...h.filter((k,x)=>x%y===m),...d]))),w=new Map,u=[$,...f].join("\0").split("\0").filter(Boolean),i=u.filter(a=>a[0]==="u").map(a=>a.slice(1));for(let a=0;a<i.length;a+=500){let m=await L(e,r.chown,["-h","--",`${n.uid}:${n.gid}`,...i.slice(a,a+500)]);if(m.code!==0)throw new v(`could not give an earlier run's files back to the checkout's owner: ${N(m.stderr)||`exit ${m.code}`}`)}for(let a of u){if(a[0]!=="d"&&a[0]!=="f")continue;let m=a.slice(1);try{let k=Y(m);w.set(m,{dev:k.dev,ino:k.ino,folder:a[0]==="d"})}catch{}}return w}o(Pr,"findPrivate");async function $t(e,t,r,n,s,c){let d=Y(t),l={uid:d.uid,gid:d.gid},p=c?new Map:await Pr(e,t,r,l,s.uid);if(p.size>dt)return`the workspace holds ${p.size} paths others may not read (more than ${dt})`;let $=lt(H(ut(),"patchloop-overlay-"));if(!se($))return br($,{recursive:!0,force:!0}),`${$} cannot be named in the overlay's options`;let h=o(f=>f.slice(t.length+1),"relative"),y={owner:l,...c?{reader:xe(l.uid,l.gid,s.uid,s.gid)}:{},hidden:{folders:[...p].filter(([,f])=>f.folder).map(([f])=>f),files:[...p].filter(([,f])=>!f.folder).map(([f])=>f)},state:$,next:0,verify(){for(let[f,w]of p){let u;try{let i=Y(f);u=i.dev===w.dev&&i.ino===w.ino&&kr(f)===f}catch{u=!Rr(f)}if(!u)throw new v(`${h(f)} is no longer the private path the set-up covered`)}},async apply(f){let w=H($,String(f));try{if(wr(H(w,"up")).length===0)return}catch{}let u=await _r(e,r.perl,[...ft,"-e",Sr,"--",String(n.lgetxattr),String(n.lremovexattr),String(n.fchownat),String(n.mknodat),y.followLinks?"1":"0",y.replacesPrivate?"1":"0",H(w,"up"),t,String(l.uid),String(l.gid),w,String(p.size),...[...p.keys()].map(h)]);if(u.code!==0)return`what the command wrote could not be moved into the workspace (${N(u.stderr)||`exit ${u.code}`}); it is kept in ${w}`;let i=u.stdout.split(`
`).filter(a=>a.startsWith("error ")).map(a=>a.slice(6));if(i.length)return`${i.length} of the command's changes could not be moved into the workspace (kept in ${w}): ${i.slice(0,5).join("; ")}`},async dispose(){await L(e,r.rm,["-rf","--",$])}};return y}o($t,"openOverlay");function Rr(e){try{return Y(e),!0}catch{return!1}}o(Rr,"existsQuiet");function _r(e,t,r){let[n,s]=ye(e,t,r);return new Promise(c=>{let d=gr(n,s,{detached:!0,stdio:["ignore","pipe","pipe"],env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"}}),l=[],p=[];d.stdout.on("data",$=>l.push($)),d.stderr.on("data",$=>p.push($)),d.once("error",$=>c({code:127,stdout:"",stderr:$.message})),d.once("close",$=>c({code:$??1,stdout:Buffer.concat(l).toString("utf8"),stderr:Buffer.concat(p).toString("utf8")}))})}o(_r,"detachedAsRoot");var z="/tmp/home",j=["/tmp","/var/tmp","/dev/shm"],Ar=String.raw`set -eu
umask 022
mount=$1 umount=$2 mkdir=$3 chown=$4 chmod=$5; shift 5
ws=$1 hide=$2 hide_mode=$3 stash=$4 owner=$5 home=$6 cwd=$7; shift 7
view=$1 perl=$2 prep=$3 nr=$4 mnr=$5 layer=$6; shift 6
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
  "$perl" -t -X -e "$prep" -- "$view" "$nr" "$mnr" "$ws" "$stash" "$layer" "$@"
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
exec "$@"`,Er=['for f in /proc/self/fd/*; do n=${f##*/}; [ "$n" -gt 2 ] && exec {n}>&-; done',"umask 002","exec 3>&2 2>/dev/null","set -m",`trap 'kill -TERM -- -"$c"' TERM INT HUP`,'"$2" -c "$1" 0<&0 2>&3 3>&- &',"c=$!",'while :; do wait "$c"; s=$?; kill -0 "$c" 2>/dev/null || exit "$s"; done'].join(`
`),ht=["--pid","--fork","--kill-child","--mount","--mount-proc","--propagation","private","--ipc","--uts"],Tr="--net";function ie(e){return e?[...ht,Tr]:[...ht]}o(ie,"namespaceOptions");var Nr=String.raw`const net = require('net'), fs = require('fs');
process.setgroups([]); process.setgid(Number(process.argv[2])); process.setuid(Number(process.argv[1]));
const server = net.createServer((c) => {
  const u = net.connect('proxy.sock');
  c.on('error', () => u.destroy()); u.on('error', () => c.destroy());
  c.pipe(u); u.pipe(c);
});
server.listen(0, '127.0.0.1', () => fs.writeSync(1, server.address().port + '\n'));`,Lr=String.raw`set -eu
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
exec "$@"`;function Cr(e){let t=e.network;if(!t)return[];let{bins:r,account:n}=e;return[r.bash,"-c",Lr,"patchloop-network",t.ip,r.env,t.bridge?.node??"",t.bridge?.socketDir??"/",String(n.uid),String(n.gid),Nr]}o(Cr,"networkStep");function Ir(e,t,r,n,s={}){let{bins:c,account:d}=e,l=e.overlay,p=l!==void 0&&s.layer!==void 0&&!s.readOnly,$=p?Se(l.syscalls,l.access.owner,d,l.access.reader,l.access.hidden):[],h=[c.setpriv,"--pdeathsig","KILL","--",c.unshare,...ie(e.network!==void 0).filter(y=>!e.keepIpcUts||y!=="--ipc"&&y!=="--uts"),"--",...Cr(e),c.sh,"-c",Ar,"patchloop-prelude",c.mount,c.umount,c.mkdir,c.chown,c.chmod,e.workspace,e.hide??"",e.hideMode,e.stash,`${d.uid}:${d.gid}`,z,r,p?l.inPlace?"in-place":"overlay":s.readOnly?"read-only":"shared",l?.perl??"",ve,String(l?.syscalls.unshare??0),String(l?.syscalls.mount??0),p?Or(l.access.state,String(s.layer)):"",String(e.readOnly.length),...e.readOnly,String($.length),...$,String(e.sticky.length),...e.sticky,String(e.scratch.length),...e.scratch,String(e.covered.length),...e.covered,String(e.shared.length),...e.shared,String(e.sharedReadOnly.length),...e.sharedReadOnly,...e.readOnly];return e.limits&&h.push(c.prlimit,...ct(e.limits,n),"--"),h.push(c.setpriv,"--reuid",String(d.uid),"--regid",String(d.gid),"--clear-groups","--no-new-privs","--inh-caps=-all","--bounding-set=-all","--"),e.freshKeyring&&h.push(...nt(c.keyring,c.sh)),h.push(c.bash,"-c",Er,"patchloop-init",t,c.bash),h}o(Ir,"commandArgv");function ae(e,t,r,n,s,c={}){let d=Ir(e,t,r,s,c);if(!e.root.viaSudo)return{file:d[0],args:d.slice(1),env:n};let l=Object.entries(n).map(([p,$])=>`${p}=${$}`);return{file:e.root.prefix[0],args:[...e.root.prefix.slice(1),e.bins.env,"-i",...l,...d],env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"}}}o(ae,"launch");import{chmodSync as Mr}from"node:fs";import{createServer as Dr,request as Br}from"node:http";import{lookup as Hr}from"node:dns/promises";import{connect as Kr,isIP as Fr}from"node:net";var Ur=new Set([80,443]),yt=3e4,Gr=200,Pe=1e4,jr=o(async(e,t)=>Fr(e)?[{address:e,port:t}]:(await Hr(e,{all:!0,verbatim:!0})).map(n=>({address:n.address,port:t})),"systemResolver");function Re(e){return/^[a-z0-9.:-]{1,253}$/.test(e)?e:"(a malformed destination)"}o(Re,"recordable");function Wr(e){let t=/^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):(\d{1,5})$/.exec(e);if(t)return{host:q(t[1]),port:Number(t[2])}}o(Wr,"splitAuthority");async function gt(e){let t=e.resolve??jr,r=e.addressAllowed??he,n=e.hosts.map(q),s=new Map,c=[],d=0,l=new Set,p=o((u,i)=>{let a=Re(u);!s.has(a)&&s.size>=Gr&&(a="(other hosts)");let m=s.get(a)??{host:a,reason:i,count:0};return m.count++,s.set(a,m),c.push(a),c.length>Pe&&(d+=c.length-Pe/2,c=c.slice(-Pe/2)),e.onRefused?.(a,i),{ok:!1,reason:i}},"refuse"),$=o(async(u,i)=>{if(!u)return p("(a malformed destination)","not a host name");if(!Ke(n,u))return p(u,"not in command-network");if(!Ur.has(i))return p(`${u}:${i}`,"only ports 80 and 443 are allowed");let a;try{a=await t(u,i)}catch{return{ok:!1,reason:`${u} could not be resolved`}}let m=a.filter(k=>r(k.address));return m.length?{ok:!0,targets:m}:p(u,"it resolves to a loopback, private or link-local address")},"decide"),h=o(u=>new Promise((i,a)=>{let m=o((k,x)=>{let b=u[k];if(!b)return a(x??new Error("no address"));let O=Kr({host:b.address,port:b.port});O.setTimeout(yt,()=>O.destroy(new Error("connect timeout"))),O.once("connect",()=>{O.setTimeout(0),i(O)}),O.once("error",S=>m(k+1,S))},"next");m(0)}),"open"),y=o(u=>{l.add(u),u.once("close",()=>l.delete(u))},"track"),f=Dr();f.on("connection",y),f.on("connect",(u,i,a)=>{i.on("error",()=>{});let m=Wr(u.url??"");(async()=>{let k=m?await $(m.host,m.port):p("","not a host name");if(!k.ok){let b=k.reason.includes("resolved")?"502 Bad Gateway":"403 Forbidden";i.end(`HTTP/1.1 ${b}\r
Content-Type: text/plain\r
Connection: close\r
\r
patchloop command-network: ${m?Re(m.host):"this destination"} is refused (${k.reason}).
`);return}let x;try{x=await h(k.targets)}catch(b){i.end(`HTTP/1.1 502 Bad Gateway\r
Connection: close\r
\r
${b.message}
`);return}y(x),x.on("error",()=>i.destroy()),i.on("error",()=>x.destroy()),i.on("close",()=>x.destroy()),x.on("close",()=>i.destroy()),i.write(`HTTP/1.1 200 Connection Established\r
\r
`),a.length&&x.write(a),x.pipe(i),i.pipe(x)})()}),f.on("request",(u,i)=>{(async()=>{let a;try{a=new URL(u.url??"")}catch{a=void 0}if(!a||a.protocol!=="http:"){p("","not an absolute http:// request"),i.writeHead(400,{"content-type":"text/plain"}).end(`patchloop command-network: the proxy takes CONNECT host:443 and absolute http:// requests only.
`);return}let m=q(a.hostname),k=a.port?Number(a.port):80,x=await $(m,k);if(!x.ok){i.writeHead(x.reason.includes("resolved")?502:403,{"content-type":"text/plain"}).end(`patchloop command-network: ${Re(m)} is refused (${x.reason}).
`);return}let b={...u.headers};for(let E of["proxy-authorization","proxy-connection","connection","keep-alive"])delete b[E];let O=x.targets[0],S=Br({host:O.address,port:O.port,method:u.method,path:`${a.pathname}${a.search}`,headers:{...b,host:a.host},setHost:!1});S.setTimeout(yt,()=>S.destroy(new Error("timeout"))),S.on("response",E=>{i.writeHead(E.statusCode??502,E.headers),E.pipe(i)}),S.on("error",E=>{i.headersSent?i.destroy():i.writeHead(502,{"content-type":"text/plain"}).end(`${E.message}
`)}),u.pipe(S)})()}),f.on("clientError",(u,i)=>{u.code!=="ECONNRESET"&&i.writable?(p("","not a valid request"),i.end(`HTTP/1.1 400 Bad Request\r
Connection: close\r
\r
`)):i.destroy()}),await new Promise((u,i)=>{f.once("error",i),f.listen(e.socketPath,()=>{f.off("error",i),u()})}),Mr(e.socketPath,438);let w=o(u=>{let i=new Map;for(let a of u){let m=i.get(a)??{host:a,reason:s.get(a)?.reason??"",count:0};m.count++,i.set(a,m)}return[...i.values()]},"dedupe");return{socketPath:e.socketPath,refused:o(()=>[...s.values()].map(u=>({...u})),"refused"),refusals:o(()=>d+c.length,"refusals"),refusedSince:o(u=>w(c.slice(Math.max(0,u-d))),"refusedSince"),close:o(()=>new Promise(u=>{for(let i of l)i.destroy();f.close(()=>u())}),"close")}}o(gt,"startNetworkProxy");import{spawnSync as xt}from"node:child_process";import{createHash as qr,randomBytes as Xr}from"node:crypto";import{existsSync as Vr,readdirSync as Yr,readFileSync as zr,readlinkSync as Qr,rmSync as _e,statSync as Jr,writeFileSync as wt}from"node:fs";import{createServer as Zr}from"node:net";import{dirname as kt,join as I,relative as en,sep as tn}from"node:path";function rn(){return new Promise((e,t)=>{let r=Zr(n=>n.destroy());r.once("error",t),r.listen(0,"127.0.0.1",()=>{let n=r.address();e({port:typeof n=="object"&&n?n.port:0,server:r})})})}o(rn,"hostListener");var bt="PATCHLOOP_SELF_CHECK_SECRET";async function vt(e,t){let r=Xr(6).toString("hex"),n=`s3cret-${r}`,s=Be,c=[];for(let i of t.privateDirs){let a=I(i,`.patchloop-probe-${r}`);try{wt(a,n,{mode:420,flag:"wx"}),c.push(a)}catch{}}let d=t.network?await rn():void 0,l=t.shared?[...new Set([...t.shared,...sn(t)?[Q]:[]])]:[],p=t.sharedReadOnly??[],$=`.patchloop-probe-${r}`,h=`patchloop-probe-${r}`,y=t.keyring?st(t.keyring,h,n):void 0,f=t.ipcUts?on():void 0;for(let i of l){let a=I(i,$);try{wt(a,n,{mode:420,flag:"wx"}),c.push(a)}catch{}}let w=['echo "uid $(id -u)"',`if h=$({ sha256sum < /proc/${process.pid}/environ; } 2>/dev/null); then echo "environ $h"; fi`,`f=.patchloop-probe-${r}; if { : > "$f"; } 2>/dev/null && rm -f "$f"; then echo workspace-writable; fi`,t.processes===void 0?":":`[ "$(ulimit -u)" = ${t.processes} ] || echo "nproc $(ulimit -u)"`,`if printenv ${bt} >/dev/null; then echo env-secret-visible; fi`];if(y&&t.keyring){let i=at(t.keyring,y,h).map(a=>`${a.map(s).join(" ")} >/dev/null 2>&1`);w.push(`if ${i.join(" || ")}; then echo keyring-shared; fi`)}t.ipcUts&&w.push('echo "ns-ipc $(readlink /proc/self/ns/ipc)"','echo "ns-uts $(readlink /proc/self/ns/uts)"','if [ -r /proc/sysvipc/msg ] && [ "$(wc -l < /proc/sysvipc/msg)" -gt 1 ]; then echo ipc-visible; fi');for(let i of l)w.push(`if [ -e ${s(I(i,$))} ]; then echo shared-visible ${s(i)}; fi`,`{ : > ${s(I(i,`${$}-left`))}; } 2>/dev/null || echo shared-unwritable ${s(i)}`);for(let i of p)w.push(`if { : > ${s(I(i,`${$}-left`))}; } 2>/dev/null; then echo shared-writable ${s(i)}; fi`);t.hasGit&&w.push(`if mv .git .git-probe-${r} 2>/dev/null; then mv .git-probe-${r} .git; echo git-renamed; fi`,`if [ -d .git ] && { : > .git/probe-${r}; } 2>/dev/null; then rm -f .git/probe-${r}; echo git-written; fi`,"if [ -f .git ] && { : >> .git; } 2>/dev/null; then echo git-written; fi");let u=o((i,a)=>{let k=["''",...[t.workspace,z,...j,...t.readOnlyDirs].filter(x=>x!==i&&P(x,i)).map(x=>en(i,x).split(tn)[0]).map(s)].join("|");return`ls -A ${s(i)} 2>/dev/null | while IFS= read -r n; do case "$n" in ${k}) ;; *) echo ${a} ${s(i)}/"$n";; esac; done`},"onlyWays");d&&w.push('while IFS=: read -r n _; do n=$(printf %s $n); case "$n" in lo|Inter-*|face*) ;; *) echo "interface-visible $n";; esac; done < /proc/net/dev',`if (exec 3<>/dev/tcp/127.0.0.1/${d.port}) 2>/dev/null; then echo host-loopback-reachable; fi`,'case "$( (exec 3<>/dev/tcp/127.0.0.1/1) 2>&1)" in *refused*) ;; *) echo loopback-down;; esac',t.network?.proxy?'case "${HTTPS_PROXY:-}" in http://127.0.0.1:*) (exec 3<>/dev/tcp/127.0.0.1/"${HTTPS_PROXY##*:}") 2>/dev/null || echo proxy-unreachable;; *) echo proxy-unset;; esac':'[ -z "${HTTPS_PROXY:-}" ] || echo proxy-set');for(let i=kt(t.workspace);i!=="/";i=kt(i))w.push(u(i,"above-visible"));for(let i of t.privateDirs)w.push(u(i,"private-visible"));for(let i of t.readOnlyDirs)w.push(`ls ${s(i)} >/dev/null 2>&1 || echo read-only-unreadable ${s(i)}`,`if { : > ${s(I(i,`probe-${r}`))}; } 2>/dev/null; then echo read-only-writable ${s(i)}; fi`);try{if(t.keyring&&!y)return"a key could not be put in patchloop's session keyring to probe with";let i=await De({command:w.join(`
`),cwd:t.workspace,env:{...t.env,[bt]:n},sandbox:e,timeoutMs:3e4}),a=i.text.trim().split(`
`);if(i.exitCode!==0||i.spawnError)return`the probe command failed (${i.spawnError??`exit ${i.exitCode??i.signal}`}): ${a.slice(-3).join(" / ")}`;if(a[0]!==`uid ${t.uid}`)return`the probe ran as ${a[0]??"nobody"}, not uid ${t.uid}`;let m=qr("sha256").update(zr("/proc/self/environ")).digest("hex");if(a.some(b=>b.startsWith("environ ")&&b.includes(m)))return"the probe could read patchloop's /proc/<pid>/environ";if(!a.includes("workspace-writable"))return"the probe could not write in the workspace";if(i.text.includes(n))return"the probe saw a value it must not see";for(let b of t.ipcUts?["ipc","uts"]:[]){let O=a.find(S=>S.startsWith(`ns-${b} `))?.slice(`ns-${b} `.length);if(!O?.startsWith(`${b}:[`))return`the probe could not tell its ${b} namespace`;if(O===Qr(`/proc/self/ns/${b}`))return`the probe shares patchloop's ${b==="ipc"?"System V IPC":"host name"} namespace`}let k=[...l,...p].map(b=>I(b,`${$}-left`)).filter(b=>Vr(b));if(k.length)return`the probe left ${k.join(", ")} behind, outside its namespace`;let x=a.filter(b=>!b.startsWith("uid ")&&!b.startsWith("environ ")&&!b.startsWith("ns-")&&b!=="workspace-writable");return x.length?`the probe found: ${x.join("; ")}`:void 0}finally{d?.server.close();for(let i of c)_e(i,{force:!0});for(let i of[...l,...p])_e(I(i,`${$}-left`),{force:!0});y&&t.keyring&&it(t.keyring,y),f&&xt(f.ipcrm,["-q",f.id],{stdio:"ignore"});for(let i of t.readOnlyDirs)for(let a of nn(i))a===`probe-${r}`&&_e(I(i,a),{force:!0})}}o(vt,"selfCheck");function nn(e){try{return Yr(e)}catch{return[]}}o(nn,"safeList");function on(){let e=A("ipcmk"),t=A("ipcrm");if(!e||!t)return;let r=xt(e,["-Q","-p","0600"],{encoding:"utf8"}),n=/(\d+)\s*$/.exec(r.stdout?.trim()??"")?.[1];return r.status===0&&n?{id:n,ipcrm:t}:void 0}o(on,"plantQueue");var Q="/run/lock";function sn(e){try{let t=Jr(Q);return t.isDirectory()&&(t.mode&514)===514&&!(e.sharedReadOnly??[]).includes(Q)&&!P(e.workspace,Q)&&!P(Q,e.workspace)}catch{return!1}}o(sn,"isSharedLock");import{execFile as an}from"node:child_process";var cn=4,dn=3e4;function ln(e){return e.replace(/[*?[\]\\]/g,"\\$&")}o(ln,"literal");function St(e,t){let r=["/proc","/sys",...t].flatMap((s,c)=>[...c?["-o"]:[],"-path",ln(s)]),n=["/","-mindepth","1","-maxdepth",String(cn),"(",...r,")","-prune","-o","-type","d","-perm","-0002","-printf","%m %p\\0","-prune"];return new Promise((s,c)=>{an(e,n,{env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin",LC_ALL:"C"},encoding:"buffer",timeout:dn,maxBuffer:4<<20},(d,l)=>{if(d&&(d.killed||d.signal||typeof d.code!="number")){c(new v(`the machine's world-writable folders could not be listed: ${d.message}`));return}let p={scratch:[],other:[]};for(let $ of l.toString("utf8").split("\0")){let h=$.indexOf(" ");if(h<0)continue;let y=parseInt($.slice(0,h),8),f=$.slice(h+1);!f.startsWith("/")||f==="/"||(y&512?p.scratch:p.other).push(f)}s(p)})})}o(St,"findSharedDirs");var D=o(e=>({kind:"unavailable",reason:e}),"unavailable"),ce=["/media","/srv","/mnt","/opt","/run","/var"];function W(e){try{let t=fn(e);return _t(t).isDirectory()?t:void 0}catch{return}}o(W,"realDir");function hn(){let e=["unshare","setpriv","mount","umount","mkdir","chown","chmod","find","prlimit","bash","sh","env","kill"],t={};for(let r of e){let n=A(r);if(!n)return`${r} is not installed (${r==="find"?"findutils":r==="bash"||r==="sh"?"a shell":"util-linux / coreutils"})`;t[r]=n}return t}o(hn,"resolveBins");async function yn(e,t){let r=tt(t);if(typeof r=="string")return r;let n="";for(let s of r){let c=await rt(s,e);if(c==="works"||c==="refused")return{tool:s,works:c==="works"};n=c}return n}o(yn,"findKeyring");async function gn(e){try{return await e()}catch(t){if(!(t instanceof v))throw t;return e()}}o(gn,"retryOnce");function wn(e,t,r){let{account:n,root:s}=e,c=new Set([...Ce,...t]);return{outputFileMode:420,toolGroup:o(()=>e.groupAccess?n.gid:void 0,"toolGroup"),envOptions:{pass:t,privateDirs:r},wrap(d){let l={};for(let[y,f]of Object.entries(d.env))c.has(y)&&(l[y]=f);l.PATH=Me(l.PATH,r),l.HOME=z,l.TMPDIR="/tmp",l.USER=n.user,l.LOGNAME=n.user;let p=Number(l.GIT_CONFIG_COUNT??0)||0;l[`GIT_CONFIG_KEY_${p}`]="safe.directory",l[`GIT_CONFIG_VALUE_${p}`]="*",l.GIT_CONFIG_COUNT=String(p+1),Object.assign(l,d.ownEnv);let $=e.overlay?.access;if(!$)return ae(e,d.command,d.cwd,l,d.timeoutMs);if(d.readOnlyWorkspace)return ae(e,d.command,d.cwd,l,d.timeoutMs,{readOnly:!0});$.verify();let h=$.next++;return{...ae(e,d.command,d.cwd,l,d.timeoutMs,{layer:h}),settle:o(()=>$.apply(h),"settle")}},signal:o(((d,l)=>{if(!s.viaSudo){try{process.kill(-d,l)}catch{}return}$n(s.prefix[0],[...s.prefix.slice(1),e.bins.kill,"-s",l.replace(/^SIG/,""),"--",`-${d}`],{stdio:"ignore",timeout:1e4})}),"signal")}}o(wn,"makeSandbox");var Pt=new Map,Rt=new Map;function At(e,t){let r=Rt.get(t);return r||(r=gn(()=>We(e.root,t)),r.catch(()=>{}),Rt.set(t,r)),r}o(At,"accountOf");function kn(e=te,t=[]){let r=[e,...[...t].sort()].join("\0"),n=Pt.get(r);return n||(n=(async()=>{if(process.platform!=="linux")return`commands cannot be isolated on ${process.platform}; only Linux is supported`;let s=await je();if(typeof s=="string")return`commands cannot run as another user: ${s}`;let c=hn();if(typeof c=="string")return`commands cannot be isolated: ${c}`;let[d,l,p]=await Promise.all([L(s,c.unshare,[...ie(!1),"--",c.mount,"-t","tmpfs","patchloop-probe","/tmp"]),bn(s,c),yn(c.sh,t)]);if(d.code!==0)return`no PID and mount namespace for commands here (${N(d.stderr)||`exit ${d.code}`})`;if(typeof p=="string")return`commands cannot be isolated: ${p}`;let $={...c,keyring:p.tool},h={root:s,bins:$,network:l,keyrings:p.works};return At(h,e),h})(),n.catch(()=>{}),Pt.set(r,n)),n}o(kn,"probeMachine");async function bn(e,t){let r=A("ip");if(!r)return"ip (iproute2) is not installed, so a command network namespace cannot get its loopback";let n=await L(e,t.unshare,[...ie(!0),"--",r,"link","set","lo","up"]);return n.code!==0?`no network namespace for commands here (${N(n.stderr)||`exit ${n.code}`})`:{ip:r}}o(bn,"probeNetwork");async function xn(e,t){let r=pn(Oe(mn(),"patchloop-net-"));un(r,457);try{return{proxy:await gt({hosts:e,socketPath:Oe(r,"proxy.sock"),...t}),dir:r}}catch(n){throw Ot(r,{recursive:!0,force:!0}),new v(`the network proxy could not be started: ${n.message}`)}}o(xn,"startProxy");async function rs(e){let t=await vn(e);return t.kind==="isolated"&&await t.ready,t}o(rs,"createSandbox");async function vn(e){if(e.mode==="off")return D("turned off");if(process.platform!=="linux")return D(`commands cannot be isolated on ${process.platform}; only Linux is supported`);let t=e.env??process.env,r=new Set(e.weaken??[]),n=W(e.workspace);if(!n)throw new v(`the workspace ${e.workspace} is not a folder`);if(n==="/"||n==="/tmp")throw new v(`the workspace cannot be ${n} itself`);let s=await kn(e.user,e.hideBins);if(typeof s=="string")return D(s);let{root:c,bins:d}=s,l=e.network??{kind:"none"},p=l.kind!=="all"&&!r.has("network");if(p&&typeof s.network=="string")return D(s.network);let $=A("setfacl")?"acl":"group",h=e.access??"overlay",y=n.split("/").filter(Boolean),f=y.length>1&&!r.has("hide-above")?`/${y[0]}`:void 0,w=ce.map(W).find(g=>g!==void 0&&!(f&&P(g,f))&&!P(n,g)&&!P(g,n));if(!w)throw new v(`none of ${ce.join(", ")} can hold the workspace's mounts`);let u=e.hideBins?.includes("perl")?void 0:A("perl"),i=A("rm"),a=pt(),m=!u||!i?"perl is not installed":a?{bins:{find:d.find,perl:u,unshare:d.unshare,mount:d.mount,mkdir:d.mkdir,rm:i},syscalls:a}:`Perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}`;if(h==="overlay"&&typeof m=="string"){if(e.access==="overlay")return D(m);h=$}let k=o(()=>typeof m=="string"?Promise.resolve(m):mt(c,n,m.bins,m.syscalls).catch(g=>`the overlay could not be tried: ${g.message}`),"tryMounts"),b=h==="overlay"&&$==="group"&&c.viaSudo?k():void 0,O=j.map(W).filter(g=>g!==void 0&&!P(n,g)&&!P(g,n)),S=[...new Set((e.privateDirs??(t.RUNNER_TEMP?[t.RUNNER_TEMP]:[])).map(W))].filter(g=>g!==void 0&&g!=="/"),E=r.has("private-dirs")?[]:S.filter(g=>!(f&&P(g,f))&&!O.some(U=>P(g,U))&&!P(n,g)),J=Oe(n,".git"),de=(()=>{try{let g=_t(J);return g.isDirectory()||g.isFile()}catch{return!1}})(),le=[...new Set((e.readOnlyDirs??[]).map(W))].filter(g=>g!==void 0&&g!=="/"),Et=[...de&&!r.has("read-only-git")?[J]:[],...le],ue={...ke,...e.limits},Ae=Math.min(ue.processes,be().processes??1/0),Tt=(e.commandEnv??[]).filter(Ie),[K,pe]=await Promise.all([At(s,e.user??te),b]);if(typeof pe=="string"){if(e.access==="overlay")return D(pe);h=$}if(h==="overlay"&&!se(w))throw new v(`${w} cannot be named in the overlay's options`);if(h==="acl"&&!A("setfacl"))return D("setfacl (package acl) is not installed");if(h==="group"&&c.viaSudo)return D("setfacl (package acl) is needed to share the workspace when not running as root");let C=p&&l.kind==="hosts"?await xn(l.hosts,e.proxyOverride):void 0,Ee=o(async()=>{C&&(await C.proxy.close(),Ot(C.dir,{recursive:!0,force:!0}))},"closeProxy"),T={root:c,account:K,bins:d,workspace:n,hide:f,hideMode:f&&j.includes(f)?"1777":"0755",stash:w,scratch:O,sticky:j.filter(g=>f&&g!==f&&P(g,f)&&P(n,g)),covered:E,shared:[],sharedReadOnly:[],freshKeyring:s.keyrings&&!r.has("keyring"),keepIpcUts:r.has("ipc-uts"),readOnly:Et,limits:r.has("limits")?void 0:ue,groupAccess:h==="group",...p&&typeof s.network!="string"?{network:{ip:s.network.ip,...C?{bridge:{node:process.execPath,socketDir:C.dir}}:{}}}:{}},fe={...wn(T,Tt,S),network:{mark:o(()=>C?.proxy.refusals()??0,"mark"),note:o((g,U)=>Ue(l,C?C.proxy.refusedSince(g):[],U),"note")}},Te=!1,Nt={...fe,wrap(g){if(!Te)throw new v("no command runs before the sandbox self-check has passed");return fe.wrap(g)}},F,me,$e=(async()=>{await new Promise(R=>setImmediate(R));let g=o(R=>(h=R,T.groupAccess=R==="group",Ze(c,K,n,R).then(_=>F=_)),"openWalks");me=h==="overlay"?o(async()=>{if(typeof m=="string")throw new v(m);let R=pe??await k(),_=typeof R=="string"?R:await $t(c,n,{...m.bins,chown:d.chown},m.syscalls,K,R.filter&&!e.overlayCovers);if(typeof _!="string"){r.has("cover-private")&&(delete _.reader,_.hidden={folders:[],files:[]}),r.has("apply-follows-links")&&(_.followLinks=!0),r.has("apply-replaces-private")&&(_.replacesPrivate=!0),T.overlay={perl:m.bins.perl,syscalls:m.syscalls,access:_,inPlace:r.has("overlay-in-place")},F={method:"overlay",revoke:o(()=>_.dispose(),"revoke")};return}if(e.access==="overlay")throw new v(_);if($==="group"&&c.viaSudo)throw new v(`${_}, and setfacl (package acl) is needed to share it when not running as root`);return g($)},"openOverlayOrWalks")():g(h);let[,Z]=await Promise.all([me,r.has("shared-dirs")?{scratch:[],other:[]}:St(d.find,[f??n,n,...O,...S,...le])]),Ne=o(R=>!P(n,R)&&!P(R,n),"apart");if(T.shared=Z.scratch.filter(Ne),T.sharedReadOnly=Z.other.filter(Ne),[...T.shared,...T.sharedReadOnly].some(R=>P(R,w)||P(w,R))){let R=ce.map(W).find(_=>_!==void 0&&!(f&&P(_,f))&&!P(n,_)&&!P(_,n)&&![...T.shared,...T.sharedReadOnly].some(Le=>P(Le,_)||P(_,Le)));if(!R)throw new v(`none of ${ce.join(", ")} can hold the workspace's mounts apart from the world-writable folders`);T.stash=R}if(e.selfCheck!==!1){let R=o(()=>vt(fe,{uid:K.uid,workspace:n,hasGit:de,privateDirs:S,readOnlyDirs:le,processes:r.has("limits")?void 0:Ae,env:t,network:T.network?{proxy:C!==void 0}:void 0,keyring:s.keyrings?d.keyring:void 0,ipcUts:!0,shared:T.shared,sharedReadOnly:T.sharedReadOnly}),"check"),_=await R()&&await R();if(_)throw new v(`the sandbox self-check failed: ${_}`)}Te=!0})().catch(async g=>{await me?.catch(()=>{});let U=F;throw F=void 0,await Promise.all([U?.revoke(),Ee()]).catch(Z=>{throw new v(`${g.message}; and then: ${Z.message}`)}),g});$e.catch(()=>{});let Lt=o(()=>[`commands run as user ${K.user} (uid ${K.uid}) in their own PID and mount namespace`,T.keepIpcUts?"":"with their own System V IPC and host name",T.freshKeyring?"a session keyring of their own":"",f?"with everything above the workspace hidden":"",S.length?`${S.join(", ")} hidden`:"",de?".git read-only":"",h==="overlay"?"the workspace as an overlay whose writes patchloop moves in after each command":`${h==="acl"?"ACL":"group"} access to the workspace`,`network: ${T.network?ee(l):ee({kind:"all"})}`,r.has("limits")?"":`limits of ${Ae} processes and ${Math.round(ue.fileBytes/1024**2)} MiB per file`].filter(Boolean).join(", "),"describe"),Ct;return{kind:"isolated",sandbox:Nt,get reason(){return Lt()},ready:$e,dispose:o(()=>Ct??=$e.then(()=>{let g=F;return F=void 0,Promise.all([g?.revoke(),Ee()]).then(()=>{})},()=>{}),"dispose"),network:{policy:T.network?l:{kind:"all"},refused:o(()=>C?.proxy.refused()??[],"refused")}}}o(vn,"startSandbox");export{Rn as a,ee as b,Fe as c,_n as d,kn as e,rs as f,vn as g};
