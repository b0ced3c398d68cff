import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as L,b as ve,c as he,d as ge,e as et,f as xt,g as je,h as mn,i as Lr,j,k as Hr,l as Ur,m as Wr,n as jr,o as Et}from"./chunk-U7UEP7I2.js";import{a as N,b as Ir,c as hn,d as vt,e as Se,f as St,g as Dr,h as Nr,i as Mr,j as _t,k as Br,l as Gr,m as Fr,n as gn,o as $n}from"./chunk-UKD6SYP5.js";import{a as xe}from"./chunk-GBMTFJE3.js";import{a as Or,b as Pr,c as Cr}from"./chunk-UGPXGKM2.js";import{b as Me}from"./chunk-IUQPCJRX.js";import{a,d as We,f as kt}from"./chunk-4X7ZATFQ.js";var tt=We((rp,Vr)=>{"use strict";var Xr="[^\\\\/]",fa="(?=.)",qr="[^/]",wn="(?:\\/|$)",zr="(?:^|\\/)",bn=`\\.{1,2}${wn}`,pa="(?!\\.)",ma=`(?!${zr}${bn})`,ha=`(?!\\.{0,1}${wn})`,ga=`(?!${bn})`,$a="[^.\\/]",ya=`${qr}*?`,wa="/",Yr={DOT_LITERAL:"\\.",PLUS_LITERAL:"\\+",QMARK_LITERAL:"\\?",SLASH_LITERAL:"\\/",ONE_CHAR:fa,QMARK:qr,END_ANCHOR:wn,DOTS_SLASH:bn,NO_DOT:pa,NO_DOTS:ma,NO_DOT_SLASH:ha,NO_DOTS_SLASH:ga,QMARK_NO_DOT:$a,STAR:ya,START_ANCHOR:zr,SEP:wa},ba={...Yr,SLASH_LITERAL:"[\\\\/]",QMARK:Xr,STAR:`${Xr}*?`,DOTS_SLASH:"\\.{1,2}(?:[\\\\/]|$)",NO_DOT:"(?!\\.)",NO_DOTS:"(?!(?:^|[\\\\/])\\.{1,2}(?:[\\\\/]|$))",NO_DOT_SLASH:"(?!\\.{0,1}(?:[\\\\/]|$))",NO_DOTS_SLASH:"(?!\\.{1,2}(?:[\\\\/]|$))",QMARK_NO_DOT:"[^.\\\\/]",START_ANCHOR:"(?:^|[\\\\/])",END_ANCHOR:"(?:[\\\\/]|$)",SEP:"\\"},ka={__proto__:null,alnum:"a-zA-Z0-9",alpha:"a-zA-Z",ascii:"\\x00-\\x7F",blank:" \\t",cntrl:"\\x00-\\x1F\\x7F",digit:"0-9",graph:"\\x21-\\x7E",lower:"a-z",print:"\\x20-\\x7E ",punct:"\\-!\"#$%&'()\\*+,./:;<=>?@[\\]^_`{|}~",space:" \\t\\r\\n\\v\\f",upper:"A-Z",word:"A-Za-z0-9_",xdigit:"A-Fa-f0-9"};Vr.exports={DEFAULT_MAX_EXTGLOB_RECURSION:0,MAX_LENGTH:1024*64,POSIX_REGEX_SOURCE:ka,REGEX_BACKSLASH:/\\(?![*+?^${}(|)[\]])/g,REGEX_NON_SPECIAL_CHARS:/^[^@![\].,$*+?^{}()|\\/]+/,REGEX_SPECIAL_CHARS:/[-*+?.^${}(|)[\]]/,REGEX_SPECIAL_CHARS_BACKREF:/(\\?)((\W)(\3*))/g,REGEX_SPECIAL_CHARS_GLOBAL:/([-*+?.^${}(|)[\]])/g,REGEX_REMOVE_BACKSLASH:/(?:\[.*?[^\\]\]|\\(?=.))/g,REPLACEMENTS:{__proto__:null,"***":"*","**/**":"**","**/**/**":"**"},CHAR_0:48,CHAR_9:57,CHAR_UPPERCASE_A:65,CHAR_LOWERCASE_A:97,CHAR_UPPERCASE_Z:90,CHAR_LOWERCASE_Z:122,CHAR_LEFT_PARENTHESES:40,CHAR_RIGHT_PARENTHESES:41,CHAR_ASTERISK:42,CHAR_AMPERSAND:38,CHAR_AT:64,CHAR_BACKWARD_SLASH:92,CHAR_CARRIAGE_RETURN:13,CHAR_CIRCUMFLEX_ACCENT:94,CHAR_COLON:58,CHAR_COMMA:44,CHAR_DOT:46,CHAR_DOUBLE_QUOTE:34,CHAR_EQUAL:61,CHAR_EXCLAMATION_MARK:33,CHAR_FORM_FEED:12,CHAR_FORWARD_SLASH:47,CHAR_GRAVE_ACCENT:96,CHAR_HASH:35,CHAR_HYPHEN_MINUS:45,CHAR_LEFT_ANGLE_BRACKET:60,CHAR_LEFT_CURLY_BRACE:123,CHAR_LEFT_SQUARE_BRACKET:91,CHAR_LINE_FEED:10,CHAR_NO_BREAK_SPACE:160,CHAR_PERCENT:37,CHAR_PLUS:43,CHAR_QUESTION_MARK:63,CHAR_RIGHT_ANGLE_BRACKET:62,CHAR_RIGHT_CURLY_BRACE:125,CHAR_RIGHT_SQUARE_BRACKET:93,CHAR_SEMICOLON:59,CHAR_SINGLE_QUOTE:39,CHAR_SPACE:32,CHAR_TAB:9,CHAR_UNDERSCORE:95,CHAR_VERTICAL_LINE:124,CHAR_ZERO_WIDTH_NOBREAK_SPACE:65279,extglobChars(t){return{"!":{type:"negate",open:"(?:(?!(?:",close:`))${t.STAR})`},"?":{type:"qmark",open:"(?:",close:")?"},"+":{type:"plus",open:"(?:",close:")+"},"*":{type:"star",open:"(?:",close:")*"},"@":{type:"at",open:"(?:",close:")"}}},globChars(t){return t===!0?ba:Yr}}});var nt=We(ie=>{"use strict";var{REGEX_BACKSLASH:xa,REGEX_REMOVE_BACKSLASH:va,REGEX_SPECIAL_CHARS:Sa,REGEX_SPECIAL_CHARS_GLOBAL:_a}=tt();ie.isObject=t=>t!==null&&typeof t=="object"&&!Array.isArray(t);ie.hasRegexChars=t=>Sa.test(t);ie.isRegexChar=t=>t.length===1&&ie.hasRegexChars(t);ie.escapeRegex=t=>t.replace(_a,"\\$1");ie.toPosixSlashes=t=>t.replace(xa,"/");ie.isWindows=()=>{if(typeof navigator<"u"&&navigator.platform){let t=navigator.platform.toLowerCase();return t==="win32"||t==="windows"}return typeof process<"u"&&process.platform?process.platform==="win32":!1};ie.removeBackslashes=t=>t.replace(va,e=>e==="\\"?"":e);ie.escapeLast=(t,e,n)=>{let r=t.lastIndexOf(e,n);return r===-1?t:t[r-1]==="\\"?ie.escapeLast(t,e,r-1):`${t.slice(0,r)}\\${t.slice(r)}`};ie.removePrefix=(t,e={})=>{let n=t;return n.startsWith("./")&&(n=n.slice(2),e.prefix="./"),n};ie.wrapOutput=(t,e={},n={})=>{let r=n.contains?"":"^",o=n.contains?"":"$",i=`${r}(?:${t})${o}`;return e.negated===!0&&(i=`(?:^(?!${i}).*$)`),i};ie.basename=(t,{windows:e}={})=>{let n=t.split(e?/[\\/]/:"/"),r=n[n.length-1];return r===""?n[n.length-2]:r}});var oo=We((ip,ro)=>{"use strict";var Qr=nt(),{CHAR_ASTERISK:kn,CHAR_AT:Ea,CHAR_BACKWARD_SLASH:Ke,CHAR_COMMA:Aa,CHAR_DOT:xn,CHAR_EXCLAMATION_MARK:vn,CHAR_FORWARD_SLASH:no,CHAR_LEFT_CURLY_BRACE:Sn,CHAR_LEFT_PARENTHESES:Tt,CHAR_LEFT_SQUARE_BRACKET:Ra,CHAR_PLUS:Ta,CHAR_QUESTION_MARK:Jr,CHAR_RIGHT_CURLY_BRACE:Oa,CHAR_RIGHT_PARENTHESES:Zr,CHAR_RIGHT_SQUARE_BRACKET:Pa}=tt(),eo=a(t=>t===no||t===Ke,"isPathSeparator"),to=a(t=>{t.isPrefix!==!0&&(t.depth=t.isGlobstar?1/0:1)},"depth"),Ca=a((t,e)=>{let n=e||{},r=t.length-1,o=n.parts===!0||n.tokens===!0||n.scanToEnd===!0,i=[],s=[],c=[],l=t,d=-1,u=0,$=0,m=!1,w=!1,g=!1,h=!1,f=!1,p=!1,b=!1,k=!1,v=!1,_=!1,E=0,C,P,I={value:"",depth:0,isGlob:!1},x=a(()=>d>=r,"eos"),F=a(()=>l.charCodeAt(d+1),"peek"),B=a(()=>(C=P,l.charCodeAt(++d)),"advance");for(;d<r;){P=B();let O;if(P===Ke){b=I.backslashes=!0,P=B(),P===Sn&&(p=!0);continue}if(p===!0||P===Sn){for(E++;x()!==!0&&(P=B());){if(P===Ke){b=I.backslashes=!0,B();continue}if(P===Sn){E++;continue}if(p!==!0&&P===xn&&(P=B())===xn){if(m=I.isBrace=!0,g=I.isGlob=!0,_=!0,o===!0)continue;break}if(p!==!0&&P===Aa){if(m=I.isBrace=!0,g=I.isGlob=!0,_=!0,o===!0)continue;break}if(P===Oa&&(E--,E===0)){p=!1,m=I.isBrace=!0,_=!0;break}}if(o===!0)continue;break}if(P===no){if(i.push(d),s.push(I),I={value:"",depth:0,isGlob:!1},_===!0)continue;if(C===xn&&d===u+1){u+=2;continue}$=d+1;continue}if(n.noext!==!0&&(P===Ta||P===Ea||P===kn||P===Jr||P===vn)===!0&&F()===Tt){if(g=I.isGlob=!0,h=I.isExtglob=!0,_=!0,P===vn&&d===u&&(v=!0),o===!0){let W=0;for(;x()!==!0&&(P=B());){if(P===Ke){b=I.backslashes=!0,B();continue}if(P===Tt){W++;continue}if(P===Zr&&--W===0){_=!0;break}}continue}break}if(P===kn){if(C===kn&&(f=I.isGlobstar=!0),g=I.isGlob=!0,_=!0,o===!0)continue;break}if(P===Jr){if(g=I.isGlob=!0,_=!0,o===!0)continue;break}if(P===Ra){for(;x()!==!0&&(O=B());){if(O===Ke){b=I.backslashes=!0,B();continue}if(O===Pa){w=I.isBracket=!0,g=I.isGlob=!0,_=!0;break}}if(o===!0)continue;break}if(n.nonegate!==!0&&P===vn&&d===u){k=I.negated=!0,u++;continue}if(n.noparen!==!0&&P===Tt){if(g=I.isGlob=!0,o===!0){let X=1;for(;x()!==!0&&(P=B());){if(P===Ke){b=I.backslashes=!0,B();continue}if(P===Tt){X++;continue}if(P===Zr&&--X===0){_=!0;break}}continue}break}if(g===!0){if(_=!0,o===!0)continue;break}}n.noext===!0&&(h=!1,g=!1);let K=l,y="",S="";u>0&&(y=l.slice(0,u),l=l.slice(u),$-=u),K&&g===!0&&$>0?(K=l.slice(0,$),S=l.slice($)):g===!0?(K="",S=l):K=l,K&&K!==""&&K!=="/"&&K!==l&&eo(K.charCodeAt(K.length-1))&&(K=K.slice(0,-1)),n.unescape===!0&&(S&&(S=Qr.removeBackslashes(S)),K&&b===!0&&(K=Qr.removeBackslashes(K)));let Q={prefix:y,input:t,start:u,base:K,glob:S,isBrace:m,isBracket:w,isGlob:g,isExtglob:h,isGlobstar:f,negated:k,negatedExtglob:v};if(n.tokens===!0&&(Q.maxDepth=0,eo(P)||s.push(I),Q.tokens=s),n.parts===!0||n.tokens===!0){let O;for(let Y=0;Y<i.length;Y++){let fe=O!==void 0?O+1:u,Ne=i[Y],ne=t.slice(fe,Ne);n.tokens&&(Y===0&&u!==0?(s[Y].isPrefix=!0,s[Y].value=y):s[Y].value=ne,to(s[Y]),Q.maxDepth+=s[Y].depth),Ne>=u&&(c.push(ne),O=Ne)}let X=O!==void 0?O+1:u,W=t.slice(X);c.push(W),n.tokens&&O&&O+1<t.length&&(s[s.length-1].value=W,to(s[s.length-1]),Q.maxDepth+=s[s.length-1].depth),Q.slashes=i,Q.parts=c}return Q},"scan");ro.exports=Ca});var co=We((ap,ao)=>{"use strict";var rt=tt(),se=nt(),{MAX_LENGTH:Ot,POSIX_REGEX_SOURCE:La,REGEX_NON_SPECIAL_CHARS:Ia,REGEX_SPECIAL_CHARS_BACKREF:Da,REPLACEMENTS:io}=rt,Na=a((t,e)=>{if(typeof e.expandRange=="function")return e.expandRange(...t,e);t.sort();let n=`[${t.join("-")}]`;try{new RegExp(n)}catch{return t.map(o=>se.escapeRegex(o)).join("..")}return n},"expandRange"),Xe=a((t,e)=>`Missing ${t}: "${e}" - use "\\\\${e}" to match literal characters`,"syntaxError"),so=a(t=>{let e=[],n=0,r=0,o=0,i="",s=!1;for(let c of t){if(s===!0){i+=c,s=!1;continue}if(c==="\\"){i+=c,s=!0;continue}if(c==='"'){o=o===1?0:1,i+=c;continue}if(o===0){if(c==="[")n++;else if(c==="]"&&n>0)n--;else if(n===0){if(c==="(")r++;else if(c===")"&&r>0)r--;else if(c==="|"&&r===0){e.push(i),i="";continue}}}i+=c}return e.push(i),e},"splitTopLevel"),Ma=a(t=>{let e=!1;for(let n of t){if(e===!0){e=!1;continue}if(n==="\\"){e=!0;continue}if(/[?*+@!()[\]{}]/.test(n))return!1}return!0},"isPlainBranch"),En=a(t=>{let e=t.trim(),n=!0;for(;n===!0;)n=!1,/^@\([^\\()[\]{}|]+\)$/.test(e)&&(e=e.slice(2,-1),n=!0);if(Ma(e))return e.replace(/\\(.)/g,"$1")},"normalizeSimpleBranch"),Ba=a(t=>{let e=t.map(En).filter(Boolean);for(let n=0;n<e.length;n++)for(let r=n+1;r<e.length;r++){let o=e[n],i=e[r],s=o[0];if(!(!s||o!==s.repeat(o.length)||i!==s.repeat(i.length))&&(o===i||o.startsWith(i)||i.startsWith(o)))return!0}return!1},"hasRepeatedCharPrefixOverlap"),_n=a((t,e=!0)=>{if(t[0]!=="+"&&t[0]!=="*"||t[1]!=="(")return;let n=0,r=0,o=0,i=!1;for(let s=1;s<t.length;s++){let c=t[s];if(i===!0){i=!1;continue}if(c==="\\"){i=!0;continue}if(c==='"'){o=o===1?0:1;continue}if(o!==1){if(c==="["){n++;continue}if(c==="]"&&n>0){n--;continue}if(!(n>0)){if(c==="("){r++;continue}if(c===")"&&(r--,r===0))return e===!0&&s!==t.length-1?void 0:{type:t[0],body:t.slice(2,s),end:s}}}}},"parseRepeatedExtglob"),Ga=a(t=>`${t.length===1?se.escapeRegex(t[0]):`[${t.map(n=>se.escapeRegex(n)).join("")}]`}*`,"buildCharClassStar"),Fa=a(t=>{let e=0,n=[];for(;e<t.length;){let r=_n(t.slice(e),!1);if(!r||r.type!=="*")return;let o=so(r.body).map(s=>s.trim());if(o.length!==1)return;let i=En(o[0]);if(!i||i.length!==1)return;n.push(i),e+=r.end+1}if(!(n.length<1))return n},"getStarExtglobSequenceChars"),Ha=a(t=>{let e=0,n=t.trim(),r=_n(n);for(;r;)e++,n=r.body.trim(),r=_n(n);return e},"repeatedExtglobRecursion"),Ua=a((t,e)=>{if(e.maxExtglobRecursion===!1)return{risky:!1};let n=typeof e.maxExtglobRecursion=="number"?e.maxExtglobRecursion:rt.DEFAULT_MAX_EXTGLOB_RECURSION,r=so(t).map(c=>c.trim());if(r.length>1&&(r.some(c=>c==="")||r.some(c=>/^[*?]+$/.test(c))||Ba(r)))return{risky:!0};let o=[],i=!1,s=!0;for(let c of r){let l=Fa(c);if(l){i=!0,o.push(...l);continue}let d=En(c);if(d&&d.length===1){o.push(d);continue}if(s=!1,Ha(c)>n)return{risky:!0}}return i?s?{risky:!0,safeOutput:Ga([...new Set(o)])}:{risky:!0}:{risky:!1}},"analyzeRepeatedExtglob"),An=a((t,e)=>{if(typeof t!="string")throw new TypeError("Expected a string");t=io[t]||t;let n={...e},r=typeof n.maxLength=="number"?Math.min(Ot,n.maxLength):Ot,o=t.length;if(o>r)throw new SyntaxError(`Input length: ${o}, exceeds maximum allowed length: ${r}`);let i={type:"bos",value:"",output:n.prepend||""},s=[i],c=n.capture?"":"?:",l=rt.globChars(n.windows),d=rt.extglobChars(l),{DOT_LITERAL:u,PLUS_LITERAL:$,SLASH_LITERAL:m,ONE_CHAR:w,DOTS_SLASH:g,NO_DOT:h,NO_DOT_SLASH:f,NO_DOTS_SLASH:p,QMARK:b,QMARK_NO_DOT:k,STAR:v,START_ANCHOR:_}=l,E=a(R=>`(${c}(?:(?!${_}${R.dot?g:u}).)*?)`,"globstar"),C=n.dot?"":h,P=n.dot?b:k,I=n.bash===!0?E(n):v;n.capture&&(I=`(${I})`),typeof n.noext=="boolean"&&(n.noextglob=n.noext);let x={input:t,index:-1,start:0,dot:n.dot===!0,consumed:"",output:"",prefix:"",backtrack:!1,negated:!1,brackets:0,braces:0,parens:0,quotes:0,globstar:!1,tokens:s};t=se.removePrefix(t,x),o=t.length;let F=[],B=[],K=[],y=i,S,Q=a(()=>x.index===o-1,"eos"),O=x.peek=(R=1)=>t[x.index+R],X=x.advance=()=>t[++x.index]||"",W=a(()=>t.slice(x.index+1),"remaining"),Y=a((R="",z=0)=>{x.consumed+=R,x.index+=z},"consume"),fe=a(R=>{x.output+=R.output!=null?R.output:R.value,Y(R.value)},"append"),Ne=a(()=>{let R=1;for(;O()==="!"&&(O(2)!=="("||O(3)==="?");)X(),x.start++,R++;return R%2===0?!1:(x.negated=!0,x.start++,!0)},"negate"),ne=a(R=>{x[R]++,K.push(R)},"increment"),ae=a(R=>{x[R]--,K.pop()},"decrement"),M=a(R=>{if(y.type==="globstar"){let z=x.braces>0&&(R.type==="comma"||R.type==="brace"),A=R.extglob===!0||F.length&&(R.type==="pipe"||R.type==="paren");R.type!=="slash"&&R.type!=="paren"&&!z&&!A&&(x.output=x.output.slice(0,-y.output.length),y.type="star",y.value="*",y.output=I,x.output+=y.output)}if(F.length&&R.type!=="paren"&&(F[F.length-1].inner+=R.value),(R.value||R.output)&&fe(R),y&&y.type==="text"&&R.type==="text"){y.output=(y.output||y.value)+R.value,y.value+=R.value;return}R.prev=y,s.push(R),y=R},"push"),Ue=a((R,z)=>{let A={...d[z],conditions:1,inner:""};A.prev=y,A.parens=x.parens,A.output=x.output,A.startIndex=x.index,A.tokensIndex=s.length;let G=(n.capture?"(":"")+A.open;ne("parens"),M({type:R,value:z,output:x.output?"":w}),M({type:"paren",extglob:!0,value:X(),output:G}),F.push(A)},"extglobOpen"),Re=a(R=>{let z=t.slice(R.startIndex,x.index+1),A=t.slice(R.startIndex+2,x.index),G=Ua(A,n);if((R.type==="plus"||R.type==="star")&&G.risky){let U=G.safeOutput?(R.output?"":w)+(n.capture?`(${G.safeOutput})`:G.safeOutput):void 0,oe=s[R.tokensIndex];oe.type="text",oe.value=z,oe.output=U||se.escapeRegex(z);for(let pe=R.tokensIndex+1;pe<s.length;pe++)s[pe].value="",s[pe].output="",delete s[pe].suffix;x.output=R.output+oe.output,x.backtrack=!0,M({type:"paren",extglob:!0,value:S,output:""}),ae("parens");return}let q=R.close+(n.capture?")":""),T;if(R.type==="negate"){let U=I;if(R.inner&&R.inner.length>1&&R.inner.includes("/")&&(U=E(n)),(U!==I||Q()||/^\)+$/.test(W()))&&(q=R.close=`)$))${U}`),R.inner.includes("*")&&(T=W())&&/^\.[^\\/.]+$/.test(T)){let oe=An(T,{...e,fastpaths:!1}).output;q=R.close=`)${oe})${U})`}R.prev.type==="bos"&&(x.negatedExtglob=!0)}M({type:"paren",extglob:!0,value:S,output:q}),ae("parens")},"extglobClose");if(n.fastpaths!==!1&&!/(^[*!]|[/()[\]{}"])/.test(t)){let R=!1,z=t.replace(Da,(A,G,q,T,U,oe)=>T==="\\"?(R=!0,A):T==="?"?G?G+T+(U?b.repeat(U.length):""):oe===0?P+(U?b.repeat(U.length):""):b.repeat(q.length):T==="."?u.repeat(q.length):T==="*"?G?G+T+(U?I:""):I:G?A:`\\${A}`);return R===!0&&(n.unescape===!0?z=z.replace(/\\/g,""):z=z.replace(/\\+/g,A=>A.length%2===0?"\\\\":A?"\\":"")),z===t&&n.contains===!0?(x.output=t,x):(x.output=se.wrapOutput(z,x,e),x)}for(;!Q();){if(S=X(),S==="\0")continue;if(S==="\\"){let A=O();if(A==="/"&&n.bash!==!0||A==="."||A===";")continue;if(!A){S+="\\",M({type:"text",value:S});continue}let G=/^\\+/.exec(W()),q=0;if(G&&G[0].length>2&&(q=G[0].length,x.index+=q,q%2!==0&&(S+="\\")),n.unescape===!0?S=X():S+=X(),x.brackets===0){M({type:"text",value:S});continue}}if(x.brackets>0&&(S!=="]"||y.value==="["||y.value==="[^")){if(n.posix!==!1&&S===":"){let A=y.value.slice(1);if(A.includes("[")&&(y.posix=!0,A.includes(":"))){let G=y.value.lastIndexOf("["),q=y.value.slice(0,G),T=y.value.slice(G+2),U=La[T];if(U){y.value=q+U,x.backtrack=!0,X(),!i.output&&s.indexOf(y)===1&&(i.output=w);continue}}}(S==="["&&O()!==":"||S==="-"&&O()==="]")&&(S=`\\${S}`),S==="]"&&(y.value==="["||y.value==="[^")&&(S=`\\${S}`),n.posix===!0&&S==="!"&&y.value==="["&&(S="^"),y.value+=S,fe({value:S});continue}if(x.quotes===1&&S!=='"'){S=se.escapeRegex(S),y.value+=S,fe({value:S});continue}if(S==='"'){x.quotes=x.quotes===1?0:1,n.keepQuotes===!0&&M({type:"text",value:S});continue}if(S==="("){ne("parens"),M({type:"paren",value:S});continue}if(S===")"){if(x.parens===0&&n.strictBrackets===!0)throw new SyntaxError(Xe("opening","("));let A=F[F.length-1];if(A&&x.parens===A.parens+1){Re(F.pop());continue}M({type:"paren",value:S,output:x.parens?")":"\\)"}),ae("parens");continue}if(S==="["){if(n.nobracket===!0||!W().includes("]")){if(n.nobracket!==!0&&n.strictBrackets===!0)throw new SyntaxError(Xe("closing","]"));S=`\\${S}`}else ne("brackets");M({type:"bracket",value:S});continue}if(S==="]"){if(n.nobracket===!0||y&&y.type==="bracket"&&y.value.length===1){M({type:"text",value:S,output:`\\${S}`});continue}if(x.brackets===0){if(n.strictBrackets===!0)throw new SyntaxError(Xe("opening","["));M({type:"text",value:S,output:`\\${S}`});continue}ae("brackets");let A=y.value.slice(1);if(y.posix!==!0&&A[0]==="^"&&!A.includes("/")&&(S=`/${S}`),y.value+=S,fe({value:S}),n.literalBrackets===!1||se.hasRegexChars(A))continue;let G=se.escapeRegex(y.value);if(x.output=x.output.slice(0,-y.value.length),n.literalBrackets===!0){x.output+=G,y.value=G;continue}y.value=`(${c}${G}|${y.value})`,x.output+=y.value;continue}if(S==="{"&&n.nobrace!==!0){ne("braces");let A={type:"brace",value:S,output:"(",outputIndex:x.output.length,tokensIndex:x.tokens.length};B.push(A),M(A);continue}if(S==="}"){let A=B[B.length-1];if(n.nobrace===!0||!A){M({type:"text",value:S,output:S});continue}let G=")";if(A.dots===!0){let q=s.slice(),T=[];for(let U=q.length-1;U>=0&&(s.pop(),q[U].type!=="brace");U--)q[U].type!=="dots"&&T.unshift(q[U].value);G=Na(T,n),x.backtrack=!0}if(A.comma!==!0&&A.dots!==!0){let q=x.output.slice(0,A.outputIndex),T=x.tokens.slice(A.tokensIndex);A.value=A.output="\\{",S=G="\\}",x.output=q;for(let U of T)x.output+=U.output||U.value}M({type:"brace",value:S,output:G}),ae("braces"),B.pop();continue}if(S==="|"){F.length>0&&F[F.length-1].conditions++,M({type:"text",value:S});continue}if(S===","){let A=S,G=B[B.length-1];G&&K[K.length-1]==="braces"&&(G.comma=!0,A="|"),M({type:"comma",value:S,output:A});continue}if(S==="/"){if(y.type==="dot"&&x.index===x.start+1){x.start=x.index+1,x.consumed="",x.output="",s.pop(),y=i;continue}M({type:"slash",value:S,output:m});continue}if(S==="."){if(x.braces>0&&y.type==="dot"){y.value==="."&&(y.output=u);let A=B[B.length-1];y.type="dots",y.output+=S,y.value+=S,A.dots=!0;continue}if(x.braces+x.parens===0&&y.type!=="bos"&&y.type!=="slash"){M({type:"text",value:S,output:u});continue}M({type:"dot",value:S,output:u});continue}if(S==="?"){if(!(y&&y.value==="(")&&n.noextglob!==!0&&O()==="("&&O(2)!=="?"){Ue("qmark",S);continue}if(y&&y.type==="paren"){let G=O(),q=S;(y.value==="("&&!/[!=<:]/.test(G)||G==="<"&&!/<([!=]|\w+>)/.test(W()))&&(q=`\\${S}`),M({type:"text",value:S,output:q});continue}if(n.dot!==!0&&(y.type==="slash"||y.type==="bos")){M({type:"qmark",value:S,output:k});continue}M({type:"qmark",value:S,output:b});continue}if(S==="!"){if(n.noextglob!==!0&&O()==="("&&(O(2)!=="?"||!/[!=<:]/.test(O(3)))){Ue("negate",S);continue}if(n.nonegate!==!0&&x.index===0){Ne();continue}}if(S==="+"){if(n.noextglob!==!0&&O()==="("&&O(2)!=="?"){Ue("plus",S);continue}if(y&&y.value==="("||n.regex===!1){M({type:"plus",value:S,output:$});continue}if(y&&(y.type==="bracket"||y.type==="paren"||y.type==="brace")||x.parens>0){M({type:"plus",value:S});continue}M({type:"plus",value:$});continue}if(S==="@"){if(n.noextglob!==!0&&O()==="("&&O(2)!=="?"){M({type:"at",extglob:!0,value:S,output:""});continue}M({type:"text",value:S});continue}if(S!=="*"){(S==="$"||S==="^")&&(S=`\\${S}`);let A=Ia.exec(W());A&&(S+=A[0],x.index+=A[0].length),M({type:"text",value:S});continue}if(y&&(y.type==="globstar"||y.star===!0)){y.type="star",y.star=!0,y.value+=S,y.output=I,x.backtrack=!0,x.globstar=!0,Y(S);continue}let R=W();if(n.noextglob!==!0&&/^\([^?]/.test(R)){Ue("star",S);continue}if(y.type==="star"){if(n.noglobstar===!0){Y(S);continue}let A=y.prev,G=A.prev,q=A.type==="slash"||A.type==="bos",T=G&&(G.type==="star"||G.type==="globstar");if(n.bash===!0&&(!q||R[0]&&R[0]!=="/")){M({type:"star",value:S,output:""});continue}let U=x.braces>0&&(A.type==="comma"||A.type==="brace"),oe=F.length&&(A.type==="pipe"||A.type==="paren");if(!q&&A.type!=="paren"&&!U&&!oe){M({type:"star",value:S,output:""});continue}for(;R.slice(0,3)==="/**";){let me=t[x.index+4];if(me&&me!=="/")break;R=R.slice(3),Y("/**",3)}let pe=Q()||x.parens>0&&R===")".repeat(x.parens)&&!F.some(me=>me.type==="negate");if(A.type==="bos"&&Q()){y.type="globstar",y.value+=S,y.output=E(n),x.output=y.output,x.globstar=!0,Y(S);continue}if(A.type==="slash"&&A.prev.type!=="bos"&&!T&&pe){x.output=x.output.slice(0,-(A.output+y.output).length),A.output=`(?:${A.output}`,y.type="globstar",y.output=E(n)+(n.strictSlashes?")":"|$)"),y.value+=S,x.globstar=!0,x.output+=A.output+y.output,Y(S);continue}if(A.type==="slash"&&A.prev.type!=="bos"&&R[0]==="/"){let me=R[1]!==void 0?"|$":"";x.output=x.output.slice(0,-(A.output+y.output).length),A.output=`(?:${A.output}`,y.type="globstar",y.output=`${E(n)}${m}|${m}${me})`,y.value+=S,x.output+=A.output+y.output,x.globstar=!0,Y(S+X()),M({type:"slash",value:"/",output:""});continue}if(A.type==="bos"&&R[0]==="/"){y.type="globstar",y.value+=S,y.output=`(?:^|${m}|${E(n)}${m})`,x.output=y.output,x.globstar=!0,Y(S+X()),M({type:"slash",value:"/",output:""});continue}x.output=x.output.slice(0,-y.output.length),y.type="globstar",y.output=E(n),y.value+=S,x.output+=y.output,x.globstar=!0,Y(S);continue}let z={type:"star",value:S,output:I};if(n.bash===!0){z.output=".*?",(y.type==="bos"||y.type==="slash")&&(z.output=C+z.output),M(z);continue}if(y&&(y.type==="bracket"||y.type==="paren")&&n.regex===!0){z.output=S,M(z);continue}(x.index===x.start||y.type==="slash"||y.type==="dot")&&(y.type==="dot"?(x.output+=f,y.output+=f):n.dot===!0?(x.output+=p,y.output+=p):(x.output+=C,y.output+=C),O()!=="*"&&(x.output+=w,y.output+=w)),M(z)}for(;x.brackets>0;){if(n.strictBrackets===!0)throw new SyntaxError(Xe("closing","]"));x.output=se.escapeLast(x.output,"["),ae("brackets")}for(;x.parens>0;){if(n.strictBrackets===!0)throw new SyntaxError(Xe("closing",")"));x.output=se.escapeLast(x.output,"("),ae("parens")}for(;x.braces>0;){if(n.strictBrackets===!0)throw new SyntaxError(Xe("closing","}"));x.output=se.escapeLast(x.output,"{"),ae("braces")}if(n.strictSlashes!==!0&&(y.type==="star"||y.type==="bracket")&&M({type:"maybe_slash",value:"",output:`${m}?`}),x.backtrack===!0){x.output="";for(let R of x.tokens)x.output+=R.output!=null?R.output:R.value,R.suffix&&(x.output+=R.suffix)}return x},"parse");An.fastpaths=(t,e)=>{let n={...e},r=typeof n.maxLength=="number"?Math.min(Ot,n.maxLength):Ot,o=t.length;if(o>r)throw new SyntaxError(`Input length: ${o}, exceeds maximum allowed length: ${r}`);t=io[t]||t;let{DOT_LITERAL:i,SLASH_LITERAL:s,ONE_CHAR:c,DOTS_SLASH:l,NO_DOT:d,NO_DOTS:u,NO_DOTS_SLASH:$,STAR:m,START_ANCHOR:w}=rt.globChars(n.windows),g=n.dot?u:d,h=n.dot?$:d,f=n.capture?"":"?:",p={negated:!1,prefix:""},b=n.bash===!0?".*?":m;n.capture&&(b=`(${b})`);let k=a(C=>C.noglobstar===!0?b:`(${f}(?:(?!${w}${C.dot?l:i}).)*?)`,"globstar"),v=a(C=>{switch(C){case"*":return`${g}${c}${b}`;case".*":return`${i}${c}${b}`;case"*.*":return`${g}${b}${i}${c}${b}`;case"*/*":return`${g}${b}${s}${c}${h}${b}`;case"**":return g+k(n);case"**/*":return`(?:${g}${k(n)}${s})?${h}${c}${b}`;case"**/*.*":return`(?:${g}${k(n)}${s})?${h}${b}${i}${c}${b}`;case"**/.*":return`(?:${g}${k(n)}${s})?${i}${c}${b}`;default:{let P=/^(.*?)\.(\w+)$/.exec(C);if(!P)return;let I=v(P[1]);return I?I+i+P[2]:void 0}}},"create"),_=se.removePrefix(t,p),E=v(_);return E&&n.strictSlashes!==!0&&(E+=`${s}?`),E};ao.exports=An});var fo=We((lp,uo)=>{"use strict";var Wa=oo(),Rn=co(),lo=nt(),ja=tt(),Ka=a(t=>t&&typeof t=="object"&&!Array.isArray(t),"isObject"),J=a((t,e,n=!1)=>{if(Array.isArray(t)){let u=t.map(m=>J(m,e,n));return a(m=>{for(let w of u){let g=w(m);if(g)return g}return!1},"arrayMatcher")}let r=Ka(t)&&t.tokens&&t.input;if(t===""||typeof t!="string"&&!r)throw new TypeError("Expected pattern to be a non-empty string");let o=e||{},i=o.windows,s=r?J.compileRe(t,e):J.makeRe(t,e,!1,!0),c=s.state;delete s.state;let l=a(()=>!1,"isIgnored");if(o.ignore){let u={...e,ignore:null,onMatch:null,onResult:null};l=J(o.ignore,u,n)}let d=a((u,$=!1)=>{let{isMatch:m,match:w,output:g}=J.test(u,s,e,{glob:t,posix:i}),h={glob:t,state:c,regex:s,posix:i,input:u,output:g,match:w,isMatch:m};return typeof o.onResult=="function"&&o.onResult(h),m===!1?(h.isMatch=!1,$?h:!1):l(u)?(typeof o.onIgnore=="function"&&o.onIgnore(h),h.isMatch=!1,$?h:!1):(typeof o.onMatch=="function"&&o.onMatch(h),$?h:!0)},"matcher");return n&&(d.state=c),d},"picomatch");J.test=(t,e,n,{glob:r,posix:o}={})=>{if(typeof t!="string")throw new TypeError("Expected input to be a string");if(t==="")return{isMatch:!1,output:""};let i=n||{},s=i.format||(o?lo.toPosixSlashes:null),c=t===r,l=c&&s?s(t):t;return c===!1&&(l=s?s(t):t,c=l===r),(c===!1||i.capture===!0)&&(i.matchBase===!0||i.basename===!0?c=J.matchBase(t,e,n,o):c=e.exec(l)),{isMatch:!!c,match:c,output:l}};J.matchBase=(t,e,n,r=n&&n.windows)=>(e instanceof RegExp?e:J.makeRe(e,n)).test(lo.basename(t,{windows:r}));J.isMatch=(t,e,n)=>J(e,n)(t);J.parse=(t,e)=>Array.isArray(t)?t.map(n=>J.parse(n,e)):Rn(t,{...e,fastpaths:!1});J.scan=(t,e)=>Wa(t,e);J.compileRe=(t,e,n=!1,r=!1)=>{if(n===!0)return t.output;let o=e||{},i=o.contains?"":"^",s=o.contains?"":"$",c=`${i}(?:${t.output})${s}`;t&&t.negated===!0&&(c=`^(?!${c}).*$`);let l=J.toRegex(c,e);return r===!0&&(l.state=t),l};J.makeRe=(t,e={},n=!1,r=!1)=>{if(!t||typeof t!="string")throw new TypeError("Expected a non-empty string");let o={negated:!1,fastpaths:!0};return e.fastpaths!==!1&&(t[0]==="."||t[0]==="*")&&(o.output=Rn.fastpaths(t,e)),o.output||(o=Rn(t,e)),J.compileRe(o,e,n,r)};J.toRegex=(t,e)=>{try{let n=e||{};return new RegExp(t,n.flags||(n.nocase?"i":""))}catch(n){if(e&&e.debug===!0)throw n;return/$^/}};J.constants=ja;uo.exports=J});var ot=We((up,ho)=>{"use strict";var po=fo(),Xa=nt();function mo(t,e,n=!1){return e&&(e.windows===null||e.windows===void 0)&&(e={...e,windows:Xa.isWindows()}),po(t,e,n)}a(mo,"picomatch");Object.assign(mo,po);ho.exports=mo});function At(t,e=40){let n=t.normalize("NFKD").replace(/[\u0300-\u036f]/g,"").toLowerCase().replace(/[^a-z0-9]+/g,"-").replace(/^-+|-+$/g,"");if(n.length<=e)return n;if(n[e]==="-")return n.slice(0,e);let r=n.slice(0,e),o=r.lastIndexOf("-");return(o>e/2?r.slice(0,o):r).replace(/-+$/,"")}a(At,"slugify");function yn(t){return t.replace(/[\u0000-\u0020\u007f~^:?*[\\]+/g,"-").replace(/\.{2,}/g,".").replace(/@\{/g,"-").split("/").map(e=>e.replace(/^\.+/,"").replace(/\.lock$/i,"-lock")).filter((e,n,r)=>e!==""||n===r.length-1).join("/").replace(/^[/-]+/,"")}a(yn,"cleanPrefix");function da(t,e,n,r){let o=yn(e);switch(t.kind){case"issue":return`${o}issue-${t.number}${Kr(t.title)}`;case"pr":case"review-comment":case"review":return`${o}pr-${t.number}${Kr(t.title)}`;case"workflow-run":return`${o}fix-run-${t.workflowRun?.id??n}`;case"prompt":return`${o}task-${n}${r?`-${At(r)||"job"}`:""}`}}a(da,"branchNameFor");function Kr(t){let e=At(t??"");return e?`-${e}`:""}a(Kr,"suffix");function ua(t,e,n="patchloop/"){let r=a(i=>String(i).padStart(2,"0"),"p"),o=`${r(e.getUTCMonth()+1)}${r(e.getUTCDate())}-${r(e.getUTCHours())}${r(e.getUTCMinutes())}${r(e.getUTCSeconds())}`;return`${yn(n)}${At(t)||"task"}-${o}`}a(ua,"defaultBranchName");function Rt(t,e){if(!e(t))return t;for(let n=2;;n++){let r=`${t}-${n}`;if(!e(r))return r}}a(Rt,"uniqueName");var $o=kt(ot(),1);import{lstat as Tn}from"node:fs/promises";import{join as On}from"node:path";var yo=10*1024*1024;function qa(t){let e=t.filter(n=>n.trim()!=="").map(n=>({glob:n,test:(0,$o.default)(n.trim().replace(/^\.\//,""),{dot:!0})}));return n=>e.find(r=>r.test(n))?.glob}a(qa,"protectedMatcher");function za(t){return t.split("/").some(e=>e.toLowerCase()===".git")}a(za,"hasGitComponent");function Pn(t){return t.includes("/")?t.slice(0,t.lastIndexOf("/")):""}a(Pn,"dirOf");function Ya(t){let e=new Map,n=a(r=>{if(r==="")return Promise.resolve(void 0);let o=e.get(r);return o||(o=n(Pn(r)).then(async i=>{if(i!==void 0)return i;let s=await Tn(On(t,r)).catch(()=>{});if(s)return s.isDirectory()?(s.mode&1)===0?{dir:r,kind:"private"}:void 0:{dir:r,kind:"replaced"}}),e.set(r,o)),o},"find");return n}a(Ya,"folderBlocker");async function wo(t,e,n){let r=qa(n.protectedPaths??[]),o=n.maxFileBytes??yo,i=new Set(n.baselineUntracked??[]),s=[],c=[],l=n.gitDirs??[],d=new Map,u=a(m=>{if(m===""||l.length===0)return Promise.resolve(!1);let w=d.get(m);if(!w){let g=m.includes("/")?m.slice(0,m.lastIndexOf("/")):"";w=Tn(On(t,m),{bigint:!0}).then(h=>l.some(f=>f.dev===h.dev&&f.ino===h.ino)||u(g),()=>u(g)),d.set(m,w)}return w},"inGitDir"),$=Ya(t);for(let m of e){if(m.kind==="!")continue;let w=m.from!==void 0?[m.path,m.from]:[m.path];for(let g of w){let h=a((v,_,E)=>c.push({path:g,reason:v,..._!==void 0?{detail:_}:{},...E!==void 0?{privateFolder:E}:{}}),"out"),f=g.replace(/\/$/,"");if(za(f)||await u(Pn(f))){h("inside .git");continue}if(g.endsWith("/")){h("embedded repository");continue}if(m.gitlink){h("submodule");continue}let p=r(g);if(p!==void 0){h("protected path",p);continue}if(m.kind==="?"&&i.has(g)){h("untracked before the run");continue}let b=await $(Pn(g));if(b?.kind==="replaced")continue;let k;try{k=await Tn(On(t,g))}catch{s.push(g);continue}b!==void 0?h("not readable by commands",void 0,b.dir):k.isSymbolicLink()?s.push(g):k.isFile()?k.size>o?h("too large",String(k.size)):k.nlink>1?h("a hard link",String(k.nlink)):(k.mode&4)===0?h("not readable by commands",(k.mode&511).toString(8).padStart(4,"0")):s.push(g):h("not a regular file")}}return{stage:[...new Set(s)],leftOut:c}}a(wo,"choosePaths");function go(t){let e=t.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,i=>`\\u${i.charCodeAt(0).toString(16).padStart(4,"0")}`),n=Math.max(0,...(e.match(/`+/g)??[]).map(i=>i.length)),r="`".repeat(n+1),o=e.startsWith("`")||e.endsWith("`")?" ":"";return`${r}${o}${e}${o}${r}`}a(go,"codeName");function Va(t,e=20){let n=t.filter(s=>s.reason!=="untracked before the run");if(n.length===0)return;let r=a(s=>s.reason==="too large"?`larger than the limit: ${(Number(s.detail)/1024/1024).toFixed(1)} MiB`:s.reason==="protected path"?`protected by ${s.detail}`:s.reason==="a hard link"?`a hard link: ${s.detail} names`:s.reason==="not readable by commands"?s.privateFolder!==void 0?`not readable by commands: the folder ${go(s.privateFolder)} is private`:`not readable by commands: mode ${s.detail}`:s.reason,"why"),o=n.slice(0,e).map(s=>`${go(s.path)} (${r(s)})`),i=n.length>e?`, and ${n.length-e} more`:"";return`Not committed: ${o.join(", ")}${i}.`}a(Va,"describeLeftOut");import{lstat as oi,rm as qc}from"node:fs/promises";import{tmpdir as zc}from"node:os";import{join as ii,resolve as Yc}from"node:path";import{lstat as Pt,readdir as gc,readFile as Co,rename as $c,rm as yc,writeFile as wc}from"node:fs/promises";import{dirname as Lo,isAbsolute as Io,join as $e,relative as Ao,resolve as Ct,sep as Do}from"node:path";import{spawn as Qa}from"node:child_process";import{accessSync as Ja,constants as Za,mkdtempSync as ec,realpathSync as tc,rmSync as nc,statSync as rc}from"node:fs";import{tmpdir as oc}from"node:os";import{delimiter as So,dirname as bo,isAbsolute as Dn,join as _o,relative as ic,sep as sc}from"node:path";var Eo=["core.hooksPath=/dev/null","core.fsmonitor=false","core.untrackedCache=false","core.trustctime=false","core.attributesFile=/dev/null","core.quotePath=false","core.pager=cat","submodule.recurse=false","status.submoduleSummary=false","diff.ignoreSubmodules=all","credential.helper=","commit.gpgSign=false","tag.gpgSign=false","protocol.ext.allow=never","gc.auto=0","maintenance.auto=false","color.ui=false","advice.detachedHead=false"],Be=class extends Error{constructor(n,r,o){super(n);this.code=r;this.stderr=o;this.name="GitError"}code;stderr;static{a(this,"GitError")}},ko=12e4,ac=64*1024*1024,cc=64*1024,lc=2e3,dc=["/usr/local/bin","/usr/bin","/bin","/usr/local/sbin","/usr/sbin","/sbin"];function xo(t,e){let n=ic(t,e);return n===""||!n.startsWith(`..${sc}`)&&n!==".."&&!Dn(n)}a(xo,"inside");function Cn(t){try{return tc(t)}catch{return}}a(Cn,"realOrUndefined");var vo=new Map;function Te(t={}){let e=t.path??process.env.PATH??"",n=`${t.workspace??""}\0${e}`,r=vo.get(n);if(r)return r;let o=t.workspace?Cn(t.workspace)??t.workspace:void 0,i=process.platform==="win32"?"git.exe":"git";for(let s of e.split(So)){if(!s||!Dn(s))continue;let c=Cn(s);if(!c||o&&xo(o,c))continue;let l=Cn(_o(c,i));if(!(!l||o&&xo(o,l))){try{if(!rc(l).isFile())continue;Ja(l,Za.X_OK)}catch{continue}return vo.set(n,l),l}}throw new Error(`git was not found on PATH outside the workspace${o?` (${o})`:""}; install git or put it in a system folder`)}a(Te,"resolveGit");var Ln;function uc(){if(!Ln){let t=ec(_o(oc(),"patchloop-home-"));process.once("exit",()=>nc(t,{recursive:!0,force:!0})),Ln=t}return Ln}a(uc,"emptyHome");var fc=/^(https?_proxy|HTTPS?_PROXY|no_proxy|NO_PROXY|all_proxy|ALL_PROXY|SSH_AUTH_SOCK|TZ)$/;function pc(t,e){let n=[bo(t),...dc.filter(o=>o!==bo(t))].join(So),r={};for(let[o,i]of Object.entries(process.env))i!==void 0&&fc.test(o)&&(r[o]=i);return Object.assign(r,{PATH:n,HOME:uc(),LC_ALL:"C",GIT_CONFIG_NOSYSTEM:"1",GIT_CONFIG_GLOBAL:"/dev/null",GIT_TERMINAL_PROMPT:"0",GIT_ASKPASS:"/bin/false",SSH_ASKPASS:"/bin/false",GIT_NO_REPLACE_OBJECTS:"1",GIT_NO_LAZY_FETCH:"1"}),e.readOnly&&(r.GIT_OPTIONAL_LOCKS="0"),e.userConfig&&(delete r.GIT_CONFIG_GLOBAL,process.env.HOME&&(r.HOME=process.env.HOME),process.env.XDG_CONFIG_HOME&&(r.XDG_CONFIG_HOME=process.env.XDG_CONFIG_HOME),process.env.GIT_CONFIG_GLOBAL&&(r.GIT_CONFIG_GLOBAL=process.env.GIT_CONFIG_GLOBAL)),{...r,...e.env}}a(pc,"gitEnvironment");var mc=1e3;function In(t,e){if(t!==void 0)try{process.kill(-t,e)}catch{}}a(In,"signalGroup");function hc(t){In(t,"SIGTERM");let e=setTimeout(()=>In(t,"SIGKILL"),mc);return e.unref(),()=>clearTimeout(e)}a(hc,"stopGroup");function Oe(t){if(!Dn(t))throw new Error(`git must be an absolute path, got ${t}`);function e(r,o){return new Promise(i=>{let s=Eo.flatMap(v=>["-c",v]),c=[],l=0,d=[],u=0,$=!1,m=!1,w=!1,g=a((v,_)=>{w||(w=!0,clearTimeout(b),o.signal?.removeEventListener("abort",p),i({code:v,stdout:Buffer.concat(c),stderr:_??Buffer.concat(d).toString("utf8").trim(),stopped:$,timedOut:m}))},"finish");if(o.signal?.aborted){$=!0,g(null,"git was not started: the call was cancelled");return}let h;try{h=Qa(t,["--no-pager",...s,...r],{cwd:o.cwd,env:pc(t,o),stdio:[o.input===void 0?"ignore":"pipe","pipe","pipe"],detached:!0,shell:!1})}catch(v){g(null,v instanceof Error?v.message:String(v));return}let f;function p(){$||($=!0,f=hc(h.pid))}a(p,"stop");let b=setTimeout(()=>{m=!0,p()},o.timeoutMs??ko);o.signal?.addEventListener("abort",p,{once:!0});let k=o.maxOutputBytes??ac;h.stdout.on("data",v=>{if(!$){if(o.onData){o.onData(v)===!1&&p();return}if(l+=v.length,l>k)return p();c.push(v)}}),h.stderr.on("data",v=>{u<cc&&d.push(v),u+=v.length}),o.input!==void 0&&h.stdin&&(h.stdin.on("error",()=>{}),h.stdin.end(o.input)),h.once("error",v=>g(null,v.message)),h.once("close",v=>{$&&(f?.(),In(h.pid,"SIGKILL")),g(v)}),h.once("exit",v=>{setTimeout(()=>{w||(h.stdout?.destroy(),h.stderr?.destroy(),g(v))},lc).unref()})})}a(e,"run");async function n(r,o){let i=await e(r,o);if(i.code===0&&!i.stopped)return i.stdout.toString("utf8");let s=`git ${r.find(l=>!l.startsWith("-"))??""}`,c=i.timedOut?`timed out after ${Me(o.timeoutMs??ko)}`:o.signal?.aborted?o.signal.reason?.name==="TimeoutError"?"was stopped at its deadline":"was cancelled":i.stopped?"was stopped (output too large)":`failed (exit ${i.code}): ${i.stderr.split(`
`).slice(-3).join(" ")}`;throw new Be(`${s} ${c}`,i.code,i.stderr)}return a(n,"text"),{binary:t,run:e,text:n}}a(Oe,"createGitRunner");function _e(t){let e=(typeof t=="string"?t:t.toString("utf8")).split("\0");return e[e.length-1]===""&&e.pop(),e}a(_e,"splitNul");var No=/git-credentials-[0-9a-f-]+\.config$/i,Mo=/^http\.(.*\.)?extraheader$/i,bc="^http\\.(.*\\.)?extraheader$",kc=/^core\.sshcommand$/i,xc=/^includeif\..*\.path$|^include\.path$/i;function Nn(t,e,n){let r=e??Oe(Te({workspace:t}));return{raw:a((o,i)=>r.text(o,{cwd:t,timeoutMs:3e4,...n?{env:n}:{},...i!==void 0?{input:i}:{}}),"raw")}}a(Nn,"configGit");function Bo(t){let e=t.indexOf(`
`);return e===-1?{key:t,value:""}:{key:t.slice(0,e),value:t.slice(e+1)}}a(Bo,"parseEntry");async function Mn(t,e,n){let r;try{r=await t.raw(["config",...e,"--null","--get-regexp",n])}catch{return[]}return r.split("\0").filter(o=>o!=="").map(Bo)}a(Mn,"readConfig");function Go(t){return`"${t.replace(/\\/g,"\\\\").replace(/"/g,'\\"').replace(/\n/g,"\\n").replace(/\t/g,"\\t")}"`}a(Go,"quoted");async function vc(t,e){let n=new Map(e.map(s=>[s,[]]));if(e.length===0)return n;let r=`[include]
${e.map(s=>`	path = ${Go(s)}
`).join("")}`,i=(await t.raw(["config","--file","-","--includes","--show-origin","--null","--list"],r)).split("\0");for(let s=0;s+1<i.length;s+=2)n.get(i[s].replace(/^file:/,""))?.push(Bo(i[s+1]));return n}a(vc,"readFiles");function it(t){return new Error(`${t} is a symbolic link or not a regular file; refusing to follow it (it may hold the checkout credential)`)}a(it,"refused");async function Fo(t){try{return await gc(t,{withFileTypes:!0})}catch(e){if(["ENOENT","ENOTDIR"].includes(e.code??""))return[];throw e}}a(Fo,"listDir");async function Ro(t,e){return(await Promise.all((await Fo(t)).map(r=>{if(r.isSymbolicLink())throw it($e(t,r.name));return r.isDirectory()?Ho($e(t,r.name),e):[]}))).flat()}a(Ro,"configsUnder");async function Ho(t,e){let n=new Map((await Fo(t)).map(o=>[o.name,o]));if(e==="module"&&!n.has("config"))return Ro(t,"module");let r=[];for(let o of e==="module"?["config","config.worktree"]:["config.worktree"]){let i=n.get(o);if(i){if(!i.isFile())throw it($e(t,o));r.push($e(t,o))}}for(let[o,i]of[["modules","module"],["worktrees","worktree"]]){let s=n.get(o);if(s?.isSymbolicLink())throw it($e(t,o));s?.isDirectory()&&r.push(...await Ro($e(t,o),i))}return r}a(Ho,"gitDirConfigs");async function To(t,e,n){let r={entries:[],unsets:[],gone:[],keys:[],files:[]},o=t.filter(s=>Mo.test(s.key));for(let s of new Set(o.map(c=>c.key)))r.unsets.push(["--unset-all",s]),r.keys.push(s);r.entries.push(...o);let i=t.filter(s=>kc.test(s.key));i.length>0&&(r.unsets.push(["--unset-all","core.sshCommand"]),r.keys.push("core.sshCommand"),r.entries.push(...i.map(s=>({key:"core.sshCommand",value:s.value})))),r.gone.push(...o,...i);for(let s of t.filter(c=>xc.test(c.key))){let c=Io(s.value)?s.value:Ct(e,s.value),l=await n(c);if(l.length===0&&!No.test(c))continue;let{entries:d}=r;d.push(...l.filter(u=>!d.some($=>$.key===u.key&&$.value===u.value))),r.unsets.push(["--fixed-value","--unset-all",s.key,s.value]),r.keys.push(s.key),r.gone.push(s),r.files.push(c)}return r}a(To,"shareOf");async function Sc(t,e){let n=Ct(e,".git"),[r,o]=await Promise.all([Pt(n).catch(()=>{}),Pt($e(n,"commondir")).catch(()=>{})]);return r?.isDirectory()&&!o?n:t.raw(["rev-parse","--path-format=absolute","--git-common-dir"]).then(i=>i.trim()||void 0).catch(()=>{})}a(Sc,"commonDirOf");function _c(t,e){let n="",r=!1;return t.split(`
`).filter(o=>{let i=r;if(r=/(^|[^\\])(\\\\)*\\\r?$/.test(o),i||r)return!0;if(/^\s*\[/.test(o)){let c=/^\s*\[([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\]\s*$/.exec(o),l=c?.[2]?.replace(/\\(.)/g,"$1");return n=c?`${c[1].toLowerCase()}${l===void 0?"":`.${l}`}`:"",!0}let s=/^\s*([A-Za-z][A-Za-z0-9-]*)\s*=/.exec(o)?.[1];return!(n&&s&&e.has(`${n}.${s.toLowerCase()}`))}).join(`
`)}a(_c,"withoutKeys");async function Ec(t,e,n){let r=new Set(n.gone.filter(s=>Mo.test(s.key)).map(s=>s.key));if(r.size>0)try{let[s,c]=await Promise.all([Co(e,"utf8"),Pt(e)]),l=_c(s,r);c.isFile()&&l!==s&&(await wc(`${e}.lock`,l,{flag:"wx",mode:c.mode&511}),await $c(`${e}.lock`,e))}catch{}let o=await Uo(e,n.gone),i=n.unsets.filter(s=>o||s[0]!=="--unset-all"||!r.has(s[1]));await Bn(t,["--file",e],i)}a(Ec,"rewrite");async function Bn(t,e,n){for(let r of n)try{await t.raw(["config",...e,...r])}catch{}}a(Bn,"takeOut");async function Uo(t,e){let n=await Co(t,"utf8").catch(()=>"");return Wo(e).some(r=>n.includes(r)||n.includes(Go(r).slice(1,-1)))}a(Uo,"stillHolds");async function Ac(t){for(let[e,n]of t)if(await Uo(e,n))throw new Error(`${e} still holds the checkout credential after patchloop removed it; refusing to go on`)}a(Ac,"checkGone");function Wo(t){let e=new Set;for(let{key:n,value:r}of t){if(!/extraheader$/i.test(n))continue;e.add(r);let o=/basic\s+([A-Za-z0-9+/=]+)/i.exec(r)?.[1],i=/(?:bearer|token)\s+(\S+)/i.exec(r)?.[1];if(o){e.add(o);let s=Buffer.from(o,"base64").toString("utf8"),c=s.slice(s.indexOf(":")+1);c&&e.add(c)}i&&e.add(i)}return[...e].filter(n=>n.length>=4)}a(Wo,"secretsOf");function Oo(t,e){if(!t)return!1;let n=Ct(t)+Do;return Ct(e).startsWith(n)}a(Oo,"within");async function Rc(t,e={}){let n=Nn(t,e.runner),r=["--local"],[o,i,s]=await Promise.all([Mn(n,r,"."),n.raw(["remote","get-url","--push","origin"]).then(f=>f.trim()||void 0).catch(()=>{}),Sc(n,t).then(async f=>{let p=f?await Ho(f,"common"):[];return{commonDir:f,configs:await vc(n,p)}})]),{commonDir:c}=s,l=new Map,d=a(f=>(l.has(f)||l.set(f,Mn(n,["--file",f],bc)),l.get(f)),"included"),u=await To(o,c??t,d),m=(await Promise.all([...s.configs].map(async([f,p])=>({file:f,share:await To(p,Lo(f),d)})))).filter(f=>f.share.unsets.length>0),w=u.keys.map(f=>`${f} in .git/config`),g=new Map;c&&u.gone.length>0&&g.set($e(c,"config"),u.gone),await Promise.all([Bn(n,r,u.unsets),...m.map(f=>Ec(n,f.file,f.share))]);for(let{file:f,share:p}of m){let b=Oo(t,f)?Ao(t,f):f;w.push(...p.keys.map(k=>`${k} in ${b}`)),g.set(f,p.gone)}for(let f of new Set([u,...m.map(p=>p.share)].flatMap(p=>p.files)))if(No.test(f)&&(Oo(e.runnerTemp,f)||!e.runnerTemp))await yc(f,{force:!0}),w.push(f);else{let p=await d(f),b=[...new Set(p.map(k=>k.key))];await Bn(n,["--file",f],b.map(k=>["--unset-all",k])),w.push(...b.map(k=>`${k} in ${f}`)),p.length>0&&g.set(f,p)}let h={entries:u.entries,secrets:Wo([u,...m.map(f=>f.share)].flatMap(f=>f.entries)),removed:w,originUrl:i,...c&&m.length>0?{elsewhere:{commonDir:c,files:m.map(f=>({path:Ao(c,f.file),entries:f.share.entries}))}}:{}};try{await Ac(g)}catch(f){throw await st(t,h,{runner:e.runner}).catch(()=>{}),f}return h}a(Rc,"takeCheckoutCredential");function Gn(t){let e={},n=t?.entries??[];return n.forEach((r,o)=>{e[`GIT_CONFIG_KEY_${o}`]=r.key,e[`GIT_CONFIG_VALUE_${o}`]=r.value}),e.GIT_CONFIG_COUNT=String(n.length),e}a(Gn,"credentialEnv");async function Tc(t,e){let n=e.split(Do);if(Io(e)||n.some(o=>o===""||o===".."))throw it($e(t,e));let r=t;for(let[o,i]of n.entries()){r=$e(r,i);let s=await Pt(r);if(o===n.length-1?!s.isFile():!s.isDirectory())throw it(r)}return r}a(Tc,"plainFile");async function Po(t,e,n){let r=await Mn(t,e,".");for(let o of n)r.some(i=>i.key.toLowerCase()===o.key.toLowerCase()&&i.value===o.value)||await t.raw(["config",...e,"--add",o.key,o.value])}a(Po,"putBack");async function st(t,e,n={}){let r=e.elsewhere;if(e.entries.length===0&&!r)return;let o=n.target,i=o?Nn(o.gitDir,n.runner,{GIT_DIR:o.gitDir}):Nn(t,n.runner);e.entries.length>0&&await Po(i,o?["--file",o.configFile]:["--local"],e.entries);let s=o?Lo(o.configFile):r?.commonDir;if(!r||!s)return;let c;for(let l of r.files)try{await Po(i,["--file",await Tc(s,l.path)],l.entries)}catch(d){c??=d}if(c)throw c}a(st,"restoreCheckoutCredential");import{constants as Oc}from"node:fs";import{copyFile as Ko,link as Xo,lstat as Dt,mkdir as ye,mkdtemp as Pc,readdir as Un,readFile as Cc,rename as qo,rm as jn,utimes as Lc,writeFile as Ee}from"node:fs/promises";import{dirname as Wn,isAbsolute as Ic,join as D,relative as Dc,resolve as It,sep as Nc}from"node:path";function zo(t,e){let n=Dc(t,e);return n===""||n!==".."&&!n.startsWith(`..${Nc}`)&&!Ic(n)}a(zo,"within");async function Yo(t){let e=await Dt(t,{bigint:!0});return{id:{dev:e.dev,ino:e.ino},stat:e}}a(Yo,"idOf");async function Fn(t,e){let{id:n,stat:r}=await Yo(t);if(r.isSymbolicLink()||!r.isDirectory())throw new Error(`${e} ${t} is not a plain directory (a symbolic link or a file); refusing to use it`);return n}a(Fn,"realDir");async function we(t){let e;try{e=await Dt(t)}catch{return}if(!e.isFile())throw new Error(`${t} is not a regular file; refusing to read it`);return Cc(t)}a(we,"readRegular");async function Vo(t,e){let n=It(t),r=It(n,e),o=D(n,".git"),i=a(m=>zo(n,m)&&m!==o,"refused");if(i(r))throw new Error(`The git directory ${r} lies in the workspace outside .git; refusing to use it`);let s=await Fn(r,"The git directory"),c=r,l=await we(D(r,"commondir"));if(l!==void 0&&(c=It(r,l.toString("utf8").trim()),i(c)))throw new Error(`${r}/commondir points to ${c}, inside the workspace; refusing to use it`);let d=c===r?s:await Fn(c,"The common git directory"),u=D(c,"objects"),$=await Fn(u,"The object directory");return{workspace:n,gitDir:r,commonDir:c,objectsDir:u,ids:{gitDir:s,commonDir:d,objectsDir:$}}}a(Vo,"inspectGitDir");function Mc(t,e){return t.dev===e.dev&&t.ino===e.ino}a(Mc,"sameId");async function at(t){let e=[[t.gitDir,t.ids.gitDir],[t.commonDir,t.ids.commonDir],[t.objectsDir,t.ids.objectsDir]];for(let[n,r]of e){let o=await Yo(n).catch(()=>{});if(!o||o.stat.isSymbolicLink()||!Mc(o.id,r))throw new Error(`${n} was replaced during the run (it is not the directory patchloop recorded); refusing to touch it`)}}a(at,"verifyRealGitDir");function Hn(t){if(/[\0]/.test(t))throw new Error("A git config value cannot hold a NUL character");return`"${t.replace(/\\/g,"\\\\").replace(/"/g,'\\"').replace(/\n/g,"\\n").replace(/\t/g,"\\t")}"`}a(Hn,"quoteValue");var Bc=new Set(["filemode","symlinks","ignorecase","precomposeunicode"]);function Gc(t){let e=["[core]"],n=t.objectFormat&&t.objectFormat!=="sha1"?t.objectFormat:void 0;e.push(`	repositoryformatversion = ${n?1:0}`,"	bare = false","	logallrefupdates = false");for(let[r,o]of Object.entries(t.fileSystem??{}))Bc.has(r)&&/^(true|false)$/i.test(o)&&e.push(`	${r} = ${o.toLowerCase()}`);if(n){if(!/^[a-z0-9]+$/.test(n))throw new Error(`Unknown object format ${n}`);e.push("[extensions]",`	objectformat = ${n}`)}return t.originUrl&&(e.push('[remote "origin"]',`	url = ${Hn(t.originUrl)}`),e.push("	fetch = +refs/heads/*:refs/remotes/origin/*")),e.push("[user]",`	name = ${Hn(t.identity.name)}`,`	email = ${Hn(t.identity.email)}`),`${e.join(`
`)}
`}a(Gc,"configText");var Fc=/^[0-9a-f]{2}$/;async function*Qo(t){let e;try{e=await Un(t,{withFileTypes:!0})}catch{return}for(let n of e)if(!(!n.isDirectory()||!(Fc.test(n.name)||n.name==="pack")))for(let r of await Un(D(t,n.name),{withFileTypes:!0}))!r.isFile()||r.name.startsWith("tmp_")||r.name.endsWith(".lock")||(yield`${n.name}/${r.name}`)}a(Qo,"objectFiles");async function Hc(t,e,n){let r=[];for await(let o of t)r.push(n(o)),r.length>=e&&(await Promise.all(r),r=[]);await Promise.all(r)}a(Hc,"inBatches");function Uc(t){return t&&typeof t=="object"&&"code"in t?String(t.code):void 0}a(Uc,"errCode");async function Wc(t){let e=await we(D(t.objectsDir,"info","alternates"));if(!e)return[];let n=[];for(let r of e.toString("utf8").split(`
`)){let o=r.trim();if(!o||o.startsWith("#"))continue;let i=It(t.objectsDir,o);if(zo(t.workspace,i))throw new Error(`The checkout borrows objects from ${i}, inside the workspace; refusing to use it`);n.push(i)}return n}a(Wc,"realAlternates");async function Jo(t,e,n=""){let r;try{r=await Un(D(t,n),{withFileTypes:!0})}catch{return}await ye(D(e,n),{recursive:!0});for(let o of r){let i=n?`${n}/${o.name}`:o.name;o.isDirectory()?await Jo(t,e,i):o.isFile()&&!o.name.endsWith(".lock")&&await Ko(D(t,i),D(e,i))}}a(Jo,"copyRefs");async function Zo(t,e,n){await ye(e,{recursive:!0,mode:448});let r=await Pc(D(e,"patchloop-git-")),o=D(r,"git"),i=D(o,"objects");await ye(D(i,"info"),{recursive:!0,mode:448}),await ye(D(i,"pack"),{recursive:!0}),await ye(D(o,"info"),{recursive:!0});let[s,c,l,d,u,$]=await Promise.all([we(D(t.gitDir,"HEAD")),we(D(t.gitDir,"index")),we(D(t.commonDir,"shallow")),we(D(t.commonDir,"info","exclude")),we(D(t.commonDir,"packed-refs")),we(D(t.commonDir,"config"))]),m=s?.toString("utf8")??"";if(!/^(ref: refs\/[^\0\n]+|[0-9a-f]{40,64})\n?$/.test(m))throw new Error(`${t.gitDir}/HEAD does not name a branch or a commit`);await Promise.all([Ee(D(o,"config"),Gc(n)),Ee(D(o,"HEAD"),m.endsWith(`
`)?m:`${m}
`),c&&ti(D(t.gitDir,"index"),D(o,"index"),c,Ee),l&&Ee(D(o,"shallow"),l),d&&Ee(D(o,"info","exclude"),d),u&&Ee(D(o,"packed-refs"),u),Jo(D(t.commonDir,"refs"),D(o,"refs"))]),await ye(D(o,"refs","heads"),{recursive:!0}),await ye(D(o,"refs","tags"),{recursive:!0});let w=new Set,g="linked",h=new Map;await Hc(Qo(t.objectsDir),64,async p=>{if(g!=="linked")return;let b=p.slice(0,p.indexOf("/")),k=h.get(b);k||(k=ye(D(i,b),{recursive:!0}),h.set(b,k)),await k;try{await Xo(D(t.objectsDir,p),D(i,p)),w.add(p)}catch(v){let _=Uc(v);if(_==="EXDEV"||_==="EPERM"||_==="EMLINK"||_==="EACCES")g="alternates";else if(_!=="EEXIST"&&_!=="ENOENT")throw v}});let f=await Wc(t);return g==="alternates"&&f.unshift(t.objectsDir),f.length>0&&await Ee(D(i,"info","alternates"),`${f.join(`
`)}
`),{root:r,gitDir:o,real:t,linked:w,objects:g,configSnapshot:$?.toString("utf8")??""}}a(Zo,"createPrivateGitDir");async function Lt(t,e){await ye(Wn(t),{recursive:!0});let n=`${t}.lock`;await Ee(n,e,{flag:"wx"});try{await qo(n,t)}catch(r){throw await jn(n,{force:!0}),r}}a(Lt,"replaceFile");function jo(t){if(!/^refs\/[A-Za-z0-9._\-/]+$/.test(t)||t.split("/").some(e=>e===""||e===".."||e==="."))throw new Error(`Refusing to write the ref ${JSON.stringify(t)}`)}a(jo,"checkRefName");async function ei(t,e){let n=t.real;await at(n);let r=D(t.gitDir,"objects"),o=[];for await(let s of Qo(r))t.linked.has(s)||o.push(s);o.sort((s,c)=>Number(s.endsWith(".idx"))-Number(c.endsWith(".idx")));for(let s of o){let c=D(n.objectsDir,s);if(await Dt(c).then(()=>!0,()=>!1))continue;await ye(Wn(c),{recursive:!0});let d=D(Wn(c),`tmp_patchloop_${process.pid}_${Math.random().toString(36).slice(2)}`);try{await Xo(D(r,s),d)}catch{await Ko(D(r,s),d,Oc.COPYFILE_EXCL)}await qo(d,c)}for(let[s,c]of Object.entries(e.refs)){if(jo(s),!/^[0-9a-f]{40,64}$/.test(c))throw new Error(`Refusing to write ${c} into ${s}`);await Lt(D(n.commonDir,s),`${c}
`)}/^[0-9a-f]{40,64}$/.test(e.head)?await Lt(D(n.gitDir,"HEAD"),`${e.head}
`):(jo(e.head),await Lt(D(n.gitDir,"HEAD"),`ref: ${e.head}
`));let i=await we(D(t.gitDir,"index"));i&&await ti(D(t.gitDir,"index"),D(n.gitDir,"index"),i,Lt)}a(ei,"writeBack");async function ti(t,e,n,r){let{mtimeMs:o}=await Dt(t);await r(e,n);let i=Math.floor(o)/1e3;await Lc(e,i,i)}a(ti,"copyIndex");async function ni(t){await at(t.real);let e=D(t.real.commonDir,"config");return(await we(e).catch(()=>{}))?.toString("utf8")===t.configSnapshot?!1:(await jn(e,{force:!0}),await Ee(e,t.configSnapshot,{flag:"wx"}),!0)}a(ni,"restoreRealConfig");async function ri(t){await jn(t.root,{recursive:!0,force:!0})}a(ri,"removePrivateGitDir");function jc(t,e){let n=0;for(let r=0;r<e;r++)n=t.indexOf(" ",n)+1;return t.slice(n)}a(jc,"after");var Kc="160000";function ct(t){let e={entries:[]},n=t.split("\0");for(let r=0;r<n.length;r++){let o=n[r];if(o==="")continue;if(o.startsWith("# branch.oid ")){let c=o.slice(13);c!=="(initial)"&&(e.head=c);continue}if(o.startsWith("# branch.head ")){let c=o.slice(14);c!=="(detached)"&&(e.branch=c);continue}let i=o[0],s=o.split(" ");if(i==="1"||i==="2"||i==="u"){let c=i==="u"?s.slice(3,7):s.slice(3,6),l={kind:i,xy:s[1],path:jc(o,i==="1"?8:i==="2"?9:10),gitlink:s[2].startsWith("S")||c.includes(Kc)};i==="2"&&(l.from=n[++r]),e.entries.push(l)}else(i==="?"||i==="!")&&e.entries.push({kind:i,xy:`${i}${i}`,path:o.slice(2),gitlink:!1})}return e}a(ct,"parseStatus");function Nt(t){return t.entries.filter(e=>e.kind!=="!").map(e=>e.path)}a(Nt,"dirtyPaths");function Kn(t){let e=[];for(let n of t.split("\0")){let r=/^(-|\d+)\t(-|\d+)\t(.+)$/s.exec(n.replace(/^\n/,""));if(!r)continue;let o=r[1]==="-"||r[2]==="-",i={path:r[3],added:o?0:Number(r[1]),removed:o?0:Number(r[2])};o&&(i.binary=!0),e.push(i)}return e}a(Kn,"parseNumstat");var Xc=3e5;function ce(t,e){let n=e?.runner,r=a(async l=>e?e.call(l):{cwd:t,...l},"base"),o;async function i(l,d,u={}){try{n??=Oe(Te({workspace:t}))}catch(g){return{code:null,stderr:g instanceof Error?g.message:String(g),stopped:!1}}let $=!1,m=await r({readOnly:!0,env:{LC_ALL:"C.UTF-8"},timeoutMs:Xc,onData:a(g=>d(g)===!1?($=!0,!1):!0,"onData"),...u.signal?{signal:u.signal}:{},...u.input!==void 0?{input:u.input}:{}}),w=await n.run(l,m);return{code:w.code,stderr:w.stderr,stopped:$||w.stopped&&!w.timedOut}}a(i,"stream");async function s(l,d={}){let u=[],$=await i(l,m=>(u.push(m),!0),d);return{code:$.code,stdout:Buffer.concat(u),stderr:$.stderr}}a(s,"run");function c(){return o??=s(["rev-parse","--is-inside-work-tree"]).then(l=>l.code===0&&l.stdout.toString().trim()==="true"),o}return a(c,"isWorkTree"),{root:t,isWorkTree:c,async isIgnored(l,d){return l===""||!await c()?!1:(await s(["check-ignore","-q","--",l],d?{signal:d}:{})).code===0},run:s,stream:a((l,d,u)=>i(l,d,u),"stream")}}a(ce,"createToolGit");var Xn={name:"github-actions[bot]",email:"41898282+github-actions[bot]@users.noreply.github.com"},Vc=6e5,Mt=class extends Error{static{a(this,"MergeRecoveryError")}constructor(e){super(e),this.name="MergeRecoveryError"}},Qc=["index.lock","HEAD.lock","ORIG_HEAD.lock","MERGE_HEAD.lock"],Bt=class{static{a(this,"GitRepo")}dir;runner;options;priv;isolating;identity;originUrl;drift;writing=0;constructor(e){this.options=e,this.dir=Yc(e.dir),this.runner=Oe(e.git??Te({workspace:this.dir})),this.identity=e.identity}get isolated(){return this.priv!==void 0}get privateGitDir(){return this.priv?.gitDir}env(e={}){return this.priv?{GIT_DIR:this.priv.gitDir,GIT_WORK_TREE:this.dir,...e}:e}async call(e={}){return this.priv?.objects==="alternates"&&await at(this.priv.real),{cwd:this.dir,timeoutMs:this.options.timeoutMs,...e,env:this.env(e.env)}}async git(e,n={}){return this.runner.text(e,await this.call(n))}async remote(e,n={}){return this.git(e,{env:Gn(this.options.credential),timeoutMs:n.timeoutMs??Vc,...n.signal??this.options.signal?{signal:n.signal??this.options.signal}:{}})}isolate(){return this.isolating??=this.makePrivate(),this.isolating}async makePrivate(){let e=this.options.identitySource==="user"&&!this.identity,[n,r,o]=await Promise.all([this.options.gitDir??this.git(["rev-parse","--absolute-git-dir"]),this.git(["config",...e?[]:["--local"],"--null","--show-scope","--list"],{userConfig:e}).catch(()=>""),this.options.credential?.originUrl!==void 0?this.git(["remote","get-url","--push","origin"]).then($=>$.trim(),()=>""):Promise.resolve(void 0)]),i=await Vo(this.dir,n.trim()),s=new Map,c=new Map,l=_e(r);for(let $=0;$+1<l.length;$+=2){let m=l[$],w=l[$+1],g=w.indexOf(`
`),h=(g===-1?w:w.slice(0,g)).toLowerCase(),f=g===-1?"":w.slice(g+1);c.set(h,f),m==="local"&&s.set(h,f)}let d=s.get("extensions.refstorage");if(d&&d!=="files")throw new Error(`The checkout keeps its refs in ${d}, which patchloop does not support`);let u=this.options.credential?.originUrl;if(u!==void 0&&o!==u&&(this.drift=`origin's push URL changed during the run (now "${o}"); refusing to push`),this.originUrl=u??s.get("remote.origin.pushurl")??s.get("remote.origin.url"),!this.identity){let $=e?c:s,m=$.get("user.name"),w=$.get("user.email");this.identity=m&&w?{name:m,email:w}:this.options.fallbackIdentity??Xn}this.priv=await Zo(i,this.options.privateParent??zc(),{objectFormat:s.get("extensions.objectformat"),fileSystem:Object.fromEntries(["filemode","symlinks","ignorecase","precomposeunicode"].flatMap($=>{let m=s.get(`core.${$}`);return m===void 0?[]:[[$,m]]})),originUrl:this.originUrl,identity:this.identity})}async removeStaleLocks(){return!this.priv||this.writing>0?[]:this.clearLocks()}async clearLocks(){if(!this.priv)return[];let e=[];for(let n of Qc){let r=ii(this.priv.gitDir,n);(await oi(r).catch(()=>{}))?.isFile()&&(await qc(r,{force:!0}),e.push(n))}return e}async writes(e){await this.isolate(),await this.removeStaleLocks(),this.writing++;try{return await e()}finally{this.writing--}}toolGit(){return ce(this.dir,{runner:this.runner,call:a(e=>this.call(e),"call")})}async currentBranch(){try{return(await this.git(["symbolic-ref","--quiet","--short","HEAD"])).trim()||void 0}catch{return}}async headSha(){return(await this.git(["rev-parse","--verify","HEAD^{commit}"])).trim()}async resolveIdentity(){return await this.isolate(),this.identity}async untracked(){return _e(await this.git(["ls-files","--others","--exclude-standard","-z"],{readOnly:!0}))}async dirtyPaths(){return Nt(ct(await this.status()))}status(){return this.git(["status","--porcelain=v2","-z","--untracked-files=all","--ignore-submodules=all","--no-renames"],{readOnly:!0})}async localBranches(){let e=await this.git(["for-each-ref","--format=%(refname:short)","refs/heads"],{readOnly:!0});return new Set(e.split(`
`).filter(Boolean))}async branchExists(e){return this.runner.run(["show-ref","--verify","--quiet",`refs/heads/${e}`],await this.call({readOnly:!0})).then(n=>n.code===0)}async isValidBranchName(e){return Zc(e)?!0:(await this.runner.run(["check-ref-format","--branch",e],await this.call())).code===0&&!e.startsWith("-")}async remoteBranches(e={}){let n=await this.remote(["ls-remote","--heads","origin"],e);return new Set(n.split(`
`).map(r=>r.split("	")[1]??"").filter(r=>r.startsWith("refs/heads/")).map(r=>r.slice(11)))}async freeBranchName(e,n={}){let[r,o]=await Promise.all([this.localBranches(),this.remoteBranches(n)]),i=new Set([...r,...o]);return Rt(e,s=>i.has(s))}async unusedBranchName(e){let n=await this.localBranches();return Rt(e,r=>n.has(r))}async startBranch(e,n){if(this.priv){let r=(await this.git(["rev-parse","--verify",`${n??"HEAD"}^{commit}`])).trim();await this.git(["update-ref",`refs/heads/${e}`,r,""]),await this.git(["symbolic-ref","HEAD",`refs/heads/${e}`]);return}await this.git(["checkout","-b",e,...n?[n]:[]])}async checkoutBranch(e){if(!await this.isValidBranchName(e))throw new Error(`Not a branch name: ${e}`);return await this.git(["checkout","--quiet",e,"--"]),this.headSha()}async checkoutRemoteBranch(e){return await this.fetchRemoteBranch(e),this.checkoutFetchedBranch(e)}async fetchRemoteBranch(e){await this.remote(["fetch","--no-tags","origin",`+refs/heads/${e}:refs/remotes/origin/${e}`])}async checkoutFetchedBranch(e){let n=`refs/remotes/origin/${e}`,[,r]=await Promise.all([this.git(["checkout","-B",e,n]),this.git(["rev-parse","--verify",`${n}^{commit}`])]);return r.trim()}async checkoutPullHead(e,n){return await this.remote(["fetch","--no-tags","origin",`+refs/pull/${e}/head:refs/remotes/origin/pr-${e}`]),await this.git(["checkout","-B",n,`refs/remotes/origin/pr-${e}`]),this.headSha()}async fetchCommit(e){if(!/^[0-9a-f]{40,64}$/.test(e))throw new Error(`Not a commit id: ${e}`);await this.remote(["fetch","--no-tags","--no-write-fetch-head","origin",e])}async mergeCommit(e,n){if(!/^[0-9a-f]{40,64}$/.test(e))throw new Error(`Not a commit id: ${e}`);return this.writes(()=>this.merge(e,n))}async merge(e,n){let r=await this.trackedStatus(),o=["merge","--no-ff","--no-edit","--no-verify","--no-gpg-sign","--no-log","--no-squash","--no-autostash","--no-rerere-autoupdate","--quiet","-m",n,e],i=await this.runner.run(o,await this.call({env:this.identityEnv()}));if(i.code===0&&!i.stopped)return{merged:!0,sha:await this.headSha()};let s=await this.git(["ls-files","--unmerged","-z"],{readOnly:!0}).catch(()=>""),c=[...new Set(_e(s).map(d=>d.slice(d.indexOf("	")+1)))];if(await this.abortMerge(r),c.length>0&&!i.stopped)return{merged:!1,conflicts:c};let l=i.timedOut?"timed out":i.stopped?"was stopped":`failed (exit ${i.code})`;throw new Be(`git merge ${l}: ${i.stderr.split(`
`).filter(Boolean).slice(0,4).join(" ").slice(0,500)}`.trim(),i.code,i.stderr)}trackedStatus(){return this.git(["status","--porcelain=v2","-z","--untracked-files=no","--ignore-submodules=all"],{readOnly:!0})}async abortMerge(e){await this.clearLocks();let n=await this.runner.run(["merge","--abort"],await this.call()),r=await this.trackedStatus().catch(()=>{}),o=await oi(ii(this.priv.gitDir,"MERGE_HEAD")).then(()=>!0,()=>!1);if(r===e&&!o)return;let i=n.code===0?"left the tree changed":`failed: ${n.stderr.split(`
`).filter(Boolean).slice(-2).join(" ").slice(0,300)}`;throw new Mt(`A merge in the workspace could not be undone (git merge --abort ${i}); the work tree may hold half-merged files, so the run stops here rather than work on them.`)}async remoteBranchSha(e){let n=await this.remote(["ls-remote","--heads","origin",`refs/heads/${e}`]);return/^([0-9a-f]{40,64})\s/.exec(n)?.[1]}async remoteHasBranch(e){return(await this.remote(["ls-remote","--heads","origin",`refs/heads/${e}`])).trim()!==""}async commitChanges(e,n={}){return this.writes(()=>this.commit(e,n))}async commit(e,n){let r={...n.signal?{signal:n.signal}:{},...n.timeoutMs?{timeoutMs:n.timeoutMs}:{}},o=ct(await this.git(["status","--porcelain=v2","-z","--untracked-files=all","--ignore-submodules=all","--no-renames"],r)),i=this.priv.real.ids,{stage:s,leftOut:c}=await wo(this.dir,o.entries,{gitDirs:[i.gitDir,i.commonDir],protectedPaths:this.options.protectedPaths,maxFileBytes:this.options.maxFileBytes,baselineUntracked:n.baselineUntracked});s.length>0&&await this.git(["--literal-pathspecs","add","--pathspec-from-file=-","--pathspec-file-nul"],{...r,input:`${s.join("\0")}\0`});let l=await this.git(["diff","--cached","--numstat","-z","--no-renames","--no-ext-diff","--no-textconv","--ignore-submodules=all","HEAD"],r),d=Kn(l);return d.length===0?{commit:null,leftOut:c}:(n.branch!==void 0&&await this.startBranch(n.branch),await this.git(["commit","--quiet","--no-verify","--no-gpg-sign","--file=-"],{...r,input:e,env:this.identityEnv()}),{commit:{sha:await this.headSha(),files:d,leftOut:c},leftOut:c})}identityEnv(){let e=this.identity??Xn;return{GIT_AUTHOR_NAME:e.name,GIT_AUTHOR_EMAIL:e.email,GIT_COMMITTER_NAME:e.name,GIT_COMMITTER_EMAIL:e.email}}async push(e,n={}){await this.isolate();let r=this.drift??await this.originDrift();if(r)return{ok:!1,error:r};let{signal:o}=n,i={ok:!1,error:"The push was cancelled."};if(o?.aborted)return i;let s=await this.tryPush(e,n);if(s.ok)return{ok:!0,branch:e,sha:await this.headSha(),rebased:!1};if(o?.aborted)return{ok:!1,error:s.error};if(!s.rejected)return{ok:!1,error:s.error};try{if(await this.remote(["fetch","--no-tags","origin",`+refs/heads/${e}:refs/remotes/origin/${e}`],n),await this.git(["rebase","--quiet","--no-autostash",`refs/remotes/origin/${e}`],{...n,env:this.identityEnv()}),(await this.tryPush(e,n)).ok)return{ok:!0,branch:e,sha:await this.headSha(),rebased:!0}}catch{await this.git(["rebase","--abort"]).catch(()=>{})}if(o?.aborted)return i;let c=await this.freeBranchName(e,n),l=await this.tryPush(c,n);return l.ok?{ok:!0,branch:c,sha:await this.headSha(),rebased:!1,movedFrom:e}:{ok:!1,error:l.error}}async originDrift(){let e=this.options.credential?.originUrl;if(!e||!this.priv)return;let n=`${this.priv.real.commonDir}/config`,r=a(i=>this.git(["config","--file",n,"--get",i]).then(s=>s.trim(),()=>""),"read"),o=await r("remote.origin.pushurl")||await r("remote.origin.url");return o===e?void 0:`origin's push URL changed during the run (now "${o}"); refusing to push`}async tryPush(e,n){try{return await this.remote(["push","--no-verify","origin",`HEAD:refs/heads/${e}`],n),{ok:!0}}catch(r){let o=r instanceof Be?`${r.message}
${r.stderr}`:String(r);return n.signal?.aborted||/timed out|deadline/.test(o.split(`
`)[0])?{ok:!1,rejected:!1,error:`The push was stopped: ${o.split(`
`)[0]}`}:{ok:!1,rejected:/\[rejected\]|non-fast-forward|fetch first|\[remote rejected\].*(cannot lock ref|stale info)/i.test(o),error:si(o)}}}async writeBack(e){if(!this.priv)return;let n=(await this.git(["symbolic-ref","--quiet","HEAD"]).catch(()=>"")).trim(),r=await this.headSha(),o={};n&&(o[n]=r),e&&(o[`refs/remotes/origin/${e.branch}`]=e.sha),await ei(this.priv,{refs:o,head:n||r})}async restoreConfig(){return this.priv?ni(this.priv):!1}async restoreCredential(e){if(!this.priv)return st(this.dir,e,{runner:this.runner});await at(this.priv.real),await st(this.dir,e,{runner:this.runner,target:{configFile:`${this.priv.real.commonDir}/config`,gitDir:this.priv.gitDir}})}async dispose(){this.priv&&await ri(this.priv)}};async function Jc(t,e={}){let n=Oe(e.git??Te({workspace:t})),r={cwd:t,readOnly:!0,timeoutMs:3e4},[o,i]=await Promise.all([n.text(["rev-parse","--show-toplevel","--absolute-git-dir"],r).catch(()=>{}),n.text(["status","--porcelain=v2","--branch","-z","--ignore-submodules=all"],r).catch(()=>{})]);if(o===void 0||i===void 0)throw new Error(`${t} is not inside a git checkout (run \`git init\` and commit first)`);let[s="",c]=o.trim().split(`
`),l=ct(i);if(!l.head)throw new Error(`${s} has no commits yet; commit once so the changes can go on a branch`);return{repo:new Bt({...e,dir:s,git:n.binary,...c?{gitDir:c}:{}}),root:s,head:l.head,branch:l.branch,dirty:Nt(l)}}a(Jc,"openCheckout");function si(t){let e=t.split(`
`).map(r=>r.trim()).filter(Boolean),n=e.filter(r=>/error|rejected|denied|fatal|refusing/i.test(r)).slice(0,3).join(" ")||e.slice(-2).join(" ");return/refusing to allow .* to create or update workflow/i.test(t)?`The push was refused: it changes a workflow file and the token lacks the \`workflows\` permission (${n}).`:/permission to .* denied|returned error: 403|403 forbidden/i.test(t)?`The push was refused: the token cannot write to the repository; add \`contents: write\` to the job's \`permissions:\` (${n}).`:/could not read username|authentication failed|returned error: 401/i.test(t)?`The push was refused for lack of credentials: keep actions/checkout's persist-credentials on (${n}).`:`The push failed: ${n}`}a(si,"explainPushError");function Zc(t){return!/^[A-Za-z0-9._/-]+$/.test(t)||t.startsWith("-")||t==="HEAD"||t.endsWith(".")||t.includes("..")?!1:t.split("/").every(e=>e!==""&&!e.startsWith(".")&&!e.endsWith(".lock"))}a(Zc,"isPlainBranchName");var qn=0;function ci(){return qn}a(ci,"workspaceChanges");function el(t){let e=t.checkArguments?.bind(t);return e?n=>{let r=e(n);return r===void 0?{ok:!0}:{ok:!1,error:r}}:Cr(t)}a(el,"validatorOf");var ai=class{static{a(this,"ToolRegistry")}entries=new Map;constructor(e){for(let n of e)this.entries.set(n.name,{tool:n,validate:el(n)})}get tools(){return[...this.entries.values()].map(e=>e.tool)}get(e){return this.entries.get(e)?.tool}names(){return[...this.entries.keys()]}async execute(e,n,r){let o=this.entries.get(e.name);if(!o)return xe(e,`Unknown tool "${e.name}". Available tools: ${this.names().join(", ")||"(none)"}.`);let i;if(typeof e.input=="string"){let d=Pr(e.input);if(!d.ok)return xe(e,`Invalid arguments for ${e.name}: ${d.error}`);i=d.value}else{if(e.input===null||typeof e.input!="object"||Array.isArray(e.input))return xe(e,`Invalid arguments for ${e.name}: the arguments must be a JSON object.`);{let d=Or(e.input);if(d)return xe(e,`Invalid arguments for ${e.name}: they contain an unpaired UTF-16 surrogate at ${d}, which is not valid text.`);i=e.input}}let s=o.validate(i),c=s instanceof Promise?await s:s;if(!c.ok)return xe(e,c.error);if(n.aborted)return xe(e,"Tool call not run: the run was aborted before the tool ran.");let l=o.tool.readOnly!==!0;l&&qn++;try{let d=await o.tool.execute(i,{signal:n,toolCallId:e.id,onUpdate:r}),u={role:"toolResult",toolCallId:e.id,toolName:e.name,content:d.content.length>0?d.content:[{type:"text",text:"(no output)"}],isError:d.isError===!0,timestamp:Date.now()};return d.details!==void 0&&(u.details=d.details),u}catch(d){if(n.aborted)return xe(e,"Tool call aborted: the run was cancelled while the tool was running.");let u=d instanceof Error?d.message:String(d),$=xe(e,d instanceof L?u:`${e.name} failed: ${u}`);return d instanceof L&&d.details!==void 0&&($.details=d.details),$}finally{l&&qn++}}};var pi=kt(ot(),1);import{lstat as tl,readlink as nl,realpath as li}from"node:fs/promises";import{existsSync as rl,realpathSync as di}from"node:fs";import{basename as ol,dirname as Vn,isAbsolute as zn,join as lt,relative as il,resolve as qe,sep as ui}from"node:path";var mi=[".github/workflows/**"],sl=40;function al(t){return ui==="/"?t:t.split(ui).join("/")}a(al,"toPosix");function fi(t){return t.split("/").some(e=>e.toLowerCase()===".git")}a(fi,"touchesGitDir");function ue(t){return JSON.stringify(t)}a(ue,"quote");function cl(t){return t&&typeof t=="object"&&"code"in t?String(t.code):void 0}a(cl,"errorCode");async function Gt(t,e=0){try{return{real:await li(t),exists:!0}}catch(r){let o=cl(r);if(o==="ELOOP")throw new L("The path goes through a loop of symbolic links.");if(o==="ENAMETOOLONG")throw new L("The path is too long for the file system.");if(o!=="ENOENT"&&o!=="ENOTDIR")throw r}let n=[];for(let r=t;;){let o=await tl(r).catch(()=>{});if(o?.isSymbolicLink()){if(e>=sl)throw new L("Too many levels of symbolic links.");let s=await nl(r),c=(await Gt(Vn(r),e+1)).real,l=await Gt(qe(c,s),e+1);return{real:lt(l.real,...n),exists:!1}}if(o)return{real:lt(await li(r),...n),exists:!1};let i=Vn(r);if(i===r)return{real:lt(r,...n),exists:!1};n.unshift(ol(r)),r=i}}a(Gt,"resolveReal");function Qn(t,e={}){if(!zn(t))throw new Error(`The workspace root must be an absolute path, got ${ue(t)}.`);let n=qe(t),r=di(n),o=lt(r,".git"),i=hn(r,{writable:!0,gitDir:e.gitDir??(rl(o)?o:void 0),...e.group?{group:e.group}:{}}),s=(e.readOnlyDirs??[]).map(p=>({given:qe(p),area:hn(p,{writable:!1,flat:!0})})),c=[i,...s.map(p=>p.area)],d=(e.protectedPaths??mi).filter(p=>p.trim()!=="").map(p=>({glob:p,test:(0,pi.default)(p.trim().replace(/^\.\//,""),{dot:!0})}));function u(p){return d.find(b=>b.test(p))?.glob}a(u,"protectedBy");function $(p,b){return N(b,p)?al(il(p,b)):void 0}a($,"relativeTo");async function m(p,b){let k=qe(p),v=s.find(I=>N(k,I.given)||N(k,I.area.root));if(!v)return;if(b==="write")throw new L(`Path ${ue(p)} is a saved command output outside the workspace: it can be read with read_file and searched with grep, not changed.`);let{real:_,exists:E}=await Gt(k),C=di(v.area.root),P=$(C,_);if(P===void 0||P.includes("/")||P==="")throw new L(`Path ${ue(p)} is not a saved command output; only the files the notices name can be read there.`);return{rel:_,abs:k,real:_,realRel:P,exists:E,base:C,readOnly:!0}}a(m,"resolveOutput");async function w(p,b){let k=p??"";if(k.includes("\0"))throw new L(`Path ${ue(k)} contains a NUL byte; no file name can hold one.`);let v=`Path ${ue(k)} is outside the workspace. Use a path relative to the workspace root, such as "src/index.ts".`,_,E;if(zn(k)?(_=qe(k),E=$(n,_)??$(r,_),E!==void 0&&(_=lt(n,E))):(_=qe(n,k),E=$(n,_)),E===void 0){let x=zn(k)?await m(k,b):void 0;if(x)return x;throw new L(v)}if(fi(E))throw new L(`Path ${ue(k)} is inside .git/, which these tools neither read nor change.`);if(E===""&&b==="write")throw new L("The workspace root itself cannot be written; give a file path inside it.");let{real:C,exists:P}=await Gt(_),I=$(r,C);if(I===void 0)throw new L(`Path ${ue(k)} is, or goes through, a symbolic link that leads outside the workspace; it is refused.`);if(fi(I))throw new L(`Path ${ue(k)} leads (through a symbolic link) into .git/, which these tools do not touch.`);if(b==="write"){let x=u(E)??u(I);if(x!==void 0){let B=/^\.github\/workflows(\/|$)/.test(E)||/^\.github\/workflows(\/|$)/.test(I)?" GitHub rejects pushes that change workflow files unless the token has the `workflows` permission.":"";throw new L(`Path ${ue(k)} is protected (it matches the protected-paths pattern ${ue(x)}), so it cannot be written.${B}`)}}return{rel:E,abs:_,real:C,realRel:I,exists:P,base:r,readOnly:!1}}a(w,"resolvePath");async function g(p,b){try{return await vt(p.real,b==="read"?c:[i],b)}catch(k){throw Yn(k,p.rel||".")}}a(g,"openChecked");async function h(p,b){try{return(await Nr(p,c)).entries}catch(k){throw Yn(k,b)}}a(h,"readDirChecked");async function f(p){try{await Mr(Vn(p.real),i)}catch(b){throw Yn(b,p.rel)}}return a(f,"makeParents"),{root:r,resolve:w,protectedBy:u,open:g,readDir:h,makeParents:f,area:i}}a(Qn,"createWorkspace");function Yn(t,e){if(!(t instanceof Ir))return t;let n=ue(e);switch(t.reason){case"missing":return new L(`Path ${n} does not exist (it may have just been removed).`);case"directory":return new L(`Path ${n} is a directory; use list_dir to see its entries, and give a file path.`);case"not-directory":return new L(`Cannot use ${n}: a part of its folder path is a file, not a folder.`);case"not-regular":return new L(`Path ${n} is not a regular file (a pipe, device or socket); it is neither read nor written.`);case"symlink":return new L(`Path ${n} changed into a symbolic link while it was being opened; it is refused.`);case"git-dir":return new L(`Path ${n} lies in the repository's git directory (checked on the opened file, whatever the folder is called now); these tools neither read nor change it.`);case"read-only":return new L(`Path ${n} can only be read.`);case"private":return new L(`Path ${n} is readable by its owner only (${t.message}), as a credentials file is; these tools do not read it. If it is part of the work, it must be made readable by all first.`);case"private-folder":return new L(`Path ${n} lies in a folder that others may not enter (${t.message}): everything under such a folder is private, as a credentials file is, and these tools do not use it. If it is part of the work, the folder must be opened to all first.`);case"hard-link":return new L(`Path ${n} is not changed: ${t.message}, so writing it would change a file outside the workspace too (a package manager's store, say).`);default:return new L(`Path ${n} leads outside the workspace (checked on the opened file: ${t.message}); it is refused.`)}}a(Yn,"refusal");import{closeSync as ll,openSync as dl,readSync as ul}from"node:fs";function Ft(t){if(!t.includes("npm notice"))return t;let e=t.split(`
`),n=/^npm notice (New (major|minor|patch) version of npm available!|Changelog: |To update run: npm install -g npm@)/,r=e.map(()=>!0);for(let o=0;o<e.length;o++)if(n.test(e[o])){r[o]=!1;for(let i=o-1;i>=0&&e[i].trim()==="npm notice";i--)r[i]=!1;for(let i=o+1;i<e.length&&e[i].trim()==="npm notice";i++)r[i]=!1}return e.filter((o,i)=>r[i]).join(`
`)}a(Ft,"withoutNpmUpdateNotice");var fl=/^\s*(?:not ok\b|FAIL\b|[✗×✖]\s|\S*(?:AssertionError|Error:))/u,pl=14,ml=2048,hl=4*1024*1024;function gl(t,e){let n;try{n=dl(t,"r");let r=Buffer.alloc(e),o=ul(n,r,0,e,0);return r.subarray(0,o).toString("utf8")}catch{return}finally{n!==void 0&&ll(n)}}a(gl,"readStart");function $l(t,e){let n=t.complete?t.text:t.fullOutputPath?gl(t.fullOutputPath,hl):void 0;if(n===void 0)return;let r=et(Ft(n)),o=r.findIndex(s=>fl.test(s));if(o<0)return;let i=r.slice(o,o+1+pl).join(`
`);if(!(e.includes(r[o])&&e.includes(i)))return xt(i,ml)}a($l,"firstFailure");function Ht(t,e,n=ve,r){let o=e.spawnError!==void 0||e.outputLimit!==void 0||e.timedOut||e.aborted||e.exitCode!==0,i=mn(Ft(e.text),n),s;if(o&&(i.truncated||!e.complete)&&(s=$l(e,i.text),s!==void 0)){let m=Math.max(0,n.maxBytes-Buffer.byteLength(s,"utf8")-160),w=Math.max(1,n.maxLines-et(s).length-2);i=mn(Ft(e.text),{maxLines:w,maxBytes:m})}let c=i.keptLines,l=i.truncated||!e.complete,d={command:t,exitCode:e.exitCode,signal:e.signal,durationMs:e.durationMs,timedOut:e.timedOut,aborted:e.aborted,truncated:l,totalLines:e.totalLines,totalBytes:e.totalBytes};e.fullOutputPath&&(d.fullOutputPath=e.fullOutputPath),e.droppedBytes!==void 0&&(d.droppedBytes=e.droppedBytes),e.outputLimit!==void 0&&(d.outputLimit=e.outputLimit);let u;e.spawnError?u=`The command could not be started: ${e.spawnError}`:e.outputLimit!==void 0?u=`Stopped after ${Me(e.durationMs)}: the command printed more than ${j(e.outputLimit)} of output, the most patchloop reads from one command, so it and all its processes were stopped. It did not finish; run something quieter (one test, or the output filtered with grep or tail).`:e.timedOut?u=`Timed out after ${Me(e.durationMs)}; the command and all its processes were stopped.`:e.aborted?u="Cancelled: the run was stopped, and the command with it.":e.exitCode!==null?u=`Exit code ${e.exitCode} (${Me(e.durationMs)}).`:u=`Ended by signal ${e.signal??"unknown"} (${Me(e.durationMs)}).`;let $=r?[r,u]:[u];if(e.totalBytes===0?$.push("(no output)"):(s!==void 0&&$.push(`[First failure, from earlier in the output:]
${s}
[End of the first failure; the output's last lines follow.]`),$.push(i.text)),l){let w=`[Output cut: showing ${i.partialLine?`the last ${j(i.keptBytes)} of the last line`:`the last ${c} lines`} of ${e.totalLines} lines (${j(e.totalBytes)} in all).`;e.fullOutputPath&&e.droppedBytes!==void 0?w+=` The output's beginning and end are saved to ${e.fullOutputPath} (${j(e.droppedBytes)} in between were dropped). Read it with read_file or search it with grep at that path.`:e.fullOutputPath?w+=` Full output saved to ${e.fullOutputPath}. Read it with read_file or search it with grep at that path.`:e.spillError&&(w+=` The full output could not be saved: ${e.spillError}.`),w+=" Narrow the command (e.g. run one test, or filter with grep) to see less at a time.]",$.push(w)}return e.limitNote&&$.push(`[${e.limitNote}]`),e.workspaceNote&&$.push(`[${e.workspaceNote}]`),{content:[{type:"text",text:$.join(`
`)}],details:d,isError:o||e.workspaceNote!==void 0}}a(Ht,"formatCommandResult");function Ut(t,e){if(!e)return t;let n=[...t.content],r=n.at(-1);return r?.type==="text"?n[n.length-1]={...r,text:`${r.text}
${e}`}:n.push({type:"text",text:e}),{...t,content:n}}a(Ut,"withNetworkNote");import{spawn as Sl}from"node:child_process";import{existsSync as _l}from"node:fs";import{tmpdir as El}from"node:os";import{closeSync as hi,mkdirSync as yl,openSync as wl,writeSync as bl}from"node:fs";import{randomBytes as kl}from"node:crypto";import{join as xl}from"node:path";var dt={headBytes:8*1024**2,tailBytes:8*1024**2,stopBytes:1024**3};function vl(t){let e=0;for(let n=0;n<t.length;n++)t[n]===10&&e++;return e}a(vl,"countNewlines");var Wt=class{constructor(e){this.options=e;this.headBytes=e.bounds?.headBytes??dt.headBytes,this.tailBytes=e.bounds?.tailBytes??dt.tailBytes}options;static{a(this,"OutputBuffer")}chunks=[];held=0;total=0;newlines=0;lastByte=-1;fd;path;spillError;dropped=!1;written=0;headBytes;tailBytes;get totalBytes(){return this.total}write(e){e.length!==0&&(this.total+=e.length,this.newlines+=vl(e),this.lastByte=e[e.length-1],this.chunks.push(e),this.held+=e.length,this.fd!==void 0?this.append(e):this.exceedsLimits()&&this.spill(),this.trim())}peek(e){return gi(this.lastBytes(e+4),e)}finish(){this.fd===void 0&&this.path===void 0&&this.exceedsLimits()&&this.spill();let e;if(this.fd!==void 0){let o=this.total-this.written,i=Math.min(o,this.tailBytes,this.held);i<o&&(e=o-i,this.writeFile(Buffer.from(`
[\u2026 ${j(e)} of output dropped here: patchloop keeps the first ${j(this.headBytes)} and the last ${j(this.tailBytes)} of a command's output \u2026]
`))),i>0&&this.writeFile(this.lastBytes(i)),this.fd!==void 0&&hi(this.fd),this.fd=void 0}let n=this.lastBytes(this.options.memoryBytes+4),r=this.newlines+(this.total>0&&this.lastByte!==10?1:0);return{text:gi(n,this.options.memoryBytes),complete:!this.dropped&&this.held<=this.options.memoryBytes,totalBytes:this.total,totalLines:r,fullOutputPath:this.path,...e!==void 0?{droppedBytes:e}:{},spillError:this.spillError}}lastBytes(e){let n=[],r=0;for(let i=this.chunks.length-1;i>=0&&r<e;i--)n.unshift(this.chunks[i]),r+=this.chunks[i].length;let o=Buffer.concat(n);return o.length>e?o.subarray(o.length-e):o}exceedsLimits(){let e=this.newlines+(this.total>0&&this.lastByte!==10?1:0);return this.total>this.options.limits.maxBytes||e>this.options.limits.maxLines}spill(){if(this.spillError===void 0)try{yl(this.options.spillDir,{recursive:!0});let e=`${this.options.name}-${Date.now()}-${kl(4).toString("hex")}.log`;this.path=xl(this.options.spillDir,e),this.fd=wl(this.path,"wx",this.options.fileMode??384);for(let n of this.chunks)this.append(n)}catch(e){this.failSpill(e)}}append(e){let n=this.headBytes-this.written;if(this.fd===void 0||n<=0)return;let r=e.length>n?e.subarray(0,n):e;this.writeFile(r),this.written+=r.length}writeFile(e){if(this.fd!==void 0)try{let n=0;for(;n<e.length;)n+=bl(this.fd,e,n,e.length-n)}catch(n){this.failSpill(n)}}failSpill(e){if(this.spillError=`${e instanceof Error?e.message:String(e)} (after ${j(this.total)})`,this.fd!==void 0)try{hi(this.fd)}catch{}this.fd=void 0}trim(){if(this.fd===void 0&&this.spillError===void 0)return;let e=this.fd===void 0?this.options.memoryBytes:Math.max(this.options.memoryBytes,this.tailBytes);for(;this.chunks.length>1&&this.held-this.chunks[0].length>=e;)this.held-=this.chunks.shift().length,this.dropped=!0;if(this.held>e*2&&this.chunks.length===1){let n=this.chunks[0];this.chunks[0]=Buffer.from(n.subarray(n.length-e)),this.held=e,this.dropped=!0}}};function gi(t,e){let n=Math.max(0,t.length-e);if(n>0){let r=Math.min(t.length,n+4);for(;n<r&&(t[n]&192)===128;)n++}return new TextDecoder("utf-8",{fatal:!1}).decode(t.subarray(n))}a(gi,"decodeTail");var Al=1e3,Rl=256*1024,Tl=500,Ol=_l("/bin/bash")?"/bin/bash":"/bin/sh";async function Ge(t){let e=Date.now(),n=t.limits??ve,r={...dt,...t.outputBounds},o=new Wt({memoryBytes:Math.max(t.memoryBytes??Rl,n.maxBytes),limits:n,spillDir:t.artifactsDir??El(),name:t.name??"command",fileMode:t.sandbox?.outputFileMode,bounds:r}),i={exitCode:null,signal:null,timedOut:!1,aborted:!1};if(t.signal?.aborted)return{...i,...o.finish(),aborted:!0,durationMs:0};let s=t.sandbox?.envOptions,c=gn(t.env??process.env,{...t.envOptions,pass:[...t.envOptions?.pass??[],...s?.pass??[]],privateDirs:[...t.envOptions?.privateDirs??[],...s?.privateDirs??[]]}),l={command:t.command,cwd:t.cwd,env:c,timeoutMs:t.timeoutMs},d=t.sandbox?.signal??Ur,u=t.killGraceMs??Al,$,m;try{let O=t.sandbox?t.sandbox.wrap(l):{file:Ol,args:["-c",t.command],env:c,uid:void 0,gid:void 0};m=O.settle,$=Sl(O.file,O.args,{cwd:t.cwd,env:O.env,detached:!0,stdio:["ignore","pipe","pipe"],uid:O.uid,gid:O.gid,windowsHide:!0})}catch(O){let X=await m?.().catch(W=>String(W));return{...i,...o.finish(),spawnError:O instanceof Error?O.message:String(O),...X?{workspaceNote:X}:{},durationMs:Date.now()-e}}let w=$.pid,g=!1,h=!1,f=!1,p,b=a(()=>{w!==void 0&&!p&&(p=Wr(w,u,d))},"stop"),k=0,v,_=a(()=>{v=void 0,k=Date.now(),t.onProgress?.(o.peek(4096))},"progress"),E=a(O=>{if(o.write(O),!f&&o.totalBytes>r.stopBytes&&(f=!0,b()),t.onProgress&&!v){let X=Math.max(0,k+(t.progressMs??500)-Date.now());v=setTimeout(_,X)}},"onData");$.stdout.on("data",E),$.stderr.on("data",E);let C=Promise.all([new Promise(O=>$.stdout.once("close",()=>O())),new Promise(O=>$.stderr.once("close",()=>O()))]),P=new Promise(O=>{$.once("error",X=>O({code:null,signal:null,error:X.message})),$.once("exit",(X,W)=>O({code:X,signal:W}))}),I=t.timeoutMs!==void 0&&t.timeoutMs>0?setTimeout(()=>{g=!0,b()},t.timeoutMs):void 0,x=a(()=>{h=!0,b()},"onAbort");t.signal?.addEventListener("abort",x,{once:!0});let F=await P;I&&clearTimeout(I),t.signal?.removeEventListener("abort",x),w!==void 0&&Hr(w).length>0&&b(),p&&await p;let B;await Promise.race([C,new Promise(O=>B=setTimeout(O,Tl))]),B&&clearTimeout(B),$.stdout.destroy(),$.stderr.destroy(),v&&clearTimeout(v);let K=await m?.().catch(O=>`what the command wrote could not be put into the workspace: ${String(O)}`),y=o.finish(),S={exitCode:F.code,signal:F.signal,timedOut:g,aborted:h,outputTail:y.text.slice(-4096)},Q=f?void 0:t.sandbox?.limitNote?.(S,t.timeoutMs)??Pl(F.signal);return{...K?{workspaceNote:K}:{},...Q?{limitNote:Q}:{},exitCode:F.code,signal:F.signal,timedOut:g,aborted:h,...f?{outputLimit:r.stopBytes}:{},spawnError:F.error,durationMs:Date.now()-e,pid:w,...y}}a(Ge,"runCommand");function Pl(t){if(t==="SIGXCPU")return"The command was ended by SIGXCPU: a process of it used up its CPU-time limit (ulimit -t).";if(t==="SIGXFSZ")return"The command was ended by SIGXFSZ: it wrote past its file-size limit (ulimit -f)."}a(Pl,"signalNote");var $i=120,yi=1800,Cl={type:"object",properties:{command:{type:"string",minLength:1},timeout:{type:"number",exclusiveMinimum:0,maximum:yi}},required:["command"],additionalProperties:!1};function Jn(t,e={}){return{name:"bash",description:`Run \`bash -c command\` in the workspace root (no stdin; the environment holds only neutral variables and those the workflow passes on). Returns the exit code and the last 2000 lines / 50 KB of stdout+stderr. \`timeout\` in seconds (default ${$i}, max ${yi}) kills all it started.`,parameters:Cl,async execute(n,{signal:r,onUpdate:o}){let i=e.sandbox?.network,s=i?.mark(),c=await Ge({command:n.command,cwd:t.root,env:e.env,envOptions:e.envOptions,sandbox:e.sandbox,timeoutMs:(n.timeout??$i)*1e3,signal:r,limits:ve,artifactsDir:e.artifactsDir,name:"bash",onProgress:o?d=>o({content:[{type:"text",text:d}]}):void 0}),l=s===void 0?void 0:i?.note(s,c.text);return Ut(Ht(n.command,c),l)}}}a(Jn,"createBashTool");function wi(t){if(t==="")return[];let e=t.split(`
`).map(n=>n.endsWith("\r")?n.slice(0,-1):n);return e[e.length-1]===""&&e.pop(),e}a(wi,"toLines");function bi(t,e){return e===0?`${t},0`:e===1?`${t+1}`:`${t+1},${e}`}a(bi,"range");function jt(t,e,n,r=3){let o=wi(e),i=wi(n),s=0;for(;s<o.length&&s<i.length&&o[s]===i[s];)s++;let c=0;for(;c<o.length-s&&c<i.length-s&&o[o.length-1-c]===i[i.length-1-c];)c++;let l=o.slice(s,o.length-c),d=i.slice(s,i.length-c);if(l.length===0&&d.length===0)return{diff:"",added:0,removed:0};let u=Math.max(0,s-r),$=o.slice(u,s),m=o.slice(o.length-c,Math.min(o.length,o.length-c+r)),w=$.length+l.length+m.length,g=$.length+d.length+m.length;return{diff:[`--- a/${t}`,`+++ b/${t}`,`@@ -${bi(u,w)} +${bi(u,g)} @@`,...$.map(f=>` ${f}`),...l.map(f=>`-${f}`),...d.map(f=>`+${f}`),...m.map(f=>` ${f}`)].join(`
`)+`
`,firstChangedLine:s+1,added:d.length,removed:l.length}}a(jt,"unifiedDiff");var Ll={"\u2018":"'","\u2019":"'","\u201A":"'","\u201B":"'","\u2032":"'","\u201C":'"',"\u201D":'"',"\u201E":'"',"\u201F":'"',"\u2033":'"'},Il=/[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]/g,Dl=/[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g,Nl=new RegExp("\\r\\n|[\\s\\S]\\p{M}*","gu");function Ml(t){return t.normalize("NFKC").replace(/[\u2018\u2019\u201a\u201b\u2032\u201c\u201d\u201e\u201f\u2033]/g,e=>Ll[e]).replace(Il,"-").replace(Dl," ")}a(Ml,"tolerantForm");function ki(t,e){let n=[];for(let i of t.matchAll(Nl)){let s=i[0],c=i.index,l=c+s.length;s===`\r
`?n.push({text:`
`,from:c,to:l}):n.push({text:e?Ml(s):s,from:c,to:l})}if(e)for(let i=n.length-1,s=!0;i>=0;i--){let c=n[i].text;c===`
`?s=!0:s&&/^[ \t]+$/.test(c)?n[i].text="":s=!1}let r={text:"",from:[],to:[]},o=[];for(let i of n)if(i.text!==""){o.push(i.text);for(let s=0;s<i.text.length;s++)r.from.push(i.from),r.to.push(i.to)}return r.text=o.join(""),r}a(ki,"normalise");function vi(t,e,n=()=>!0){let r=[];if(e==="")return r;for(let o=t.indexOf(e);o!==-1;o=t.indexOf(e,o+1))n(o)&&r.push(o);return r}a(vi,"occurrences");function xi(t,e,n){let r=ki(t,n),o=ki(e,n).text,i=a(l=>{let d=l+o.length-1,u=l===0||r.from[l-1]!==r.from[l],$=d===r.text.length-1||r.from[d+1]!==r.from[d];return u&&$},"aligned"),s=vi(r.text,o,i);if(s.length!==1)return{count:s.length};let c=s[0];return{count:1,start:r.from[c],end:r.to[c+o.length-1]}}a(xi,"locateNormalised");function Si(t,e){let n=vi(t,e);if(n.length>0)return n.length===1?{mode:"exact",count:1,start:n[0],end:n[0]+e.length}:{mode:"exact",count:n.length};let r=xi(t,e,!1);return r.count>0?{mode:"line-endings",...r}:{mode:"tolerant",...xi(t,e,!0)}}a(Si,"locate");var Bl={type:"object",properties:{path:{type:"string"},oldText:{type:"string",minLength:1},newText:{type:"string"}},required:["path","oldText","newText"],additionalProperties:!1},_i=20*1024*1024,Ei="\uFEFF";function Gl(t){let e=t.split(`
`).length-1,n=t.split(`\r
`).length-1;return n>0&&n>=e-n?`\r
`:`
`}a(Gl,"lineEnding");function Fl(t,e){let n=1;for(let r=t.indexOf(`
`);r!==-1&&r<e;r=t.indexOf(`
`,r+1))n++;return n}a(Fl,"lineOf");function Hl(t,e){let n=e.split(`
`).map(o=>o.trim()).find(o=>o.length>=3);if(!n)return"";let r=[];return t.split(`
`).forEach((o,i)=>{r.length<5&&o.includes(n)&&r.push(i+1)}),r.length>0?` Its first line appears at line ${r.join(", ")}; the lines after it differ.`:""}a(Hl,"hint");function Zn(t){return{name:"edit_file",description:"Replace the one occurrence of `oldText` in a file with `newText`. Copy `oldText` from read_file with enough lines to be unique; no match or several are errors. Trailing spaces, quote/dash style and Unicode form may differ; line endings and BOM are kept.",parameters:Bl,async execute(e){let n=await t.resolve(e.path,"write"),r=n.rel;if(!n.exists)throw new L(`File not found: ${r}. To create a file, use write_file.`);let{handle:o,stat:i}=await t.open(n,"update");try{return await Ul(o,i.size,r,e)}finally{await o.close()}}}}a(Zn,"createEditFileTool");async function Ul(t,e,n,r){if(e>_i)throw new L(`${n} is ${j(e)}, more than edit_file handles (${j(_i)}).`);let o=await Se(t,e);if(o.includes(0))throw new L(`${n} looks like a binary file (it contains NUL bytes); edit_file edits text.`);let i;try{i=new TextDecoder("utf-8",{fatal:!0}).decode(o)}catch{throw new L(`${n} is not valid UTF-8 text, so edit_file cannot change it without damaging it.`)}let s=o[0]===239&&o[1]===187&&o[2]===191,c=i,l=r.oldText.startsWith(Ei)?r.oldText.slice(1):r.oldText;if(l===r.newText)throw new L("oldText and newText are the same; nothing would change.");let d=Si(c,l);if(d.count===0)throw new L(`oldText was not found in ${n} (also tried ignoring line endings, trailing spaces, quote and dash styles and Unicode form). Read the file again and copy the text exactly.${Hl(c,l)}`);if(d.count>1)throw new L(`oldText occurs ${d.count} times in ${n}; it must match exactly one place. Include more surrounding lines in oldText to make it unique.`);let u=d.start,$=d.end,m=Gl(c),w=r.newText.replace(/\r\n/g,`
`);m===`\r
`&&(w=w.replace(/\n/g,`\r
`));let g=c.slice(0,u)+w+c.slice($);await St(t,(s?Ei:"")+g);let{diff:h,firstChangedLine:f,added:p,removed:b}=jt(n,c,g),k=Fl(c,u),v=`Edited ${n} at line ${k}: ${b} line${b===1?"":"s"} removed, ${p} added.`;return d.mode==="tolerant"&&(v+=" (oldText matched after normalising whitespace, quotes, dashes or Unicode; only that region changed.)"),{content:[{type:"text",text:v}],details:{path:n,diff:h,firstChangedLine:f,matchedBy:d.mode}}}a(Ul,"edit");import{stat as Ql}from"node:fs/promises";import{join as Xl}from"node:path";var Ai=kt(ot(),1);import{join as Wl}from"node:path";function jl(t,e){let n=[];for(let r of t.split(/\r?\n/)){if(r===""||r.startsWith("#")||(r=r.replace(/(?<!\\)\s+$/,""),r===""))continue;let o=!1;r.startsWith("!")?(o=!0,r=r.slice(1)):(r.startsWith("\\!")||r.startsWith("\\#"))&&(r=r.slice(1));let i=!1;if(r.endsWith("/")&&(i=!0,r=r.slice(0,-1)),r==="")continue;let s=r.includes("/"),c=r.replace(/^\//,""),l=(0,Ai.default)(c,{dot:!0});n.push({base:e,negate:o,dirOnly:i,test:s?d=>l(d):(d,u)=>l(u)})}return n}a(jl,"parseGitignore");var Kl=1024*1024,Fe=class t{constructor(e){this.rules=e}rules;static{a(this,"IgnoreRules")}static empty(){return new t([])}child(e,n){let r;try{r=_t(Wl(e,n,".gitignore"),Kl,{within:e}).toString("utf8")}catch{return this}return new t([...this.rules,...jl(r,n)])}static forFolder(e,n){let r=t.empty().child(e,"");if(n==="")return r;let o=n.split("/");for(let i=1;i<=o.length;i++)r=r.child(e,o.slice(0,i).join("/"));return r}ignores(e,n){let r=e.slice(e.lastIndexOf("/")+1),o=!1;for(let i of this.rules){if(i.dirOnly&&!n||i.base!==""&&!e.startsWith(`${i.base}/`))continue;let s=i.base===""?e:e.slice(i.base.length+1);i.test(s,r)&&(o=!i.negate)}return o}};function ze(t,e){return t<e?-1:t>e?1:0}a(ze,"compareNames");function Kt(t,e,n){return Ri(t,e,Fe.forFolder(t.root,e),n)}a(Kt,"walkFiles");async function*Ri(t,e,n,r){if(r?.aborted)return;let o;try{o=await Dr(Xl(t.root,e),[t])}catch{return}try{let i=[...o.entries].sort((s,c)=>ze(s.name,c.name));for(let s of i){if(s.name.toLowerCase()===".git")continue;let c=e===""?s.name:`${e}/${s.name}`,l=s.isDirectory();n.ignores(c,l)||(l?yield*Ri(t,c,n.child(t.root,c),r):yield{rel:c,type:s.isFile()?"file":s.isSymbolicLink()?"symlink":"other",open:a(()=>o.openFile(s.name),"open")})}}finally{await o.close()}}a(Ri,"walkDir");var Xt=new WeakMap;async function ql(t,e){if(!await t.isWorkTree())return;let[n,r]=await Promise.all([t.run(["ls-files","-z","--cached","--others","--exclude-standard"],{signal:e}),t.run(["ls-files","-z","--deleted"],{signal:e})]);if(n.code!==0||r.code!==0)return;let o=new Set(_e(r.stdout)),i=[...new Set(_e(n.stdout))].filter(c=>!o.has(c)).sort(ze),s=new Set;for(let c of i)for(let l=c.lastIndexOf("/");l>0;l=c.lastIndexOf("/",l-1)){let d=c.slice(0,l);if(s.has(d))break;s.add(d)}return{files:i,listed:new Set(i),folders:s,checked:new Map}}a(ql,"takeSnapshot");function Ti(t,e){let n=ci(),r=Xt.get(t);if(r&&r.generation===n)return r.snapshot;let o=ql(t,e).catch(()=>{}),i={generation:n,snapshot:o};return Xt.set(t,i),o.then(s=>{!s&&Xt.get(t)===i&&Xt.delete(t)}),o}a(Ti,"snapshotOf");async function er(t,e,n){let r=await Ti(t,n);if(!r)return;let o=new Set,i=[];for(let{rel:s,isDir:c}of e)if(!c)r.listed.has(s)||o.add(s);else if(!r.folders.has(s)){let l=r.checked.get(s);l===void 0?i.push(s):l&&o.add(s)}if(i.length>0){let s=await t.run(["check-ignore","-z","--stdin"],{signal:n,input:i.map(l=>`${l}\0`).join("")});if(s.code!==0&&s.code!==1)return;let c=new Set(_e(s.stdout));for(let l of i)r.checked.set(l,c.has(l)),c.has(l)&&o.add(l)}return o}a(er,"ignoredByGit");async function Oi(t,e,n,r){let o=await Ti(e,r);if(o&&!(n!==""&&(await er(e,[{rel:n,isDir:!0}],r))?.has(n)!==!1)){let c=`${n}/`;return{files:[...n===""?o.files:o.files.filter(d=>d.startsWith(c))],source:"git"}}let i=[];for await(let s of Kt(t,n,r))i.push(s.rel);return{files:i.sort(ze),source:"walk"}}a(Oi,"listFiles");var Ci=kt(ot(),1);function tr(t){let e=0,n=-1;for(let r=0;r<t.length;r++){let o=t[r];if(o==="\\"){r++;continue}if(o==="{")e===0&&(n=r),e++;else if(o==="}"&&e>0&&(e--,e===0)){let i=t.slice(n+1,r),s=zl(i);if(s.length<2)continue;let c=t.slice(0,n),l=t.slice(r+1);return s.flatMap(d=>tr(c+d+l))}}return[t]}a(tr,"expandBraces");function zl(t){let e=[],n=0,r=0;for(let o=0;o<t.length;o++){let i=t[o];i==="\\"?o++:i==="{"?n++:i==="}"?n--:i===","&&n===0&&(e.push(t.slice(r,o)),r=o+1)}return e.push(t.slice(r)),e}a(zl,"splitTopLevel");function Yl(t){let e=t.lastIndexOf("/");return e===-1?t:t.slice(e+1)}a(Yl,"baseName");function Pi(t){let e=t.replace(/^\.\//,""),n=(0,Ci.default)(e,{dot:!0});return e.includes("/")?n:r=>n(Yl(r))}a(Pi,"compile");function qt(t){let e=t?.trim();if(!e)return;let n=[],r=[];for(let s of e.split(/\s*,\s*(?![^{]*\})/))s!==""&&(s.startsWith("!")?r.push(...tr(s.slice(1))):n.push(...tr(s)));let o=n.map(Pi),i=r.map(Pi);return{include:n,exclude:r,matches:a(s=>(o.length===0||o.some(c=>c(s)))&&!i.some(c=>c(s)),"matches")}}a(qt,"parseGlob");function Vl(t){return t.replace(/[*?[\]\\]/g,"\\$&")}a(Vl,"escapeGlobMagic");function Li(t,e){let n=t===""?"":`${Vl(t)}/`,r=a(i=>{let s=i.replace(/^\.\//,"");return s.includes("/")?`${n}${s}`:`${n}**/${s}`},"spec");return e?[...e.include.length>0?e.include.map(i=>`:(glob)${r(i)}`):[t===""?".":`:(literal)${t}`],...e.exclude.map(i=>`:(glob,exclude)${r(i)}`)]:[t===""?".":`:(literal)${t}`]}a(Li,"gitPathspecs");function Ye(t){return/[\u0000-\u001f\u007f]/.test(t)?JSON.stringify(t):t}a(Ye,"displayPath");var Jl={type:"object",properties:{pattern:{type:"string",minLength:1},path:{type:"string"},limit:{type:"integer",minimum:1}},required:["pattern"],additionalProperties:!1},Zl=1e3,ut=1e3;function nr(t,e={}){let n=e.git??ce(t.root);return{name:"find_files",description:`Find files by glob ("*.ts" matches names at any depth, "src/**/*.ts" paths under \`path\`), respecting .gitignore. Sorted; at most \`limit\` (default and max ${ut}), ${he/1024} KB in all, with a notice when cut.`,readOnly:!0,parameters:Jl,async execute(r,{signal:o}){let i=qt(r.pattern);if(!i)throw new L('`pattern` is empty; give a glob such as "*.ts".');let s=await t.resolve(r.path,"read"),c=s.rel||".";if(!s.exists)throw new L(`Folder not found: ${c}.`);if(!(await Ql(s.real)).isDirectory())throw new L(`${c} is a file, not a folder.`);let l=s.realRel,{files:d}=await Oi(t.area,n,l,o),u=d.filter(f=>i.matches(l===""?f:f.slice(l.length+1))),$=Math.min(r.limit??Zl,ut),m=u.slice(0,$),w=je(m.map(Ye).join(`
`),{maxLines:Number.MAX_SAFE_INTEGER,maxBytes:ge}),g={count:u.length,shown:w.keptLines};if(u.length===0){let f=s.rel===""?"the workspace":s.rel;return{content:[{type:"text",text:`No files match ${JSON.stringify(r.pattern)} in ${f}.`}],details:g}}let h=w.text;if(w.keptLines<u.length){let f=w.truncated||$>=ut;h+=f?`

[Showing ${w.keptLines} of ${u.length} files (find_files shows at most ${ut} paths / ${j(he)}). To see the rest, give a narrower \`path\` (one folder at a time; list_dir shows the folders) or a more specific pattern.]`:`

[Showing ${w.keptLines} of ${u.length} files. Raise limit (up to ${ut}), or give a narrower \`path\` or a more specific pattern.]`}return{content:[{type:"text",text:h}],details:g}}}}a(nr,"createFindFilesTool");import{lstat as dd}from"node:fs/promises";import{join as ud}from"node:path";var le=class extends Error{static{a(this,"GrepError")}},Pe=class{constructor(e){this.onLine=e}onLine;static{a(this,"LineSplitter")}rest;push(e){let n=this.rest?Buffer.concat([this.rest,e]):e;this.rest=void 0;let r=0;for(let o=n.indexOf(10,r);o!==-1;o=n.indexOf(10,r)){let i=o>r&&n[o-1]===13?o-1:o;if(!this.onLine(n.subarray(r,i)))return!1;r=o+1}return r<n.length&&(this.rest=Buffer.from(n.subarray(r))),!0}end(){this.rest&&this.rest.length>0&&this.onLine(this.rest),this.rest=void 0}},Ii={a:7,b:8,t:9,n:10,v:11,f:12,r:13,'"':34,"\\":92};function Di(t){if(!(t.length>=2&&t.startsWith('"')&&t.endsWith('"')))return t;let e=[],n=Buffer.from(t.slice(1,-1),"utf8");for(let r=0;r<n.length;r++){let o=n[r];if(o!==92){e.push(o);continue}let i=String.fromCharCode(n[r+1]??0);/[0-7]/.test(i)?(e.push(parseInt(n.subarray(r+1,r+4).toString("latin1"),8)),r+=3):i in Ii?(e.push(Ii[i]),r++):e.push(o)}return Buffer.from(e).toString("utf8")}a(Di,"unquoteGitPath");function zt(t,e){if(!t.filter)return!0;let n=t.base===""?e:e.startsWith(`${t.base}/`)?e.slice(t.base.length+1):e;return t.filter.matches(n)}a(zt,"passesFilter");var ed=/^(\d+)([:-])/;function Ni(t){let e;async function n(r,o,i){let s=["grep","--no-color","-n","-I","--heading","--break","--untracked","--no-column"];r.ignoreCase&&s.push("-i"),r.literal?s.push("-F"):s.push(i?"-P":"-E"),r.context>0&&s.push(`-C${r.context}`),s.push("-e",r.pattern,"--",...Li(r.base,r.filter));let c,l=!0,d=!1,u=new Pe(m=>{let w=m.toString("utf8");if(w==="")return l=!0,!0;if(l)return c!==void 0&&!o({kind:"break"})?(d=!0,!1):(c=Di(w),l=!1,!0);if(w==="--")return o({kind:"break"})||(d=!0,!1);let g=ed.exec(w);if(!g||c===void 0)return!0;let h=o({kind:g[2]===":"?"match":"context",file:c,line:Number(g[1]),text:w.slice(g[0].length)});return h||(d=!0),h}),$=await t.stream(s,m=>u.push(m),{signal:r.signal});return!d&&!$.stopped&&u.end(),$}return a(n,"attempt"),{name:"git grep",async search(r,o){let i=await n(r,o,!r.literal&&e!==!1);if(i.code===128&&/PCRE|Perl/i.test(i.stderr)&&/support|compiled|USE_LIBPCRE/i.test(i.stderr)?(e=!1,i=await n(r,o,!1)):!r.literal&&i.code!==128&&(e=!0),!(i.stopped||r.signal?.aborted)&&i.code!==0&&i.code!==1)throw new le(i.stderr.replace(/^fatal: /,"")||`git grep exited with code ${i.code}`)}}}a(Ni,"createGitGrep");import{spawn as td}from"node:child_process";import{delimiter as nd,join as rd}from"node:path";import{statSync as od}from"node:fs";var id=/^(\d+)([:-])/;function Mi(t=process.env){for(let e of(t.PATH??"").split(nd)){if(!e)continue;let n=rd(e,"rg");try{if(od(n).isFile())return n}catch{}}}a(Mi,"findRipgrep");function sd(t){let e=["--no-config","--hidden","--no-require-git","--glob","!.git","--color","never","-n"];e.push("--no-heading","--with-filename","--null","--sort","path"),t.ignoreCase&&e.push("-i"),t.literal&&e.push("-F"),t.context>0&&e.push("-C",String(t.context));let n=t.filter;if(n&&n.include.every(r=>!r.includes("/")))for(let r of n.include)e.push("--glob",r);if(n)for(let r of n.exclude.filter(o=>!o.includes("/")))e.push("--glob",`!${r}`);return e.push("-e",t.pattern),t.base!==""&&e.push("--",t.base),e}a(sd,"args");function Bi(t,e,n=process.env){let r=$n(n);return{name:"ripgrep",search(o,i){return new Promise((s,c)=>{let l;try{l=td(e,sd(o),{cwd:t,env:r,stdio:["ignore","pipe","pipe"]})}catch(f){c(new le(`ripgrep could not run: ${f instanceof Error?f.message:String(f)}`));return}let d=!1,u,$=!1,m=a(()=>{d=!0,l.kill("SIGTERM")},"stop"),w=a(()=>m(),"onAbort");o.signal?.addEventListener("abort",w,{once:!0});let g=new Pe(f=>{if(f.length===2&&f[0]===45&&f[1]===45)return $=!0,!0;let p=f.indexOf(0);if(p===-1)return!0;let b=f.subarray(0,p).toString("utf8"),k=f.subarray(p+1).toString("utf8"),v=id.exec(k);return!v||!zt(o,b)?!0:($||u!==void 0&&b!==u)&&u!==void 0&&!i({kind:"break"})?!1:($=!1,u=b,i({kind:v[2]===":"?"match":"context",file:b,line:Number(v[1]),text:k.slice(v[0].length)}))});l.stdout.on("data",f=>{!d&&!g.push(f)&&m()});let h="";l.stderr.on("data",f=>{h.length<8192&&(h+=f.toString("utf8"))}),l.once("error",f=>c(new le(`ripgrep could not run: ${f.message}`))),l.once("close",f=>{o.signal?.removeEventListener("abort",w),d||g.end(),!d&&f===2&&u===void 0?c(new le(h.trim()||"ripgrep failed")):s()})})}}}a(Bi,"createRipgrep");function Yt(t,e,n=0){return e.every((r,o)=>t[n+o]===r)}a(Yt,"startsWith");function ad(t){if(Yt(t,[137,80,78,71,13,10,26,10]))return"image/png";if(Yt(t,[255,216,255]))return"image/jpeg";if(t.subarray(0,6).toString("latin1")==="GIF87a"||t.subarray(0,6).toString("latin1")==="GIF89a")return"image/gif";if(t.subarray(0,4).toString("latin1")==="RIFF"&&t.subarray(8,12).toString("latin1")==="WEBP")return"image/webp"}a(ad,"imageType");function Vt(t){let e=ad(t);return e?{kind:"image",mimeType:e}:t.includes(0)?{kind:"binary",reason:Yt(t,[255,254])||Yt(t,[254,255])?"it is UTF-16 text":"it contains NUL bytes"}:{kind:"text"}}a(Vt,"classify");var cd=16*1024*1024;async function ld(t){try{let{handle:e,stat:n}=await t();try{return await or(e,n.size)}finally{await e.close()}}catch{return}}a(ld,"linesThrough");async function or(t,e){if(e>cd)return;let n=await Se(t,e);if(Vt(n.subarray(0,8192)).kind!=="text")return;let r=n.toString("utf8").split(`
`);r[r.length-1]===""&&r.pop();for(let o=0;o<r.length;o++)r[o].endsWith("\r")&&(r[o]=r[o].slice(0,-1));return r}a(or,"linesOf");function ir(t){let e=t.literal?t.pattern.replace(/[.*+?^${}()|[\]\\]/g,"\\$&"):t.pattern;try{return new RegExp(e,t.ignoreCase?"i":"")}catch(n){throw new le(`Invalid regular expression: ${n instanceof Error?n.message:String(n)}`)}}a(ir,"compilePattern");function sr(t,e,n,r,o,i){let s=-1,c=-1,l=!i,d=a((u,$)=>l&&s!==u-1&&!o({kind:"break"})?!1:(l=!0,s=u,o({kind:$,file:t,line:u+1,text:e[u]})),"emit");for(let u=0;u<e.length;u++)if(n.test(e[u])){for(let $=Math.max(s+1,u-r);$<u;$++)if(!d($,"context"))return!1;if(!d(u,"match"))return!1;c=u+r}else if(u<=c&&!d(u,"context"))return!1;return!0}a(sr,"searchLines");function Gi(t){return{name:"javascript",async search(e,n){let r=ir(e),o=!0,i=!1,s=a(c=>(c.kind!=="break"&&(i=!0),n(c)),"counting");for await(let c of Kt(t,e.base,e.signal)){if(c.type!=="file"||!zt(e,c.rel))continue;let l=await ld(c.open);if(l&&!sr(c.rel,l,r,e.context,s,o))return;i&&(o=!1),i=!1}}}}a(Gi,"createWalkGrep");var Ve=100,fd=Ve,ar=500,pd=20,Fi=16*1024,md={type:"object",properties:{pattern:{type:"string",minLength:1},path:{type:"string",description:"Folder or file"},glob:{type:"string",description:'"*.ts" (any depth) or "src/**/*.ts"'},ignoreCase:{type:"boolean"},literal:{type:"boolean"},context:{type:"integer",minimum:0,maximum:pd},limit:{type:"integer",minimum:1}},required:["pattern"],additionalProperties:!1};async function hd(t,e){let n=new Map;for(let i of e){if(i==="--"||i===void 0)continue;let s=n.get(i.file)??new Set;s.add(i.line),n.set(i.file,s)}let r=new Map;for(let[i,s]of n)r.set(i,await gd(t,i,s));let o=0;for(let i=0;i<e.length;i++){let s=e[i];s==="--"||s===void 0||r.get(s.file)?.get(s.line)!==s.text&&(e[i]=void 0,o++)}return o}a(hd,"confirm");async function gd(t,e,n){let r=new Map,o=Math.max(...n),i;try{i=await vt(ud(t.root,e),[t.area],"read")}catch{return r}try{let s=0,c=new Pe(d=>(s++,n.has(s)&&r.set(s,d.toString("utf8")),s<o)),l=Buffer.allocUnsafe(64*1024);for(let d=0;;){let{bytesRead:u}=await i.handle.read(l,0,l.length,d);if(u===0){c.end();break}if(d+=u,!c.push(l.subarray(0,u)))break}}catch{}finally{await i.handle.close()}return r}a(gd,"linesAt");function cr(t,e={}){let n=e.git??ce(t.root),r=e.backend??"auto",o=Gi(t.area),i=Ni(n);async function s(c,l){if(r==="javascript")return o;if(r==="git")return i;if(r==="auto"&&await n.isWorkTree())return await n.isIgnored(c,l)?o:i;let d=r==="ripgrep"||r==="auto"?Mi(e.env):void 0;return d?Bi(t.root,d,e.env):o}return a(s,"pick"),{name:"grep",description:`Search file contents by regex (Perl-style; literal=true for plain text), respecting .gitignore. Output \`file:line: text\`, context \`file-line- text\`; at most ${Ve} matches (\`limit\` lowers it), lines cut at ${ar} chars, ${he/1024} KB in all, with a notice when cut. \`path\` may be a command's saved output.`,readOnly:!0,parameters:md,async execute(c,{signal:l}){if(c.pattern.includes("\0"))throw new L("The pattern contains a NUL byte.");if(c.pattern.length>Fi)throw new L(`The pattern is ${c.pattern.length} characters long; at most ${Fi} are accepted.`);let d=await t.resolve(c.path,"read");if(!d.exists)throw new L(`Path not found: ${d.rel||"."}.`);let u=d.readOnly||!(await dd(d.real)).isDirectory(),$=Math.min(c.limit??fd,Ve),m=c.context??0,w={pattern:c.pattern,literal:c.literal===!0,ignoreCase:c.ignoreCase===!0,context:m,base:d.realRel,filter:u?void 0:qt(c.glob),signal:l},g=[],h=0,f=!1,p=!1,b,k=a(y=>{p&&g.length>0&&g.push("--"),p=!1,g.push(y)},"add"),v=a(y=>y.kind==="break"?(p=m>0,!0):h>=$?y.kind==="context"&&!p&&b&&y.file===b.file&&y.line<=b.line+m?(k(y),!0):(f=!0,!1):(k(y),y.kind==="match"&&(h++,b={file:y.file,line:y.line}),!0),"sink"),_,E=0;try{if(u){_=o;let y=ir(w),{handle:S,stat:Q}=await t.open(d,"read");try{let O=await or(S,Q.size);O&&sr(d.readOnly?d.real:d.realRel,O,y,m,v,!0)}finally{await S.close()}}else _=await s(w.base,l),await _.search(w,v),_!==o&&(E=await hd(t,g))}catch(y){throw y instanceof le?new L(`grep: ${y.message}`):y}let C=[],P=0;h=0;for(let y of g){if(y==="--"||y===void 0){y==="--"&&C.length>0&&C[C.length-1]!=="--"&&C.push("--");continue}let{text:S,cut:Q}=Lr(y.text,ar);Q&&P++,y.kind==="match"&&h++;let O=Ye(y.file);C.push(y.kind==="match"?`${O}:${y.line}: ${S}`:`${O}-${y.line}- ${S}`)}C[C.length-1]==="--"&&C.pop();let I={backend:_.name,matches:h,limitReached:f,linesCut:P},x=d.rel===""?"":` in ${d.rel}`;if(h===0){let y=w.filter?` (files matching ${JSON.stringify(c.glob)})`:"";return{content:[{type:"text",text:`No matches for ${JSON.stringify(c.pattern)}${x}${y}.`}],details:I}}let F=je(C.join(`
`),{maxLines:Number.MAX_SAFE_INTEGER,maxBytes:ge}),B=[];if(f){let y=$<Ve?`Raise limit (up to ${Ve}), narrow`:"Narrow";B.push(`[Showing the first ${h===1?"match":`${h} matches`}; there are more (grep shows at most ${Ve}). ${y} the pattern, or search a narrower \`path\` or \`glob\`; read_file shows a file whole.]`)}return F.truncated&&B.push(`[Output cut at ${j(ge)} (${F.keptLines} of ${F.totalLines} lines). Search a narrower \`path\` or \`glob\`, use less \`context\`, or read a file with read_file and \`offset\`.]`),E>0&&B.push(`[${E} line${E===1?"":"s"} left out: the file changed while it was searched, or is not inside the workspace.]`),P>0&&B.push(`[${P} line${P===1?" was":"s were"} longer than ${ar} characters and cut; read_file shows them whole.]`),{content:[{type:"text",text:B.length>0?`${F.text}

${B.join(`
`)}`:F.text}],details:I}}}}a(cr,"createGrepTool");import{stat as $d}from"node:fs/promises";var yd={type:"object",properties:{path:{type:"string"},limit:{type:"integer",minimum:1}},additionalProperties:!1},Hi=500,ft=1e3;async function wd(t,e,n,r,o){let i=n===""?r:[...r,{rel:n,isDir:!0}],s=await er(e,i,o);if(s)return{dirIgnored:n!==""&&s.has(n),ignored:s};let c=n.includes("/")?n.slice(0,n.lastIndexOf("/")):"",l=n!==""&&Fe.forFolder(t,c).ignores(n,!0),d=Fe.forFolder(t,n);return{dirIgnored:l,ignored:new Set(r.filter(u=>d.ignores(u.rel,u.isDir)).map(u=>u.rel))}}a(wd,"ignoredSet");function lr(t,e={}){let n=e.git??ce(t.root);return{name:"list_dir",description:`List a folder (default: root), sorted; folders end in "/", symlinks in "@". Skips entries ignored by .gitignore; at most \`limit\` (default ${Hi}, max ${ft}), ${he/1024} KB in all, with a notice when cut.`,readOnly:!0,parameters:yd,async execute(r,{signal:o}){let i=await t.resolve(r.path,"read"),s=i.rel||".";if(!i.exists)throw new L(`Folder not found: ${s}.`);if(!(await $d(i.real)).isDirectory())throw new L(`${s} is a file; use read_file to read it.`);let c=i.realRel,d=(await t.readDir(i.real,s)).filter(k=>k.name.toLowerCase()!==".git").sort((k,v)=>ze(k.name,v.name)).map(k=>{let v=k.isDirectory(),_=v?"/":k.isSymbolicLink()?"@":"";return{name:k.name,rel:c===""?k.name:`${c}/${k.name}`,label:Ye(k.name)+_,isDir:v}});if(d.length===0)return{content:[{type:"text",text:`[${s} is empty.]`}],details:{entries:0,shown:0,ignored:0}};let{dirIgnored:u,ignored:$}=await wd(t.root,n,c,d,o),m=u?d:d.filter(k=>!$.has(k.rel)),w=d.length-m.length,g=Math.min(r.limit??Hi,ft),h=je(m.slice(0,g).map(k=>k.label).join(`
`),{maxLines:Number.MAX_SAFE_INTEGER,maxBytes:ge}),f={entries:m.length,shown:h.keptLines,ignored:w},p=[];if(u&&p.push(`[${s} itself is ignored by .gitignore; all its entries are shown.]`),h.keptLines<m.length){let k=h.truncated||g>=ft;p.push(k?`[Showing ${h.keptLines} of ${m.length} entries (list_dir shows at most ${ft} / ${j(he)}). To see the rest, use find_files with this \`path\` and a pattern (e.g. "*.ts"), or list a subfolder.]`:`[Showing ${h.keptLines} of ${m.length} entries. Raise limit (up to ${ft}) to see more.]`)}return w>0&&p.push(`[${w} entr${w===1?"y":"ies"} ignored by .gitignore not shown.]`),m.length===0?{content:[{type:"text",text:`[No entries to show in ${s}: all ${w} are ignored by .gitignore.]`}],details:f}:{content:[{type:"text",text:p.length>0?`${h.text}

${p.join(`
`)}`:h.text}],details:f}}}}a(lr,"createListDirTool");var bd={type:"object",properties:{path:{type:"string"},offset:{type:"integer",minimum:1},limit:{type:"integer",minimum:1}},required:["path"],additionalProperties:!1},Wi=5*1024*1024,ji=64*1024;async function kd(t,e,n,r){let o=Buffer.allocUnsafe(ji),i=[],s=new TextDecoder("utf-8",{fatal:!1}),c=1,l=[],d=0,u=!1,$=0,m,w=a(()=>m===void 0&&c>=e,"collecting"),g=a(()=>{let h=s.decode(Buffer.concat(l));if(l=[],d=0,h.endsWith("\r")&&(h=h.slice(0,-1)),i.length>=n){m="lines";return}let f=Buffer.byteLength(h,"utf8")+(i.length>0?1:0);if($+f>r){i.length===0?(i.push(xt(h,r)),m="long-line"):m="bytes";return}i.push(h),$+=f},"finishLine");for(let h=0;;){let{bytesRead:f}=await t.read(o,0,ji,h);if(f===0)break;h+=f;let p=0;for(;p<f;){let b=o.indexOf(10,p),k=b===-1||b>=f?f:b;if(k>p&&(u=!0),w()&&d<=r+4&&(l.push(Buffer.from(o.subarray(p,k))),d+=k-p),k===f)break;w()&&g(),u=!1,c++,p=k+1}}return u&&w()&&g(),{lines:i,totalLines:u?c:c-1,stoppedBy:m}}a(kd,"readWindow");function dr(t){return{name:"read_file",description:"Read a text file: at most 2000 lines / 50 KB from `offset` (1-based line); when cut, a notice gives the offset to continue. Images (png, jpeg, gif, webp) return as images; other binary files are refused. Also reads a command's saved output (absolute path from its notice).",readOnly:!0,parameters:bd,async execute(e){if(e.path.trim()==="")throw new L("`path` is empty; give a file path relative to the workspace root.");let n=await t.resolve(e.path,"read"),r=n.rel||".";if(!n.exists)throw new L(`File not found: ${r}. Use find_files or list_dir to see what exists.`);let{handle:o,stat:i}=await t.open(n,"read");try{return await xd(o,i.size,r,e)}finally{await o.close()}}}}a(dr,"createReadFileTool");async function xd(t,e,n,r){let o={size:e},i=await Se(t,e,8192),s=Vt(i);if(s.kind==="image"){if(o.size>Wi)throw new L(`${n} is an image of ${j(o.size)}, over the ${j(Wi)} that can be shown.`);let w=(await Se(t,o.size)).toString("base64");return{content:[{type:"text",text:`Image ${n} (${s.mimeType}, ${j(o.size)}):`},{type:"image",data:w,mimeType:s.mimeType}],details:{path:n,kind:"image",truncated:!1}}}if(s.kind==="binary")throw new L(`${n} looks like a binary file (${s.reason}; ${j(o.size)}), so it is not shown as text.`);let c=r.offset??1,l=Math.min(r.limit??2e3,2e3),d=await kd(t,c,l,ge);if(d.totalLines===0)return{content:[{type:"text",text:`[${n} is empty.]`}],details:{path:n,kind:"text",totalLines:0,truncated:!1}};if(c>d.totalLines)throw new L(`offset ${c} is past the end of ${n}, which has ${d.totalLines} line${d.totalLines===1?"":"s"}.`);let u=c+d.lines.length-1;c===1&&d.lines[0]?.startsWith("\uFEFF")&&(d.lines[0]=d.lines[0].slice(1));let $=d.lines.join(`
`),m=u<d.totalLines;if(d.stoppedBy==="long-line")$+=`

[Line ${c} is longer than the ${j(ge)} a result can show; only its start is shown.`,$+=m?` Use offset=${c+1} to continue after it.]`:"]";else if(m){let w=d.stoppedBy==="bytes"?` (${j(he)} limit)`:"";$+=`

[Showing lines ${c}-${u} of ${d.totalLines}${w}. Use offset=${u+1} to continue.]`}return{content:[{type:"text",text:$}],details:{path:n,kind:"text",startLine:c,endLine:u,totalLines:d.totalLines,truncated:m||d.stoppedBy==="long-line"}}}a(xd,"readOpened");import{existsSync as Ce,statSync as vd}from"node:fs";import{delimiter as Sd,join as de}from"node:path";var _d=/no test specified/,Ed=1<<20;function ur(t){try{return _t(t,Ed).toString("utf8")}catch{return}}a(ur,"readText");function Qt(t,e){for(let n of(e.PATH??"").split(Sd))if(n)try{if(vd(de(n,t)).isFile())return!0}catch{}return!1}a(Qt,"onPath");function Ad(t,e){let n=ur(de(t,"package.json"));if(n===void 0)return;let r;try{r=JSON.parse(n).scripts?.test}catch{return}if(typeof r!="string"||r.trim()===""||_d.test(r))return;let o='package.json "test" script';return Ce(de(t,"pnpm-lock.yaml"))&&Qt("pnpm",e)?{command:"pnpm test",source:o,argsSeparator:""}:Ce(de(t,"yarn.lock"))&&Qt("yarn",e)?{command:"yarn test",source:o,argsSeparator:""}:{command:"npm test",source:o,argsSeparator:"-- "}}a(Ad,"nodeCommand");function Rd(t,e){let r=`${Qt("python",e)||!Qt("python3",e)?"python":"python3"} -m pytest`;for(let o of["pytest.ini","conftest.py"])if(Ce(de(t,o)))return{command:r,source:o,argsSeparator:""};for(let o of["pyproject.toml","setup.cfg","tox.ini"])if(/pytest/.test(ur(de(t,o))??""))return{command:r,source:`${o} (pytest settings)`,argsSeparator:""};for(let o of["pyproject.toml","setup.py","setup.cfg"])if(Ce(de(t,o)))return{command:r,source:o,argsSeparator:""}}a(Rd,"pythonCommand");function Td(t){for(let e of["Makefile","makefile","GNUmakefile"]){let n=ur(de(t,e));if(n!==void 0&&/^test\s*:/m.test(n))return{command:"make test",source:`${e} "test" target`,argsSeparator:""}}}a(Td,"makeCommand");function fr(t,e=process.env){let n=Ad(t,e);if(n)return n;let r=Rd(t,e);if(r)return r;if(Ce(de(t,"go.mod")))return{command:"go test ./...",source:"go.mod",argsSeparator:""};if(Ce(de(t,"Cargo.toml")))return{command:"cargo test",source:"Cargo.toml",argsSeparator:""};let o=Td(t);if(o)return o;if(Ce(de(t,"gradlew")))return{command:"./gradlew test",source:"gradlew",argsSeparator:""};if(Ce(de(t,"pom.xml")))return{command:"mvn test",source:"pom.xml",argsSeparator:""}}a(fr,"detectTestCommand");var Od={type:"object",properties:{args:{type:"string"}},additionalProperties:!1},Pd=600*1e3;function pr(t,e={}){let n=e.timeoutMs??Pd;return{name:"run_tests",description:`Run the project's tests (configured, or detected: npm test, pytest, go test, cargo test, make test) with \`args\` appended as words (quotes group; not shell text), e.g. a test file. Returns the exit code and the last 2000 lines / 50 KB of output; a cut says where the full output is. Limit ${Math.round(n/6e4)} min.`,parameters:Od,async execute(r,{signal:o,onUpdate:i}){let s=e.testCommand?.trim(),c=s?void 0:fr(t.root,e.env??process.env),l=s||c?.command;if(!l)throw new L('No test command found: the workspace has no package.json "test" script, pytest configuration, go.mod, Cargo.toml or Makefile "test" target. The `test-command` input (CLI: --test-command) sets one.');let d=jr(r.args??""),u=c?.argsSeparator??"",$=d.length?`${l} ${u}${d.map(Et).join(" ")}`:l,m=e.sandbox?.network,w=m?.mark(),g=await Ge({command:$,cwd:t.root,env:e.env,envOptions:e.envOptions,sandbox:e.sandbox,timeoutMs:n,signal:o,limits:ve,artifactsDir:e.artifactsDir,name:"run_tests",onProgress:i?p=>i({content:[{type:"text",text:p}]}):void 0}),h=c?` (detected from ${c.source})`:"",f=w===void 0?void 0:m?.note(w,g.text);return Ut(Ht($,g,ve,`$ ${$}${h}`),f)}}}a(pr,"createRunTestsTool");var Cd={type:"object",properties:{path:{type:"string"},content:{type:"string"}},required:["path","content"],additionalProperties:!1},Ki=1024*1024;function mr(t){return{name:"write_file",description:"Create or overwrite a file, making parent folders. To change part of a file prefer edit_file. Protected paths (e.g. .github/workflows/) are refused.",parameters:Cd,async execute(e){if(e.path.trim()==="")throw new L("`path` is empty; give a file path relative to the workspace root.");let n=await t.resolve(e.path,"write"),r=n.rel;n.exists||await t.makeParents(n);let{handle:o,stat:i,created:s}=await t.open(n,"write"),c;try{if(!s&&i.size<=Ki){let m=await Se(o,i.size);m.includes(0)||(c=m.toString("utf8"))}await St(o,e.content)}finally{await o.close()}let l=Buffer.byteLength(e.content,"utf8"),d=et(e.content).length,u=s?"Created":"Overwrote",$={path:r,created:s,bytes:l};return(c!==void 0||s)&&l<=Ki&&($.diff=jt(r,c??"",e.content).diff),{content:[{type:"text",text:`${u} ${r} (${d} line${d===1?"":"s"}, ${j(l)}).`}],details:$}}}}a(mr,"createWriteFileTool");function i$(t){let e=Qn(t.root,{protectedPaths:t.protectedPaths,readOnlyDirs:t.artifactsDir?[t.artifactsDir]:[],...t.sandbox?.toolGroup?{group:t.sandbox.toolGroup}:{}}),n=t.git??ce(e.root),r={env:t.env,envOptions:t.commandEnv,sandbox:t.sandbox,artifactsDir:t.artifactsDir},o=[dr(e),Zn(e),mr(e),cr(e,{git:n,env:t.env}),nr(e,{git:n}),lr(e,{git:n})];return t.commands===!1||(o.push(pr(e,{...r,testCommand:t.testCommand,timeoutMs:t.testTimeoutMs})),t.allowBash&&o.push(Jn(e,r))),o}a(i$,"createWorkspaceTools");import{BlockList as Xi,isIP as Ld}from"node:net";var Id=/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;function x$(t){let e=t.trim().toLowerCase();if(e===""||e==="none")return{kind:"none"};if(e==="all")return{kind:"all"};let n=e.split(/[,\n]/).map(o=>o.trim().replace(/\.$/,"")).filter(Boolean),r=n.find(o=>!Id.test(o));if(r!==void 0)throw new Error(`command-network is none, all, or host names such as registry.npmjs.org or *.pythonhosted.org (comma- or newline-separated); "${r}" is not a host name.`);return{kind:"hosts",hosts:[...new Set(n)]}}a(x$,"parseCommandNetwork");function pt(t){return t.trim().toLowerCase().replace(/^\[(.*)\]$/,"$1").replace(/\.$/,"")}a(pt,"normalHost");function qi(t,e){let n=pt(e);return t.some(r=>r.startsWith("*.")?n.endsWith(r.slice(1))&&n.length>r.length-1:n===r)}a(qi,"hostAllowed");var[Dd,Nd]=(()=>{let t=new Xi,e=new Xi,n=[["0.0.0.0",8],["10.0.0.0",8],["100.64.0.0",10],["127.0.0.0",8],["169.254.0.0",16],["172.16.0.0",12],["192.0.0.0",24],["192.0.2.0",24],["192.88.99.0",24],["192.168.0.0",16],["198.18.0.0",15],["198.51.100.0",24],["203.0.113.0",24],["224.0.0.0",3]],r=[["::",96],["64:ff9b:1::",48],["100::",64],["2001::",23],["2001:db8::",32],["2002::",16],["fc00::",7],["fe80::",10],["fec0::",10],["ff00::",8]];for(let[o,i]of n)t.addSubnet(o,i,"ipv4");for(let[o,i]of r)e.addSubnet(o,i,"ipv6");return[t,e]})();function hr(t){let e=Ld(t);if(e===0)return!1;if(e===4)return!Dd.check(t,"ipv4");let n=/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(t);return n?hr(n[1]):/^::ffff:/i.test(t)?!1:!Nd.check(t,"ipv6")}a(hr,"isPublicAddress");var Md=10;function Jt(t){return t.kind==="none"?"none (each command has its own loopback only)":t.kind==="all"?"all (commands use the runner\u2019s network)":`HTTP and HTTPS to ${t.hosts.join(", ")} only, through patchloop\u2019s proxy`}a(Jt,"describeNetwork");function zi(t,e=Md){let n=t.slice(0,e).map(r=>r.count>1?`${r.host} (${r.count}\xD7)`:r.host);return t.length>e&&n.push(`and ${t.length-e} more`),n.join(", ")}a(zi,"listRefused");function v$(t,e){let n=Jt(t);return e.length?`${n}; refused: ${zi(e)}`:n}a(v$,"networkSummaryLine");var Bd=/ENETUNREACH|EAI_AGAIN|Network is unreachable|Could not resolve host|Temporary failure in name resolution|getaddrinfo ENOTFOUND|Name or service not known/i;function Yi(t,e,n){if(t.kind==="all")return;let r=/Network access disabled by the environment; can't reach (\S+)/.exec(n);if(r&&t.kind==="none")return`[corepack wanted to download ${r[1]}: the version package.json's packageManager names is not on this machine, and command-network is none, so commands download nothing. Install that version in a step before patchloop (corepack install), or allow registry.npmjs.org in the workflow's command-network input.]`;if(e.length)return`[command-network refused ${zi(e,5)} (${e[0].reason}). Commands may reach only ${t.kind==="hosts"?t.hosts.join(", "):"their own loopback"}; the workflow's command-network input sets this.]`;if(Bd.test(n))return t.kind==="none"?"[command-network is none: commands have no network but their own loopback, so downloads and outside services fail. The workflow\u2019s command-network input can allow hosts.]":`[command-network allows only HTTP and HTTPS to ${t.hosts.join(", ")}, through the proxy in HTTPS_PROXY / HTTP_PROXY; a program that ignores those variables finds no network.]`}a(Yi,"networkNote");import{chmodSync as Uf,lstatSync as ia,mkdtempSync as Wf,realpathSync as jf,rmSync as sa}from"node:fs";import{tmpdir as Kf}from"node:os";import{spawnSync as Xf}from"node:child_process";import{join as Tr}from"node:path";import{chmodSync as Xd,lchownSync as qd,lstatSync as nn,mkdtempSync as zd,readFileSync as tn,realpathSync as Yd,rmSync as Vd,writeFileSync as Qd}from"node:fs";import{tmpdir as Jd}from"node:os";import{join as Ie}from"node:path";var H=class extends Error{static{a(this,"SandboxSetupError")}constructor(e){super(e),this.name="SandboxSetupError"}};import{execFile as Gd}from"node:child_process";import{existsSync as Fd,readFileSync as Hd,statSync as Ud}from"node:fs";import{join as Qi}from"node:path";var Zt="patchloop-sandbox";function Le(t,e,n={}){return new Promise(r=>{Gd(t,e,{cwd:n.cwd,env:n.env??{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"},encoding:"utf8",timeout:n.timeoutMs??12e4,maxBuffer:n.maxBuffer??4<<20},(o,i,s)=>{let c=o?typeof o.code=="number"?o.code:127:0;r({code:c,stdout:String(i),stderr:String(s||(o&&c===127?o.message:""))})})})}a(Le,"run");function re(t){return t.trim().split(`
`)[0]??""}a(re,"firstLine");var Wd=["/usr/bin","/bin","/usr/sbin","/sbin"];function V(t){for(let e of Wd){let n=Qi(e,t);try{if(Ud(n).isFile())return n}catch{}}}a(V,"systemBin");async function Ji(){if(process.getuid?.()===0)return{prefix:[],viaSudo:!1};let t=V("sudo");return t?(await Le(t,["-n","true"],{timeoutMs:1e4})).code!==0?"not root, and sudo asks for a password":{prefix:[t,"-n","--"],viaSudo:!0}:"not root, and sudo is not installed"}a(Ji,"findRootAccess");function Z(t,e,n,r={}){let[o,i]=gr(t,e,n);return Le(o,i,r)}a(Z,"asRoot");function gr(t,e,n){return t.prefix.length?[t.prefix[0],[...t.prefix.slice(1),e,...n]]:[e,n]}a(gr,"rootArgv");function Zi(t){return Qi("/var/lib",t)}a(Zi,"accountHome");function jd(t){let e;try{e=Hd("/etc/passwd","utf8")}catch{return}for(let n of e.split(`
`)){let r=n.split(":");if(r[0]!==t||r.length<7)continue;let o=Number(r[2]),i=Number(r[3]);return r[2]===""||r[3]===""||!Number.isInteger(o)||!Number.isInteger(i)?void 0:{user:t,uid:o,gid:i,home:r[5]||void 0}}}a(jd,"localAccount");async function Vi(t){let e=jd(t);if(e)return e;let n=V("getent");if(!n)return;let r=await Le(n,["passwd",t]);if(r.code!==0)return;let o=r.stdout.trim().split(":");return{user:t,uid:Number(o[2]),gid:Number(o[3]),home:o[5]||void 0}}a(Vi,"lookup");async function es(t,e){let n=await Vi(e);if(!n){let r=V("useradd");if(!r)throw new H("useradd is not installed, so the sandbox user cannot be created");let o=["/usr/sbin/nologin","/sbin/nologin"].find(s=>Fd(s))??"/bin/false",i=await Z(t,r,["--system","--user-group","--no-create-home","--home-dir",Zi(e),"--shell",o,e]);if(n=await Vi(e),!n)throw new H(`could not create user ${e}: ${re(i.stderr)||`exit ${i.code}`}`)}if(!Number.isInteger(n.uid)||n.uid===0||!Number.isInteger(n.gid)||n.gid===0)throw new H(`user ${e} exists but is not an unprivileged user (uid ${n.uid})`);return Kd(t,n)}a(es,"ensureUser");async function Kd(t,e){let n=e.home,r=Zi(e.user);if(!n||n==="/nonexistent"||!n.startsWith("/")){let o=V("usermod");if((o?await Z(t,o,["--home",r,e.user]):void 0)?.code!==0)return e;n=r}if(n===r){let o=V("install");if(!o)throw new H("install (coreutils) is not installed");let i=await Z(t,o,["-d","-m","0700","-o",String(e.uid),"-g",String(e.gid),n]);if(i.code!==0)throw new H(`could not make the home folder ${n}: ${re(i.stderr)||`exit ${i.code}`}`)}return{...e,home:n}}a(Kd,"ensureHome");function is(t,e){if(e.code!==0)throw new H(`${t}: ${re(e.stderr)||`exit ${e.code}`}`)}a(is,"check");async function en(t,e){(await e()).code!==0&&is(t,await e())}a(en,"twice");var Zd=["-type","f","-links","1","-perm","-004"],eu=["-type","f","(","-links","+1","-o","!","-perm","-004",")"],ss=a(t=>["-type","d","!","-perm","-001","!","-samefile",t],"privateFolder");function He(t){let e=V(t);if(!e)throw new H(`${t} is not installed`);return e}a(He,"need");var ts=3130;function mt(t,e,n,r,o){return Z(t,e,["-c",'f=$1; shift; exec "$@" > "$f"',"patchloop-walk",n,r,...o])}a(mt,"toFile");var $r=a((t,e)=>["-type","d","!","-perm","-001","!","-user",String(e),"!","-samefile",t,"-prune"],"closedFolder"),as=a((t,e)=>["-user",String(e),"-exec",He("chown"),"-h",String(nn(t).uid),"{}","+","-false"],"toOwner"),tu=a(t=>t.replace(/\\([0-7]{3})/g,(e,n)=>String.fromCharCode(parseInt(n,8))),"unescapeAcl");function ns(t){let e=[];for(let n of t.split(`

`)){let r=/^# file: (.*)$/m.exec(n);r&&e.push({path:tu(r[1]),text:n.trim()})}return e}a(ns,"aclBlocks");function rs(t){let e=Buffer.from(t,"latin1");try{return nn(e).isSymbolicLink()?!1:Yd(e,{encoding:"buffer"}).equals(e)}catch{return!1}}a(rs,"leadsToItself");function os(t){let e=new Map;for(let n of t.split("\0")){let r=/^(\d+) ([0-7]+) (\d+) (\w) ([^]*)$/.exec(n);r&&e.set(r[5],{ino:BigInt(r[1]),mode:parseInt(r[2],8),gid:Number(r[3]),type:r[4]})}return e}a(os,"marks");function yr(t){Vd(t,{recursive:!0,force:!0})}a(yr,"cleanup");async function cs(t,e,n,r){let o=Ie(n,".git"),i=(()=>{try{return nn(o).isDirectory()}catch{return!1}})();if(r==="group"&&t.viaSudo)throw new H("setfacl (package acl) is needed to share the workspace when not running as root");let s=He("find"),c=He("sh"),l=zd(Ie(Jd(),"patchloop-access-"));try{return r==="acl"?await nu(t,e,n,o,i,{find:s,sh:c,dir:l}):await ru(t,e,n,o,i,{find:s,sh:c,dir:l})}catch(d){throw yr(l),d}}a(cs,"openWorkspace");async function nu(t,e,n,r,o,{find:i,sh:s,dir:c}){let l=He("setfacl"),d=He("getfacl"),u=e.user,$=Ie(c,"before.acl");await en("could not read the workspace's ACLs",()=>mt(t,s,$,i,[n,...$r(n,e.uid),"-o","!","-type","l","-exec",d,"-s","-P","-p","--","{}","+"]));let m=a(async()=>{try{let f=Ie(c,"linked.acl"),p=await mt(t,s,f,i,[n,...$r(n,e.uid),"-o",...as(n,e.uid),"-o","-type","f","-links","+1","-exec",d,"-s","-P","-p","--","{}","+","-o","!","-type","l","-exec",l,"-P","-b","--","{}","+"]),b=[];p.code!==0&&b.push(re(p.stderr)||`exit ${p.code}`);let k=new RegExp(`^(default:)?user:${u.replace(/[.*+?^${}()|[\]\\]/g,"\\$&")}:`,"m"),v=ns(tn(f,"latin1")).filter(E=>k.test(E.text)&&rs(E.path)).map(E=>E.path);for(let E=0;E<v.length;E+=500){let C=await Z(t,l,["-P","-b","--",...v.slice(E,E+500)]);C.code!==0&&b.push(re(C.stderr)||`exit ${C.code}`)}let _=ns(tn($,"latin1")).filter(E=>rs(E.path));if(_.length){let E=Ie(c,"restore.acl");Qd(E,_.map(P=>P.text).join(`

`)+`

`,{encoding:"latin1",mode:384});let C=await Z(t,l,[`--restore=${E}`]);C.code!==0&&b.push(re(C.stderr)||`exit ${C.code}`)}if(b.length)throw new H(`the workspace's ACLs were not all put back: ${b[0]}`)}finally{yr(c)}},"revoke"),w=process.getuid?.()??0,g=w===0?"":`,d:u:${w}:rwX`,h=a((f,p,b)=>Z(t,i,[f,...b,...ss(f),"-prune","-o","-type","d","-exec",l,"-P","-m",`u:${u}:${p},d:u:${u}:${p}${g},d:o::rX`,"{}","+","-o",...Zd,"-exec",l,"-P","-m",`u:${u}:${p}`,"{}","+"]),"grant");try{await en(`could not open the workspace to ${u}`,()=>h(n,"rwX",["-path",r,"-prune","-o"])),o&&await en(`could not make .git read-only to ${u}`,()=>h(r,"rX",[]))}catch(f){throw await m().catch(()=>{}),f}return{method:"acl",revoke:m}}a(nu,"openAcl");async function ru(t,e,n,r,o,{find:i,sh:s,dir:c}){let l=He("chmod"),d=He("chown"),u=String(e.gid),$=["-printf","%i %m %G %y %p\\0"],m=a(f=>mt(t,s,f,i,[n,...$,"(","-path",r,"-prune","-o",...eu,"-prune","-o",...ss(n),"-prune","-o","!","-group",u,"-exec",d,"-h",`:${u}`,"{}","+","-false","-o","-type","d","!","-perm","-2070","-exec",l,"g+rwxs","{}","+","-o","!","-type","d","!","-type","l","!","-perm","-060","-exec",l,"g+rw","{}","+",")"]),"open"),w=a(f=>mt(t,s,f,i,[r,"!","-type","l","-perm","-002",...$,"-exec",l,"o-w","{}","+"]),"closeGit"),g=[],h=a(async()=>{try{await ou(t,e,n,i,s,c,g)}finally{yr(c)}},"revoke");try{if(await en(`could not give the workspace to group ${e.user}`,()=>{let f=Ie(c,`open-${g.length}`);return g.push(f),m(f)}),o){let f=Ie(c,"git");g.push(f),is("could not make .git read-only to others",await w(f))}}catch(f){throw await h().catch(()=>{}),f}return{method:"group",revoke:h}}a(ru,"openGroup");async function ou(t,e,n,r,o,i,s){let c=new Map;for(let g of s){let h;try{h=tn(g,"latin1")}catch{continue}for(let[f,p]of os(h))c.has(f)||c.set(f,p)}let l=Ie(i,"after"),d=await mt(t,o,l,r,[n,...$r(n,e.uid),"-printf","%i %m %G %y %p\\0","-o",...as(n,e.uid),"-o","-printf","%i %m %G %y %p\\0"]),u=[];d.code!==0&&u.push(re(d.stderr)||`exit ${d.code}`);let $=nn(n),m=new Map,w=a(g=>g.slice(0,g.lastIndexOf("/"))||"/","parentOf");for(let[g,h]of os(tn(l,"latin1"))){let f=c.get(g),p=Buffer.from(g,"latin1"),b=h.gid,k=h.mode;f&&f.ino===h.ino?(b=f.gid,k=h.mode&~ts|f.mode&ts):h.gid===e.gid&&(b=m.get(w(g))??(f?f.gid:$.gid),h.type==="d"&&!(f&&f.mode&1024)&&(k=h.mode&-1025));try{b!==h.gid&&qd(p,-1,b),h.type!=="l"&&(k!==h.mode||b!==h.gid)&&Xd(p,k)}catch(v){v.code!=="ENOENT"&&u.push(`${g}: ${v.message}`)}h.type==="d"&&m.set(g,b)}if(u.length)throw new H(`the workspace's groups and modes were not all put back (${u.length}): ${u[0]}`)}a(ou,"restoreGroup");import{spawnSync as ls}from"node:child_process";var iu={x64:{keyctl:250,addKey:248,arch:"x86_64"},arm64:{keyctl:219,addKey:217,arch:"aarch64"}},ht=["-t","-X"],su=String.raw`my $nr = 0 + shift @ARGV;
for my $ring (-4, -5) {
  if (syscall($nr, 7, $ring) != 0) { print STDERR "patchloop sandbox: the sandbox user's keyrings cannot be emptied\n"; exit 125; }
}
if (syscall($nr, 1, undef) < 0) { print STDERR "patchloop sandbox: no session keyring of its own: $!\n"; exit 125; }
exec { $ARGV[0] } @ARGV;
print STDERR "patchloop sandbox: $ARGV[0]: $!\n";
exit 127;`,au=String.raw`k=$1 sh=$2; shift 2
{ "$k" clear @u && "$k" clear @us; } || { echo "patchloop sandbox: the sandbox user's keyrings cannot be emptied" >&2; exit 125; }
exec 3>&2
exec "$k" session - "$sh" -c 'exec 2>&3 3>&-; exec "$@"' patchloop-keyring "$@" 2>/dev/null`,cu=String.raw`my ($nr, $arch) = @ARGV;
require Config;
exit 3 unless $Config::Config{archname} =~ /^\Q$arch\E-linux/ && $Config::Config{ptrsize} == 8;
if (syscall(0 + $nr, 1, undef) < 0) { print 0 + $!; exit 4; }
exit 0;`,lu=String.raw`my ($nr, $name) = @ARGV;
local $/;
my $value = <STDIN>;
$value = '' unless defined $value;
my $type = 'user';
my $id = syscall(0 + $nr, $type, $name, $value, length($value), -3);
exit 1 if $id < 0;
print $id;`,du=String.raw`my ($nr, $id, $name) = @ARGV;
$nr = 0 + $nr;
my $buf = "\0" x 4096;
exit 0 if syscall($nr, 11, 0 + $id, $buf, 4096) >= 0;
my $type = 'user';
exit 0 if syscall($nr, 10, -3, $type, $name, 0) > 0;
exit 1;`,uu=String.raw`my ($nr, $id) = @ARGV;
exit(syscall(0 + $nr, 9, 0 + $id, -3) == 0 ? 0 : 1);`,fu=new Set([1,38]);function ds(t=[]){let e=[],n=t.includes("perl")?void 0:V("perl"),r=iu[process.arch];n&&r&&e.push({kind:"perl",perl:n,...r});let o=t.includes("keyctl")?void 0:V("keyctl");return o&&e.push({kind:"keyctl",keyctl:o}),e.length?e:n?`keyctl is not installed (keyutils), and perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}: each command gets a keyring of its own with one of them`:"neither perl nor keyctl is installed (perl-base or keyutils): each command gets a keyring of its own with one of them"}a(ds,"findKeyringTools");async function us(t,e){if(t.kind==="keyctl")return(await Le(t.keyctl,["session","-",e,"-c","exit 0"])).code===0?"works":"refused";let n=await Le(t.perl,[...ht,"-e",cu,"--",String(t.keyctl),t.arch]);return n.code===0?"works":n.code===4&&fu.has(Number(n.stdout.trim()))?"refused":n.code===3?`${t.perl} is not a 64-bit ${t.arch} perl`:`${t.perl} could not join a session keyring (exit ${n.code}${n.stdout.trim()?`, errno ${n.stdout.trim()}`:""})`}a(us,"probeKeyrings");function fs(t,e){return t.kind==="perl"?[t.perl,...ht,"-e",su,"--",String(t.keyctl)]:[e,"-c",au,"patchloop-keyring",t.keyctl,e]}a(fs,"keyringStep");var ps={PATH:"/usr/sbin:/usr/bin:/sbin:/bin"};function ms(t,e,n){let[r,o]=t.kind==="perl"?[t.perl,[...ht,"-e",lu,"--",String(t.addKey),e]]:[t.keyctl,["padd","user",e,"@s"]],i=ls(r,o,{input:n,encoding:"utf8",env:ps,timeout:1e4}),s=i.stdout?.trim();return i.status===0&&/^\d+$/.test(s??"")?s:void 0}a(ms,"plantKey");function hs(t,e){let[n,r]=t.kind==="perl"?[t.perl,[...ht,"-e",uu,"--",String(t.keyctl),e]]:[t.keyctl,["unlink",e,"@s"]];ls(n,r,{stdio:"ignore",env:ps,timeout:1e4})}a(hs,"unlinkKey");function gs(t,e,n){return t.kind==="perl"?[[t.perl,...ht,"-e",du,"--",String(t.keyctl),e,n]]:[[t.keyctl,"print",e],[t.keyctl,"search","@s","user",n]]}a(gs,"keyLookup");import{join as Uu}from"node:path";import{readFileSync as pu}from"node:fs";import{cpus as mu}from"node:os";var wr={processes:1024,fileBytes:2*1024**3,openFiles:8192},hu=3600,$s=10;function ys(t,e=Math.max(1,mu().length)){return(t!==void 0&&t>0?Math.ceil(t/1e3):hu)*e+5}a(ys,"cpuSecondsFor");var gu='echo 1000 > /proc/self/oom_score_adj 2>/dev/null; exec "$@"',$u={processes:"Max processes",dataBytes:"Max data size",fileBytes:"Max file size",openFiles:"Max open files",cpuSeconds:"Max cpu time"};function rn(t){let e=t;if(e===void 0)try{e=pu("/proc/self/limits","latin1")}catch{return{}}let n={};for(let[r,o]of Object.entries($u)){let s=e.split(`
`).find(c=>c.startsWith(o))?.slice(o.length).trim().split(/\s+/)[1];s&&(n[r]=s==="unlimited"?1/0:Number(s))}return n}a(rn,"currentHardLimits");function br(t,e,n=rn()){let r=t.cpuSeconds??ys(e),o=a((s,c)=>Math.max(1,Math.floor(Math.min(c,n[s]??1/0))),"n"),i=a((s,c,l)=>[s,o(c,l),o(c,l)],"same");return[i("nproc","processes",t.processes),...t.dataBytes!==void 0?[i("data","dataBytes",t.dataBytes)]:[],i("fsize","fileBytes",t.fileBytes),i("nofile","openFiles",t.openFiles),["cpu",o("cpuSeconds",r),o("cpuSeconds",r+$s)]]}a(br,"rlimits");function yu(t,e,n=rn()){return br(t,e,n).map(([r,o,i])=>r==="cpu"?`--cpu=${o}:${i}`:`--${r}=${o}`)}a(yu,"prlimitArgs");function ws(t,e,n){return[t.prlimit,...yu(e,n),"--",t.sh,"-c",gu,"patchloop-oom"]}a(ws,"limitSteps");var wu={9:"SIGKILL",24:"SIGXCPU",25:"SIGXFSZ"};function bs(t,e,n){if(n.timedOut||n.aborted)return;let r=n.exitCode,o=n.signal??(r!==null&&r>128?wu[r-128]:void 0),i=t.cpuSeconds??ys(e),s=a(c=>c>=1024**3?`${+(c/1024**3).toFixed(2)} GiB`:`${+(c/1024**2).toFixed(2)} MiB`,"gib");if(o==="SIGXCPU")return`The command was ended by SIGXCPU (exit ${r??152}): a process of it used up the CPU-time limit of ${i} CPU-seconds per process (RLIMIT_CPU, all its threads counted).`;if(o==="SIGXFSZ")return`The command was ended by SIGXFSZ (exit ${r??153}): it wrote past the file-size limit of ${s(t.fileBytes)} per file (RLIMIT_FSIZE).`;if(r!==0&&n.outputTail!==void 0&&/\b(File too large|EFBIG)\b/i.test(n.outputTail))return`A write failed with EFBIG ("File too large"): the file-size limit is ${s(t.fileBytes)} per file (RLIMIT_FSIZE).`;if(o==="SIGKILL")return`The command was killed by SIGKILL (exit ${r??137}), not by patchloop (it had not timed out): most likely the kernel's out-of-memory killer, which takes commands first (the machine ran out of memory), or the CPU-time hard limit of ${i+$s} CPU-seconds per process.`}a(bs,"limitKillNote");import{spawn as vu}from"node:child_process";import{lstatSync as Qe,mkdtempSync as Su,readdirSync as Rs,readFileSync as Ts,realpathSync as _u,rmSync as Eu,writeFileSync as Au}from"node:fs";import{availableParallelism as Ru,tmpdir as Os}from"node:os";import{join as Ae}from"node:path";var ks=`# The overlay's move (see overlay.ts), run as root once a command has ended: what the command wrote
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
#     and without ACLs. \`.git\` and covered paths are never touched. A private path of the checkout
#     (a file others may not read, a folder they may not list and enter) is neither removed nor
#     replaced, unless an earlier move of this run put it there (the same inode, under the same
#     name, in --own): what a command could not read was never its to swap.
# Prints "applied N", one "error PATH: WHY" per entry left out, or "refused WHY".
use strict;
use Fcntl qw(:mode);
use POSIX ();
use Time::HiRes qw(time);

my (%arg, @hidden);
sub fail { print STDERR "patchloop sandbox: the overlay's move: $_[0]\\n"; exit 125; }
for my $a (@ARGV) {
  $a =~ /\\A--([a-z][a-z0-9_-]*)=(.*)\\z/s or fail("not a named argument: $a");
  if ($1 eq 'hidden') { push @hidden, $2; next; }
  exists $arg{$1} and fail("--$1 given twice");
  $arg{$1} = $2;
}
sub need { my $v = $arg{$_[0]}; defined $v or fail("--$_[0] is missing"); return $v; }
sub num { my $v = need($_[0]); $v =~ /\\A-?[0-9]+\\z/ or fail("--$_[0] is not a number"); return 0 + $v; }
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
sub statat { my ($dfd, $name, $flags) = @_; my $buf = "\\0" x 256;
  syscall($nr{statx}, 0 + $dfd, "" . $name, 0 + ($flags // $AT_NOFOLLOW), 0x7ff, $buf) == 0 or return undef;
  my ($mode, $ino, $size, $blocks) = (unpack('S', substr($buf, 28, 2)), unpack('Q', substr($buf, 32, 8)),
    unpack('Q', substr($buf, 40, 8)), unpack('Q', substr($buf, 48, 8)));
  my ($as, $an) = unpack('q L', substr($buf, 64, 12)); my ($ms, $mn) = unpack('q L', substr($buf, 112, 12));
  my ($rmaj, $rmin, $dmaj, $dmin) = unpack('L4', substr($buf, 128, 16));
  return { mode => $mode, ino => $ino, size => $size, blocks => $blocks, rdev => $rmaj * 4096 + $rmin,
    dev => "$dmaj:$dmin", times => pack('q q q q', $as, $an, $ms, $mn) }; }
# every name in a folder (from its start, however often it was read before)
sub names { my ($dfd) = @_; my @out; my $buf = "\\0" x 65536;
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
  for my $pid (grep { /\\A[0-9]+\\z/ } readdir $p) {
    opendir(my $t, "/proc/$pid/task") or next;
    for my $tid (grep { /\\A[0-9]+\\z/ } readdir $t) {
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
if (open(my $h, "<", "$layer/pidns")) { local $/; $ns_text = <$h>; $ns_text =~ s/\\n\\z// if defined $ns_text; }
my $upfd = openat($AT_FDCWD, $updir, $O_DIRECTORY | $O_NOFOLLOW | $O_CLOEXEC);
$upfd >= 0 or fail("$updir: $!");
my $top = names($upfd) // fail("$updir: $!");
if (!@$top) { print "applied 0\\n"; exit 0; }
defined $ns_text && $ns_text =~ /\\Apid:\\[[0-9]+\\]\\z/ or fail("no record of the command's PID namespace: nothing was moved");
my $until = time + $wait_seconds;
while (pidns_tasks($ns_text)) {
  if (time > $until) { print "refused the command's processes were still running \${wait_seconds}s after it ended\\n"; exit 0; }
  select(undef, undef, undef, 0.02);
}
$started = time;

# ---- what earlier moves of this run put into the checkout ----
my %own;
if (open(my $h, '<', $own_file)) { local $/ = "\\0";
  while (my $rec = <$h>) { chomp $rec; my ($dev, $ino, $r) = split / /, $rec, 3; $own{$r} = "$dev $ino" if defined $r; } }
sub mine { my ($r, $st) = @_; return defined $own{$r} && $own{$r} eq "$st->{dev} $st->{ino}"; }
# only what others may not read needs remembering: nothing else is kept from a later command
sub remember { my ($dfd, $name, $r) = @_; my $st = statat($dfd, $name) or return;
  my $m = $st->{mode}; my $shut = S_ISDIR($m) ? ($m & 5) != 5 : S_ISREG($m) ? !($m & 4) : 0;
  if ($shut) { $own{$r} = "$st->{dev} $st->{ino}"; } else { delete $own{$r}; } }

my ($applied, @errors) = (0);
sub err { my ($p, $why) = @_; $p =~ s/[\\x00-\\x1f\\x7f]/?/g; push @errors, "$p: $why"; return 0; }
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
sub refuse { my ($why) = @_; print "refused $why\\n"; discard(); exit 0; }
sub over_time { refuse("it would have taken more than \${max_seconds}s") if time - $started > $max_seconds; }
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
  if (S_ISLNK($m)) { my $t = "\\0" x 4096; my $n = syscall($nr{readlinkat}, 0 + $ufd, "" . $name, $t, 4096);
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
sub opaque { my ($fd) = @_; my $buf = "\\0" x 8;
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
  print $h "$own{$_} $_\\0" for sort keys %own;
  close($h) && rename("$own_file.new", $own_file) or err('', "the run's record could not be kept: $!");
}
discard() unless @errors;
print "applied $applied\\n";
print "error $_\\n" for @errors;
exit 0;
`;var kr=`# The overlay's mounts in a command's namespace (see overlay.ts and launch.ts's prelude), run as
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
sub fail { print STDERR "patchloop sandbox: the workspace's overlay: $_[0]\\n"; exit 125; }
sub need { my $v = $arg{$_[0]}; defined $v or fail("--$_[0] is missing"); return $v; }
sub num { my $v = need($_[0]); $v =~ /\\A-?[0-9]+\\z/ or fail("--$_[0] is not a number"); return 0 + $v; }
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
    $a =~ /\\A--([a-z][a-z0-9_-]*)=(.*)\\z/s or fail("not a named argument: $a");
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
  $reader eq '' || $reader =~ /\\A[0-9]+\\z/ or fail("--reader is not an id");
  $view =~ /\\A(overlay|in-place|probe)\\z/ or fail("--view is not known: $view");
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
  for (["uid_map", "$fu $tu 1\\n"], ["gid_map", "$fg $tg 1\\n"]) {
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
  print $rec "$pidns\\n"; close($rec) or fail("$layer/pidns: $!");
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
`;var xs=`# A command's view of the machine (see view.ts and launch.ts), built as root first thing in the
# command's new mount, PID (and network) namespace, by this one process with direct system calls;
# then the command's next step is exec'd. The mounts are private to the namespace (unshare makes
# propagation private), so they vanish with it and nothing outside changes. prep.pl is part of
# the same program (launch.ts runs the two as one): the overlay's mounts are made by it here.
#
# Arguments, all named (--name=value), then \`--\` and the command line to exec:
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
#  1. The binds that must be taken before the overlay is mounted (the checkout's own \`.git\`, the
#     saved outputs) are parked under a tmpfs on the stash. With the overlay, prep.pl then mounts
#     the command's overlay on the workspace and covers its private paths.
#  2. A new root is built on a tmpfs from the allowlist: the system folders, bound read-only with
#     every mount below them (each keeping its nosuid, nodev, noexec and atime flags); fresh /tmp,
#     /var/tmp and /dev/shm; empty tmpfs over the private folders inside those trees and over the
#     way down to a workspace that lies in one; the command's HOME with the run's cache folder and
#     the runner's toolchain folders (read-only; a credential file in one covered by an empty file,
#     Maven's settings by an empty <settings/>); single files /etc links to; the workspace; the
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

sub fail { print STDERR "patchloop sandbox: $_[0]\\n"; exit 125; }

my (%arg, @prep, @cmd);
my %list = map { $_ => [] } qw(read-only tree scratch cover blank bind file link rlimit);
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
    $a =~ /\\A--([a-z][a-z0-9_-]*)=(.*)\\z/s or fail("not a named argument: $a");
    my ($k, $v) = ($1, $2);
    if (my $second = $pair{$k}) {
      my $b = $ARGV[$i++];
      defined $b && $b =~ /\\A--\\Q$second\\E=(.*)\\z/s or fail("--$k without its --$second");
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
sub num { my $v = need($_[0]); $v =~ /\\A-?[0-9]+\\z/ or fail("--$_[0] is not a number"); return 0 + $v; }
sub path { my $v = need($_[0]); $v =~ m{\\A/} or fail("--$_[0] is not an absolute path"); return $v; }
my %nr = map { $_ => num("sys-$_") }
  qw(mount umount2 pivot_root prlimit64 setgroups setresuid setresgid capset prctl keyctl);
my ($ws, $stash, $cwd, $home) = (path('workspace'), path('stash'), path('cwd'), path('home'));
my $view = need('view');
$view =~ /\\A(overlay|in-place|read-only|shared)\\z/ or fail("--view is not known: $view");
need('owner') =~ /\\A([0-9]+):([0-9]+)\\z/ or fail("--owner is not UID:GID");
my ($uid, $gid) = (0 + $1, 0 + $2);
my ($cache, $uhome) = (need('cache'), need('account-home'));
for my $k (qw(read-only tree scratch cover blank)) {
  m{\\A/} or fail("--$k is not an absolute path: $_") for @{ $list{$k} };
}
for my $k (qw(bind file link)) {
  for (@{ $list{$k} }) {
    $_->[0] =~ m{\\A/} or fail("--$k is not an absolute path: $_->[0]");
    $k eq 'link' || $_->[1] =~ m{\\A/} or fail("--at is not an absolute path: $_->[1]");
  }
}
@prep && $view !~ /\\A(overlay|in-place)\\z/ and fail("--prep is for the overlay only");

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
    (my $at = $f[4]) =~ s/\\\\([0-7]{3})/chr(oct($1))/ge;
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
sub parent { my ($p) = @_; $p =~ s{/[^/]*\\z}{}; return $p; }

umask 022;

# 0. the network namespace
if (($arg{'net-lo'} // '') eq '1') {
  # SIOCGIFFLAGS, SIOCSIFFLAGS with IFF_UP on a struct ifreq (16 bytes of name, then the flags;
  # 40 bytes in all): \`ip link set lo up\`
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
  defined $port && $port =~ /\\A([0-9]+)\\n\\z/ or fail("the network proxy's bridge did not start");
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
  $cache =~ m{\\A/} or fail("--cache is not an absolute path");
  mkdir("$r$home/.cache") or fail("cannot make $r$home/.cache: $!");
  bindmount($cache, "$r$home/.cache", 0);
}
touch("$stash/blank");
touch("$stash/blank-settings", "<settings/>\\n");
touch("$stash/blank-security", "<settingsSecurity/>\\n");
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
  bindmount($_->[0], "$r$_->[1]", 1) for @binds;
  ro_below(map { $_->[1] } @binds);
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
  my $name = $p =~ s{\\A.*/}{}sr;
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
  $uhome =~ m{\\A/} or fail("--account-home is not an absolute path");
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
  $l =~ /\\A([a-z]+):([0-9]+):([0-9]+)\\z/ && exists $RLIMIT{$1} or fail("not a limit: $l");
  my ($name, $lim) = ($1, pack('QQ', $2, $3));
  syscall($nr{prlimit64}, 0, $RLIMIT{$name}, $lim, undef) == 0 or fail("cannot set the $name limit: $!");
}
# the kernel's out-of-memory killer takes the command (and what it starts) first
if (($arg{'oom-first'} // '') eq '1' && open(my $h, '>', '/proc/self/oom_score_adj')) {
  print $h "1000\\n";
  close $h;
}

# 5. the sandbox user (what \`setpriv --reuid --regid --clear-groups --no-new-privs --inh-caps=-all
# --bounding-set=-all\` does): no supplementary groups, every capability dropped from the bounding
# set, its ids (which empties the permitted and effective sets), the inheritable and ambient sets
# emptied, no new privileges; then the kernel's own account of the process is checked
open(my $cl, '<', '/proc/sys/kernel/cap_last_cap') or fail("cannot read cap_last_cap: $!");
my $last = <$cl>;
close $cl;
defined $last && $last =~ /\\A([0-9]+)\\n?\\z/ or fail("cannot read cap_last_cap");
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
  while (my $l = <$st>) { $f{$1} = $2 if $l =~ /\\A(\\w+):\\s*(.*?)\\s*\\z/s; }
  close $st;
  my $bounding = ($arg{'keep-bounding-set'} // '') eq '1' ? qr/\\A[0-9a-f]+\\z/ : qr/\\A0+\\z/;
  ($f{Uid} // '') eq join("\\t", ($uid) x 4) && ($f{Gid} // '') eq join("\\t", ($gid) x 4)
    && ($f{Groups} // 'x') eq '' && ($f{NoNewPrivs} // '') eq '1'
    && (grep { ($f{$_} // '') =~ /\\A0+\\z/ } qw(CapInh CapPrm CapEff)) == 3
    && ($f{CapBnd} // '') =~ $bounding && ($f{CapAmb} // '0') =~ /\\A0+\\z/
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
`;var on=`${kr}
package main;
PatchloopPrep::run(@ARGV);
exit 0;
`,vs=`${kr}
${xs}`,Ss=ks;var _s={open_tree:428,move_mount:429,fsopen:430,fsconfig:431,fsmount:432,mount_setattr:442},Tu={x64:{..._s,unshare:272,mount:165,umount2:166,pivot_root:155,prlimit64:302,setresuid:117,setresgid:119,capset:126,prctl:157,keyctl:250,setfsuid:122,setfsgid:123,setgroups:116,openat:257,mkdirat:258,fchownat:260,unlinkat:263,renameat2:316,fchmodat:268,statx:332,getdents64:217,fgetxattr:193,fremovexattr:199,lremovexattr:198,mknodat:259,readlinkat:267,symlinkat:266,utimensat:280,o_directory:65536,o_nofollow:131072},arm64:{..._s,unshare:97,mount:40,umount2:39,pivot_root:41,prlimit64:261,setresuid:147,setresgid:149,capset:91,prctl:167,keyctl:219,setfsuid:151,setfsgid:152,setgroups:159,openat:56,mkdirat:34,fchownat:54,unlinkat:35,renameat2:276,fchmodat:53,statx:291,getdents64:61,fgetxattr:10,fremovexattr:16,lremovexattr:15,mknodat:33,readlinkat:78,symlinkat:36,utimensat:88,o_directory:16384,o_nofollow:32768}};function Ps(){return Tu[process.arch]}a(Ps,"overlaySyscalls");var Ou={x64:"x86_64",arm64:"aarch64"},Pu=String.raw`require Config;
exit($Config::Config{archname} =~ /^\Q$ARGV[0]\E-linux/ && $Config::Config{ptrsize} == 8 ? 0 : 3);`,Es=new Map;function Cs(t){let e=Es.get(t);if(!e){let n=Ou[process.arch];e=n?Le(t,[...gt,"-e",Pu,"--",n]).then(r=>r.code===0):Promise.resolve(!1),Es.set(t,e)}return e}a(Cs,"perlFits");function sn(t,e){return e.map(n=>n.startsWith("o_")?`--o-${n.slice(2)}=${t[n]}`:`--sys-${n}=${t[n]}`)}a(sn,"archArgs");var Cu=["setfsuid","setfsgid","setgroups","open_tree","move_mount","mount_setattr","fsopen","fsconfig","fsmount","o_directory"],Ls=["mount","umount2","pivot_root","prlimit64","setgroups","setresuid","setresgid","capset","prctl","keyctl"],Lu=["openat","mkdirat","fchownat","unlinkat","renameat2","fchmodat","statx","getdents64","fgetxattr","fremovexattr","lremovexattr","mknodat","readlinkat","symlinkat","utimensat","o_directory","o_nofollow"];var gt=["-t","-X"],As=5e3,Iu={bytes:1024**3,seconds:120,waitSeconds:30};function Du(t,e){return[`--layer=${e.layer}`,`--workspace=${e.workspace}`,`--uid=${e.owner.uid}`,`--gid=${e.owner.gid}`,`--own=${e.own}`,`--max-bytes=${Math.floor(e.budget.bytes)}`,`--max-seconds=${Math.floor(e.budget.seconds)}`,`--wait-seconds=${Math.floor(e.budget.waitSeconds)}`,`--follow=${e.follow?1:0}`,`--spare=${e.spare?1:0}`,...sn(t,Lu),...e.hidden.map(n=>`--hidden=${n}`)]}a(Du,"applyArgs");function Nu(t,e){if(t.code!==0)return`what the command wrote could not be moved into the workspace (${re(t.stderr)||`exit ${t.code}`}); it is kept in ${e}`;let n=t.stdout.split(`
`),r=n.find(i=>i.startsWith("refused "));if(r)return`NOTHING the command wrote was put into the workspace: ${r.slice(8)}; the workspace is as it was before the command, and its changes are discarded (write less, or to fewer, smaller files)`;let o=n.filter(i=>i.startsWith("error ")).map(i=>i.slice(6));if(o.length)return`${o.length} of the command's changes could not be moved into the workspace (kept in ${e}): ${o.slice(0,5).join("; ")}`}a(Nu,"moveNote");function an(t){return/^[^,:\\\s]+$/.test(t)}a(an,"isPlainPath");function xr(...t){return[65534,65533,65532].find(e=>!t.includes(e))}a(xr,"readerId");function cn(t,e,n,r,o){return[`--owner-uid=${e.uid}`,`--owner-gid=${e.gid}`,`--sandbox-uid=${n.uid}`,`--sandbox-gid=${n.gid}`,`--reader=${r??""}`,...sn(t,Cu),...o.folders.map(i=>`--folder=${i}`),...o.files.map(i=>`--file=${i}`),"--end"]}a(cn,"prepArgs");var vr="patchloop-overlay-",Mu=6*36e5;function Is(t){try{let e=Ts(`/proc/${t}/stat`,"latin1");return e.slice(e.lastIndexOf(")")+2).split(" ")[19]}catch{return}}a(Is,"startOf");function Ds(t){let e=Su(Ae(Os(),t));return Au(Ae(e,"owner"),`${process.pid} ${Is(process.pid)??""}
`,{mode:384}),e}a(Ds,"makeState");async function Bu(t,e,n=Os()){let r=process.getuid?.(),o;try{o=Rs(n).filter(s=>s.startsWith(vr))}catch{return[]}let i=[];for(let s of o){let c=Ae(n,s);try{let l=Qe(c);if(!l.isDirectory()||l.uid!==r)continue;let d;try{d=Ts(Ae(c,"owner"),"utf8")}catch{d=void 0}if(d===void 0){Date.now()-l.mtimeMs>Mu&&i.push(c);continue}let[u,$]=d.trim().split(" ");/^[0-9]+$/.test(u??"")&&$!==void 0&&Is(Number(u))===$||i.push(c)}catch{}}return i.length&&await Z(t,e,["-rf","--",...i]),i.map(s=>s.slice(n.length+1))}a(Bu,"removeStaleState");async function Ns(t,e,n,r){await Bu(t,n.rm);let o=Qe(e),i={uid:o.uid,gid:o.gid},s=xr(i.uid,i.gid),c={uid:s,gid:s},l=a(async u=>{let $=Ds(`${vr}probe-`);try{if(!an($))return`${$} cannot be named in the overlay's options`;let m=await Z(t,n.unshare,["--mount","--propagation","private","--",n.perl,...gt,"-e",on,"--",`--view=${u?"probe":"overlay"}`,`--sys-unshare=${r.unshare}`,`--sys-mount=${r.mount}`,`--workspace=${e}`,`--stash=${$}`,`--layer=${Ae($,"layer")}`,...cn(r,i,c,u?xr(i.uid,i.gid,s):void 0,{folders:[],files:[]})]);return m.code===0?void 0:`no idmapped overlay of the workspace here (${re(m.stderr)||`exit ${m.code}`})`}finally{await Z(t,n.rm,["-rf","--",$])}},"attempt");return(o.mode&5)===5&&await l(!0)===void 0?{filter:!0}:await l(!1)??{filter:!1}}a(Ns,"tryOverlay");async function Gu(t,e,n,r,o){let i=Ae(e,".git"),s=["-type","d","!","-perm","-001","-prune","-printf","d%p\\0","-o","-type","f","!","-perm","-004","-printf","f%p\\0","-o","-user",String(o),"-printf","u%p\\0"],c=a(async f=>{let p=await Z(t,n.find,f,{maxBuffer:1073741824,timeoutMs:18e5});if(p.code!==0)throw new H(`could not list the workspace's private paths: ${re(p.stderr)||`exit ${p.code}`}`);return p.stdout},"walk"),l=e.replace(/[[\]*?\\]/g,"\\$&"),d=await c([e,"-maxdepth","2","(","-path",i,"-prune","-o","-samefile",e,"-o","-path",`${l}/*/*`,"-type","d","-perm","-001","-printf","r%p\\0","-o",...s,")"]),u=d.split("\0").filter(f=>f[0]==="r").map(f=>f.slice(1)),$=Math.max(1,Math.min(Ru(),8,u.length)),m=await Promise.all(Array.from({length:u.length?$:0},(f,p)=>c([...u.filter((b,k)=>k%$===p),...s]))),w=new Map,g=[d,...m].join("\0").split("\0").filter(Boolean),h=g.filter(f=>f[0]==="u").map(f=>f.slice(1));for(let f=0;f<h.length;f+=500){let p=await Z(t,n.chown,["-h","--",`${r.uid}:${r.gid}`,...h.slice(f,f+500)]);if(p.code!==0)throw new H(`could not give an earlier run's files back to the checkout's owner: ${re(p.stderr)||`exit ${p.code}`}`)}for(let f of g){if(f[0]!=="d"&&f[0]!=="f")continue;let p=f.slice(1);try{let b=Qe(p);w.set(p,{dev:b.dev,ino:b.ino,folder:f[0]==="d"})}catch{}}return w}a(Gu,"findPrivate");async function Ms(t,e,n,r,o,i){let s=Qe(e),c={uid:s.uid,gid:s.gid},l=i?new Map:await Gu(t,e,n,c,o.uid);if(l.size>As)return`the workspace holds ${l.size} paths others may not read (more than ${As})`;let d=Ds(vr);if(!an(d))return Eu(d,{recursive:!0,force:!0}),`${d} cannot be named in the overlay's options`;let u=a(m=>m.slice(e.length+1),"relative"),$={owner:c,...i?{reader:xr(c.uid,c.gid,o.uid,o.gid)}:{},hidden:{folders:[...l].filter(([,m])=>m.folder).map(([m])=>m),files:[...l].filter(([,m])=>!m.folder).map(([m])=>m)},state:d,next:0,budget:{...Iu},verify(){for(let[m,w]of l){let g;try{let h=Qe(m);g=h.dev===w.dev&&h.ino===w.ino&&_u(m)===m}catch{g=!Fu(m)}if(!g)throw new H(`${u(m)} is no longer the private path the set-up covered`)}},async apply(m){let w=Ae(d,String(m));try{if(Rs(Ae(w,"up")).length===0)return}catch{}let g=await Hu(t,n.perl,[...gt,"-e",Ss,"--",...Du(r,{layer:w,workspace:e,owner:c,own:Ae(d,"own"),budget:$.budget,follow:$.followLinks===!0,spare:$.replacesPrivate===!0,hidden:[...l.keys()].map(u)})]);return Nu(g,w)},async dispose(){await Z(t,n.rm,["-rf","--",d])}};return $}a(Ms,"openOverlay");function Fu(t){try{return Qe(t),!0}catch{return!1}}a(Fu,"existsQuiet");function Hu(t,e,n){let[r,o]=gr(t,e,n);return new Promise(i=>{let s=vu(r,o,{detached:!0,stdio:["ignore","pipe","pipe"],env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"}}),c=[],l=[];s.stdout.on("data",d=>c.push(d)),s.stderr.on("data",d=>l.push(d)),s.once("error",d=>i({code:127,stdout:"",stderr:d.message})),s.once("close",d=>i({code:d??1,stdout:Buffer.concat(c).toString("utf8"),stderr:Buffer.concat(l).toString("utf8")}))})}a(Hu,"detachedAsRoot");var be="/tmp/home",$t=["/tmp","/var/tmp","/dev/shm"],Wu=String.raw`set -euo pipefail
umask 022
mount=$1 umount=$2 mkdir=$3 chown=$4 chmod=$5 pivot=$6 findmnt=$7 ln=$8; shift 8
ws=$1 stash=$2 owner=$3 home=$4 cwd=$5; shift 5
view=$1 perl=$2 prep=$3 nr=$4 mnr=$5 layer=$6; shift 6
cache=$1 uhome=$2; shift 2
fail() { echo "patchloop sandbox: $*" >&2; exit 125; }
# read-only: every mount in the new root that is, or lies below, one of the paths given
ro() {
  local list m p
  list=$("$findmnt" -R -n -r -o TARGET -- "$r") || fail "cannot list the mounts of the new root"
  while IFS= read -r m; do
    m=$(printf '%b' "$m")
    for p do
      case $m in "$r$p" | "$r$p"/*)
        "$mount" -o remount,bind,ro "$m" || fail "cannot make $m read-only"
        break ;;
      esac
    done
  done <<< "$list"
}
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
  "$perl" -t -X -e "$prep" -- "--view=$view" "--sys-unshare=$nr" "--sys-mount=$mnr" "--workspace=$ws" "--stash=$stash" "--layer=$layer" "$@"
fi
shift "$c"
r=$stash/root
"$mkdir" "$r"
"$mount" -t tmpfs -o mode=0755,nosuid,nodev,size=1m patchloop-root "$r"
t=$1; shift
trees=()
while [ "$t" -gt 0 ]; do
  if [ -d "$1" ] && [ ! -h "$1" ]; then trees+=("$1"); fi
  shift; t=$((t-1))
done
"$mkdir" -p "%{trees[@]/#/$r}" "$r/sys"
for src in "%{trees[@]}"; do "$mount" --rbind "$src" "$r$src"; done
# /sys without what is mounted below it (cgroups)
if [ -d /sys ]; then "$mount" --bind /sys "$r/sys"; fi
ro "%{trees[@]}" /sys
t=$1; shift
while [ "$t" -gt 0 ]; do
  "$mkdir" -p "$r$1"
  "$mount" -t tmpfs -o mode=1777,nosuid,nodev patchloop-scratch "$r$1"
  shift; t=$((t-1))
done
t=$1; shift
while [ "$t" -gt 0 ]; do
  if [ -h "$r$1" ]; then fail "$1 is a symbolic link"; fi
  [ ! -d "$r$1" ] || "$mount" -t tmpfs -o mode=0755,size=64k patchloop-private "$r$1"
  shift; t=$((t-1))
done
"$mkdir" -p -m 0700 "$r$home"
"$chown" "$owner" "$r$home"
if [ -n "$cache" ]; then
  "$mkdir" "$r$home/.cache"
  "$mount" --bind "$cache" "$r$home/.cache"
fi
: > "$stash/blank"
echo '<settings/>' > "$stash/blank-settings"
echo '<settingsSecurity/>' > "$stash/blank-security"
"$mkdir" "$stash/blankd"
"$chmod" 0444 "$stash/blank" "$stash/blank-settings" "$stash/blank-security"
"$chmod" 0555 "$stash/blankd"
t=$1; shift
srcs=() dsts=() mine=()
while [ "$t" -gt 0 ]; do
  if [ -d "$1" ] && [ ! -h "$1" ]; then
    srcs+=("$1") dsts+=("$2")
    # the folders made on the way down inside HOME are the command's own (a fresh tmpfs: no links)
    p=%{2%/*}
    while [ "%{p#"$home"/}" != "$p" ]; do mine+=("$r$p"); p=%{p%/*}; done
  fi
  shift 2; t=$((t-1))
done
if [ "%{#dsts[@]}" -gt 0 ]; then
  "$mkdir" -p "%{dsts[@]/#/$r}"
  if [ "%{#mine[@]}" -gt 0 ]; then "$chown" -h "$owner" "%{mine[@]}"; fi
  for i in "%{!srcs[@]}"; do "$mount" --rbind "%{srcs[$i]}" "$r%{dsts[$i]}"; done
  ro "%{dsts[@]}"
fi
t=$1; shift
while [ "$t" -gt 0 ]; do
  src=$1 dst=$2; shift 2; t=$((t-1))
  [ -f "$src" ] && [ ! -h "$src" ] || continue
  "$mkdir" -p "$r%{dst%/*}"
  : > "$r$dst"
  "$mount" --bind "$src" "$r$dst"
  "$mount" -o remount,bind,ro "$r$dst"
done
t=$1; shift
while [ "$t" -gt 0 ]; do
  d=$r$1; shift; t=$((t-1))
  case %{d##*/} in
    settings.xml) b=$stash/blank-settings ;;
    settings-security.xml) b=$stash/blank-security ;;
    *) b=$stash/blank ;;
  esac
  if [ -h "$d" ]; then continue
  elif [ -f "$d" ]; then "$mount" --bind "$b" "$d"
  elif [ -d "$d" ]; then "$mount" --bind "$stash/blankd" "$d"
  else continue; fi
  "$mount" -o remount,bind,ro "$d"
done
"$mkdir" -p "$r$ws"
"$mount" --rbind "$ws" "$r$ws"
if [ "$view" = read-only ]; then "$mount" -o remount,bind,ro "$r$ws"; fi
i=0
while [ "$i" -lt "$n" ]; do
  d=$r$1
  if [ -d "$stash/$i" ]; then [ -d "$d" ] || "$mkdir" -p "$d"; else [ -e "$d" ] || : > "$d"; fi
  "$mount" --bind "$stash/$i" "$d"
  "$mount" -o remount,bind,ro "$d"
  shift; i=$((i+1))
done
"$mkdir" -p "$r/proc" "$r/dev/pts"
"$mount" --rbind /proc "$r/proc"
for d in null zero full random urandom tty; do
  [ -c "/dev/$d" ] || continue
  : > "$r/dev/$d"
  "$mount" --bind "/dev/$d" "$r/dev/$d"
done
"$ln" -s /proc/self/fd "$r/dev/fd"
"$ln" -s /proc/self/fd/0 "$r/dev/stdin"
"$ln" -s /proc/self/fd/1 "$r/dev/stdout"
"$ln" -s /proc/self/fd/2 "$r/dev/stderr"
if "$mount" -t devpts -o newinstance,ptmxmode=0666,mode=0620 patchloop-pts "$r/dev/pts" 2>/dev/null; then
  "$ln" -s pts/ptmx "$r/dev/ptmx"
fi
if [ -n "$uhome" ] && [ ! -e "$r$uhome" ] && [ ! -h "$r$uhome" ]; then
  "$mkdir" -p "$r%{uhome%/*}"
  "$ln" -s "$home" "$r$uhome"
fi
t=$1; shift
while [ "$t" -gt 0 ]; do
  [ -e "$r$1" ] || [ -h "$r$1" ] || "$ln" -s "$2" "$r$1"
  shift 2; t=$((t-1))
done
cd "$r"
"$pivot" . .
"$umount" -l .
cd "$cwd" || fail "cannot enter $cwd"
exec "$@"`.replaceAll("%{","${"),ju=['for f in /proc/self/fd/*; do n=${f##*/}; [ "$n" -gt 2 ] && exec {n}>&-; done','umask "$3"',"exec 3>&2 2>/dev/null","set -m",`trap 'kill -TERM -- -"$c"' TERM INT HUP`,'"$2" -c "$1" 0<&0 2>&3 3>&- &',"c=$!",'while :; do wait "$c"; s=$?; kill -0 "$c" 2>/dev/null || exit "$s"; done'].join(`
`),Bs=["--pid","--fork","--kill-child","--mount","--mount-proc","--propagation","private","--ipc","--uts"],Ku="--net";function ln(t){return t?[...Bs,Ku]:[...Bs]}a(ln,"namespaceOptions");var Gs=String.raw`const net = require('net'), fs = require('fs');
process.setgroups([]); process.setgid(Number(process.argv[2])); process.setuid(Number(process.argv[1]));
const server = net.createServer((c) => {
  const u = net.connect('proxy.sock');
  c.on('error', () => u.destroy()); u.on('error', () => c.destroy());
  c.pipe(u); u.pipe(c);
});
server.listen(0, '127.0.0.1', () => fs.writeSync(1, server.address().port + '\n'));`,Xu=String.raw`set -eu
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
exec "$@"`;function qu(t){let e=t.network;if(!e)return[];let{bins:n,account:r}=t;return[n.bash,"-c",Xu,"patchloop-network",e.ip,n.env,e.bridge?.node??"",e.bridge?.socketDir??"/",String(r.uid),String(r.gid),Gs]}a(qu,"networkStep");var Je=a(t=>[String(t.length),...t],"counted"),Sr=a(t=>[String(t.length),...t.flat()],"pairs");function zu(t,e,n,r,o={}){let{bins:i,account:s}=t,c=t.overlay,l=c!==void 0&&o.layer!==void 0&&!o.readOnly,d=l?c.inPlace?"in-place":"overlay":o.readOnly?"read-only":"shared",u=l?Uu(c.access.state,String(o.layer)):"",$=[i.setpriv,"--pdeathsig","KILL","--",i.unshare,...ln(t.network!==void 0).filter(m=>!t.keepIpcUts||m!=="--ipc"&&m!=="--uts"),"--"];return t.perl?$.push(...Vu(t,t.perl,n,d,u,l,r)):($.push(...Qu(t,n,d,u,l,r),i.setpriv,"--reuid",String(s.uid),"--regid",String(s.gid),"--clear-groups","--no-new-privs","--inh-caps=-all",...t.keepBoundingSet?[]:["--bounding-set=-all"],"--"),t.freshKeyring&&$.push(...fs(i.keyring,i.sh))),$.push(i.bash,"-c",ju,"patchloop-init",e,i.bash,t.groupAccess?"002":"022"),$}a(zu,"commandArgv");function Yu(t,e,n){let r=t.overlay,{access:o,syscalls:i}=r;return[`--view=${e}`,`--sys-unshare=${i.unshare}`,`--sys-mount=${i.mount}`,`--workspace=${t.workspace}`,`--stash=${t.stash}`,`--layer=${n}`,...cn(i,o.owner,t.account,o.reader,o.hidden)]}a(Yu,"prepFor");function Vu(t,e,n,r,o,i,s){let c=t.view,{account:l}=t,d=t.network,u=a((m,w)=>w.map(g=>`--${m}=${g}`),"named"),$=a((m,w,g)=>g.flatMap(([h,f])=>[`--${m}=${h}`,`--${w}=${f}`]),"paired");return[e.perl,...gt,"-e",vs,"--",...sn(e.syscalls,Ls),`--workspace=${t.workspace}`,`--stash=${t.stash}`,`--cwd=${n}`,`--owner=${l.uid}:${l.gid}`,`--home=${be}`,`--view=${r}`,`--cache=${t.cache??""}`,`--account-home=${t.accountHome??""}`,...u("read-only",t.readOnly),...u("tree",c.trees),...u("scratch",t.scratch),...u("cover",c.covers),...$("bind","at",c.binds),...$("file","at",c.files),...u("blank",c.blanks),...$("link","to",c.links),...t.limits?[...br(t.limits,s).map(([m,w,g])=>`--rlimit=${m}:${w}:${g}`),"--oom-first=1"]:[],...d?["--net-lo=1"]:[],...d?.bridge?[`--bridge-node=${d.bridge.node}`,`--bridge-dir=${d.bridge.socketDir}`,`--bridge-uid=${l.uid}`,`--bridge-gid=${l.gid}`,`--bridge-code=${Gs}`]:[],...t.freshKeyring?["--fresh-keyring=1"]:[],...t.keepBoundingSet?["--keep-bounding-set=1"]:[],...i?["--prep",...Yu(t,r,o)]:[],"--"]}a(Vu,"perlView");function Qu(t,e,n,r,o,i){let{bins:s,account:c}=t,l=t.view,d=t.overlay,u=o?cn(d.syscalls,d.access.owner,c,d.access.reader,d.access.hidden):[];return[...qu(t),s.bash,"-c",Wu,"patchloop-prelude",s.mount,s.umount,s.mkdir,s.chown,s.chmod,s.pivot_root,s.findmnt,s.ln,t.workspace,t.stash,`${c.uid}:${c.gid}`,be,e,n,d?.perl??"",on,String(d?.syscalls.unshare??0),String(d?.syscalls.mount??0),r,t.cache??"",t.accountHome??"",...Je(t.readOnly),...Je(u),...Je(l.trees),...Je(t.scratch),...Je(l.covers),...Sr(l.binds),...Sr(l.files),...Je(l.blanks),...t.readOnly,...Sr(l.links),...t.limits?ws(s,t.limits,i):[]]}a(Qu,"bashView");function dn(t,e,n,r,o,i={}){let s=zu(t,e,n,o,i);if(!t.root.viaSudo)return{file:s[0],args:s.slice(1),env:r};let c=Object.entries(r).map(([l,d])=>`${l}=${d}`);return{file:t.root.prefix[0],args:[...t.root.prefix.slice(1),t.bins.env,"-i",...c,...s],env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"}}}a(dn,"launch");import{chmodSync as Ju}from"node:fs";import{createServer as Zu,request as ef}from"node:http";import{lookup as tf}from"node:dns/promises";import{connect as nf,isIP as rf}from"node:net";var of=new Set([80,443]),Fs=3e4,sf=200,_r=1e4,af=a(async(t,e)=>rf(t)?[{address:t,port:e}]:(await tf(t,{all:!0,verbatim:!0})).map(r=>({address:r.address,port:e})),"systemResolver");function Er(t){return/^[a-z0-9.:-]{1,253}$/.test(t)?t:"(a malformed destination)"}a(Er,"recordable");function cf(t){let e=/^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):(\d{1,5})$/.exec(t);if(e)return{host:pt(e[1]),port:Number(e[2])}}a(cf,"splitAuthority");async function Hs(t){let e=t.resolve??af,n=t.addressAllowed??hr,r=t.hosts.map(pt),o=new Map,i=[],s=0,c=new Set,l=a((g,h)=>{let f=Er(g);!o.has(f)&&o.size>=sf&&(f="(other hosts)");let p=o.get(f)??{host:f,reason:h,count:0};return p.count++,o.set(f,p),i.push(f),i.length>_r&&(s+=i.length-_r/2,i=i.slice(-_r/2)),t.onRefused?.(f,h),{ok:!1,reason:h}},"refuse"),d=a(async(g,h)=>{if(!g)return l("(a malformed destination)","not a host name");if(!qi(r,g))return l(g,"not in command-network");if(!of.has(h))return l(`${g}:${h}`,"only ports 80 and 443 are allowed");let f;try{f=await e(g,h)}catch{return{ok:!1,reason:`${g} could not be resolved`}}let p=f.filter(b=>n(b.address));return p.length?{ok:!0,targets:p}:l(g,"it resolves to a loopback, private or link-local address")},"decide"),u=a(g=>new Promise((h,f)=>{let p=a((b,k)=>{let v=g[b];if(!v)return f(k??new Error("no address"));let _=nf({host:v.address,port:v.port});_.setTimeout(Fs,()=>_.destroy(new Error("connect timeout"))),_.once("connect",()=>{_.setTimeout(0),h(_)}),_.once("error",E=>p(b+1,E))},"next");p(0)}),"open"),$=a(g=>{c.add(g),g.once("close",()=>c.delete(g))},"track"),m=Zu();m.on("connection",$),m.on("connect",(g,h,f)=>{h.on("error",()=>{});let p=cf(g.url??"");(async()=>{let b=p?await d(p.host,p.port):l("","not a host name");if(!b.ok){let v=b.reason.includes("resolved")?"502 Bad Gateway":"403 Forbidden";h.end(`HTTP/1.1 ${v}\r
Content-Type: text/plain\r
Connection: close\r
\r
patchloop command-network: ${p?Er(p.host):"this destination"} is refused (${b.reason}).
`);return}let k;try{k=await u(b.targets)}catch(v){h.end(`HTTP/1.1 502 Bad Gateway\r
Connection: close\r
\r
${v.message}
`);return}$(k),k.on("error",()=>h.destroy()),h.on("error",()=>k.destroy()),h.on("close",()=>k.destroy()),k.on("close",()=>h.destroy()),h.write(`HTTP/1.1 200 Connection Established\r
\r
`),f.length&&k.write(f),k.pipe(h),h.pipe(k)})()}),m.on("request",(g,h)=>{(async()=>{let f;try{f=new URL(g.url??"")}catch{f=void 0}if(!f||f.protocol!=="http:"){l("","not an absolute http:// request"),h.writeHead(400,{"content-type":"text/plain"}).end(`patchloop command-network: the proxy takes CONNECT host:443 and absolute http:// requests only.
`);return}let p=pt(f.hostname),b=f.port?Number(f.port):80,k=await d(p,b);if(!k.ok){h.writeHead(k.reason.includes("resolved")?502:403,{"content-type":"text/plain"}).end(`patchloop command-network: ${Er(p)} is refused (${k.reason}).
`);return}let v={...g.headers};for(let C of["proxy-authorization","proxy-connection","connection","keep-alive"])delete v[C];let _=k.targets[0],E=ef({host:_.address,port:_.port,method:g.method,path:`${f.pathname}${f.search}`,headers:{...v,host:f.host},setHost:!1});E.setTimeout(Fs,()=>E.destroy(new Error("timeout"))),E.on("response",C=>{h.writeHead(C.statusCode??502,C.headers),C.pipe(h)}),E.on("error",C=>{h.headersSent?h.destroy():h.writeHead(502,{"content-type":"text/plain"}).end(`${C.message}
`)}),g.pipe(E)})()}),m.on("clientError",(g,h)=>{g.code!=="ECONNRESET"&&h.writable?(l("","not a valid request"),h.end(`HTTP/1.1 400 Bad Request\r
Connection: close\r
\r
`)):h.destroy()}),await new Promise((g,h)=>{m.once("error",h),m.listen(t.socketPath,()=>{m.off("error",h),g()})}),Ju(t.socketPath,438);let w=a(g=>{let h=new Map;for(let f of g){let p=h.get(f)??{host:f,reason:o.get(f)?.reason??"",count:0};p.count++,h.set(f,p)}return[...h.values()]},"dedupe");return{socketPath:t.socketPath,refused:a(()=>[...o.values()].map(g=>({...g})),"refused"),refusals:a(()=>s+i.length,"refusals"),refusedSince:a(g=>w(i.slice(Math.max(0,g-s))),"refusedSince"),close:a(()=>new Promise(g=>{for(let h of c)h.destroy();m.close(()=>g())}),"close")}}a(Hs,"startNetworkProxy");import{spawnSync as Ks}from"node:child_process";import{createHash as lf,randomBytes as df}from"node:crypto";import{existsSync as uf,readdirSync as ff,readFileSync as pf,readlinkSync as mf,rmSync as un,statSync as hf,writeFileSync as Us}from"node:fs";import{createServer as Xs}from"node:net";import{dirname as Ws,join as ke,relative as gf,sep as $f}from"node:path";var yf=["/run","/var/run","/home","/root","/srv","/mnt","/media","/var/lib","/var/cache"];function wf(){return new Promise((t,e)=>{let n=Xs(r=>r.destroy());n.once("error",e),n.listen(0,"127.0.0.1",()=>{let r=n.address();t({port:typeof r=="object"&&r?r.port:0,server:n})})})}a(wf,"hostListener");var js="PATCHLOOP_SELF_CHECK_SECRET";async function qs(t,e){let n=df(6).toString("hex"),r=`s3cret-${n}`,o=Et,i=[];for(let p of e.privateDirs){let b=ke(p,`.patchloop-probe-${n}`);try{Us(b,r,{mode:420,flag:"wx"}),i.push(b)}catch{}}let s=e.network?await wf():void 0,c=await bf(n),l=e.shared?[...new Set([...e.shared,...vf(e)?[yt]:[]])]:[],d=e.view?yf:[],u=e.sharedReadOnly??[],$=`.patchloop-probe-${n}`,m=`patchloop-probe-${n}`,w=e.keyring?ms(e.keyring,m,r):void 0,g=e.ipcUts?xf():void 0;for(let p of l){let b=ke(p,$);try{Us(b,r,{mode:420,flag:"wx"}),i.push(b)}catch{}}let h=['echo "uid $(id -u)"',`if h=$({ sha256sum < /proc/${process.pid}/environ; } 2>/dev/null); then echo "environ $h"; fi`,`f=.patchloop-probe-${n}; if { : > "$f"; } 2>/dev/null && rm -f "$f"; then echo workspace-writable; fi`,e.processes===void 0?":":`[ "$(ulimit -u)" = ${e.processes} ] || echo "nproc $(ulimit -u)"`,`if printenv ${js} >/dev/null; then echo env-secret-visible; fi`,`while IFS=$'	' read -r k v; do case "$k" in Cap*:) case "$v" in *[!0]*) echo "privileges-kept $k$v";; esac;; NoNewPrivs:) [ "$v" = 1 ] || echo new-privileges-allowed;; Groups:) case "$v" in *[0-9]*) echo "groups-kept $v";; esac;; esac; done < /proc/self/status`];if(w&&e.keyring){let p=gs(e.keyring,w,m).map(b=>`${b.map(o).join(" ")} >/dev/null 2>&1`);h.push(`if ${p.join(" || ")}; then echo keyring-shared; fi`)}e.ipcUts&&h.push('echo "ns-ipc $(readlink /proc/self/ns/ipc)"','echo "ns-uts $(readlink /proc/self/ns/uts)"','if [ -r /proc/sysvipc/msg ] && [ "$(wc -l < /proc/sysvipc/msg)" -gt 1 ]; then echo ipc-visible; fi');for(let p of l)h.push(`if [ -e ${o(ke(p,$))} ]; then echo shared-visible ${o(p)}; fi`,`if { : > ${o(ke(p,`${$}-left`))}; } 2>/dev/null; then echo shared-writable ${o(p)}; fi`);for(let p of u)h.push(`if { : > ${o(ke(p,`${$}-left`))}; } 2>/dev/null; then echo shared-writable ${o(p)}; fi`);e.hasGit&&h.push(`if mv .git .git-probe-${n} 2>/dev/null; then mv .git-probe-${n} .git; echo git-renamed; fi`,`if [ -d .git ] && { : > .git/probe-${n}; } 2>/dev/null; then rm -f .git/probe-${n}; echo git-written; fi`,"if [ -f .git ] && { : >> .git; } 2>/dev/null; then echo git-written; fi");let f=a((p,b)=>{let v=["''",...[e.workspace,be,...$t,...e.readOnlyDirs,...e.view??[]].filter(_=>_!==p&&N(_,p)).map(_=>gf(p,_).split($f)[0]).map(o)].join("|");return`ls -A ${o(p)} 2>/dev/null | while IFS= read -r n; do case "$n" in ${v}) ;; *) echo ${b} ${o(p)}/"$n";; esac; done`},"onlyWays");s&&h.push('while IFS=: read -r n _; do n=$(printf %s $n); case "$n" in lo|Inter-*|face*) ;; *) echo "interface-visible $n";; esac; done < /proc/net/dev',`if (exec 3<>/dev/tcp/127.0.0.1/${s.port}) 2>/dev/null; then echo host-loopback-reachable; fi`,'case "$( (exec 3<>/dev/tcp/127.0.0.1/1) 2>&1)" in *refused*) ;; *) echo loopback-down;; esac',e.network?.proxy?'case "${HTTPS_PROXY:-}" in http://127.0.0.1:*) (exec 3<>/dev/tcp/127.0.0.1/"${HTTPS_PROXY##*:}") 2>/dev/null || echo proxy-unreachable;; *) echo proxy-unset;; esac':'[ -z "${HTTPS_PROXY:-}" ] || echo proxy-set');for(let p=Ws(e.workspace);p!=="/";p=Ws(p))h.push(f(p,"above-visible"));for(let p of e.privateDirs)h.push(f(p,"private-visible"));for(let p of d)h.push(f(p,"outside-view"));c&&h.push(`if [ -e ${o(c.path)} ]; then echo run-socket-visible; fi`);for(let p of e.readOnlyDirs)h.push(`ls ${o(p)} >/dev/null 2>&1 || echo read-only-unreadable ${o(p)}`,`if { : > ${o(ke(p,`probe-${n}`))}; } 2>/dev/null; then echo read-only-writable ${o(p)}; fi`);try{if(e.keyring&&!w)return"a key could not be put in patchloop's session keyring to probe with";let p=await Ge({command:h.join(`
`),cwd:e.workspace,env:{...e.env,[js]:r},sandbox:t,timeoutMs:3e4}),b=p.text.trim().split(`
`);if(p.exitCode!==0||p.spawnError)return`the probe command failed (${p.spawnError??`exit ${p.exitCode??p.signal}`}): ${b.slice(-3).join(" / ")}`;if(b[0]!==`uid ${e.uid}`)return`the probe ran as ${b[0]??"nobody"}, not uid ${e.uid}`;let k=lf("sha256").update(pf("/proc/self/environ")).digest("hex");if(b.some(E=>E.startsWith("environ ")&&E.includes(k)))return"the probe could read patchloop's /proc/<pid>/environ";if(!b.includes("workspace-writable"))return"the probe could not write in the workspace";if(p.text.includes(r))return"the probe saw a value it must not see";for(let E of e.ipcUts?["ipc","uts"]:[]){let C=b.find(P=>P.startsWith(`ns-${E} `))?.slice(`ns-${E} `.length);if(!C?.startsWith(`${E}:[`))return`the probe could not tell its ${E} namespace`;if(C===mf(`/proc/self/ns/${E}`))return`the probe shares patchloop's ${E==="ipc"?"System V IPC":"host name"} namespace`}let v=[...l,...u].map(E=>ke(E,`${$}-left`)).filter(E=>uf(E));if(v.length)return`the probe left ${v.join(", ")} behind, outside its namespace`;let _=b.filter(E=>!E.startsWith("uid ")&&!E.startsWith("environ ")&&!E.startsWith("ns-")&&E!=="workspace-writable");return _.length?`the probe found: ${_.join("; ")}`:void 0}finally{s?.server.close(),c?.close();for(let p of i)un(p,{force:!0});for(let p of[...l,...u])un(ke(p,`${$}-left`),{force:!0});w&&e.keyring&&hs(e.keyring,w),g&&Ks(g.ipcrm,["-q",g.id],{stdio:"ignore"});for(let p of e.readOnlyDirs)for(let b of kf(p))b===`probe-${n}`&&un(ke(p,b),{force:!0})}}a(qs,"selfCheck");function bf(t){let e=ke("/run",`.patchloop-probe-${t}.sock`);return new Promise(n=>{let r=Xs(o=>o.destroy());r.once("error",()=>n(void 0)),r.listen(e,()=>n({path:e,close:a(()=>{r.close(),un(e,{force:!0})},"close")}))})}a(bf,"runSocket");function kf(t){try{return ff(t)}catch{return[]}}a(kf,"safeList");function xf(){let t=V("ipcmk"),e=V("ipcrm");if(!t||!e)return;let n=Ks(t,["-Q","-p","0600"],{encoding:"utf8"}),r=/(\d+)\s*$/.exec(n.stdout?.trim()??"")?.[1];return n.status===0&&r?{id:r,ipcrm:e}:void 0}a(xf,"plantQueue");var yt="/run/lock";function vf(t){try{let e=hf(yt);return e.isDirectory()&&(e.mode&514)===514&&!(t.sharedReadOnly??[]).includes(yt)&&!N(t.workspace,yt)&&!N(yt,t.workspace)}catch{return!1}}a(vf,"isSharedLock");import{execFile as Sf}from"node:child_process";var _f=4,Ef=3e4;function Af(t){return t.replace(/[*?[\]\\]/g,"\\$&")}a(Af,"literal");function zs(t,e){let n=["/proc","/sys",...e].flatMap((o,i)=>[...i?["-o"]:[],"-path",Af(o)]),r=["/","-mindepth","1","-maxdepth",String(_f),"(",...n,")","-prune","-o","-type","d","-perm","-0002","-printf","%m %p\\0","-prune"];return new Promise((o,i)=>{Sf(t,r,{env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin",LC_ALL:"C"},encoding:"buffer",timeout:Ef,maxBuffer:4<<20},(s,c)=>{if(s&&(s.killed||s.signal||typeof s.code!="number")){i(new H(`the machine's world-writable folders could not be listed: ${s.message}`));return}let l={scratch:[],other:[]};for(let d of c.toString("utf8").split("\0")){let u=d.indexOf(" ");if(u<0)continue;let $=parseInt(d.slice(0,u),8),m=d.slice(u+1);!m.startsWith("/")||m==="/"||($&512?l.scratch:l.other).push(m)}o(l)})})}a(zs,"findSharedDirs");import{mkdirSync as Rf,mkdtempSync as Tf,rmSync as Of}from"node:fs";import{join as Ys}from"node:path";var Pf="/var/tmp";async function Vs(t,e,n){let r=Tf(Ys(Pf,"patchloop-cache-")),o=Ys(r,"cache"),i=a(async()=>{let c=V("rm");c&&await Z(t,c,["-rf","--",r]),Of(r,{recursive:!0,force:!0})},"remove");Rf(o,{mode:448});let s=await Z(t,n,[`${e.uid}:${e.gid}`,o]);if(s.code!==0)throw await i(),new H(`the run's cache folder could not be given to ${e.user}: ${re(s.stderr)||`exit ${s.code}`}`);return{dir:o,remove:i}}a(Vs,"makeRunCache");import{lstatSync as Cf,readdirSync as Qs,readlinkSync as Lf,realpathSync as If}from"node:fs";import{isAbsolute as pn,join as wt,normalize as Js,posix as Df}from"node:path";var Nf=["/usr","/bin","/sbin","/lib","/lib32","/lib64","/libx32","/etc","/opt","/home/linuxbrew/.linuxbrew","/nix/store","/var/lib/dpkg","/var/lib/gems"],Mf=[".cargo",".rustup",".m2",".gradle",".sbt",".ivy2","go/pkg/mod",".nvm",".pyenv",".rbenv",".sdkman",".dotnet",".bun",".deno",".local/share/pnpm",".cache/ms-playwright",".cache/Cypress",".cache/puppeteer",".cache/node/corepack",".cache/coursier"],Ar="PATCHLOOP_COMMAND_HOME_DIRS",Bf={".cache/ms-playwright":"PLAYWRIGHT_BROWSERS_PATH",".cache/Cypress":"CYPRESS_CACHE_FOLDER",".cache/puppeteer":"PUPPETEER_CACHE_DIR",".cache/node/corepack":"COREPACK_HOME",".cache/coursier":"COURSIER_CACHE"},Gf=[".ssh",".aws",".azure",".config/gh",".config/gcloud",".config/hub",".config/git",".netrc",".docker",".gnupg",".kube",".git-credentials",".npmrc",".yarnrc",".yarnrc.yml",".pypirc",".gem",".terraform.d",".vault-token",".password-store",".local/share/keyrings",".pki"],Ff=/credential|secret|token|passw|^settings(-security)?\.xml$|^gradle\.properties$|^\.(netrc|npmrc|pypirc)$|\.(pem|key|p12|jks)$/i;function Zs(t){return t.split("/").some(e=>/^gha-creds-/i.test(e))?!0:Gf.some(e=>t===e||N(t,e)||N(e,t))}a(Zs,"isDeniedName");function Hf(t){let e=(t??"").split(/[\s,:]+/).filter(Boolean);for(let n of e){let r=Df.normalize(n).replace(/\/$/,"");if(pn(n)||r!==n.replace(/\/$/,"")||r==="."||r.startsWith(".."))return new Error(`${Ar}: "${n}" is not a plain folder name relative to the home`);if(Zs(r))return new Error(`${Ar}: "${n}" is, or holds, a folder of credentials; it is never shown`)}return e.map(n=>n.replace(/\/$/,""))}a(Hf,"parseHomeDirs");function Ze(t){try{return Cf(t)}catch{return}}a(Ze,"lstatOf");function fn(t){try{return If(t)}catch{return}}a(fn,"realOf");function ea(t){let{workspace:e,privateDirs:n}=t,r=a(v=>v==="/"||N(v,e)||n.some(_=>N(v,_)),"treeClashes"),o=a(v=>v==="/"||N(e,v)||N(v,e)||n.some(_=>N(_,v)||N(v,_)),"clashes"),i=[],s=[],c=a(v=>{let _=Ze(v);if(_){if(_.isSymbolicLink()){let E=fn(v);if(!E||!Ze(E)?.isDirectory()||r(E))return;s.push([v,Lf(v)]),i.some(C=>N(E,C))||i.push(E);return}_.isDirectory()&&!r(v)&&!i.some(E=>N(v,E))&&i.push(v)}},"addTree"),l=t.env.RUNNER_TOOL_CACHE;for(let v of[...Nf,...l&&pn(l)?[Js(l)]:[],...t.extraTrees??[]])c(v);let d=i.filter(v=>!i.some(_=>_!==v&&N(v,_))),u=s.filter(([v])=>!d.some(_=>N(v,_)&&v!==_)),$=a(v=>d.some(_=>N(v,_)),"inView"),m=[],w=[];try{w=Qs("/etc")}catch{}for(let v of w){let _=wt("/etc",v);if(!Ze(_)?.isSymbolicLink())continue;let E=fn(_);!E||$(E)||!Ze(E)?.isFile()||o(E)||m.push([E,E])}let g=[],h=[],f={},p=Hf(t.env[Ar]);if(p instanceof Error)throw p;let b=t.home&&pn(t.home)?fn(t.home):void 0;if(b&&b!=="/"&&Ze(b)?.isDirectory())for(let v of[...new Set([...Mf,...p])]){if(Zs(v))continue;let _=wt(b,v),E=fn(_);if(!E||!Ze(E)?.isDirectory()||o(E))continue;let C=v.startsWith(".cache/")?[]:[wt(t.commandHome,v)];if(!$(_)&&!N(_,e)&&C.push(_),!C.length)continue;let P=Bf[v];P&&C.includes(_)&&(f[P]=_);let I=[];try{I=Qs(E)}catch{}let x=I.filter(F=>Ff.test(F));for(let F of C){g.push([E,F]);for(let B of x)h.push(wt(F,B))}}let k=[];for(let v of n)$(v)&&!N(e,v)&&k.push(v);for(let v of d){if(!N(e,v)||e===v)continue;let _=wt(v,e.slice(v.length+1).split("/")[0]);k.includes(_)||k.push(_)}return{trees:d,links:u,binds:g,files:m,blanks:h,covers:k,env:f}}a(ea,"planView");function Rr(t){return[...t.trees,...t.links.map(([e])=>e),...t.binds.map(([,e])=>e),...t.files.map(([,e])=>e)]}a(Rr,"viewPaths");function ta(t,e,n,r,o){if(!(!t||!pn(t)||Js(t)!==t||t===r||t==="/"||[...Rr(e),n,...o].some(s=>N(t,s)||N(s,t))))return t}a(ta,"accountHomeInView");var De=a(t=>({kind:"unavailable",reason:t}),"unavailable"),na=["/media","/srv","/mnt","/opt","/run","/var"];function bt(t){try{let e=jf(t);return ia(e).isDirectory()?e:void 0}catch{return}}a(bt,"realDir");function qf(){let t=["unshare","setpriv","mount","umount","mkdir","chown","chmod","find","prlimit","bash","sh","env","kill","pivot_root","findmnt","ln"],e={};for(let n of t){let r=V(n);if(!r)return`${n} is not installed (${n==="find"?"findutils":n==="bash"||n==="sh"?"a shell":"util-linux / coreutils"})`;e[n]=r}return e}a(qf,"resolveBins");async function zf(t,e){let n=ds(e);if(typeof n=="string")return n;let r="";for(let o of n){let i=await us(o,t);if(i==="works"||i==="refused")return{tool:o,works:i==="works"};r=i}return r}a(zf,"findKeyring");async function Yf(t){try{return await t()}catch(e){if(!(e instanceof H))throw e;return t()}}a(Yf,"retryOnce");function Vf(t,e,n){let{account:r,root:o}=t,i=new Set([...Br,...e]);return{outputFileMode:420,toolGroup:a(()=>t.groupAccess?r.gid:void 0,"toolGroup"),limitNote:a((s,c)=>t.limits?bs(t.limits,c,s):void 0,"limitNote"),envOptions:{pass:e,privateDirs:n},wrap(s){let c={};for(let[$,m]of Object.entries(s.env))i.has($)&&(c[$]=m);c.PATH=Fr(c.PATH,n),c.HOME=be,t.cache&&!e.includes("GOCACHE")&&(c.GOCACHE=`${be}/.cache/go-build`);for(let[$,m]of Object.entries(t.view.env))e.includes($)||(c[$]=m);t.network&&!t.network.bridge&&!e.includes("COREPACK_ENABLE_NETWORK")&&(c.COREPACK_ENABLE_NETWORK="0"),c.TMPDIR="/tmp",c.USER=r.user,c.LOGNAME=r.user;let l=Number(c.GIT_CONFIG_COUNT??0)||0;c[`GIT_CONFIG_KEY_${l}`]="safe.directory",c[`GIT_CONFIG_VALUE_${l}`]="*",c.GIT_CONFIG_COUNT=String(l+1),Object.assign(c,s.ownEnv);let d=t.overlay?.access;if(!d)return dn(t,s.command,s.cwd,c,s.timeoutMs);if(s.readOnlyWorkspace)return dn(t,s.command,s.cwd,c,s.timeoutMs,{readOnly:!0});d.verify();let u=d.next++;return{...dn(t,s.command,s.cwd,c,s.timeoutMs,{layer:u}),settle:a(()=>d.apply(u),"settle")}},signal:a(((s,c)=>{if(!o.viaSudo){try{process.kill(-s,c)}catch{}return}Xf(o.prefix[0],[...o.prefix.slice(1),t.bins.kill,"-s",c.replace(/^SIG/,""),"--",`-${s}`],{stdio:"ignore",timeout:1e4})}),"signal")}}a(Vf,"makeSandbox");var ra=new Map,oa=new Map;function aa(t,e){let n=oa.get(e);return n||(n=Yf(()=>es(t.root,e)),n.catch(()=>{}),oa.set(e,n)),n}a(aa,"accountOf");function Qf(t=Zt,e=[]){let n=[t,...[...e].sort()].join("\0"),r=ra.get(n);return r||(r=(async()=>{if(process.platform!=="linux")return`commands cannot be isolated on ${process.platform}; only Linux is supported`;let o=await Ji();if(typeof o=="string")return`commands cannot run as another user: ${o}`;let i=qf();if(typeof i=="string")return`commands cannot be isolated: ${i}`;let[s,c,l]=await Promise.all([Z(o,i.unshare,[...ln(!1),"--",i.mount,"-t","tmpfs","patchloop-probe","/tmp"]),Jf(o,i),zf(i.sh,e)]);if(s.code!==0)return`no PID and mount namespace for commands here (${re(s.stderr)||`exit ${s.code}`})`;if(typeof l=="string")return`commands cannot be isolated: ${l}`;let d={...i,keyring:l.tool},u={root:o,bins:d,network:c,keyrings:l.works};return aa(u,t),u})(),r.catch(()=>{}),ra.set(n,r)),r}a(Qf,"probeMachine");async function Jf(t,e){let n=V("ip");if(!n)return"ip (iproute2) is not installed, so a command network namespace cannot get its loopback";let r=await Z(t,e.unshare,[...ln(!0),"--",n,"link","set","lo","up"]);return r.code!==0?`no network namespace for commands here (${re(r.stderr)||`exit ${r.code}`})`:{ip:n}}a(Jf,"probeNetwork");async function Zf(t,e){let n=Wf(Tr(Kf(),"patchloop-net-"));Uf(n,457);try{return{proxy:await Hs({hosts:t,socketPath:Tr(n,"proxy.sock"),...e}),dir:n}}catch(r){throw sa(n,{recursive:!0,force:!0}),new H(`the network proxy could not be started: ${r.message}`)}}a(Zf,"startProxy");async function ww(t){let e=await ep(t);return e.kind==="isolated"&&await e.ready,e}a(ww,"createSandbox");async function ep(t){if(t.mode==="off")return De("turned off");if(process.platform!=="linux")return De(`commands cannot be isolated on ${process.platform}; only Linux is supported`);let e=t.env??process.env,n=new Set(t.weaken??[]),r=bt(t.workspace);if(!r)throw new H(`the workspace ${t.workspace} is not a folder`);if(r==="/"||r==="/tmp")throw new H(`the workspace cannot be ${r} itself`);let o=await Qf(t.user,t.hideBins);if(typeof o=="string")return De(o);let{root:i,bins:s}=o,c=t.network??{kind:"none"},l=c.kind!=="all"&&!n.has("network");if(l&&typeof o.network=="string")return De(o.network);let d=V("setfacl")?"acl":"group",u=t.access??"overlay",$=[...new Set((t.privateDirs??(e.RUNNER_TEMP?[e.RUNNER_TEMP]:[])).map(bt))].filter(T=>T!==void 0&&T!=="/"),m;try{m=ea({workspace:r,home:e.HOME,commandHome:be,privateDirs:$,env:e})}catch(T){throw new H(T.message)}let w=r.split("/").filter(Boolean),g=n.has("hide-above")&&w.length>1?`/${w[0]}`:void 0;if(g&&(m.trees=m.trees.filter(T=>!N(T,g)),m.binds=[...m.binds.filter(([,T])=>!N(T,g)),[g,g]],m.covers=m.covers.filter(T=>!N(T,g))),n.has("private-dirs"))for(let T of $)m.binds.unshift([T,T]);n.has("view")&&m.trees.push(...["/run"].filter(T=>bt(T)===T));let h=[...m.trees,...m.binds.map(([T])=>T),...m.files.map(([T])=>T)],f=na.map(bt).find(T=>T!==void 0&&!N(r,T)&&!N(T,r)&&!h.some(U=>N(U,T)||N(T,U)));if(!f)throw new H(`none of ${na.join(", ")} can hold the command's new root`);let p=t.hideBins?.includes("perl")?void 0:V("perl"),b=V("rm"),k=Ps(),v=p&&k?await Cs(p):!1,_=!p||!b?"perl is not installed":k?v?{bins:{find:s.find,perl:p,unshare:s.unshare,mount:s.mount,mkdir:s.mkdir,rm:b},syscalls:k}:`${p} is not a 64-bit ${process.arch} perl`:`Perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}`;if(u==="overlay"&&typeof _=="string"){if(t.access==="overlay")return De(_);u=d}let E=a(()=>typeof _=="string"?Promise.resolve(_):Ns(i,r,_.bins,_.syscalls).catch(T=>`the overlay could not be tried: ${T.message}`),"tryMounts"),P=u==="overlay"&&d==="group"&&i.viaSudo?E():void 0,I=$t.filter(T=>!g||!N(T,g)),x=Tr(r,".git"),F=(()=>{try{let T=ia(x);return T.isDirectory()||T.isFile()}catch{return!1}})(),B=[...new Set((t.readOnlyDirs??[]).map(bt))].filter(T=>T!==void 0&&T!=="/"),K=[...F&&!n.has("read-only-git")?[x]:[],...B],y={...wr,...t.limits},S=Math.min(y.processes,rn().processes??1/0),Q=(t.commandEnv??[]).filter(Gr),[O,X]=await Promise.all([aa(o,t.user??Zt),P]);if(typeof X=="string"){if(t.access==="overlay")return De(X);u=d}if(u==="overlay"&&!an(f))throw new H(`${f} cannot be named in the overlay's options`);if(u==="acl"&&!V("setfacl"))return De("setfacl (package acl) is not installed");if(u==="group"&&i.viaSudo)return De("setfacl (package acl) is needed to share the workspace when not running as root");let W=l&&c.kind==="hosts"?await Zf(c.hosts,t.proxyOverride):void 0,Y=a(async()=>{W&&(await W.proxy.close(),sa(W.dir,{recursive:!0,force:!0}))},"closeProxy"),fe=await Vs(i,O,s.chown).catch(async T=>{throw await Y(),T}),Ne=fe.dir,ne={root:i,account:O,bins:s,workspace:r,stash:f,view:m,scratch:I,cache:g&&N(be,g)?void 0:Ne,accountHome:ta(O.home,m,r,be,I),freshKeyring:o.keyrings&&!n.has("keyring"),keepIpcUts:n.has("ipc-uts"),keepBoundingSet:n.has("bounding-set"),readOnly:K,limits:n.has("limits")?void 0:y,groupAccess:u==="group",...p&&k&&v?{perl:{perl:p,syscalls:k}}:{},...l&&typeof o.network!="string"?{network:{ip:o.network.ip,...W?{bridge:{node:process.execPath,socketDir:W.dir}}:{}}}:{}},ae={...Vf(ne,Q,$),network:{mark:a(()=>W?.proxy.refusals()??0,"mark"),note:a((T,U)=>Yi(c,W?W.proxy.refusedSince(T):[],U),"note")}},M=!1,Ue={...ae,wrap(T){if(!M)throw new H("no command runs before the sandbox self-check has passed");return ae.wrap(T)}},Re,R,A=(async()=>{await new Promise(ee=>setImmediate(ee));let T=a(ee=>(u=ee,ne.groupAccess=ee==="group",cs(i,O,r,ee).then(te=>Re=te)),"openWalks");R=u==="overlay"?a(async()=>{if(typeof _=="string")throw new H(_);let ee=X??await E(),te=typeof ee=="string"?ee:await Ms(i,r,{..._.bins,chown:s.chown},_.syscalls,O,ee.filter&&!t.overlayCovers);if(typeof te!="string"){n.has("cover-private")&&(delete te.reader,te.hidden={folders:[],files:[]}),n.has("apply-follows-links")&&(te.followLinks=!0),n.has("apply-replaces-private")&&(te.replacesPrivate=!0),ne.overlay={perl:_.bins.perl,syscalls:_.syscalls,access:te,inPlace:n.has("overlay-in-place")},Re={method:"overlay",revoke:a(()=>te.dispose(),"revoke")};return}if(t.access==="overlay")throw new H(te);if(d==="group"&&i.viaSudo)throw new H(`${te}, and setfacl (package acl) is needed to share it when not running as root`);return T(d)},"openOverlayOrWalks")():T(u);let[,oe]=await Promise.all([R,zs(s.find,[r,...$,...B])]),pe=[...oe.scratch,...oe.other].filter(ee=>!N(r,ee)&&!N(ee,r)&&!$t.some(te=>N(ee,te))),me=Rr(m),ca=pe.filter(ee=>!me.some(te=>N(ee,te))),la=pe.filter(ee=>me.some(te=>N(ee,te)));if(t.selfCheck!==!1){let ee=a(()=>qs(ae,{uid:O.uid,workspace:r,hasGit:F,privateDirs:$,readOnlyDirs:B,processes:n.has("limits")?void 0:S,env:e,network:ne.network?{proxy:W!==void 0}:void 0,keyring:o.keyrings?s.keyring:void 0,ipcUts:!0,shared:ca,sharedReadOnly:la,view:[...me,...ne.accountHome?[ne.accountHome]:[]]}),"check"),te=await ee()&&await ee();if(te)throw new H(`the sandbox self-check failed: ${te}`)}M=!0})().catch(async T=>{await R?.catch(()=>{});let U=Re;throw Re=void 0,await Promise.all([U?.revoke(),Y(),fe.remove()]).catch(oe=>{throw new H(`${T.message}; and then: ${oe.message}`)}),T});A.catch(()=>{});let G=a(()=>[`commands run as user ${O.user} (uid ${O.uid}) in their own PID and mount namespace`,ne.keepIpcUts?"":"with their own System V IPC and host name",ne.freshKeyring?"a session keyring of their own":"","seeing only the workspace, the system folders and the toolchain folders of the home (read-only)",$.length?`${$.join(", ")} hidden`:"",F?".git read-only":"",u==="overlay"?"the workspace as an overlay whose writes patchloop moves in after each command":`${u==="acl"?"ACL":"group"} access to the workspace`,`network: ${ne.network?Jt(c):Jt({kind:"all"})}`,n.has("limits")?"":`limits of ${S} processes and ${Math.round(y.fileBytes/1024**2)} MiB per file`].filter(Boolean).join(", "),"describe"),q;return{kind:"isolated",sandbox:Ue,get reason(){return G()},ready:A,dispose:a(()=>q??=A.then(()=>{let T=Re;return Re=void 0,Promise.all([T?.revoke(),Y(),fe.remove()]).then(()=>{})},()=>{}),"dispose"),network:{policy:ne.network?c:{kind:"all"},refused:a(()=>W?.proxy.refused()??[],"refused")}}}a(ep,"startSandbox");function _w(t){let e=new AbortController,n,r=a(o=>{if(n){t(o);return}n=o,e.abort(new Error(`interrupted by ${o}`))},"handler");return process.on("SIGINT",r),process.on("SIGTERM",r),{signal:e.signal,get received(){return n},dispose(){process.off("SIGINT",r),process.off("SIGTERM",r)}}}a(_w,"watchInterrupts");export{yn as a,da as b,ua as c,Rc as d,st as e,yo as f,qa as g,Va as h,Mt as i,Bt as j,Jc as k,ai as l,Ft as m,mi as n,i$ as o,be as p,x$ as q,Jt as r,zi as s,v$ as t,Qf as u,ww as v,ep as w,_w as x};
