import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as L,b as ve,c as $e,d as ge,e as et,f as vt,g as je,h as hn,i as Dr,j as K,k as Wr,l as jr,m as Kr,n as Xr,o as At}from"./chunk-U7UEP7I2.js";import{a as N,b as Nr,c as $n,d as _t,e as _e,f as St,g as Mr,h as Br,i as Gr,j as Et,k as Fr,l as Hr,m as Ur,n as gn,o as yn}from"./chunk-UKD6SYP5.js";import{a as xe}from"./chunk-GBMTFJE3.js";import{a as Cr,b as Lr,c as Ir}from"./chunk-UGPXGKM2.js";import{b as Me}from"./chunk-IUQPCJRX.js";import{a,d as We,f as xt}from"./chunk-4X7ZATFQ.js";var tt=We((op,Jr)=>{"use strict";var qr="[^\\\\/]",$a="(?=.)",zr="[^/]",bn="(?:\\/|$)",Vr="(?:^|\\/)",kn=`\\.{1,2}${bn}`,ga="(?!\\.)",ya=`(?!${Vr}${kn})`,wa=`(?!\\.{0,1}${bn})`,ba=`(?!${kn})`,ka="[^.\\/]",xa=`${zr}*?`,va="/",Qr={DOT_LITERAL:"\\.",PLUS_LITERAL:"\\+",QMARK_LITERAL:"\\?",SLASH_LITERAL:"\\/",ONE_CHAR:$a,QMARK:zr,END_ANCHOR:bn,DOTS_SLASH:kn,NO_DOT:ga,NO_DOTS:ya,NO_DOT_SLASH:wa,NO_DOTS_SLASH:ba,QMARK_NO_DOT:ka,STAR:xa,START_ANCHOR:Vr,SEP:va},_a={...Qr,SLASH_LITERAL:"[\\\\/]",QMARK:qr,STAR:`${qr}*?`,DOTS_SLASH:"\\.{1,2}(?:[\\\\/]|$)",NO_DOT:"(?!\\.)",NO_DOTS:"(?!(?:^|[\\\\/])\\.{1,2}(?:[\\\\/]|$))",NO_DOT_SLASH:"(?!\\.{0,1}(?:[\\\\/]|$))",NO_DOTS_SLASH:"(?!\\.{1,2}(?:[\\\\/]|$))",QMARK_NO_DOT:"[^.\\\\/]",START_ANCHOR:"(?:^|[\\\\/])",END_ANCHOR:"(?:[\\\\/]|$)",SEP:"\\"},Sa={__proto__:null,alnum:"a-zA-Z0-9",alpha:"a-zA-Z",ascii:"\\x00-\\x7F",blank:" \\t",cntrl:"\\x00-\\x1F\\x7F",digit:"0-9",graph:"\\x21-\\x7E",lower:"a-z",print:"\\x20-\\x7E ",punct:"\\-!\"#$%&'()\\*+,./:;<=>?@[\\]^_`{|}~",space:" \\t\\r\\n\\v\\f",upper:"A-Z",word:"A-Za-z0-9_",xdigit:"A-Fa-f0-9"};Jr.exports={DEFAULT_MAX_EXTGLOB_RECURSION:0,MAX_LENGTH:1024*64,POSIX_REGEX_SOURCE:Sa,REGEX_BACKSLASH:/\\(?![*+?^${}(|)[\]])/g,REGEX_NON_SPECIAL_CHARS:/^[^@![\].,$*+?^{}()|\\/]+/,REGEX_SPECIAL_CHARS:/[-*+?.^${}(|)[\]]/,REGEX_SPECIAL_CHARS_BACKREF:/(\\?)((\W)(\3*))/g,REGEX_SPECIAL_CHARS_GLOBAL:/([-*+?.^${}(|)[\]])/g,REGEX_REMOVE_BACKSLASH:/(?:\[.*?[^\\]\]|\\(?=.))/g,REPLACEMENTS:{__proto__:null,"***":"*","**/**":"**","**/**/**":"**"},CHAR_0:48,CHAR_9:57,CHAR_UPPERCASE_A:65,CHAR_LOWERCASE_A:97,CHAR_UPPERCASE_Z:90,CHAR_LOWERCASE_Z:122,CHAR_LEFT_PARENTHESES:40,CHAR_RIGHT_PARENTHESES:41,CHAR_ASTERISK:42,CHAR_AMPERSAND:38,CHAR_AT:64,CHAR_BACKWARD_SLASH:92,CHAR_CARRIAGE_RETURN:13,CHAR_CIRCUMFLEX_ACCENT:94,CHAR_COLON:58,CHAR_COMMA:44,CHAR_DOT:46,CHAR_DOUBLE_QUOTE:34,CHAR_EQUAL:61,CHAR_EXCLAMATION_MARK:33,CHAR_FORM_FEED:12,CHAR_FORWARD_SLASH:47,CHAR_GRAVE_ACCENT:96,CHAR_HASH:35,CHAR_HYPHEN_MINUS:45,CHAR_LEFT_ANGLE_BRACKET:60,CHAR_LEFT_CURLY_BRACE:123,CHAR_LEFT_SQUARE_BRACKET:91,CHAR_LINE_FEED:10,CHAR_NO_BREAK_SPACE:160,CHAR_PERCENT:37,CHAR_PLUS:43,CHAR_QUESTION_MARK:63,CHAR_RIGHT_ANGLE_BRACKET:62,CHAR_RIGHT_CURLY_BRACE:125,CHAR_RIGHT_SQUARE_BRACKET:93,CHAR_SEMICOLON:59,CHAR_SINGLE_QUOTE:39,CHAR_SPACE:32,CHAR_TAB:9,CHAR_UNDERSCORE:95,CHAR_VERTICAL_LINE:124,CHAR_ZERO_WIDTH_NOBREAK_SPACE:65279,extglobChars(t){return{"!":{type:"negate",open:"(?:(?!(?:",close:`))${t.STAR})`},"?":{type:"qmark",open:"(?:",close:")?"},"+":{type:"plus",open:"(?:",close:")+"},"*":{type:"star",open:"(?:",close:")*"},"@":{type:"at",open:"(?:",close:")"}}},globChars(t){return t===!0?_a:Qr}}});var nt=We(se=>{"use strict";var{REGEX_BACKSLASH:Ea,REGEX_REMOVE_BACKSLASH:Aa,REGEX_SPECIAL_CHARS:Ta,REGEX_SPECIAL_CHARS_GLOBAL:Ra}=tt();se.isObject=t=>t!==null&&typeof t=="object"&&!Array.isArray(t);se.hasRegexChars=t=>Ta.test(t);se.isRegexChar=t=>t.length===1&&se.hasRegexChars(t);se.escapeRegex=t=>t.replace(Ra,"\\$1");se.toPosixSlashes=t=>t.replace(Ea,"/");se.isWindows=()=>{if(typeof navigator<"u"&&navigator.platform){let t=navigator.platform.toLowerCase();return t==="win32"||t==="windows"}return typeof process<"u"&&process.platform?process.platform==="win32":!1};se.removeBackslashes=t=>t.replace(Aa,e=>e==="\\"?"":e);se.escapeLast=(t,e,n)=>{let r=t.lastIndexOf(e,n);return r===-1?t:t[r-1]==="\\"?se.escapeLast(t,e,r-1):`${t.slice(0,r)}\\${t.slice(r)}`};se.removePrefix=(t,e={})=>{let n=t;return n.startsWith("./")&&(n=n.slice(2),e.prefix="./"),n};se.wrapOutput=(t,e={},n={})=>{let r=n.contains?"":"^",o=n.contains?"":"$",s=`${r}(?:${t})${o}`;return e.negated===!0&&(s=`(?:^(?!${s}).*$)`),s};se.basename=(t,{windows:e}={})=>{let n=t.split(e?/[\\/]/:"/"),r=n[n.length-1];return r===""?n[n.length-2]:r}});var io=We((ip,so)=>{"use strict";var Zr=nt(),{CHAR_ASTERISK:xn,CHAR_AT:Oa,CHAR_BACKWARD_SLASH:Ke,CHAR_COMMA:Pa,CHAR_DOT:vn,CHAR_EXCLAMATION_MARK:_n,CHAR_FORWARD_SLASH:oo,CHAR_LEFT_CURLY_BRACE:Sn,CHAR_LEFT_PARENTHESES:Ot,CHAR_LEFT_SQUARE_BRACKET:Ca,CHAR_PLUS:La,CHAR_QUESTION_MARK:eo,CHAR_RIGHT_CURLY_BRACE:Ia,CHAR_RIGHT_PARENTHESES:to,CHAR_RIGHT_SQUARE_BRACKET:Da}=tt(),no=a(t=>t===oo||t===Ke,"isPathSeparator"),ro=a(t=>{t.isPrefix!==!0&&(t.depth=t.isGlobstar?1/0:1)},"depth"),Na=a((t,e)=>{let n=e||{},r=t.length-1,o=n.parts===!0||n.tokens===!0||n.scanToEnd===!0,s=[],i=[],c=[],l=t,d=-1,u=0,g=0,m=!1,b=!1,$=!1,h=!1,f=!1,p=!1,w=!1,x=!1,E=!1,v=!1,S=0,R,P,I={value:"",depth:0,isGlob:!1},k=a(()=>d>=r,"eos"),H=a(()=>l.charCodeAt(d+1),"peek"),M=a(()=>(R=P,l.charCodeAt(++d)),"advance");for(;d<r;){P=M();let C;if(P===Ke){w=I.backslashes=!0,P=M(),P===Sn&&(p=!0);continue}if(p===!0||P===Sn){for(S++;k()!==!0&&(P=M());){if(P===Ke){w=I.backslashes=!0,M();continue}if(P===Sn){S++;continue}if(p!==!0&&P===vn&&(P=M())===vn){if(m=I.isBrace=!0,$=I.isGlob=!0,v=!0,o===!0)continue;break}if(p!==!0&&P===Pa){if(m=I.isBrace=!0,$=I.isGlob=!0,v=!0,o===!0)continue;break}if(P===Ia&&(S--,S===0)){p=!1,m=I.isBrace=!0,v=!0;break}}if(o===!0)continue;break}if(P===oo){if(s.push(d),i.push(I),I={value:"",depth:0,isGlob:!1},v===!0)continue;if(R===vn&&d===u+1){u+=2;continue}g=d+1;continue}if(n.noext!==!0&&(P===La||P===Oa||P===xn||P===eo||P===_n)===!0&&H()===Ot){if($=I.isGlob=!0,h=I.isExtglob=!0,v=!0,P===_n&&d===u&&(E=!0),o===!0){let j=0;for(;k()!==!0&&(P=M());){if(P===Ke){w=I.backslashes=!0,M();continue}if(P===Ot){j++;continue}if(P===to&&--j===0){v=!0;break}}continue}break}if(P===xn){if(R===xn&&(f=I.isGlobstar=!0),$=I.isGlob=!0,v=!0,o===!0)continue;break}if(P===eo){if($=I.isGlob=!0,v=!0,o===!0)continue;break}if(P===Ca){for(;k()!==!0&&(C=M());){if(C===Ke){w=I.backslashes=!0,M();continue}if(C===Da){b=I.isBracket=!0,$=I.isGlob=!0,v=!0;break}}if(o===!0)continue;break}if(n.nonegate!==!0&&P===_n&&d===u){x=I.negated=!0,u++;continue}if(n.noparen!==!0&&P===Ot){if($=I.isGlob=!0,o===!0){let X=1;for(;k()!==!0&&(P=M());){if(P===Ke){w=I.backslashes=!0,M();continue}if(P===Ot){X++;continue}if(P===to&&--X===0){v=!0;break}}continue}break}if($===!0){if(v=!0,o===!0)continue;break}}n.noext===!0&&(h=!1,$=!1);let W=l,y="",_="";u>0&&(y=l.slice(0,u),l=l.slice(u),g-=u),W&&$===!0&&g>0?(W=l.slice(0,g),_=l.slice(g)):$===!0?(W="",_=l):W=l,W&&W!==""&&W!=="/"&&W!==l&&no(W.charCodeAt(W.length-1))&&(W=W.slice(0,-1)),n.unescape===!0&&(_&&(_=Zr.removeBackslashes(_)),W&&w===!0&&(W=Zr.removeBackslashes(W)));let Q={prefix:y,input:t,start:u,base:W,glob:_,isBrace:m,isBracket:b,isGlob:$,isExtglob:h,isGlobstar:f,negated:x,negatedExtglob:E};if(n.tokens===!0&&(Q.maxDepth=0,no(P)||i.push(I),Q.tokens=i),n.parts===!0||n.tokens===!0){let C;for(let z=0;z<s.length;z++){let ae=C!==void 0?C+1:u,Ne=s[z],ee=t.slice(ae,Ne);n.tokens&&(z===0&&u!==0?(i[z].isPrefix=!0,i[z].value=y):i[z].value=ee,ro(i[z]),Q.maxDepth+=i[z].depth),Ne>=u&&(c.push(ee),C=Ne)}let X=C!==void 0?C+1:u,j=t.slice(X);c.push(j),n.tokens&&C&&C+1<t.length&&(i[i.length-1].value=j,ro(i[i.length-1]),Q.maxDepth+=i[i.length-1].depth),Q.slashes=s,Q.parts=c}return Q},"scan");so.exports=Na});var uo=We((cp,lo)=>{"use strict";var rt=tt(),ie=nt(),{MAX_LENGTH:Pt,POSIX_REGEX_SOURCE:Ma,REGEX_NON_SPECIAL_CHARS:Ba,REGEX_SPECIAL_CHARS_BACKREF:Ga,REPLACEMENTS:ao}=rt,Fa=a((t,e)=>{if(typeof e.expandRange=="function")return e.expandRange(...t,e);t.sort();let n=`[${t.join("-")}]`;try{new RegExp(n)}catch{return t.map(o=>ie.escapeRegex(o)).join("..")}return n},"expandRange"),Xe=a((t,e)=>`Missing ${t}: "${e}" - use "\\\\${e}" to match literal characters`,"syntaxError"),co=a(t=>{let e=[],n=0,r=0,o=0,s="",i=!1;for(let c of t){if(i===!0){s+=c,i=!1;continue}if(c==="\\"){s+=c,i=!0;continue}if(c==='"'){o=o===1?0:1,s+=c;continue}if(o===0){if(c==="[")n++;else if(c==="]"&&n>0)n--;else if(n===0){if(c==="(")r++;else if(c===")"&&r>0)r--;else if(c==="|"&&r===0){e.push(s),s="";continue}}}s+=c}return e.push(s),e},"splitTopLevel"),Ha=a(t=>{let e=!1;for(let n of t){if(e===!0){e=!1;continue}if(n==="\\"){e=!0;continue}if(/[?*+@!()[\]{}]/.test(n))return!1}return!0},"isPlainBranch"),An=a(t=>{let e=t.trim(),n=!0;for(;n===!0;)n=!1,/^@\([^\\()[\]{}|]+\)$/.test(e)&&(e=e.slice(2,-1),n=!0);if(Ha(e))return e.replace(/\\(.)/g,"$1")},"normalizeSimpleBranch"),Ua=a(t=>{let e=t.map(An).filter(Boolean);for(let n=0;n<e.length;n++)for(let r=n+1;r<e.length;r++){let o=e[n],s=e[r],i=o[0];if(!(!i||o!==i.repeat(o.length)||s!==i.repeat(s.length))&&(o===s||o.startsWith(s)||s.startsWith(o)))return!0}return!1},"hasRepeatedCharPrefixOverlap"),En=a((t,e=!0)=>{if(t[0]!=="+"&&t[0]!=="*"||t[1]!=="(")return;let n=0,r=0,o=0,s=!1;for(let i=1;i<t.length;i++){let c=t[i];if(s===!0){s=!1;continue}if(c==="\\"){s=!0;continue}if(c==='"'){o=o===1?0:1;continue}if(o!==1){if(c==="["){n++;continue}if(c==="]"&&n>0){n--;continue}if(!(n>0)){if(c==="("){r++;continue}if(c===")"&&(r--,r===0))return e===!0&&i!==t.length-1?void 0:{type:t[0],body:t.slice(2,i),end:i}}}}},"parseRepeatedExtglob"),Wa=a(t=>`${t.length===1?ie.escapeRegex(t[0]):`[${t.map(n=>ie.escapeRegex(n)).join("")}]`}*`,"buildCharClassStar"),ja=a(t=>{let e=0,n=[];for(;e<t.length;){let r=En(t.slice(e),!1);if(!r||r.type!=="*")return;let o=co(r.body).map(i=>i.trim());if(o.length!==1)return;let s=An(o[0]);if(!s||s.length!==1)return;n.push(s),e+=r.end+1}if(!(n.length<1))return n},"getStarExtglobSequenceChars"),Ka=a(t=>{let e=0,n=t.trim(),r=En(n);for(;r;)e++,n=r.body.trim(),r=En(n);return e},"repeatedExtglobRecursion"),Xa=a((t,e)=>{if(e.maxExtglobRecursion===!1)return{risky:!1};let n=typeof e.maxExtglobRecursion=="number"?e.maxExtglobRecursion:rt.DEFAULT_MAX_EXTGLOB_RECURSION,r=co(t).map(c=>c.trim());if(r.length>1&&(r.some(c=>c==="")||r.some(c=>/^[*?]+$/.test(c))||Ua(r)))return{risky:!0};let o=[],s=!1,i=!0;for(let c of r){let l=ja(c);if(l){s=!0,o.push(...l);continue}let d=An(c);if(d&&d.length===1){o.push(d);continue}if(i=!1,Ka(c)>n)return{risky:!0}}return s?i?{risky:!0,safeOutput:Wa([...new Set(o)])}:{risky:!0}:{risky:!1}},"analyzeRepeatedExtglob"),Tn=a((t,e)=>{if(typeof t!="string")throw new TypeError("Expected a string");t=ao[t]||t;let n={...e},r=typeof n.maxLength=="number"?Math.min(Pt,n.maxLength):Pt,o=t.length;if(o>r)throw new SyntaxError(`Input length: ${o}, exceeds maximum allowed length: ${r}`);let s={type:"bos",value:"",output:n.prepend||""},i=[s],c=n.capture?"":"?:",l=rt.globChars(n.windows),d=rt.extglobChars(l),{DOT_LITERAL:u,PLUS_LITERAL:g,SLASH_LITERAL:m,ONE_CHAR:b,DOTS_SLASH:$,NO_DOT:h,NO_DOT_SLASH:f,NO_DOTS_SLASH:p,QMARK:w,QMARK_NO_DOT:x,STAR:E,START_ANCHOR:v}=l,S=a(T=>`(${c}(?:(?!${v}${T.dot?$:u}).)*?)`,"globstar"),R=n.dot?"":h,P=n.dot?w:x,I=n.bash===!0?S(n):E;n.capture&&(I=`(${I})`),typeof n.noext=="boolean"&&(n.noextglob=n.noext);let k={input:t,index:-1,start:0,dot:n.dot===!0,consumed:"",output:"",prefix:"",backtrack:!1,negated:!1,brackets:0,braces:0,parens:0,quotes:0,globstar:!1,tokens:i};t=ie.removePrefix(t,k),o=t.length;let H=[],M=[],W=[],y=s,_,Q=a(()=>k.index===o-1,"eos"),C=k.peek=(T=1)=>t[k.index+T],X=k.advance=()=>t[++k.index]||"",j=a(()=>t.slice(k.index+1),"remaining"),z=a((T="",q=0)=>{k.consumed+=T,k.index+=q},"consume"),ae=a(T=>{k.output+=T.output!=null?T.output:T.value,z(T.value)},"append"),Ne=a(()=>{let T=1;for(;C()==="!"&&(C(2)!=="("||C(3)==="?");)X(),k.start++,T++;return T%2===0?!1:(k.negated=!0,k.start++,!0)},"negate"),ee=a(T=>{k[T]++,W.push(T)},"increment"),ce=a(T=>{k[T]--,W.pop()},"decrement"),B=a(T=>{if(y.type==="globstar"){let q=k.braces>0&&(T.type==="comma"||T.type==="brace"),A=T.extglob===!0||H.length&&(T.type==="pipe"||T.type==="paren");T.type!=="slash"&&T.type!=="paren"&&!q&&!A&&(k.output=k.output.slice(0,-y.output.length),y.type="star",y.value="*",y.output=I,k.output+=y.output)}if(H.length&&T.type!=="paren"&&(H[H.length-1].inner+=T.value),(T.value||T.output)&&ae(T),y&&y.type==="text"&&T.type==="text"){y.output=(y.output||y.value)+T.value,y.value+=T.value;return}T.prev=y,i.push(T),y=T},"push"),Ue=a((T,q)=>{let A={...d[q],conditions:1,inner:""};A.prev=y,A.parens=k.parens,A.output=k.output,A.startIndex=k.index,A.tokensIndex=i.length;let G=(n.capture?"(":"")+A.open;ee("parens"),B({type:T,value:q,output:k.output?"":b}),B({type:"paren",extglob:!0,value:X(),output:G}),H.push(A)},"extglobOpen"),Te=a(T=>{let q=t.slice(T.startIndex,k.index+1),A=t.slice(T.startIndex+2,k.index),G=Xa(A,n);if((T.type==="plus"||T.type==="star")&&G.risky){let U=G.safeOutput?(T.output?"":b)+(n.capture?`(${G.safeOutput})`:G.safeOutput):void 0,oe=i[T.tokensIndex];oe.type="text",oe.value=q,oe.output=U||ie.escapeRegex(q);for(let me=T.tokensIndex+1;me<i.length;me++)i[me].value="",i[me].output="",delete i[me].suffix;k.output=T.output+oe.output,k.backtrack=!0,B({type:"paren",extglob:!0,value:_,output:""}),ce("parens");return}let Y=T.close+(n.capture?")":""),O;if(T.type==="negate"){let U=I;if(T.inner&&T.inner.length>1&&T.inner.includes("/")&&(U=S(n)),(U!==I||Q()||/^\)+$/.test(j()))&&(Y=T.close=`)$))${U}`),T.inner.includes("*")&&(O=j())&&/^\.[^\\/.]+$/.test(O)){let oe=Tn(O,{...e,fastpaths:!1}).output;Y=T.close=`)${oe})${U})`}T.prev.type==="bos"&&(k.negatedExtglob=!0)}B({type:"paren",extglob:!0,value:_,output:Y}),ce("parens")},"extglobClose");if(n.fastpaths!==!1&&!/(^[*!]|[/()[\]{}"])/.test(t)){let T=!1,q=t.replace(Ga,(A,G,Y,O,U,oe)=>O==="\\"?(T=!0,A):O==="?"?G?G+O+(U?w.repeat(U.length):""):oe===0?P+(U?w.repeat(U.length):""):w.repeat(Y.length):O==="."?u.repeat(Y.length):O==="*"?G?G+O+(U?I:""):I:G?A:`\\${A}`);return T===!0&&(n.unescape===!0?q=q.replace(/\\/g,""):q=q.replace(/\\+/g,A=>A.length%2===0?"\\\\":A?"\\":"")),q===t&&n.contains===!0?(k.output=t,k):(k.output=ie.wrapOutput(q,k,e),k)}for(;!Q();){if(_=X(),_==="\0")continue;if(_==="\\"){let A=C();if(A==="/"&&n.bash!==!0||A==="."||A===";")continue;if(!A){_+="\\",B({type:"text",value:_});continue}let G=/^\\+/.exec(j()),Y=0;if(G&&G[0].length>2&&(Y=G[0].length,k.index+=Y,Y%2!==0&&(_+="\\")),n.unescape===!0?_=X():_+=X(),k.brackets===0){B({type:"text",value:_});continue}}if(k.brackets>0&&(_!=="]"||y.value==="["||y.value==="[^")){if(n.posix!==!1&&_===":"){let A=y.value.slice(1);if(A.includes("[")&&(y.posix=!0,A.includes(":"))){let G=y.value.lastIndexOf("["),Y=y.value.slice(0,G),O=y.value.slice(G+2),U=Ma[O];if(U){y.value=Y+U,k.backtrack=!0,X(),!s.output&&i.indexOf(y)===1&&(s.output=b);continue}}}(_==="["&&C()!==":"||_==="-"&&C()==="]")&&(_=`\\${_}`),_==="]"&&(y.value==="["||y.value==="[^")&&(_=`\\${_}`),n.posix===!0&&_==="!"&&y.value==="["&&(_="^"),y.value+=_,ae({value:_});continue}if(k.quotes===1&&_!=='"'){_=ie.escapeRegex(_),y.value+=_,ae({value:_});continue}if(_==='"'){k.quotes=k.quotes===1?0:1,n.keepQuotes===!0&&B({type:"text",value:_});continue}if(_==="("){ee("parens"),B({type:"paren",value:_});continue}if(_===")"){if(k.parens===0&&n.strictBrackets===!0)throw new SyntaxError(Xe("opening","("));let A=H[H.length-1];if(A&&k.parens===A.parens+1){Te(H.pop());continue}B({type:"paren",value:_,output:k.parens?")":"\\)"}),ce("parens");continue}if(_==="["){if(n.nobracket===!0||!j().includes("]")){if(n.nobracket!==!0&&n.strictBrackets===!0)throw new SyntaxError(Xe("closing","]"));_=`\\${_}`}else ee("brackets");B({type:"bracket",value:_});continue}if(_==="]"){if(n.nobracket===!0||y&&y.type==="bracket"&&y.value.length===1){B({type:"text",value:_,output:`\\${_}`});continue}if(k.brackets===0){if(n.strictBrackets===!0)throw new SyntaxError(Xe("opening","["));B({type:"text",value:_,output:`\\${_}`});continue}ce("brackets");let A=y.value.slice(1);if(y.posix!==!0&&A[0]==="^"&&!A.includes("/")&&(_=`/${_}`),y.value+=_,ae({value:_}),n.literalBrackets===!1||ie.hasRegexChars(A))continue;let G=ie.escapeRegex(y.value);if(k.output=k.output.slice(0,-y.value.length),n.literalBrackets===!0){k.output+=G,y.value=G;continue}y.value=`(${c}${G}|${y.value})`,k.output+=y.value;continue}if(_==="{"&&n.nobrace!==!0){ee("braces");let A={type:"brace",value:_,output:"(",outputIndex:k.output.length,tokensIndex:k.tokens.length};M.push(A),B(A);continue}if(_==="}"){let A=M[M.length-1];if(n.nobrace===!0||!A){B({type:"text",value:_,output:_});continue}let G=")";if(A.dots===!0){let Y=i.slice(),O=[];for(let U=Y.length-1;U>=0&&(i.pop(),Y[U].type!=="brace");U--)Y[U].type!=="dots"&&O.unshift(Y[U].value);G=Fa(O,n),k.backtrack=!0}if(A.comma!==!0&&A.dots!==!0){let Y=k.output.slice(0,A.outputIndex),O=k.tokens.slice(A.tokensIndex);A.value=A.output="\\{",_=G="\\}",k.output=Y;for(let U of O)k.output+=U.output||U.value}B({type:"brace",value:_,output:G}),ce("braces"),M.pop();continue}if(_==="|"){H.length>0&&H[H.length-1].conditions++,B({type:"text",value:_});continue}if(_===","){let A=_,G=M[M.length-1];G&&W[W.length-1]==="braces"&&(G.comma=!0,A="|"),B({type:"comma",value:_,output:A});continue}if(_==="/"){if(y.type==="dot"&&k.index===k.start+1){k.start=k.index+1,k.consumed="",k.output="",i.pop(),y=s;continue}B({type:"slash",value:_,output:m});continue}if(_==="."){if(k.braces>0&&y.type==="dot"){y.value==="."&&(y.output=u);let A=M[M.length-1];y.type="dots",y.output+=_,y.value+=_,A.dots=!0;continue}if(k.braces+k.parens===0&&y.type!=="bos"&&y.type!=="slash"){B({type:"text",value:_,output:u});continue}B({type:"dot",value:_,output:u});continue}if(_==="?"){if(!(y&&y.value==="(")&&n.noextglob!==!0&&C()==="("&&C(2)!=="?"){Ue("qmark",_);continue}if(y&&y.type==="paren"){let G=C(),Y=_;(y.value==="("&&!/[!=<:]/.test(G)||G==="<"&&!/<([!=]|\w+>)/.test(j()))&&(Y=`\\${_}`),B({type:"text",value:_,output:Y});continue}if(n.dot!==!0&&(y.type==="slash"||y.type==="bos")){B({type:"qmark",value:_,output:x});continue}B({type:"qmark",value:_,output:w});continue}if(_==="!"){if(n.noextglob!==!0&&C()==="("&&(C(2)!=="?"||!/[!=<:]/.test(C(3)))){Ue("negate",_);continue}if(n.nonegate!==!0&&k.index===0){Ne();continue}}if(_==="+"){if(n.noextglob!==!0&&C()==="("&&C(2)!=="?"){Ue("plus",_);continue}if(y&&y.value==="("||n.regex===!1){B({type:"plus",value:_,output:g});continue}if(y&&(y.type==="bracket"||y.type==="paren"||y.type==="brace")||k.parens>0){B({type:"plus",value:_});continue}B({type:"plus",value:g});continue}if(_==="@"){if(n.noextglob!==!0&&C()==="("&&C(2)!=="?"){B({type:"at",extglob:!0,value:_,output:""});continue}B({type:"text",value:_});continue}if(_!=="*"){(_==="$"||_==="^")&&(_=`\\${_}`);let A=Ba.exec(j());A&&(_+=A[0],k.index+=A[0].length),B({type:"text",value:_});continue}if(y&&(y.type==="globstar"||y.star===!0)){y.type="star",y.star=!0,y.value+=_,y.output=I,k.backtrack=!0,k.globstar=!0,z(_);continue}let T=j();if(n.noextglob!==!0&&/^\([^?]/.test(T)){Ue("star",_);continue}if(y.type==="star"){if(n.noglobstar===!0){z(_);continue}let A=y.prev,G=A.prev,Y=A.type==="slash"||A.type==="bos",O=G&&(G.type==="star"||G.type==="globstar");if(n.bash===!0&&(!Y||T[0]&&T[0]!=="/")){B({type:"star",value:_,output:""});continue}let U=k.braces>0&&(A.type==="comma"||A.type==="brace"),oe=H.length&&(A.type==="pipe"||A.type==="paren");if(!Y&&A.type!=="paren"&&!U&&!oe){B({type:"star",value:_,output:""});continue}for(;T.slice(0,3)==="/**";){let he=t[k.index+4];if(he&&he!=="/")break;T=T.slice(3),z("/**",3)}let me=Q()||k.parens>0&&T===")".repeat(k.parens)&&!H.some(he=>he.type==="negate");if(A.type==="bos"&&Q()){y.type="globstar",y.value+=_,y.output=S(n),k.output=y.output,k.globstar=!0,z(_);continue}if(A.type==="slash"&&A.prev.type!=="bos"&&!O&&me){k.output=k.output.slice(0,-(A.output+y.output).length),A.output=`(?:${A.output}`,y.type="globstar",y.output=S(n)+(n.strictSlashes?")":"|$)"),y.value+=_,k.globstar=!0,k.output+=A.output+y.output,z(_);continue}if(A.type==="slash"&&A.prev.type!=="bos"&&T[0]==="/"){let he=T[1]!==void 0?"|$":"";k.output=k.output.slice(0,-(A.output+y.output).length),A.output=`(?:${A.output}`,y.type="globstar",y.output=`${S(n)}${m}|${m}${he})`,y.value+=_,k.output+=A.output+y.output,k.globstar=!0,z(_+X()),B({type:"slash",value:"/",output:""});continue}if(A.type==="bos"&&T[0]==="/"){y.type="globstar",y.value+=_,y.output=`(?:^|${m}|${S(n)}${m})`,k.output=y.output,k.globstar=!0,z(_+X()),B({type:"slash",value:"/",output:""});continue}k.output=k.output.slice(0,-y.output.length),y.type="globstar",y.output=S(n),y.value+=_,k.output+=y.output,k.globstar=!0,z(_);continue}let q={type:"star",value:_,output:I};if(n.bash===!0){q.output=".*?",(y.type==="bos"||y.type==="slash")&&(q.output=R+q.output),B(q);continue}if(y&&(y.type==="bracket"||y.type==="paren")&&n.regex===!0){q.output=_,B(q);continue}(k.index===k.start||y.type==="slash"||y.type==="dot")&&(y.type==="dot"?(k.output+=f,y.output+=f):n.dot===!0?(k.output+=p,y.output+=p):(k.output+=R,y.output+=R),C()!=="*"&&(k.output+=b,y.output+=b)),B(q)}for(;k.brackets>0;){if(n.strictBrackets===!0)throw new SyntaxError(Xe("closing","]"));k.output=ie.escapeLast(k.output,"["),ce("brackets")}for(;k.parens>0;){if(n.strictBrackets===!0)throw new SyntaxError(Xe("closing",")"));k.output=ie.escapeLast(k.output,"("),ce("parens")}for(;k.braces>0;){if(n.strictBrackets===!0)throw new SyntaxError(Xe("closing","}"));k.output=ie.escapeLast(k.output,"{"),ce("braces")}if(n.strictSlashes!==!0&&(y.type==="star"||y.type==="bracket")&&B({type:"maybe_slash",value:"",output:`${m}?`}),k.backtrack===!0){k.output="";for(let T of k.tokens)k.output+=T.output!=null?T.output:T.value,T.suffix&&(k.output+=T.suffix)}return k},"parse");Tn.fastpaths=(t,e)=>{let n={...e},r=typeof n.maxLength=="number"?Math.min(Pt,n.maxLength):Pt,o=t.length;if(o>r)throw new SyntaxError(`Input length: ${o}, exceeds maximum allowed length: ${r}`);t=ao[t]||t;let{DOT_LITERAL:s,SLASH_LITERAL:i,ONE_CHAR:c,DOTS_SLASH:l,NO_DOT:d,NO_DOTS:u,NO_DOTS_SLASH:g,STAR:m,START_ANCHOR:b}=rt.globChars(n.windows),$=n.dot?u:d,h=n.dot?g:d,f=n.capture?"":"?:",p={negated:!1,prefix:""},w=n.bash===!0?".*?":m;n.capture&&(w=`(${w})`);let x=a(R=>R.noglobstar===!0?w:`(${f}(?:(?!${b}${R.dot?l:s}).)*?)`,"globstar"),E=a(R=>{switch(R){case"*":return`${$}${c}${w}`;case".*":return`${s}${c}${w}`;case"*.*":return`${$}${w}${s}${c}${w}`;case"*/*":return`${$}${w}${i}${c}${h}${w}`;case"**":return $+x(n);case"**/*":return`(?:${$}${x(n)}${i})?${h}${c}${w}`;case"**/*.*":return`(?:${$}${x(n)}${i})?${h}${w}${s}${c}${w}`;case"**/.*":return`(?:${$}${x(n)}${i})?${s}${c}${w}`;default:{let P=/^(.*?)\.(\w+)$/.exec(R);if(!P)return;let I=E(P[1]);return I?I+s+P[2]:void 0}}},"create"),v=ie.removePrefix(t,p),S=E(v);return S&&n.strictSlashes!==!0&&(S+=`${i}?`),S};lo.exports=Tn});var mo=We((dp,po)=>{"use strict";var Ya=io(),Rn=uo(),fo=nt(),qa=tt(),za=a(t=>t&&typeof t=="object"&&!Array.isArray(t),"isObject"),J=a((t,e,n=!1)=>{if(Array.isArray(t)){let u=t.map(m=>J(m,e,n));return a(m=>{for(let b of u){let $=b(m);if($)return $}return!1},"arrayMatcher")}let r=za(t)&&t.tokens&&t.input;if(t===""||typeof t!="string"&&!r)throw new TypeError("Expected pattern to be a non-empty string");let o=e||{},s=o.windows,i=r?J.compileRe(t,e):J.makeRe(t,e,!1,!0),c=i.state;delete i.state;let l=a(()=>!1,"isIgnored");if(o.ignore){let u={...e,ignore:null,onMatch:null,onResult:null};l=J(o.ignore,u,n)}let d=a((u,g=!1)=>{let{isMatch:m,match:b,output:$}=J.test(u,i,e,{glob:t,posix:s}),h={glob:t,state:c,regex:i,posix:s,input:u,output:$,match:b,isMatch:m};return typeof o.onResult=="function"&&o.onResult(h),m===!1?(h.isMatch=!1,g?h:!1):l(u)?(typeof o.onIgnore=="function"&&o.onIgnore(h),h.isMatch=!1,g?h:!1):(typeof o.onMatch=="function"&&o.onMatch(h),g?h:!0)},"matcher");return n&&(d.state=c),d},"picomatch");J.test=(t,e,n,{glob:r,posix:o}={})=>{if(typeof t!="string")throw new TypeError("Expected input to be a string");if(t==="")return{isMatch:!1,output:""};let s=n||{},i=s.format||(o?fo.toPosixSlashes:null),c=t===r,l=c&&i?i(t):t;return c===!1&&(l=i?i(t):t,c=l===r),(c===!1||s.capture===!0)&&(s.matchBase===!0||s.basename===!0?c=J.matchBase(t,e,n,o):c=e.exec(l)),{isMatch:!!c,match:c,output:l}};J.matchBase=(t,e,n,r=n&&n.windows)=>(e instanceof RegExp?e:J.makeRe(e,n)).test(fo.basename(t,{windows:r}));J.isMatch=(t,e,n)=>J(e,n)(t);J.parse=(t,e)=>Array.isArray(t)?t.map(n=>J.parse(n,e)):Rn(t,{...e,fastpaths:!1});J.scan=(t,e)=>Ya(t,e);J.compileRe=(t,e,n=!1,r=!1)=>{if(n===!0)return t.output;let o=e||{},s=o.contains?"":"^",i=o.contains?"":"$",c=`${s}(?:${t.output})${i}`;t&&t.negated===!0&&(c=`^(?!${c}).*$`);let l=J.toRegex(c,e);return r===!0&&(l.state=t),l};J.makeRe=(t,e={},n=!1,r=!1)=>{if(!t||typeof t!="string")throw new TypeError("Expected a non-empty string");let o={negated:!1,fastpaths:!0};return e.fastpaths!==!1&&(t[0]==="."||t[0]==="*")&&(o.output=Rn.fastpaths(t,e)),o.output||(o=Rn(t,e)),J.compileRe(o,e,n,r)};J.toRegex=(t,e)=>{try{let n=e||{};return new RegExp(t,n.flags||(n.nocase?"i":""))}catch(n){if(e&&e.debug===!0)throw n;return/$^/}};J.constants=qa;po.exports=J});var ot=We((fp,go)=>{"use strict";var ho=mo(),Va=nt();function $o(t,e,n=!1){return e&&(e.windows===null||e.windows===void 0)&&(e={...e,windows:Va.isWindows()}),ho(t,e,n)}a($o,"picomatch");Object.assign($o,ho);go.exports=$o});function Tt(t,e=40){let n=t.normalize("NFKD").replace(/[\u0300-\u036f]/g,"").toLowerCase().replace(/[^a-z0-9]+/g,"-").replace(/^-+|-+$/g,"");if(n.length<=e)return n;if(n[e]==="-")return n.slice(0,e);let r=n.slice(0,e),o=r.lastIndexOf("-");return(o>e/2?r.slice(0,o):r).replace(/-+$/,"")}a(Tt,"slugify");function wn(t){return t.replace(/[\u0000-\u0020\u007f~^:?*[\\]+/g,"-").replace(/\.{2,}/g,".").replace(/@\{/g,"-").split("/").map(e=>e.replace(/^\.+/,"").replace(/\.lock$/i,"-lock")).filter((e,n,r)=>e!==""||n===r.length-1).join("/").replace(/^[/-]+/,"")}a(wn,"cleanPrefix");function ma(t,e,n,r){let o=wn(e);switch(t.kind){case"issue":return`${o}issue-${t.number}${Yr(t.title)}`;case"pr":case"review-comment":case"review":return`${o}pr-${t.number}${Yr(t.title)}`;case"workflow-run":return`${o}fix-run-${t.workflowRun?.id??n}`;case"prompt":return`${o}task-${n}${r?`-${Tt(r)||"job"}`:""}`}}a(ma,"branchNameFor");function Yr(t){let e=Tt(t??"");return e?`-${e}`:""}a(Yr,"suffix");function ha(t,e,n="patchloop/"){let r=a(s=>String(s).padStart(2,"0"),"p"),o=`${r(e.getUTCMonth()+1)}${r(e.getUTCDate())}-${r(e.getUTCHours())}${r(e.getUTCMinutes())}${r(e.getUTCSeconds())}`;return`${wn(n)}${Tt(t)||"task"}-${o}`}a(ha,"defaultBranchName");function Rt(t,e){if(!e(t))return t;for(let n=2;;n++){let r=`${t}-${n}`;if(!e(r))return r}}a(Rt,"uniqueName");var wo=xt(ot(),1);import{lstat as On}from"node:fs/promises";import{join as Pn}from"node:path";var bo=10*1024*1024;function Qa(t){let e=t.filter(n=>n.trim()!=="").map(n=>({glob:n,test:(0,wo.default)(n.trim().replace(/^\.\//,""),{dot:!0})}));return n=>e.find(r=>r.test(n))?.glob}a(Qa,"protectedMatcher");function Ja(t){return t.split("/").some(e=>e.toLowerCase()===".git")}a(Ja,"hasGitComponent");function Cn(t){return t.includes("/")?t.slice(0,t.lastIndexOf("/")):""}a(Cn,"dirOf");function Za(t){let e=new Map,n=a(r=>{if(r==="")return Promise.resolve(void 0);let o=e.get(r);return o||(o=n(Cn(r)).then(async s=>{if(s!==void 0)return s;let i=await On(Pn(t,r)).catch(()=>{});if(i)return i.isDirectory()?(i.mode&1)===0?{dir:r,kind:"private"}:void 0:{dir:r,kind:"replaced"}}),e.set(r,o)),o},"find");return n}a(Za,"folderBlocker");async function ko(t,e,n){let r=Qa(n.protectedPaths??[]),o=n.maxFileBytes??bo,s=new Set(n.baselineUntracked??[]),i=[],c=[],l=n.gitDirs??[],d=new Map,u=a(m=>{if(m===""||l.length===0)return Promise.resolve(!1);let b=d.get(m);if(!b){let $=m.includes("/")?m.slice(0,m.lastIndexOf("/")):"";b=On(Pn(t,m),{bigint:!0}).then(h=>l.some(f=>f.dev===h.dev&&f.ino===h.ino)||u($),()=>u($)),d.set(m,b)}return b},"inGitDir"),g=Za(t);for(let m of e){if(m.kind==="!")continue;let b=m.from!==void 0?[m.path,m.from]:[m.path];for(let $ of b){let h=a((E,v,S)=>c.push({path:$,reason:E,...v!==void 0?{detail:v}:{},...S!==void 0?{privateFolder:S}:{}}),"out"),f=$.replace(/\/$/,"");if(Ja(f)||await u(Cn(f))){h("inside .git");continue}if($.endsWith("/")){h("embedded repository");continue}if(m.gitlink){h("submodule");continue}let p=r($);if(p!==void 0){h("protected path",p);continue}if(m.kind==="?"&&s.has($)){h("untracked before the run");continue}let w=await g(Cn($));if(w?.kind==="replaced")continue;let x;try{x=await On(Pn(t,$))}catch{i.push($);continue}w!==void 0?h("not readable by commands",void 0,w.dir):x.isSymbolicLink()?i.push($):x.isFile()?x.size>o?h("too large",String(x.size)):x.nlink>1?h("a hard link",String(x.nlink)):(x.mode&4)===0?h("not readable by commands",(x.mode&511).toString(8).padStart(4,"0")):i.push($):h("not a regular file")}}return{stage:[...new Set(i)],leftOut:c}}a(ko,"choosePaths");function yo(t){let e=t.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,s=>`\\u${s.charCodeAt(0).toString(16).padStart(4,"0")}`),n=Math.max(0,...(e.match(/`+/g)??[]).map(s=>s.length)),r="`".repeat(n+1),o=e.startsWith("`")||e.endsWith("`")?" ":"";return`${r}${o}${e}${o}${r}`}a(yo,"codeName");function ec(t,e=20){let n=t.filter(i=>i.reason!=="untracked before the run");if(n.length===0)return;let r=a(i=>i.reason==="too large"?`larger than the limit: ${(Number(i.detail)/1024/1024).toFixed(1)} MiB`:i.reason==="protected path"?`protected by ${i.detail}`:i.reason==="a hard link"?`a hard link: ${i.detail} names`:i.reason==="not readable by commands"?i.privateFolder!==void 0?`not readable by commands: the folder ${yo(i.privateFolder)} is private`:`not readable by commands: mode ${i.detail}`:i.reason,"why"),o=n.slice(0,e).map(i=>`${yo(i.path)} (${r(i)})`),s=n.length>e?`, and ${n.length-e} more`:"";return`Not committed: ${o.join(", ")}${s}.`}a(ec,"describeLeftOut");import{lstat as is,rm as Qc}from"node:fs/promises";import{tmpdir as Jc}from"node:os";import{join as as,resolve as Zc}from"node:path";import{lstat as Ct,readdir as bc,readFile as Io,rename as kc,rm as xc,writeFile as vc}from"node:fs/promises";import{dirname as Do,isAbsolute as No,join as ye,relative as Ro,resolve as Lt,sep as Mo}from"node:path";import{spawn as tc}from"node:child_process";import{accessSync as nc,constants as rc,mkdtempSync as oc,realpathSync as sc,rmSync as ic,statSync as ac}from"node:fs";import{tmpdir as cc}from"node:os";import{delimiter as Eo,dirname as xo,isAbsolute as Nn,join as Ao,relative as lc,sep as dc}from"node:path";var To=["core.hooksPath=/dev/null","core.fsmonitor=false","core.untrackedCache=false","core.trustctime=false","core.attributesFile=/dev/null","core.quotePath=false","core.pager=cat","submodule.recurse=false","status.submoduleSummary=false","diff.ignoreSubmodules=all","credential.helper=","commit.gpgSign=false","tag.gpgSign=false","protocol.ext.allow=never","gc.auto=0","maintenance.auto=false","color.ui=false","advice.detachedHead=false"],Be=class extends Error{constructor(n,r,o){super(n);this.code=r;this.stderr=o;this.name="GitError"}code;stderr;static{a(this,"GitError")}},vo=12e4,uc=64*1024*1024,fc=64*1024,pc=2e3,mc=["/usr/local/bin","/usr/bin","/bin","/usr/local/sbin","/usr/sbin","/sbin"];function _o(t,e){let n=lc(t,e);return n===""||!n.startsWith(`..${dc}`)&&n!==".."&&!Nn(n)}a(_o,"inside");function Ln(t){try{return sc(t)}catch{return}}a(Ln,"realOrUndefined");var So=new Map;function Re(t={}){let e=t.path??process.env.PATH??"",n=`${t.workspace??""}\0${e}`,r=So.get(n);if(r)return r;let o=t.workspace?Ln(t.workspace)??t.workspace:void 0,s=process.platform==="win32"?"git.exe":"git";for(let i of e.split(Eo)){if(!i||!Nn(i))continue;let c=Ln(i);if(!c||o&&_o(o,c))continue;let l=Ln(Ao(c,s));if(!(!l||o&&_o(o,l))){try{if(!ac(l).isFile())continue;nc(l,rc.X_OK)}catch{continue}return So.set(n,l),l}}throw new Error(`git was not found on PATH outside the workspace${o?` (${o})`:""}; install git or put it in a system folder`)}a(Re,"resolveGit");var In;function hc(){if(!In){let t=oc(Ao(cc(),"patchloop-home-"));process.once("exit",()=>ic(t,{recursive:!0,force:!0})),In=t}return In}a(hc,"emptyHome");var $c=/^(https?_proxy|HTTPS?_PROXY|no_proxy|NO_PROXY|all_proxy|ALL_PROXY|SSH_AUTH_SOCK|TZ)$/;function gc(t,e){let n=[xo(t),...mc.filter(o=>o!==xo(t))].join(Eo),r={};for(let[o,s]of Object.entries(process.env))s!==void 0&&$c.test(o)&&(r[o]=s);return Object.assign(r,{PATH:n,HOME:hc(),LC_ALL:"C",GIT_CONFIG_NOSYSTEM:"1",GIT_CONFIG_GLOBAL:"/dev/null",GIT_TERMINAL_PROMPT:"0",GIT_ASKPASS:"/bin/false",SSH_ASKPASS:"/bin/false",GIT_NO_REPLACE_OBJECTS:"1",GIT_NO_LAZY_FETCH:"1"}),e.readOnly&&(r.GIT_OPTIONAL_LOCKS="0"),e.userConfig&&(delete r.GIT_CONFIG_GLOBAL,process.env.HOME&&(r.HOME=process.env.HOME),process.env.XDG_CONFIG_HOME&&(r.XDG_CONFIG_HOME=process.env.XDG_CONFIG_HOME),process.env.GIT_CONFIG_GLOBAL&&(r.GIT_CONFIG_GLOBAL=process.env.GIT_CONFIG_GLOBAL)),{...r,...e.env}}a(gc,"gitEnvironment");var yc=1e3;function Dn(t,e){if(t!==void 0)try{process.kill(-t,e)}catch{}}a(Dn,"signalGroup");function wc(t){Dn(t,"SIGTERM");let e=setTimeout(()=>Dn(t,"SIGKILL"),yc);return e.unref(),()=>clearTimeout(e)}a(wc,"stopGroup");function Oe(t){if(!Nn(t))throw new Error(`git must be an absolute path, got ${t}`);function e(r,o){return new Promise(s=>{let i=To.flatMap(E=>["-c",E]),c=[],l=0,d=[],u=0,g=!1,m=!1,b=!1,$=a((E,v)=>{b||(b=!0,clearTimeout(w),o.signal?.removeEventListener("abort",p),s({code:E,stdout:Buffer.concat(c),stderr:v??Buffer.concat(d).toString("utf8").trim(),stopped:g,timedOut:m}))},"finish");if(o.signal?.aborted){g=!0,$(null,"git was not started: the call was cancelled");return}let h;try{h=tc(t,["--no-pager",...i,...r],{cwd:o.cwd,env:gc(t,o),stdio:[o.input===void 0?"ignore":"pipe","pipe","pipe"],detached:!0,shell:!1})}catch(E){$(null,E instanceof Error?E.message:String(E));return}let f;function p(){g||(g=!0,f=wc(h.pid))}a(p,"stop");let w=setTimeout(()=>{m=!0,p()},o.timeoutMs??vo);o.signal?.addEventListener("abort",p,{once:!0});let x=o.maxOutputBytes??uc;h.stdout.on("data",E=>{if(!g){if(o.onData){o.onData(E)===!1&&p();return}if(l+=E.length,l>x)return p();c.push(E)}}),h.stderr.on("data",E=>{u<fc&&d.push(E),u+=E.length}),o.input!==void 0&&h.stdin&&(h.stdin.on("error",()=>{}),h.stdin.end(o.input)),h.once("error",E=>$(null,E.message)),h.once("close",E=>{g&&(f?.(),Dn(h.pid,"SIGKILL")),$(E)}),h.once("exit",E=>{setTimeout(()=>{b||(h.stdout?.destroy(),h.stderr?.destroy(),$(E))},pc).unref()})})}a(e,"run");async function n(r,o){let s=await e(r,o);if(s.code===0&&!s.stopped)return s.stdout.toString("utf8");let i=`git ${r.find(l=>!l.startsWith("-"))??""}`,c=s.timedOut?`timed out after ${Me(o.timeoutMs??vo)}`:o.signal?.aborted?o.signal.reason?.name==="TimeoutError"?"was stopped at its deadline":"was cancelled":s.stopped?"was stopped (output too large)":`failed (exit ${s.code}): ${s.stderr.split(`
`).slice(-3).join(" ")}`;throw new Be(`${i} ${c}`,s.code,s.stderr)}return a(n,"text"),{binary:t,run:e,text:n}}a(Oe,"createGitRunner");function Se(t){let e=(typeof t=="string"?t:t.toString("utf8")).split("\0");return e[e.length-1]===""&&e.pop(),e}a(Se,"splitNul");var Bo=/git-credentials-[0-9a-f-]+\.config$/i,Go=/^http\.(.*\.)?extraheader$/i,_c="^http\\.(.*\\.)?extraheader$",Sc=/^core\.sshcommand$/i,Ec=/^includeif\..*\.path$|^include\.path$/i;function Mn(t,e,n){let r=e??Oe(Re({workspace:t}));return{raw:a((o,s)=>r.text(o,{cwd:t,timeoutMs:3e4,...n?{env:n}:{},...s!==void 0?{input:s}:{}}),"raw")}}a(Mn,"configGit");function Fo(t){let e=t.indexOf(`
`);return e===-1?{key:t,value:""}:{key:t.slice(0,e),value:t.slice(e+1)}}a(Fo,"parseEntry");async function Bn(t,e,n){let r;try{r=await t.raw(["config",...e,"--null","--get-regexp",n])}catch{return[]}return r.split("\0").filter(o=>o!=="").map(Fo)}a(Bn,"readConfig");function Ho(t){return`"${t.replace(/\\/g,"\\\\").replace(/"/g,'\\"').replace(/\n/g,"\\n").replace(/\t/g,"\\t")}"`}a(Ho,"quoted");async function Ac(t,e){let n=new Map(e.map(i=>[i,[]]));if(e.length===0)return n;let r=`[include]
${e.map(i=>`	path = ${Ho(i)}
`).join("")}`,s=(await t.raw(["config","--file","-","--includes","--show-origin","--null","--list"],r)).split("\0");for(let i=0;i+1<s.length;i+=2)n.get(s[i].replace(/^file:/,""))?.push(Fo(s[i+1]));return n}a(Ac,"readFiles");function st(t){return new Error(`${t} is a symbolic link or not a regular file; refusing to follow it (it may hold the checkout credential)`)}a(st,"refused");async function Uo(t){try{return await bc(t,{withFileTypes:!0})}catch(e){if(["ENOENT","ENOTDIR"].includes(e.code??""))return[];throw e}}a(Uo,"listDir");async function Oo(t,e){return(await Promise.all((await Uo(t)).map(r=>{if(r.isSymbolicLink())throw st(ye(t,r.name));return r.isDirectory()?Wo(ye(t,r.name),e):[]}))).flat()}a(Oo,"configsUnder");async function Wo(t,e){let n=new Map((await Uo(t)).map(o=>[o.name,o]));if(e==="module"&&!n.has("config"))return Oo(t,"module");let r=[];for(let o of e==="module"?["config","config.worktree"]:["config.worktree"]){let s=n.get(o);if(s){if(!s.isFile())throw st(ye(t,o));r.push(ye(t,o))}}for(let[o,s]of[["modules","module"],["worktrees","worktree"]]){let i=n.get(o);if(i?.isSymbolicLink())throw st(ye(t,o));i?.isDirectory()&&r.push(...await Oo(ye(t,o),s))}return r}a(Wo,"gitDirConfigs");async function Po(t,e,n){let r={entries:[],unsets:[],gone:[],keys:[],files:[]},o=t.filter(i=>Go.test(i.key));for(let i of new Set(o.map(c=>c.key)))r.unsets.push(["--unset-all",i]),r.keys.push(i);r.entries.push(...o);let s=t.filter(i=>Sc.test(i.key));s.length>0&&(r.unsets.push(["--unset-all","core.sshCommand"]),r.keys.push("core.sshCommand"),r.entries.push(...s.map(i=>({key:"core.sshCommand",value:i.value})))),r.gone.push(...o,...s);for(let i of t.filter(c=>Ec.test(c.key))){let c=No(i.value)?i.value:Lt(e,i.value),l=await n(c);if(l.length===0&&!Bo.test(c))continue;let{entries:d}=r;d.push(...l.filter(u=>!d.some(g=>g.key===u.key&&g.value===u.value))),r.unsets.push(["--fixed-value","--unset-all",i.key,i.value]),r.keys.push(i.key),r.gone.push(i),r.files.push(c)}return r}a(Po,"shareOf");async function Tc(t,e){let n=Lt(e,".git"),[r,o]=await Promise.all([Ct(n).catch(()=>{}),Ct(ye(n,"commondir")).catch(()=>{})]);return r?.isDirectory()&&!o?n:t.raw(["rev-parse","--path-format=absolute","--git-common-dir"]).then(s=>s.trim()||void 0).catch(()=>{})}a(Tc,"commonDirOf");function Rc(t,e){let n="",r=!1;return t.split(`
`).filter(o=>{let s=r;if(r=/(^|[^\\])(\\\\)*\\\r?$/.test(o),s||r)return!0;if(/^\s*\[/.test(o)){let c=/^\s*\[([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\]\s*$/.exec(o),l=c?.[2]?.replace(/\\(.)/g,"$1");return n=c?`${c[1].toLowerCase()}${l===void 0?"":`.${l}`}`:"",!0}let i=/^\s*([A-Za-z][A-Za-z0-9-]*)\s*=/.exec(o)?.[1];return!(n&&i&&e.has(`${n}.${i.toLowerCase()}`))}).join(`
`)}a(Rc,"withoutKeys");async function Oc(t,e,n){let r=new Set(n.gone.filter(i=>Go.test(i.key)).map(i=>i.key));if(r.size>0)try{let[i,c]=await Promise.all([Io(e,"utf8"),Ct(e)]),l=Rc(i,r);c.isFile()&&l!==i&&(await vc(`${e}.lock`,l,{flag:"wx",mode:c.mode&511}),await kc(`${e}.lock`,e))}catch{}let o=await jo(e,n.gone),s=n.unsets.filter(i=>o||i[0]!=="--unset-all"||!r.has(i[1]));await Gn(t,["--file",e],s)}a(Oc,"rewrite");async function Gn(t,e,n){for(let r of n)try{await t.raw(["config",...e,...r])}catch{}}a(Gn,"takeOut");async function jo(t,e){let n=await Io(t,"utf8").catch(()=>"");return Ko(e).some(r=>n.includes(r)||n.includes(Ho(r).slice(1,-1)))}a(jo,"stillHolds");async function Pc(t){for(let[e,n]of t)if(await jo(e,n))throw new Error(`${e} still holds the checkout credential after patchloop removed it; refusing to go on`)}a(Pc,"checkGone");function Ko(t){let e=new Set;for(let{key:n,value:r}of t){if(!/extraheader$/i.test(n))continue;e.add(r);let o=/basic\s+([A-Za-z0-9+/=]+)/i.exec(r)?.[1],s=/(?:bearer|token)\s+(\S+)/i.exec(r)?.[1];if(o){e.add(o);let i=Buffer.from(o,"base64").toString("utf8"),c=i.slice(i.indexOf(":")+1);c&&e.add(c)}s&&e.add(s)}return[...e].filter(n=>n.length>=4)}a(Ko,"secretsOf");function Co(t,e){if(!t)return!1;let n=Lt(t)+Mo;return Lt(e).startsWith(n)}a(Co,"within");async function Cc(t,e={}){let n=Mn(t,e.runner),r=["--local"],[o,s,i]=await Promise.all([Bn(n,r,"."),n.raw(["remote","get-url","--push","origin"]).then(f=>f.trim()||void 0).catch(()=>{}),Tc(n,t).then(async f=>{let p=f?await Wo(f,"common"):[];return{commonDir:f,configs:await Ac(n,p)}})]),{commonDir:c}=i,l=new Map,d=a(f=>(l.has(f)||l.set(f,Bn(n,["--file",f],_c)),l.get(f)),"included"),u=await Po(o,c??t,d),m=(await Promise.all([...i.configs].map(async([f,p])=>({file:f,share:await Po(p,Do(f),d)})))).filter(f=>f.share.unsets.length>0),b=u.keys.map(f=>`${f} in .git/config`),$=new Map;c&&u.gone.length>0&&$.set(ye(c,"config"),u.gone),await Promise.all([Gn(n,r,u.unsets),...m.map(f=>Oc(n,f.file,f.share))]);for(let{file:f,share:p}of m){let w=Co(t,f)?Ro(t,f):f;b.push(...p.keys.map(x=>`${x} in ${w}`)),$.set(f,p.gone)}for(let f of new Set([u,...m.map(p=>p.share)].flatMap(p=>p.files)))if(Bo.test(f)&&(Co(e.runnerTemp,f)||!e.runnerTemp))await xc(f,{force:!0}),b.push(f);else{let p=await d(f),w=[...new Set(p.map(x=>x.key))];await Gn(n,["--file",f],w.map(x=>["--unset-all",x])),b.push(...w.map(x=>`${x} in ${f}`)),p.length>0&&$.set(f,p)}let h={entries:u.entries,secrets:Ko([u,...m.map(f=>f.share)].flatMap(f=>f.entries)),removed:b,originUrl:s,...c&&m.length>0?{elsewhere:{commonDir:c,files:m.map(f=>({path:Ro(c,f.file),entries:f.share.entries}))}}:{}};try{await Pc($)}catch(f){throw await it(t,h,{runner:e.runner}).catch(()=>{}),f}return h}a(Cc,"takeCheckoutCredential");function Fn(t){let e={},n=t?.entries??[];return n.forEach((r,o)=>{e[`GIT_CONFIG_KEY_${o}`]=r.key,e[`GIT_CONFIG_VALUE_${o}`]=r.value}),e.GIT_CONFIG_COUNT=String(n.length),e}a(Fn,"credentialEnv");async function Lc(t,e){let n=e.split(Mo);if(No(e)||n.some(o=>o===""||o===".."))throw st(ye(t,e));let r=t;for(let[o,s]of n.entries()){r=ye(r,s);let i=await Ct(r);if(o===n.length-1?!i.isFile():!i.isDirectory())throw st(r)}return r}a(Lc,"plainFile");async function Lo(t,e,n){let r=await Bn(t,e,".");for(let o of n)r.some(s=>s.key.toLowerCase()===o.key.toLowerCase()&&s.value===o.value)||await t.raw(["config",...e,"--add",o.key,o.value])}a(Lo,"putBack");async function it(t,e,n={}){let r=e.elsewhere;if(e.entries.length===0&&!r)return;let o=n.target,s=o?Mn(o.gitDir,n.runner,{GIT_DIR:o.gitDir}):Mn(t,n.runner);e.entries.length>0&&await Lo(s,o?["--file",o.configFile]:["--local"],e.entries);let i=o?Do(o.configFile):r?.commonDir;if(!r||!i)return;let c;for(let l of r.files)try{await Lo(s,["--file",await Lc(i,l.path)],l.entries)}catch(d){c??=d}if(c)throw c}a(it,"restoreCheckoutCredential");import{constants as Ic}from"node:fs";import{copyFile as Yo,link as qo,lstat as Nt,mkdir as we,mkdtemp as Dc,readdir as Wn,readFile as Nc,rename as zo,rm as Kn,utimes as Mc,writeFile as Ee}from"node:fs/promises";import{dirname as jn,isAbsolute as Bc,join as D,relative as Gc,resolve as Dt,sep as Fc}from"node:path";function Vo(t,e){let n=Gc(t,e);return n===""||n!==".."&&!n.startsWith(`..${Fc}`)&&!Bc(n)}a(Vo,"within");async function Qo(t){let e=await Nt(t,{bigint:!0});return{id:{dev:e.dev,ino:e.ino},stat:e}}a(Qo,"idOf");async function Hn(t,e){let{id:n,stat:r}=await Qo(t);if(r.isSymbolicLink()||!r.isDirectory())throw new Error(`${e} ${t} is not a plain directory (a symbolic link or a file); refusing to use it`);return n}a(Hn,"realDir");async function be(t){let e;try{e=await Nt(t)}catch{return}if(!e.isFile())throw new Error(`${t} is not a regular file; refusing to read it`);return Nc(t)}a(be,"readRegular");async function Jo(t,e){let n=Dt(t),r=Dt(n,e),o=D(n,".git"),s=a(m=>Vo(n,m)&&m!==o,"refused");if(s(r))throw new Error(`The git directory ${r} lies in the workspace outside .git; refusing to use it`);let i=await Hn(r,"The git directory"),c=r,l=await be(D(r,"commondir"));if(l!==void 0&&(c=Dt(r,l.toString("utf8").trim()),s(c)))throw new Error(`${r}/commondir points to ${c}, inside the workspace; refusing to use it`);let d=c===r?i:await Hn(c,"The common git directory"),u=D(c,"objects"),g=await Hn(u,"The object directory");return{workspace:n,gitDir:r,commonDir:c,objectsDir:u,ids:{gitDir:i,commonDir:d,objectsDir:g}}}a(Jo,"inspectGitDir");function Hc(t,e){return t.dev===e.dev&&t.ino===e.ino}a(Hc,"sameId");async function at(t){let e=[[t.gitDir,t.ids.gitDir],[t.commonDir,t.ids.commonDir],[t.objectsDir,t.ids.objectsDir]];for(let[n,r]of e){let o=await Qo(n).catch(()=>{});if(!o||o.stat.isSymbolicLink()||!Hc(o.id,r))throw new Error(`${n} was replaced during the run (it is not the directory patchloop recorded); refusing to touch it`)}}a(at,"verifyRealGitDir");function Un(t){if(/[\0]/.test(t))throw new Error("A git config value cannot hold a NUL character");return`"${t.replace(/\\/g,"\\\\").replace(/"/g,'\\"').replace(/\n/g,"\\n").replace(/\t/g,"\\t")}"`}a(Un,"quoteValue");var Uc=new Set(["filemode","symlinks","ignorecase","precomposeunicode"]);function Wc(t){let e=["[core]"],n=t.objectFormat&&t.objectFormat!=="sha1"?t.objectFormat:void 0;e.push(`	repositoryformatversion = ${n?1:0}`,"	bare = false","	logallrefupdates = false");for(let[r,o]of Object.entries(t.fileSystem??{}))Uc.has(r)&&/^(true|false)$/i.test(o)&&e.push(`	${r} = ${o.toLowerCase()}`);if(n){if(!/^[a-z0-9]+$/.test(n))throw new Error(`Unknown object format ${n}`);e.push("[extensions]",`	objectformat = ${n}`)}return t.originUrl&&(e.push('[remote "origin"]',`	url = ${Un(t.originUrl)}`),e.push("	fetch = +refs/heads/*:refs/remotes/origin/*")),e.push("[user]",`	name = ${Un(t.identity.name)}`,`	email = ${Un(t.identity.email)}`),`${e.join(`
`)}
`}a(Wc,"configText");var jc=/^[0-9a-f]{2}$/;async function*Zo(t){let e;try{e=await Wn(t,{withFileTypes:!0})}catch{return}for(let n of e)if(!(!n.isDirectory()||!(jc.test(n.name)||n.name==="pack")))for(let r of await Wn(D(t,n.name),{withFileTypes:!0}))!r.isFile()||r.name.startsWith("tmp_")||r.name.endsWith(".lock")||(yield`${n.name}/${r.name}`)}a(Zo,"objectFiles");async function Kc(t,e,n){let r=[];for await(let o of t)r.push(n(o)),r.length>=e&&(await Promise.all(r),r=[]);await Promise.all(r)}a(Kc,"inBatches");function Xc(t){return t&&typeof t=="object"&&"code"in t?String(t.code):void 0}a(Xc,"errCode");async function Yc(t){let e=await be(D(t.objectsDir,"info","alternates"));if(!e)return[];let n=[];for(let r of e.toString("utf8").split(`
`)){let o=r.trim();if(!o||o.startsWith("#"))continue;let s=Dt(t.objectsDir,o);if(Vo(t.workspace,s))throw new Error(`The checkout borrows objects from ${s}, inside the workspace; refusing to use it`);n.push(s)}return n}a(Yc,"realAlternates");async function es(t,e,n=""){let r;try{r=await Wn(D(t,n),{withFileTypes:!0})}catch{return}await we(D(e,n),{recursive:!0});for(let o of r){let s=n?`${n}/${o.name}`:o.name;o.isDirectory()?await es(t,e,s):o.isFile()&&!o.name.endsWith(".lock")&&await Yo(D(t,s),D(e,s))}}a(es,"copyRefs");async function ts(t,e,n){await we(e,{recursive:!0,mode:448});let r=await Dc(D(e,"patchloop-git-")),o=D(r,"git"),s=D(o,"objects");await we(D(s,"info"),{recursive:!0,mode:448}),await we(D(s,"pack"),{recursive:!0}),await we(D(o,"info"),{recursive:!0});let[i,c,l,d,u,g]=await Promise.all([be(D(t.gitDir,"HEAD")),be(D(t.gitDir,"index")),be(D(t.commonDir,"shallow")),be(D(t.commonDir,"info","exclude")),be(D(t.commonDir,"packed-refs")),be(D(t.commonDir,"config"))]),m=i?.toString("utf8")??"";if(!/^(ref: refs\/[^\0\n]+|[0-9a-f]{40,64})\n?$/.test(m))throw new Error(`${t.gitDir}/HEAD does not name a branch or a commit`);await Promise.all([Ee(D(o,"config"),Wc(n)),Ee(D(o,"HEAD"),m.endsWith(`
`)?m:`${m}
`),c&&rs(D(t.gitDir,"index"),D(o,"index"),c,Ee),l&&Ee(D(o,"shallow"),l),d&&Ee(D(o,"info","exclude"),d),u&&Ee(D(o,"packed-refs"),u),es(D(t.commonDir,"refs"),D(o,"refs"))]),await we(D(o,"refs","heads"),{recursive:!0}),await we(D(o,"refs","tags"),{recursive:!0});let b=new Set,$="linked",h=new Map;await Kc(Zo(t.objectsDir),64,async p=>{if($!=="linked")return;let w=p.slice(0,p.indexOf("/")),x=h.get(w);x||(x=we(D(s,w),{recursive:!0}),h.set(w,x)),await x;try{await qo(D(t.objectsDir,p),D(s,p)),b.add(p)}catch(E){let v=Xc(E);if(v==="EXDEV"||v==="EPERM"||v==="EMLINK"||v==="EACCES")$="alternates";else if(v!=="EEXIST"&&v!=="ENOENT")throw E}});let f=await Yc(t);return $==="alternates"&&f.unshift(t.objectsDir),f.length>0&&await Ee(D(s,"info","alternates"),`${f.join(`
`)}
`),{root:r,gitDir:o,real:t,linked:b,objects:$,configSnapshot:g?.toString("utf8")??""}}a(ts,"createPrivateGitDir");async function It(t,e){await we(jn(t),{recursive:!0});let n=`${t}.lock`;await Ee(n,e,{flag:"wx"});try{await zo(n,t)}catch(r){throw await Kn(n,{force:!0}),r}}a(It,"replaceFile");function Xo(t){if(!/^refs\/[A-Za-z0-9._\-/]+$/.test(t)||t.split("/").some(e=>e===""||e===".."||e==="."))throw new Error(`Refusing to write the ref ${JSON.stringify(t)}`)}a(Xo,"checkRefName");async function ns(t,e){let n=t.real;await at(n);let r=D(t.gitDir,"objects"),o=[];for await(let i of Zo(r))t.linked.has(i)||o.push(i);o.sort((i,c)=>Number(i.endsWith(".idx"))-Number(c.endsWith(".idx")));for(let i of o){let c=D(n.objectsDir,i);if(await Nt(c).then(()=>!0,()=>!1))continue;await we(jn(c),{recursive:!0});let d=D(jn(c),`tmp_patchloop_${process.pid}_${Math.random().toString(36).slice(2)}`);try{await qo(D(r,i),d)}catch{await Yo(D(r,i),d,Ic.COPYFILE_EXCL)}await zo(d,c)}for(let[i,c]of Object.entries(e.refs)){if(Xo(i),!/^[0-9a-f]{40,64}$/.test(c))throw new Error(`Refusing to write ${c} into ${i}`);await It(D(n.commonDir,i),`${c}
`)}/^[0-9a-f]{40,64}$/.test(e.head)?await It(D(n.gitDir,"HEAD"),`${e.head}
`):(Xo(e.head),await It(D(n.gitDir,"HEAD"),`ref: ${e.head}
`));let s=await be(D(t.gitDir,"index"));s&&await rs(D(t.gitDir,"index"),D(n.gitDir,"index"),s,It)}a(ns,"writeBack");async function rs(t,e,n,r){let{mtimeMs:o}=await Nt(t);await r(e,n);let s=Math.floor(o)/1e3;await Mc(e,s,s)}a(rs,"copyIndex");async function os(t){await at(t.real);let e=D(t.real.commonDir,"config");return(await be(e).catch(()=>{}))?.toString("utf8")===t.configSnapshot?!1:(await Kn(e,{force:!0}),await Ee(e,t.configSnapshot,{flag:"wx"}),!0)}a(os,"restoreRealConfig");async function ss(t){await Kn(t.root,{recursive:!0,force:!0})}a(ss,"removePrivateGitDir");function qc(t,e){let n=0;for(let r=0;r<e;r++)n=t.indexOf(" ",n)+1;return t.slice(n)}a(qc,"after");var zc="160000";function ct(t){let e={entries:[]},n=t.split("\0");for(let r=0;r<n.length;r++){let o=n[r];if(o==="")continue;if(o.startsWith("# branch.oid ")){let c=o.slice(13);c!=="(initial)"&&(e.head=c);continue}if(o.startsWith("# branch.head ")){let c=o.slice(14);c!=="(detached)"&&(e.branch=c);continue}let s=o[0],i=o.split(" ");if(s==="1"||s==="2"||s==="u"){let c=s==="u"?i.slice(3,7):i.slice(3,6),l={kind:s,xy:i[1],path:qc(o,s==="1"?8:s==="2"?9:10),gitlink:i[2].startsWith("S")||c.includes(zc)};s==="2"&&(l.from=n[++r]),e.entries.push(l)}else(s==="?"||s==="!")&&e.entries.push({kind:s,xy:`${s}${s}`,path:o.slice(2),gitlink:!1})}return e}a(ct,"parseStatus");function Mt(t){return t.entries.filter(e=>e.kind!=="!").map(e=>e.path)}a(Mt,"dirtyPaths");function Xn(t){let e=[];for(let n of t.split("\0")){let r=/^(-|\d+)\t(-|\d+)\t(.+)$/s.exec(n.replace(/^\n/,""));if(!r)continue;let o=r[1]==="-"||r[2]==="-",s={path:r[3],added:o?0:Number(r[1]),removed:o?0:Number(r[2])};o&&(s.binary=!0),e.push(s)}return e}a(Xn,"parseNumstat");var Vc=3e5;function le(t,e){let n=e?.runner,r=a(async l=>e?e.call(l):{cwd:t,...l},"base"),o;async function s(l,d,u={}){try{n??=Oe(Re({workspace:t}))}catch($){return{code:null,stderr:$ instanceof Error?$.message:String($),stopped:!1}}let g=!1,m=await r({readOnly:!0,env:{LC_ALL:"C.UTF-8"},timeoutMs:Vc,onData:a($=>d($)===!1?(g=!0,!1):!0,"onData"),...u.signal?{signal:u.signal}:{},...u.input!==void 0?{input:u.input}:{}}),b=await n.run(l,m);return{code:b.code,stderr:b.stderr,stopped:g||b.stopped&&!b.timedOut}}a(s,"stream");async function i(l,d={}){let u=[],g=await s(l,m=>(u.push(m),!0),d);return{code:g.code,stdout:Buffer.concat(u),stderr:g.stderr}}a(i,"run");function c(){return o??=i(["rev-parse","--is-inside-work-tree"]).then(l=>l.code===0&&l.stdout.toString().trim()==="true"),o}return a(c,"isWorkTree"),{root:t,isWorkTree:c,async isIgnored(l,d){return l===""||!await c()?!1:(await i(["check-ignore","-q","--",l],d?{signal:d}:{})).code===0},run:i,stream:a((l,d,u)=>s(l,d,u),"stream")}}a(le,"createToolGit");var Yn={name:"github-actions[bot]",email:"41898282+github-actions[bot]@users.noreply.github.com"},el=6e5,Bt=class extends Error{static{a(this,"MergeRecoveryError")}constructor(e){super(e),this.name="MergeRecoveryError"}},tl=["index.lock","HEAD.lock","ORIG_HEAD.lock","MERGE_HEAD.lock"],Gt=class{static{a(this,"GitRepo")}dir;runner;options;priv;isolating;identity;originUrl;drift;writing=0;constructor(e){this.options=e,this.dir=Zc(e.dir),this.runner=Oe(e.git??Re({workspace:this.dir})),this.identity=e.identity}get isolated(){return this.priv!==void 0}get privateGitDir(){return this.priv?.gitDir}env(e={}){return this.priv?{GIT_DIR:this.priv.gitDir,GIT_WORK_TREE:this.dir,...e}:e}async call(e={}){return this.priv?.objects==="alternates"&&await at(this.priv.real),{cwd:this.dir,timeoutMs:this.options.timeoutMs,...e,env:this.env(e.env)}}async git(e,n={}){return this.runner.text(e,await this.call(n))}async remote(e,n={}){return this.git(e,{env:Fn(this.options.credential),timeoutMs:n.timeoutMs??el,...n.signal??this.options.signal?{signal:n.signal??this.options.signal}:{}})}isolate(){return this.isolating??=this.makePrivate(),this.isolating}async makePrivate(){let e=this.options.identitySource==="user"&&!this.identity,[n,r,o]=await Promise.all([this.options.gitDir??this.git(["rev-parse","--absolute-git-dir"]),this.git(["config",...e?[]:["--local"],"--null","--show-scope","--list"],{userConfig:e}).catch(()=>""),this.options.credential?.originUrl!==void 0?this.git(["remote","get-url","--push","origin"]).then(g=>g.trim(),()=>""):Promise.resolve(void 0)]),s=await Jo(this.dir,n.trim()),i=new Map,c=new Map,l=Se(r);for(let g=0;g+1<l.length;g+=2){let m=l[g],b=l[g+1],$=b.indexOf(`
`),h=($===-1?b:b.slice(0,$)).toLowerCase(),f=$===-1?"":b.slice($+1);c.set(h,f),m==="local"&&i.set(h,f)}let d=i.get("extensions.refstorage");if(d&&d!=="files")throw new Error(`The checkout keeps its refs in ${d}, which patchloop does not support`);let u=this.options.credential?.originUrl;if(u!==void 0&&o!==u&&(this.drift=`origin's push URL changed during the run (now "${o}"); refusing to push`),this.originUrl=u??i.get("remote.origin.pushurl")??i.get("remote.origin.url"),!this.identity){let g=e?c:i,m=g.get("user.name"),b=g.get("user.email");this.identity=m&&b?{name:m,email:b}:this.options.fallbackIdentity??Yn}this.priv=await ts(s,this.options.privateParent??Jc(),{objectFormat:i.get("extensions.objectformat"),fileSystem:Object.fromEntries(["filemode","symlinks","ignorecase","precomposeunicode"].flatMap(g=>{let m=i.get(`core.${g}`);return m===void 0?[]:[[g,m]]})),originUrl:this.originUrl,identity:this.identity})}async removeStaleLocks(){return!this.priv||this.writing>0?[]:this.clearLocks()}async clearLocks(){if(!this.priv)return[];let e=[];for(let n of tl){let r=as(this.priv.gitDir,n);(await is(r).catch(()=>{}))?.isFile()&&(await Qc(r,{force:!0}),e.push(n))}return e}async writes(e){await this.isolate(),await this.removeStaleLocks(),this.writing++;try{return await e()}finally{this.writing--}}toolGit(){return le(this.dir,{runner:this.runner,call:a(e=>this.call(e),"call")})}async currentBranch(){try{return(await this.git(["symbolic-ref","--quiet","--short","HEAD"])).trim()||void 0}catch{return}}async headSha(){return(await this.git(["rev-parse","--verify","HEAD^{commit}"])).trim()}async resolveIdentity(){return await this.isolate(),this.identity}async untracked(){return Se(await this.git(["ls-files","--others","--exclude-standard","-z"],{readOnly:!0}))}async dirtyPaths(){return Mt(ct(await this.status()))}status(){return this.git(["status","--porcelain=v2","-z","--untracked-files=all","--ignore-submodules=all","--no-renames"],{readOnly:!0})}async localBranches(){let e=await this.git(["for-each-ref","--format=%(refname:short)","refs/heads"],{readOnly:!0});return new Set(e.split(`
`).filter(Boolean))}async branchExists(e){return this.runner.run(["show-ref","--verify","--quiet",`refs/heads/${e}`],await this.call({readOnly:!0})).then(n=>n.code===0)}async isValidBranchName(e){return rl(e)?!0:(await this.runner.run(["check-ref-format","--branch",e],await this.call())).code===0&&!e.startsWith("-")}async remoteBranches(e={}){let n=await this.remote(["ls-remote","--heads","origin"],e);return new Set(n.split(`
`).map(r=>r.split("	")[1]??"").filter(r=>r.startsWith("refs/heads/")).map(r=>r.slice(11)))}async freeBranchName(e,n={}){let[r,o]=await Promise.all([this.localBranches(),this.remoteBranches(n)]),s=new Set([...r,...o]);return Rt(e,i=>s.has(i))}async unusedBranchName(e){let n=await this.localBranches();return Rt(e,r=>n.has(r))}async startBranch(e,n){if(this.priv){let r=(await this.git(["rev-parse","--verify",`${n??"HEAD"}^{commit}`])).trim();await this.git(["update-ref",`refs/heads/${e}`,r,""]),await this.git(["symbolic-ref","HEAD",`refs/heads/${e}`]);return}await this.git(["checkout","-b",e,...n?[n]:[]])}async checkoutBranch(e){if(!await this.isValidBranchName(e))throw new Error(`Not a branch name: ${e}`);return await this.git(["checkout","--quiet",e,"--"]),this.headSha()}async checkoutRemoteBranch(e){return await this.fetchRemoteBranch(e),this.checkoutFetchedBranch(e)}async fetchRemoteBranch(e){await this.remote(["fetch","--no-tags","origin",`+refs/heads/${e}:refs/remotes/origin/${e}`])}async checkoutFetchedBranch(e){let n=`refs/remotes/origin/${e}`,[,r]=await Promise.all([this.git(["checkout","-B",e,n]),this.git(["rev-parse","--verify",`${n}^{commit}`])]);return r.trim()}async checkoutPullHead(e,n){return await this.remote(["fetch","--no-tags","origin",`+refs/pull/${e}/head:refs/remotes/origin/pr-${e}`]),await this.git(["checkout","-B",n,`refs/remotes/origin/pr-${e}`]),this.headSha()}async fetchCommit(e){if(!/^[0-9a-f]{40,64}$/.test(e))throw new Error(`Not a commit id: ${e}`);await this.remote(["fetch","--no-tags","--no-write-fetch-head","origin",e])}async mergeCommit(e,n){if(!/^[0-9a-f]{40,64}$/.test(e))throw new Error(`Not a commit id: ${e}`);return this.writes(()=>this.merge(e,n))}async merge(e,n){let r=await this.trackedStatus(),o=["merge","--no-ff","--no-edit","--no-verify","--no-gpg-sign","--no-log","--no-squash","--no-autostash","--no-rerere-autoupdate","--quiet","-m",n,e],s=await this.runner.run(o,await this.call({env:this.identityEnv()}));if(s.code===0&&!s.stopped)return{merged:!0,sha:await this.headSha()};let i=await this.git(["ls-files","--unmerged","-z"],{readOnly:!0}).catch(()=>""),c=[...new Set(Se(i).map(d=>d.slice(d.indexOf("	")+1)))];if(await this.abortMerge(r),c.length>0&&!s.stopped)return{merged:!1,conflicts:c};let l=s.timedOut?"timed out":s.stopped?"was stopped":`failed (exit ${s.code})`;throw new Be(`git merge ${l}: ${s.stderr.split(`
`).filter(Boolean).slice(0,4).join(" ").slice(0,500)}`.trim(),s.code,s.stderr)}trackedStatus(){return this.git(["status","--porcelain=v2","-z","--untracked-files=no","--ignore-submodules=all"],{readOnly:!0})}async abortMerge(e){await this.clearLocks();let n=await this.runner.run(["merge","--abort"],await this.call()),r=await this.trackedStatus().catch(()=>{}),o=await is(as(this.priv.gitDir,"MERGE_HEAD")).then(()=>!0,()=>!1);if(r===e&&!o)return;let s=n.code===0?"left the tree changed":`failed: ${n.stderr.split(`
`).filter(Boolean).slice(-2).join(" ").slice(0,300)}`;throw new Bt(`A merge in the workspace could not be undone (git merge --abort ${s}); the work tree may hold half-merged files, so the run stops here rather than work on them.`)}async remoteBranchSha(e){let n=await this.remote(["ls-remote","--heads","origin",`refs/heads/${e}`]);return/^([0-9a-f]{40,64})\s/.exec(n)?.[1]}async remoteHasBranch(e){return(await this.remote(["ls-remote","--heads","origin",`refs/heads/${e}`])).trim()!==""}async commitChanges(e,n={}){return this.writes(()=>this.commit(e,n))}async commit(e,n){let r={...n.signal?{signal:n.signal}:{},...n.timeoutMs?{timeoutMs:n.timeoutMs}:{}},o=ct(await this.git(["status","--porcelain=v2","-z","--untracked-files=all","--ignore-submodules=all","--no-renames"],r)),s=this.priv.real.ids,{stage:i,leftOut:c}=await ko(this.dir,o.entries,{gitDirs:[s.gitDir,s.commonDir],protectedPaths:this.options.protectedPaths,maxFileBytes:this.options.maxFileBytes,baselineUntracked:n.baselineUntracked});i.length>0&&await this.git(["--literal-pathspecs","add","--pathspec-from-file=-","--pathspec-file-nul"],{...r,input:`${i.join("\0")}\0`});let l=await this.git(["diff","--cached","--numstat","-z","--no-renames","--no-ext-diff","--no-textconv","--ignore-submodules=all","HEAD"],r),d=Xn(l);return d.length===0?{commit:null,leftOut:c}:(n.branch!==void 0&&await this.startBranch(n.branch),await this.git(["commit","--quiet","--no-verify","--no-gpg-sign","--file=-"],{...r,input:e,env:this.identityEnv()}),{commit:{sha:await this.headSha(),files:d,leftOut:c},leftOut:c})}identityEnv(){let e=this.identity??Yn;return{GIT_AUTHOR_NAME:e.name,GIT_AUTHOR_EMAIL:e.email,GIT_COMMITTER_NAME:e.name,GIT_COMMITTER_EMAIL:e.email}}async push(e,n={}){await this.isolate();let r=this.drift??await this.originDrift();if(r)return{ok:!1,error:r};let{signal:o}=n,s={ok:!1,error:"The push was cancelled."};if(o?.aborted)return s;let i=await this.tryPush(e,n);if(i.ok)return{ok:!0,branch:e,sha:await this.headSha(),rebased:!1};if(o?.aborted)return{ok:!1,error:i.error};if(!i.rejected)return{ok:!1,error:i.error};try{if(await this.remote(["fetch","--no-tags","origin",`+refs/heads/${e}:refs/remotes/origin/${e}`],n),await this.git(["rebase","--quiet","--no-autostash",`refs/remotes/origin/${e}`],{...n,env:this.identityEnv()}),(await this.tryPush(e,n)).ok)return{ok:!0,branch:e,sha:await this.headSha(),rebased:!0}}catch{await this.git(["rebase","--abort"]).catch(()=>{})}if(o?.aborted)return s;let c=await this.freeBranchName(e,n),l=await this.tryPush(c,n);return l.ok?{ok:!0,branch:c,sha:await this.headSha(),rebased:!1,movedFrom:e}:{ok:!1,error:l.error}}async originDrift(){let e=this.options.credential?.originUrl;if(!e||!this.priv)return;let n=`${this.priv.real.commonDir}/config`,r=a(s=>this.git(["config","--file",n,"--get",s]).then(i=>i.trim(),()=>""),"read"),o=await r("remote.origin.pushurl")||await r("remote.origin.url");return o===e?void 0:`origin's push URL changed during the run (now "${o}"); refusing to push`}async tryPush(e,n){try{return await this.remote(["push","--no-verify","origin",`HEAD:refs/heads/${e}`],n),{ok:!0}}catch(r){let o=r instanceof Be?`${r.message}
${r.stderr}`:String(r);return n.signal?.aborted||/timed out|deadline/.test(o.split(`
`)[0])?{ok:!1,rejected:!1,error:`The push was stopped: ${o.split(`
`)[0]}`}:{ok:!1,rejected:/\[rejected\]|non-fast-forward|fetch first|\[remote rejected\].*(cannot lock ref|stale info)/i.test(o),error:cs(o)}}}async writeBack(e){if(!this.priv)return;let n=(await this.git(["symbolic-ref","--quiet","HEAD"]).catch(()=>"")).trim(),r=await this.headSha(),o={};n&&(o[n]=r),e&&(o[`refs/remotes/origin/${e.branch}`]=e.sha),await ns(this.priv,{refs:o,head:n||r})}async restoreConfig(){return this.priv?os(this.priv):!1}async restoreCredential(e){if(!this.priv)return it(this.dir,e,{runner:this.runner});await at(this.priv.real),await it(this.dir,e,{runner:this.runner,target:{configFile:`${this.priv.real.commonDir}/config`,gitDir:this.priv.gitDir}})}async dispose(){this.priv&&await ss(this.priv)}};async function nl(t,e={}){let n=Oe(e.git??Re({workspace:t})),r={cwd:t,readOnly:!0,timeoutMs:3e4},[o,s]=await Promise.all([n.text(["rev-parse","--show-toplevel","--absolute-git-dir"],r).catch(()=>{}),n.text(["status","--porcelain=v2","--branch","-z","--ignore-submodules=all"],r).catch(()=>{})]);if(o===void 0||s===void 0)throw new Error(`${t} is not inside a git checkout (run \`git init\` and commit first)`);let[i="",c]=o.trim().split(`
`),l=ct(s);if(!l.head)throw new Error(`${i} has no commits yet; commit once so the changes can go on a branch`);return{repo:new Gt({...e,dir:i,git:n.binary,...c?{gitDir:c}:{}}),root:i,head:l.head,branch:l.branch,dirty:Mt(l)}}a(nl,"openCheckout");function cs(t){let e=t.split(`
`).map(r=>r.trim()).filter(Boolean),n=e.filter(r=>/error|rejected|denied|fatal|refusing/i.test(r)).slice(0,3).join(" ")||e.slice(-2).join(" ");return/refusing to allow .* to create or update workflow/i.test(t)?`The push was refused: it changes a workflow file and the token lacks the \`workflows\` permission (${n}).`:/permission to .* denied|returned error: 403|403 forbidden/i.test(t)?`The push was refused: the token cannot write to the repository; add \`contents: write\` to the job's \`permissions:\` (${n}).`:/could not read username|authentication failed|returned error: 401/i.test(t)?`The push was refused for lack of credentials: keep actions/checkout's persist-credentials on (${n}).`:`The push failed: ${n}`}a(cs,"explainPushError");function rl(t){return!/^[A-Za-z0-9._/-]+$/.test(t)||t.startsWith("-")||t==="HEAD"||t.endsWith(".")||t.includes("..")?!1:t.split("/").every(e=>e!==""&&!e.startsWith(".")&&!e.endsWith(".lock"))}a(rl,"isPlainBranchName");var qn=0;function ds(){return qn}a(ds,"workspaceChanges");function ol(t){let e=t.checkArguments?.bind(t);return e?n=>{let r=e(n);return r===void 0?{ok:!0}:{ok:!1,error:r}}:Ir(t)}a(ol,"validatorOf");var ls=class{static{a(this,"ToolRegistry")}entries=new Map;constructor(e){for(let n of e)this.entries.set(n.name,{tool:n,validate:ol(n)})}get tools(){return[...this.entries.values()].map(e=>e.tool)}get(e){return this.entries.get(e)?.tool}names(){return[...this.entries.keys()]}async execute(e,n,r){let o=this.entries.get(e.name);if(!o)return xe(e,`Unknown tool "${e.name}". Available tools: ${this.names().join(", ")||"(none)"}.`);let s;if(typeof e.input=="string"){let d=Lr(e.input);if(!d.ok)return xe(e,`Invalid arguments for ${e.name}: ${d.error}`);s=d.value}else{if(e.input===null||typeof e.input!="object"||Array.isArray(e.input))return xe(e,`Invalid arguments for ${e.name}: the arguments must be a JSON object.`);{let d=Cr(e.input);if(d)return xe(e,`Invalid arguments for ${e.name}: they contain an unpaired UTF-16 surrogate at ${d}, which is not valid text.`);s=e.input}}let i=o.validate(s),c=i instanceof Promise?await i:i;if(!c.ok)return xe(e,c.error);if(n.aborted)return xe(e,"Tool call not run: the run was aborted before the tool ran.");let l=o.tool.readOnly!==!0;l&&qn++;try{let d=await o.tool.execute(s,{signal:n,toolCallId:e.id,onUpdate:r}),u={role:"toolResult",toolCallId:e.id,toolName:e.name,content:d.content.length>0?d.content:[{type:"text",text:"(no output)"}],isError:d.isError===!0,timestamp:Date.now()};return d.details!==void 0&&(u.details=d.details),u}catch(d){if(n.aborted)return xe(e,"Tool call aborted: the run was cancelled while the tool was running.");let u=d instanceof Error?d.message:String(d),g=xe(e,d instanceof L?u:`${e.name} failed: ${u}`);return d instanceof L&&d.details!==void 0&&(g.details=d.details),g}finally{l&&qn++}}};var hs=xt(ot(),1);import{lstat as sl,readlink as il,realpath as us}from"node:fs/promises";import{existsSync as al,realpathSync as fs}from"node:fs";import{basename as cl,dirname as Qn,isAbsolute as zn,join as lt,relative as ll,resolve as Ye,sep as ps}from"node:path";var $s=[".github/workflows/**"],dl=40;function ul(t){return ps==="/"?t:t.split(ps).join("/")}a(ul,"toPosix");function ms(t){return t.split("/").some(e=>e.toLowerCase()===".git")}a(ms,"touchesGitDir");function fe(t){return JSON.stringify(t)}a(fe,"quote");function fl(t){return t&&typeof t=="object"&&"code"in t?String(t.code):void 0}a(fl,"errorCode");async function Ft(t,e=0){try{return{real:await us(t),exists:!0}}catch(r){let o=fl(r);if(o==="ELOOP")throw new L("The path goes through a loop of symbolic links.");if(o==="ENAMETOOLONG")throw new L("The path is too long for the file system.");if(o!=="ENOENT"&&o!=="ENOTDIR")throw r}let n=[];for(let r=t;;){let o=await sl(r).catch(()=>{});if(o?.isSymbolicLink()){if(e>=dl)throw new L("Too many levels of symbolic links.");let i=await il(r),c=(await Ft(Qn(r),e+1)).real,l=await Ft(Ye(c,i),e+1);return{real:lt(l.real,...n),exists:!1}}if(o)return{real:lt(await us(r),...n),exists:!1};let s=Qn(r);if(s===r)return{real:lt(r,...n),exists:!1};n.unshift(cl(r)),r=s}}a(Ft,"resolveReal");function Jn(t,e={}){if(!zn(t))throw new Error(`The workspace root must be an absolute path, got ${fe(t)}.`);let n=Ye(t),r=fs(n),o=lt(r,".git"),s=$n(r,{writable:!0,gitDir:e.gitDir??(al(o)?o:void 0),...e.group?{group:e.group}:{}}),i=(e.readOnlyDirs??[]).map(p=>({given:Ye(p),area:$n(p,{writable:!1,flat:!0})})),c=[s,...i.map(p=>p.area)],d=(e.protectedPaths??$s).filter(p=>p.trim()!=="").map(p=>({glob:p,test:(0,hs.default)(p.trim().replace(/^\.\//,""),{dot:!0})}));function u(p){return d.find(w=>w.test(p))?.glob}a(u,"protectedBy");function g(p,w){return N(w,p)?ul(ll(p,w)):void 0}a(g,"relativeTo");async function m(p,w){let x=Ye(p),E=i.find(I=>N(x,I.given)||N(x,I.area.root));if(!E)return;if(w==="write")throw new L(`Path ${fe(p)} is a saved command output outside the workspace: it can be read with read_file and searched with grep, not changed.`);let{real:v,exists:S}=await Ft(x),R=fs(E.area.root),P=g(R,v);if(P===void 0||P.includes("/")||P==="")throw new L(`Path ${fe(p)} is not a saved command output; only the files the notices name can be read there.`);return{rel:v,abs:x,real:v,realRel:P,exists:S,base:R,readOnly:!0}}a(m,"resolveOutput");async function b(p,w){let x=p??"";if(x.includes("\0"))throw new L(`Path ${fe(x)} contains a NUL byte; no file name can hold one.`);let E=`Path ${fe(x)} is outside the workspace. Use a path relative to the workspace root, such as "src/index.ts".`,v,S;if(zn(x)?(v=Ye(x),S=g(n,v)??g(r,v),S!==void 0&&(v=lt(n,S))):(v=Ye(n,x),S=g(n,v)),S===void 0){let k=zn(x)?await m(x,w):void 0;if(k)return k;throw new L(E)}if(ms(S))throw new L(`Path ${fe(x)} is inside .git/, which these tools neither read nor change.`);if(S===""&&w==="write")throw new L("The workspace root itself cannot be written; give a file path inside it.");let{real:R,exists:P}=await Ft(v),I=g(r,R);if(I===void 0)throw new L(`Path ${fe(x)} is, or goes through, a symbolic link that leads outside the workspace; it is refused.`);if(ms(I))throw new L(`Path ${fe(x)} leads (through a symbolic link) into .git/, which these tools do not touch.`);if(w==="write"){let k=u(S)??u(I);if(k!==void 0){let M=/^\.github\/workflows(\/|$)/.test(S)||/^\.github\/workflows(\/|$)/.test(I)?" GitHub rejects pushes that change workflow files unless the token has the `workflows` permission.":"";throw new L(`Path ${fe(x)} is protected (it matches the protected-paths pattern ${fe(k)}), so it cannot be written.${M}`)}}return{rel:S,abs:v,real:R,realRel:I,exists:P,base:r,readOnly:!1}}a(b,"resolvePath");async function $(p,w){try{return await _t(p.real,w==="read"?c:[s],w)}catch(x){throw Vn(x,p.rel||".")}}a($,"openChecked");async function h(p,w){try{return(await Br(p,c)).entries}catch(x){throw Vn(x,w)}}a(h,"readDirChecked");async function f(p){try{await Gr(Qn(p.real),s)}catch(w){throw Vn(w,p.rel)}}return a(f,"makeParents"),{root:r,resolve:b,protectedBy:u,open:$,readDir:h,makeParents:f,area:s}}a(Jn,"createWorkspace");function Vn(t,e){if(!(t instanceof Nr))return t;let n=fe(e);switch(t.reason){case"missing":return new L(`Path ${n} does not exist (it may have just been removed).`);case"directory":return new L(`Path ${n} is a directory; use list_dir to see its entries, and give a file path.`);case"not-directory":return new L(`Cannot use ${n}: a part of its folder path is a file, not a folder.`);case"not-regular":return new L(`Path ${n} is not a regular file (a pipe, device or socket); it is neither read nor written.`);case"symlink":return new L(`Path ${n} changed into a symbolic link while it was being opened; it is refused.`);case"git-dir":return new L(`Path ${n} lies in the repository's git directory (checked on the opened file, whatever the folder is called now); these tools neither read nor change it.`);case"read-only":return new L(`Path ${n} can only be read.`);case"private":return new L(`Path ${n} is readable by its owner only (${t.message}), as a credentials file is; these tools do not read it. If it is part of the work, it must be made readable by all first.`);case"private-folder":return new L(`Path ${n} lies in a folder that others may not enter (${t.message}): everything under such a folder is private, as a credentials file is, and these tools do not use it. If it is part of the work, the folder must be opened to all first.`);case"hard-link":return new L(`Path ${n} is not changed: ${t.message}, so writing it would change a file outside the workspace too (a package manager's store, say).`);default:return new L(`Path ${n} leads outside the workspace (checked on the opened file: ${t.message}); it is refused.`)}}a(Vn,"refusal");import{closeSync as pl,openSync as ml,readSync as hl}from"node:fs";function Ht(t){if(!t.includes("npm notice"))return t;let e=t.split(`
`),n=/^npm notice (New (major|minor|patch) version of npm available!|Changelog: |To update run: npm install -g npm@)/,r=e.map(()=>!0);for(let o=0;o<e.length;o++)if(n.test(e[o])){r[o]=!1;for(let s=o-1;s>=0&&e[s].trim()==="npm notice";s--)r[s]=!1;for(let s=o+1;s<e.length&&e[s].trim()==="npm notice";s++)r[s]=!1}return e.filter((o,s)=>r[s]).join(`
`)}a(Ht,"withoutNpmUpdateNotice");var $l=/^\s*(?:not ok\b|FAIL\b|[✗×✖]\s|\S*(?:AssertionError|Error:))/u,gl=14,yl=2048,wl=4*1024*1024;function bl(t,e){let n;try{n=ml(t,"r");let r=Buffer.alloc(e),o=hl(n,r,0,e,0);return r.subarray(0,o).toString("utf8")}catch{return}finally{n!==void 0&&pl(n)}}a(bl,"readStart");function kl(t,e){let n=t.complete?t.text:t.fullOutputPath?bl(t.fullOutputPath,wl):void 0;if(n===void 0)return;let r=et(Ht(n)),o=r.findIndex(i=>$l.test(i));if(o<0)return;let s=r.slice(o,o+1+gl).join(`
`);if(!(e.includes(r[o])&&e.includes(s)))return vt(s,yl)}a(kl,"firstFailure");function Ut(t,e,n=ve,r){let o=e.spawnError!==void 0||e.outputLimit!==void 0||e.timedOut||e.aborted||e.exitCode!==0,s=hn(Ht(e.text),n),i;if(o&&(s.truncated||!e.complete)&&(i=kl(e,s.text),i!==void 0)){let m=Math.max(0,n.maxBytes-Buffer.byteLength(i,"utf8")-160),b=Math.max(1,n.maxLines-et(i).length-2);s=hn(Ht(e.text),{maxLines:b,maxBytes:m})}let c=s.keptLines,l=s.truncated||!e.complete,d={command:t,exitCode:e.exitCode,signal:e.signal,durationMs:e.durationMs,timedOut:e.timedOut,aborted:e.aborted,truncated:l,totalLines:e.totalLines,totalBytes:e.totalBytes};e.fullOutputPath&&(d.fullOutputPath=e.fullOutputPath),e.droppedBytes!==void 0&&(d.droppedBytes=e.droppedBytes),e.outputLimit!==void 0&&(d.outputLimit=e.outputLimit);let u;e.spawnError?u=`The command could not be started: ${e.spawnError}`:e.outputLimit!==void 0?u=`Stopped after ${Me(e.durationMs)}: the command printed more than ${K(e.outputLimit)} of output, the most patchloop reads from one command, so it and all its processes were stopped. It did not finish; run something quieter (one test, or the output filtered with grep or tail).`:e.timedOut?u=`Timed out after ${Me(e.durationMs)}; the command and all its processes were stopped.`:e.aborted?u="Cancelled: the run was stopped, and the command with it.":e.exitCode!==null?u=`Exit code ${e.exitCode} (${Me(e.durationMs)}).`:u=`Ended by signal ${e.signal??"unknown"} (${Me(e.durationMs)}).`;let g=r?[r,u]:[u];if(e.totalBytes===0?g.push("(no output)"):(i!==void 0&&g.push(`[First failure, from earlier in the output:]
${i}
[End of the first failure; the output's last lines follow.]`),g.push(s.text)),l){let b=`[Output cut: showing ${s.partialLine?`the last ${K(s.keptBytes)} of the last line`:`the last ${c} lines`} of ${e.totalLines} lines (${K(e.totalBytes)} in all).`;e.fullOutputPath&&e.droppedBytes!==void 0?b+=` The output's beginning and end are saved to ${e.fullOutputPath} (${K(e.droppedBytes)} in between were dropped). Read it with read_file or search it with grep at that path.`:e.fullOutputPath?b+=` Full output saved to ${e.fullOutputPath}. Read it with read_file or search it with grep at that path.`:e.spillError&&(b+=` The full output could not be saved: ${e.spillError}.`),b+=" Narrow the command (e.g. run one test, or filter with grep) to see less at a time.]",g.push(b)}return e.limitNote&&g.push(`[${e.limitNote}]`),e.workspaceNote&&g.push(`[${e.workspaceNote}]`),{content:[{type:"text",text:g.join(`
`)}],details:d,isError:o||e.workspaceNote!==void 0}}a(Ut,"formatCommandResult");function Wt(t,e){if(!e)return t;let n=[...t.content],r=n.at(-1);return r?.type==="text"?n[n.length-1]={...r,text:`${r.text}
${e}`}:n.push({type:"text",text:e}),{...t,content:n}}a(Wt,"withNetworkNote");import{spawn as Tl}from"node:child_process";import{existsSync as Rl}from"node:fs";import{tmpdir as Ol}from"node:os";import{closeSync as gs,mkdirSync as xl,openSync as vl,writeSync as _l}from"node:fs";import{randomBytes as Sl}from"node:crypto";import{join as El}from"node:path";var dt={headBytes:8*1024**2,tailBytes:8*1024**2,stopBytes:1024**3};function Al(t){let e=0;for(let n=0;n<t.length;n++)t[n]===10&&e++;return e}a(Al,"countNewlines");var jt=class{constructor(e){this.options=e;this.headBytes=e.bounds?.headBytes??dt.headBytes,this.tailBytes=e.bounds?.tailBytes??dt.tailBytes}options;static{a(this,"OutputBuffer")}chunks=[];held=0;total=0;newlines=0;lastByte=-1;fd;path;spillError;dropped=!1;written=0;headBytes;tailBytes;get totalBytes(){return this.total}write(e){e.length!==0&&(this.total+=e.length,this.newlines+=Al(e),this.lastByte=e[e.length-1],this.chunks.push(e),this.held+=e.length,this.fd!==void 0?this.append(e):this.exceedsLimits()&&this.spill(),this.trim())}peek(e){return ys(this.lastBytes(e+4),e)}finish(){this.fd===void 0&&this.path===void 0&&this.exceedsLimits()&&this.spill();let e;if(this.fd!==void 0){let o=this.total-this.written,s=Math.min(o,this.tailBytes,this.held);s<o&&(e=o-s,this.writeFile(Buffer.from(`
[\u2026 ${K(e)} of output dropped here: patchloop keeps the first ${K(this.headBytes)} and the last ${K(this.tailBytes)} of a command's output \u2026]
`))),s>0&&this.writeFile(this.lastBytes(s)),this.fd!==void 0&&gs(this.fd),this.fd=void 0}let n=this.lastBytes(this.options.memoryBytes+4),r=this.newlines+(this.total>0&&this.lastByte!==10?1:0);return{text:ys(n,this.options.memoryBytes),complete:!this.dropped&&this.held<=this.options.memoryBytes,totalBytes:this.total,totalLines:r,fullOutputPath:this.path,...e!==void 0?{droppedBytes:e}:{},spillError:this.spillError}}lastBytes(e){let n=[],r=0;for(let s=this.chunks.length-1;s>=0&&r<e;s--)n.unshift(this.chunks[s]),r+=this.chunks[s].length;let o=Buffer.concat(n);return o.length>e?o.subarray(o.length-e):o}exceedsLimits(){let e=this.newlines+(this.total>0&&this.lastByte!==10?1:0);return this.total>this.options.limits.maxBytes||e>this.options.limits.maxLines}spill(){if(this.spillError===void 0)try{xl(this.options.spillDir,{recursive:!0});let e=`${this.options.name}-${Date.now()}-${Sl(4).toString("hex")}.log`;this.path=El(this.options.spillDir,e),this.fd=vl(this.path,"wx",this.options.fileMode??384);for(let n of this.chunks)this.append(n)}catch(e){this.failSpill(e)}}append(e){let n=this.headBytes-this.written;if(this.fd===void 0||n<=0)return;let r=e.length>n?e.subarray(0,n):e;this.writeFile(r),this.written+=r.length}writeFile(e){if(this.fd!==void 0)try{let n=0;for(;n<e.length;)n+=_l(this.fd,e,n,e.length-n)}catch(n){this.failSpill(n)}}failSpill(e){if(this.spillError=`${e instanceof Error?e.message:String(e)} (after ${K(this.total)})`,this.fd!==void 0)try{gs(this.fd)}catch{}this.fd=void 0}trim(){if(this.fd===void 0&&this.spillError===void 0)return;let e=this.fd===void 0?this.options.memoryBytes:Math.max(this.options.memoryBytes,this.tailBytes);for(;this.chunks.length>1&&this.held-this.chunks[0].length>=e;)this.held-=this.chunks.shift().length,this.dropped=!0;if(this.held>e*2&&this.chunks.length===1){let n=this.chunks[0];this.chunks[0]=Buffer.from(n.subarray(n.length-e)),this.held=e,this.dropped=!0}}};function ys(t,e){let n=Math.max(0,t.length-e);if(n>0){let r=Math.min(t.length,n+4);for(;n<r&&(t[n]&192)===128;)n++}return new TextDecoder("utf-8",{fatal:!1}).decode(t.subarray(n))}a(ys,"decodeTail");var Pl=1e3,Cl=256*1024,Ll=500,Il=Rl("/bin/bash")?"/bin/bash":"/bin/sh";async function Ge(t){let e=Date.now(),n=t.limits??ve,r={...dt,...t.outputBounds},o=new jt({memoryBytes:Math.max(t.memoryBytes??Cl,n.maxBytes),limits:n,spillDir:t.artifactsDir??Ol(),name:t.name??"command",fileMode:t.sandbox?.outputFileMode,bounds:r}),s={exitCode:null,signal:null,timedOut:!1,aborted:!1};if(t.signal?.aborted)return{...s,...o.finish(),aborted:!0,durationMs:0};let i=t.sandbox?.envOptions,c=gn(t.env??process.env,{...t.envOptions,pass:[...t.envOptions?.pass??[],...i?.pass??[]],privateDirs:[...t.envOptions?.privateDirs??[],...i?.privateDirs??[]]}),l={command:t.command,cwd:t.cwd,env:c,timeoutMs:t.timeoutMs},d=t.sandbox?.signal??jr,u=t.killGraceMs??Pl,g,m;try{let C=t.sandbox?t.sandbox.wrap(l):{file:Il,args:["-c",t.command],env:c,uid:void 0,gid:void 0};m=C.settle,g=Tl(C.file,C.args,{cwd:t.cwd,env:C.env,detached:!0,stdio:["ignore","pipe","pipe"],uid:C.uid,gid:C.gid,windowsHide:!0})}catch(C){let X=await m?.().catch(j=>String(j));return{...s,...o.finish(),spawnError:C instanceof Error?C.message:String(C),...X?{workspaceNote:X}:{},durationMs:Date.now()-e}}let b=g.pid,$=!1,h=!1,f=!1,p,w=a(()=>{b!==void 0&&!p&&(p=Kr(b,u,d))},"stop"),x=0,E,v=a(()=>{E=void 0,x=Date.now(),t.onProgress?.(o.peek(4096))},"progress"),S=a(C=>{if(o.write(C),!f&&o.totalBytes>r.stopBytes&&(f=!0,w()),t.onProgress&&!E){let X=Math.max(0,x+(t.progressMs??500)-Date.now());E=setTimeout(v,X)}},"onData");g.stdout.on("data",S),g.stderr.on("data",S);let R=Promise.all([new Promise(C=>g.stdout.once("close",()=>C())),new Promise(C=>g.stderr.once("close",()=>C()))]),P=new Promise(C=>{g.once("error",X=>C({code:null,signal:null,error:X.message})),g.once("exit",(X,j)=>C({code:X,signal:j}))}),I=t.timeoutMs!==void 0&&t.timeoutMs>0?setTimeout(()=>{$=!0,w()},t.timeoutMs):void 0,k=a(()=>{h=!0,w()},"onAbort");t.signal?.addEventListener("abort",k,{once:!0});let H=await P;I&&clearTimeout(I),t.signal?.removeEventListener("abort",k),b!==void 0&&Wr(b).length>0&&w(),p&&await p;let M;await Promise.race([R,new Promise(C=>M=setTimeout(C,Ll))]),M&&clearTimeout(M),g.stdout.destroy(),g.stderr.destroy(),E&&clearTimeout(E);let W=await m?.().catch(C=>`what the command wrote could not be put into the workspace: ${String(C)}`),y=o.finish(),_={exitCode:H.code,signal:H.signal,timedOut:$,aborted:h,outputTail:y.text.slice(-4096)},Q=f?void 0:t.sandbox?.limitNote?.(_,t.timeoutMs)??Dl(H.signal);return{...W?{workspaceNote:W}:{},...Q?{limitNote:Q}:{},exitCode:H.code,signal:H.signal,timedOut:$,aborted:h,...f?{outputLimit:r.stopBytes}:{},spawnError:H.error,durationMs:Date.now()-e,pid:b,...y}}a(Ge,"runCommand");function Dl(t){if(t==="SIGXCPU")return"The command was ended by SIGXCPU: a process of it used up its CPU-time limit (ulimit -t).";if(t==="SIGXFSZ")return"The command was ended by SIGXFSZ: it wrote past its file-size limit (ulimit -f)."}a(Dl,"signalNote");var ws=120,bs=1800,Nl={type:"object",properties:{command:{type:"string",minLength:1},timeout:{type:"number",exclusiveMinimum:0,maximum:bs}},required:["command"],additionalProperties:!1};function Zn(t,e={}){return{name:"bash",description:`Run \`bash -c command\` in the workspace root (no stdin; the environment holds only neutral variables and those the workflow passes on). Returns the exit code and the last 2000 lines / 50 KB of stdout+stderr. \`timeout\` in seconds (default ${ws}, max ${bs}) kills all it started.`,parameters:Nl,async execute(n,{signal:r,onUpdate:o}){let s=e.sandbox?.network,i=s?.mark(),c=await Ge({command:n.command,cwd:t.root,env:e.env,envOptions:e.envOptions,sandbox:e.sandbox,timeoutMs:(n.timeout??ws)*1e3,signal:r,limits:ve,artifactsDir:e.artifactsDir,name:"bash",onProgress:o?d=>o({content:[{type:"text",text:d}]}):void 0}),l=i===void 0?void 0:s?.note(i,c.text);return Wt(Ut(n.command,c),l)}}}a(Zn,"createBashTool");function ks(t){if(t==="")return[];let e=t.split(`
`).map(n=>n.endsWith("\r")?n.slice(0,-1):n);return e[e.length-1]===""&&e.pop(),e}a(ks,"toLines");function xs(t,e){return e===0?`${t},0`:e===1?`${t+1}`:`${t+1},${e}`}a(xs,"range");function Kt(t,e,n,r=3){let o=ks(e),s=ks(n),i=0;for(;i<o.length&&i<s.length&&o[i]===s[i];)i++;let c=0;for(;c<o.length-i&&c<s.length-i&&o[o.length-1-c]===s[s.length-1-c];)c++;let l=o.slice(i,o.length-c),d=s.slice(i,s.length-c);if(l.length===0&&d.length===0)return{diff:"",added:0,removed:0};let u=Math.max(0,i-r),g=o.slice(u,i),m=o.slice(o.length-c,Math.min(o.length,o.length-c+r)),b=g.length+l.length+m.length,$=g.length+d.length+m.length;return{diff:[`--- a/${t}`,`+++ b/${t}`,`@@ -${xs(u,b)} +${xs(u,$)} @@`,...g.map(f=>` ${f}`),...l.map(f=>`-${f}`),...d.map(f=>`+${f}`),...m.map(f=>` ${f}`)].join(`
`)+`
`,firstChangedLine:i+1,added:d.length,removed:l.length}}a(Kt,"unifiedDiff");var Ml={"\u2018":"'","\u2019":"'","\u201A":"'","\u201B":"'","\u2032":"'","\u201C":'"',"\u201D":'"',"\u201E":'"',"\u201F":'"',"\u2033":'"'},Bl=/[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]/g,Gl=/[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g,Fl=new RegExp("\\r\\n|[\\s\\S]\\p{M}*","gu");function Hl(t){return t.normalize("NFKC").replace(/[\u2018\u2019\u201a\u201b\u2032\u201c\u201d\u201e\u201f\u2033]/g,e=>Ml[e]).replace(Bl,"-").replace(Gl," ")}a(Hl,"tolerantForm");function vs(t,e){let n=[];for(let s of t.matchAll(Fl)){let i=s[0],c=s.index,l=c+i.length;i===`\r
`?n.push({text:`
`,from:c,to:l}):n.push({text:e?Hl(i):i,from:c,to:l})}if(e)for(let s=n.length-1,i=!0;s>=0;s--){let c=n[s].text;c===`
`?i=!0:i&&/^[ \t]+$/.test(c)?n[s].text="":i=!1}let r={text:"",from:[],to:[]},o=[];for(let s of n)if(s.text!==""){o.push(s.text);for(let i=0;i<s.text.length;i++)r.from.push(s.from),r.to.push(s.to)}return r.text=o.join(""),r}a(vs,"normalise");function Ss(t,e,n=()=>!0){let r=[];if(e==="")return r;for(let o=t.indexOf(e);o!==-1;o=t.indexOf(e,o+1))n(o)&&r.push(o);return r}a(Ss,"occurrences");function _s(t,e,n){let r=vs(t,n),o=vs(e,n).text,s=a(l=>{let d=l+o.length-1,u=l===0||r.from[l-1]!==r.from[l],g=d===r.text.length-1||r.from[d+1]!==r.from[d];return u&&g},"aligned"),i=Ss(r.text,o,s);if(i.length!==1)return{count:i.length};let c=i[0];return{count:1,start:r.from[c],end:r.to[c+o.length-1]}}a(_s,"locateNormalised");function Es(t,e){let n=Ss(t,e);if(n.length>0)return n.length===1?{mode:"exact",count:1,start:n[0],end:n[0]+e.length}:{mode:"exact",count:n.length};let r=_s(t,e,!1);return r.count>0?{mode:"line-endings",...r}:{mode:"tolerant",..._s(t,e,!0)}}a(Es,"locate");var Ul={type:"object",properties:{path:{type:"string"},oldText:{type:"string",minLength:1},newText:{type:"string"}},required:["path","oldText","newText"],additionalProperties:!1},As=20*1024*1024,Ts="\uFEFF";function Wl(t){let e=t.split(`
`).length-1,n=t.split(`\r
`).length-1;return n>0&&n>=e-n?`\r
`:`
`}a(Wl,"lineEnding");function jl(t,e){let n=1;for(let r=t.indexOf(`
`);r!==-1&&r<e;r=t.indexOf(`
`,r+1))n++;return n}a(jl,"lineOf");function Kl(t,e){let n=e.split(`
`).map(o=>o.trim()).find(o=>o.length>=3);if(!n)return"";let r=[];return t.split(`
`).forEach((o,s)=>{r.length<5&&o.includes(n)&&r.push(s+1)}),r.length>0?` Its first line appears at line ${r.join(", ")}; the lines after it differ.`:""}a(Kl,"hint");function er(t){return{name:"edit_file",description:"Replace the one occurrence of `oldText` in a file with `newText`. Copy `oldText` from read_file with enough lines to be unique; no match or several are errors. Trailing spaces, quote/dash style and Unicode form may differ; line endings and BOM are kept.",parameters:Ul,async execute(e){let n=await t.resolve(e.path,"write"),r=n.rel;if(!n.exists)throw new L(`File not found: ${r}. To create a file, use write_file.`);let{handle:o,stat:s}=await t.open(n,"update");try{return await Xl(o,s.size,r,e)}finally{await o.close()}}}}a(er,"createEditFileTool");async function Xl(t,e,n,r){if(e>As)throw new L(`${n} is ${K(e)}, more than edit_file handles (${K(As)}).`);let o=await _e(t,e);if(o.includes(0))throw new L(`${n} looks like a binary file (it contains NUL bytes); edit_file edits text.`);let s;try{s=new TextDecoder("utf-8",{fatal:!0}).decode(o)}catch{throw new L(`${n} is not valid UTF-8 text, so edit_file cannot change it without damaging it.`)}let i=o[0]===239&&o[1]===187&&o[2]===191,c=s,l=r.oldText.startsWith(Ts)?r.oldText.slice(1):r.oldText;if(l===r.newText)throw new L("oldText and newText are the same; nothing would change.");let d=Es(c,l);if(d.count===0)throw new L(`oldText was not found in ${n} (also tried ignoring line endings, trailing spaces, quote and dash styles and Unicode form). Read the file again and copy the text exactly.${Kl(c,l)}`);if(d.count>1)throw new L(`oldText occurs ${d.count} times in ${n}; it must match exactly one place. Include more surrounding lines in oldText to make it unique.`);let u=d.start,g=d.end,m=Wl(c),b=r.newText.replace(/\r\n/g,`
`);m===`\r
`&&(b=b.replace(/\n/g,`\r
`));let $=c.slice(0,u)+b+c.slice(g);await St(t,(i?Ts:"")+$);let{diff:h,firstChangedLine:f,added:p,removed:w}=Kt(n,c,$),x=jl(c,u),E=`Edited ${n} at line ${x}: ${w} line${w===1?"":"s"} removed, ${p} added.`;return d.mode==="tolerant"&&(E+=" (oldText matched after normalising whitespace, quotes, dashes or Unicode; only that region changed.)"),{content:[{type:"text",text:E}],details:{path:n,diff:h,firstChangedLine:f,matchedBy:d.mode}}}a(Xl,"edit");import{stat as td}from"node:fs/promises";import{join as Vl}from"node:path";var Rs=xt(ot(),1);import{join as Yl}from"node:path";function ql(t,e){let n=[];for(let r of t.split(/\r?\n/)){if(r===""||r.startsWith("#")||(r=r.replace(/(?<!\\)\s+$/,""),r===""))continue;let o=!1;r.startsWith("!")?(o=!0,r=r.slice(1)):(r.startsWith("\\!")||r.startsWith("\\#"))&&(r=r.slice(1));let s=!1;if(r.endsWith("/")&&(s=!0,r=r.slice(0,-1)),r==="")continue;let i=r.includes("/"),c=r.replace(/^\//,""),l=(0,Rs.default)(c,{dot:!0});n.push({base:e,negate:o,dirOnly:s,test:i?d=>l(d):(d,u)=>l(u)})}return n}a(ql,"parseGitignore");var zl=1024*1024,Fe=class t{constructor(e){this.rules=e}rules;static{a(this,"IgnoreRules")}static empty(){return new t([])}child(e,n){let r;try{r=Et(Yl(e,n,".gitignore"),zl,{within:e}).toString("utf8")}catch{return this}return new t([...this.rules,...ql(r,n)])}static forFolder(e,n){let r=t.empty().child(e,"");if(n==="")return r;let o=n.split("/");for(let s=1;s<=o.length;s++)r=r.child(e,o.slice(0,s).join("/"));return r}ignores(e,n){let r=e.slice(e.lastIndexOf("/")+1),o=!1;for(let s of this.rules){if(s.dirOnly&&!n||s.base!==""&&!e.startsWith(`${s.base}/`))continue;let i=s.base===""?e:e.slice(s.base.length+1);s.test(i,r)&&(o=!s.negate)}return o}};function qe(t,e){return t<e?-1:t>e?1:0}a(qe,"compareNames");function Xt(t,e,n){return Os(t,e,Fe.forFolder(t.root,e),n)}a(Xt,"walkFiles");async function*Os(t,e,n,r){if(r?.aborted)return;let o;try{o=await Mr(Vl(t.root,e),[t])}catch{return}try{let s=[...o.entries].sort((i,c)=>qe(i.name,c.name));for(let i of s){if(i.name.toLowerCase()===".git")continue;let c=e===""?i.name:`${e}/${i.name}`,l=i.isDirectory();n.ignores(c,l)||(l?yield*Os(t,c,n.child(t.root,c),r):yield{rel:c,type:i.isFile()?"file":i.isSymbolicLink()?"symlink":"other",open:a(()=>o.openFile(i.name),"open")})}}finally{await o.close()}}a(Os,"walkDir");var Yt=new WeakMap;async function Ql(t,e){if(!await t.isWorkTree())return;let[n,r]=await Promise.all([t.run(["ls-files","-z","--cached","--others","--exclude-standard"],{signal:e}),t.run(["ls-files","-z","--deleted"],{signal:e})]);if(n.code!==0||r.code!==0)return;let o=new Set(Se(r.stdout)),s=[...new Set(Se(n.stdout))].filter(c=>!o.has(c)).sort(qe),i=new Set;for(let c of s)for(let l=c.lastIndexOf("/");l>0;l=c.lastIndexOf("/",l-1)){let d=c.slice(0,l);if(i.has(d))break;i.add(d)}return{files:s,listed:new Set(s),folders:i,checked:new Map}}a(Ql,"takeSnapshot");function Ps(t,e){let n=ds(),r=Yt.get(t);if(r&&r.generation===n)return r.snapshot;let o=Ql(t,e).catch(()=>{}),s={generation:n,snapshot:o};return Yt.set(t,s),o.then(i=>{!i&&Yt.get(t)===s&&Yt.delete(t)}),o}a(Ps,"snapshotOf");async function tr(t,e,n){let r=await Ps(t,n);if(!r)return;let o=new Set,s=[];for(let{rel:i,isDir:c}of e)if(!c)r.listed.has(i)||o.add(i);else if(!r.folders.has(i)){let l=r.checked.get(i);l===void 0?s.push(i):l&&o.add(i)}if(s.length>0){let i=await t.run(["check-ignore","-z","--stdin"],{signal:n,input:s.map(l=>`${l}\0`).join("")});if(i.code!==0&&i.code!==1)return;let c=new Set(Se(i.stdout));for(let l of s)r.checked.set(l,c.has(l)),c.has(l)&&o.add(l)}return o}a(tr,"ignoredByGit");async function Cs(t,e,n,r){let o=await Ps(e,r);if(o&&!(n!==""&&(await tr(e,[{rel:n,isDir:!0}],r))?.has(n)!==!1)){let c=`${n}/`;return{files:[...n===""?o.files:o.files.filter(d=>d.startsWith(c))],source:"git"}}let s=[];for await(let i of Xt(t,n,r))s.push(i.rel);return{files:s.sort(qe),source:"walk"}}a(Cs,"listFiles");var Is=xt(ot(),1);function nr(t){let e=0,n=-1;for(let r=0;r<t.length;r++){let o=t[r];if(o==="\\"){r++;continue}if(o==="{")e===0&&(n=r),e++;else if(o==="}"&&e>0&&(e--,e===0)){let s=t.slice(n+1,r),i=Jl(s);if(i.length<2)continue;let c=t.slice(0,n),l=t.slice(r+1);return i.flatMap(d=>nr(c+d+l))}}return[t]}a(nr,"expandBraces");function Jl(t){let e=[],n=0,r=0;for(let o=0;o<t.length;o++){let s=t[o];s==="\\"?o++:s==="{"?n++:s==="}"?n--:s===","&&n===0&&(e.push(t.slice(r,o)),r=o+1)}return e.push(t.slice(r)),e}a(Jl,"splitTopLevel");function Zl(t){let e=t.lastIndexOf("/");return e===-1?t:t.slice(e+1)}a(Zl,"baseName");function Ls(t){let e=t.replace(/^\.\//,""),n=(0,Is.default)(e,{dot:!0});return e.includes("/")?n:r=>n(Zl(r))}a(Ls,"compile");function qt(t){let e=t?.trim();if(!e)return;let n=[],r=[];for(let i of e.split(/\s*,\s*(?![^{]*\})/))i!==""&&(i.startsWith("!")?r.push(...nr(i.slice(1))):n.push(...nr(i)));let o=n.map(Ls),s=r.map(Ls);return{include:n,exclude:r,matches:a(i=>(o.length===0||o.some(c=>c(i)))&&!s.some(c=>c(i)),"matches")}}a(qt,"parseGlob");function ed(t){return t.replace(/[*?[\]\\]/g,"\\$&")}a(ed,"escapeGlobMagic");function Ds(t,e){let n=t===""?"":`${ed(t)}/`,r=a(s=>{let i=s.replace(/^\.\//,"");return i.includes("/")?`${n}${i}`:`${n}**/${i}`},"spec");return e?[...e.include.length>0?e.include.map(s=>`:(glob)${r(s)}`):[t===""?".":`:(literal)${t}`],...e.exclude.map(s=>`:(glob,exclude)${r(s)}`)]:[t===""?".":`:(literal)${t}`]}a(Ds,"gitPathspecs");function ze(t){return/[\u0000-\u001f\u007f]/.test(t)?JSON.stringify(t):t}a(ze,"displayPath");var nd={type:"object",properties:{pattern:{type:"string",minLength:1},path:{type:"string"},limit:{type:"integer",minimum:1}},required:["pattern"],additionalProperties:!1},rd=1e3,ut=1e3;function rr(t,e={}){let n=e.git??le(t.root);return{name:"find_files",description:`Find files by glob ("*.ts" matches names at any depth, "src/**/*.ts" paths under \`path\`), respecting .gitignore. Sorted; at most \`limit\` (default and max ${ut}), ${$e/1024} KB in all, with a notice when cut.`,readOnly:!0,parameters:nd,async execute(r,{signal:o}){let s=qt(r.pattern);if(!s)throw new L('`pattern` is empty; give a glob such as "*.ts".');let i=await t.resolve(r.path,"read"),c=i.rel||".";if(!i.exists)throw new L(`Folder not found: ${c}.`);if(!(await td(i.real)).isDirectory())throw new L(`${c} is a file, not a folder.`);let l=i.realRel,{files:d}=await Cs(t.area,n,l,o),u=d.filter(f=>s.matches(l===""?f:f.slice(l.length+1))),g=Math.min(r.limit??rd,ut),m=u.slice(0,g),b=je(m.map(ze).join(`
`),{maxLines:Number.MAX_SAFE_INTEGER,maxBytes:ge}),$={count:u.length,shown:b.keptLines};if(u.length===0){let f=i.rel===""?"the workspace":i.rel;return{content:[{type:"text",text:`No files match ${JSON.stringify(r.pattern)} in ${f}.`}],details:$}}let h=b.text;if(b.keptLines<u.length){let f=b.truncated||g>=ut;h+=f?`

[Showing ${b.keptLines} of ${u.length} files (find_files shows at most ${ut} paths / ${K($e)}). To see the rest, give a narrower \`path\` (one folder at a time; list_dir shows the folders) or a more specific pattern.]`:`

[Showing ${b.keptLines} of ${u.length} files. Raise limit (up to ${ut}), or give a narrower \`path\` or a more specific pattern.]`}return{content:[{type:"text",text:h}],details:$}}}}a(rr,"createFindFilesTool");import{lstat as md}from"node:fs/promises";import{join as hd}from"node:path";var de=class extends Error{static{a(this,"GrepError")}},Pe=class{constructor(e){this.onLine=e}onLine;static{a(this,"LineSplitter")}rest;push(e){let n=this.rest?Buffer.concat([this.rest,e]):e;this.rest=void 0;let r=0;for(let o=n.indexOf(10,r);o!==-1;o=n.indexOf(10,r)){let s=o>r&&n[o-1]===13?o-1:o;if(!this.onLine(n.subarray(r,s)))return!1;r=o+1}return r<n.length&&(this.rest=Buffer.from(n.subarray(r))),!0}end(){this.rest&&this.rest.length>0&&this.onLine(this.rest),this.rest=void 0}},Ns={a:7,b:8,t:9,n:10,v:11,f:12,r:13,'"':34,"\\":92};function Ms(t){if(!(t.length>=2&&t.startsWith('"')&&t.endsWith('"')))return t;let e=[],n=Buffer.from(t.slice(1,-1),"utf8");for(let r=0;r<n.length;r++){let o=n[r];if(o!==92){e.push(o);continue}let s=String.fromCharCode(n[r+1]??0);/[0-7]/.test(s)?(e.push(parseInt(n.subarray(r+1,r+4).toString("latin1"),8)),r+=3):s in Ns?(e.push(Ns[s]),r++):e.push(o)}return Buffer.from(e).toString("utf8")}a(Ms,"unquoteGitPath");function zt(t,e){if(!t.filter)return!0;let n=t.base===""?e:e.startsWith(`${t.base}/`)?e.slice(t.base.length+1):e;return t.filter.matches(n)}a(zt,"passesFilter");var od=/^(\d+)([:-])/;function Bs(t){let e;async function n(r,o,s){let i=["grep","--no-color","-n","-I","--heading","--break","--untracked","--no-column"];r.ignoreCase&&i.push("-i"),r.literal?i.push("-F"):i.push(s?"-P":"-E"),r.context>0&&i.push(`-C${r.context}`),i.push("-e",r.pattern,"--",...Ds(r.base,r.filter));let c,l=!0,d=!1,u=new Pe(m=>{let b=m.toString("utf8");if(b==="")return l=!0,!0;if(l)return c!==void 0&&!o({kind:"break"})?(d=!0,!1):(c=Ms(b),l=!1,!0);if(b==="--")return o({kind:"break"})||(d=!0,!1);let $=od.exec(b);if(!$||c===void 0)return!0;let h=o({kind:$[2]===":"?"match":"context",file:c,line:Number($[1]),text:b.slice($[0].length)});return h||(d=!0),h}),g=await t.stream(i,m=>u.push(m),{signal:r.signal});return!d&&!g.stopped&&u.end(),g}return a(n,"attempt"),{name:"git grep",async search(r,o){let s=await n(r,o,!r.literal&&e!==!1);if(s.code===128&&/PCRE|Perl/i.test(s.stderr)&&/support|compiled|USE_LIBPCRE/i.test(s.stderr)?(e=!1,s=await n(r,o,!1)):!r.literal&&s.code!==128&&(e=!0),!(s.stopped||r.signal?.aborted)&&s.code!==0&&s.code!==1)throw new de(s.stderr.replace(/^fatal: /,"")||`git grep exited with code ${s.code}`)}}}a(Bs,"createGitGrep");import{spawn as sd}from"node:child_process";import{delimiter as id,join as ad}from"node:path";import{statSync as cd}from"node:fs";var ld=/^(\d+)([:-])/;function Gs(t=process.env){for(let e of(t.PATH??"").split(id)){if(!e)continue;let n=ad(e,"rg");try{if(cd(n).isFile())return n}catch{}}}a(Gs,"findRipgrep");function dd(t){let e=["--no-config","--hidden","--no-require-git","--glob","!.git","--color","never","-n"];e.push("--no-heading","--with-filename","--null","--sort","path"),t.ignoreCase&&e.push("-i"),t.literal&&e.push("-F"),t.context>0&&e.push("-C",String(t.context));let n=t.filter;if(n&&n.include.every(r=>!r.includes("/")))for(let r of n.include)e.push("--glob",r);if(n)for(let r of n.exclude.filter(o=>!o.includes("/")))e.push("--glob",`!${r}`);return e.push("-e",t.pattern),t.base!==""&&e.push("--",t.base),e}a(dd,"args");function Fs(t,e,n=process.env){let r=yn(n);return{name:"ripgrep",search(o,s){return new Promise((i,c)=>{let l;try{l=sd(e,dd(o),{cwd:t,env:r,stdio:["ignore","pipe","pipe"]})}catch(f){c(new de(`ripgrep could not run: ${f instanceof Error?f.message:String(f)}`));return}let d=!1,u,g=!1,m=a(()=>{d=!0,l.kill("SIGTERM")},"stop"),b=a(()=>m(),"onAbort");o.signal?.addEventListener("abort",b,{once:!0});let $=new Pe(f=>{if(f.length===2&&f[0]===45&&f[1]===45)return g=!0,!0;let p=f.indexOf(0);if(p===-1)return!0;let w=f.subarray(0,p).toString("utf8"),x=f.subarray(p+1).toString("utf8"),E=ld.exec(x);return!E||!zt(o,w)?!0:(g||u!==void 0&&w!==u)&&u!==void 0&&!s({kind:"break"})?!1:(g=!1,u=w,s({kind:E[2]===":"?"match":"context",file:w,line:Number(E[1]),text:x.slice(E[0].length)}))});l.stdout.on("data",f=>{!d&&!$.push(f)&&m()});let h="";l.stderr.on("data",f=>{h.length<8192&&(h+=f.toString("utf8"))}),l.once("error",f=>c(new de(`ripgrep could not run: ${f.message}`))),l.once("close",f=>{o.signal?.removeEventListener("abort",b),d||$.end(),!d&&f===2&&u===void 0?c(new de(h.trim()||"ripgrep failed")):i()})})}}}a(Fs,"createRipgrep");function Vt(t,e,n=0){return e.every((r,o)=>t[n+o]===r)}a(Vt,"startsWith");function ud(t){if(Vt(t,[137,80,78,71,13,10,26,10]))return"image/png";if(Vt(t,[255,216,255]))return"image/jpeg";if(t.subarray(0,6).toString("latin1")==="GIF87a"||t.subarray(0,6).toString("latin1")==="GIF89a")return"image/gif";if(t.subarray(0,4).toString("latin1")==="RIFF"&&t.subarray(8,12).toString("latin1")==="WEBP")return"image/webp"}a(ud,"imageType");function Qt(t){let e=ud(t);return e?{kind:"image",mimeType:e}:t.includes(0)?{kind:"binary",reason:Vt(t,[255,254])||Vt(t,[254,255])?"it is UTF-16 text":"it contains NUL bytes"}:{kind:"text"}}a(Qt,"classify");var fd=16*1024*1024;async function pd(t){try{let{handle:e,stat:n}=await t();try{return await sr(e,n.size)}finally{await e.close()}}catch{return}}a(pd,"linesThrough");async function sr(t,e){if(e>fd)return;let n=await _e(t,e);if(Qt(n.subarray(0,8192)).kind!=="text")return;let r=n.toString("utf8").split(`
`);r[r.length-1]===""&&r.pop();for(let o=0;o<r.length;o++)r[o].endsWith("\r")&&(r[o]=r[o].slice(0,-1));return r}a(sr,"linesOf");function ir(t){let e=t.literal?t.pattern.replace(/[.*+?^${}()|[\]\\]/g,"\\$&"):t.pattern;try{return new RegExp(e,t.ignoreCase?"i":"")}catch(n){throw new de(`Invalid regular expression: ${n instanceof Error?n.message:String(n)}`)}}a(ir,"compilePattern");function ar(t,e,n,r,o,s){let i=-1,c=-1,l=!s,d=a((u,g)=>l&&i!==u-1&&!o({kind:"break"})?!1:(l=!0,i=u,o({kind:g,file:t,line:u+1,text:e[u]})),"emit");for(let u=0;u<e.length;u++)if(n.test(e[u])){for(let g=Math.max(i+1,u-r);g<u;g++)if(!d(g,"context"))return!1;if(!d(u,"match"))return!1;c=u+r}else if(u<=c&&!d(u,"context"))return!1;return!0}a(ar,"searchLines");function Hs(t){return{name:"javascript",async search(e,n){let r=ir(e),o=!0,s=!1,i=a(c=>(c.kind!=="break"&&(s=!0),n(c)),"counting");for await(let c of Xt(t,e.base,e.signal)){if(c.type!=="file"||!zt(e,c.rel))continue;let l=await pd(c.open);if(l&&!ar(c.rel,l,r,e.context,i,o))return;s&&(o=!1),s=!1}}}}a(Hs,"createWalkGrep");var Ve=100,$d=Ve,cr=500,gd=20,Us=16*1024,yd={type:"object",properties:{pattern:{type:"string",minLength:1},path:{type:"string",description:"Folder or file"},glob:{type:"string",description:'"*.ts" (any depth) or "src/**/*.ts"'},ignoreCase:{type:"boolean"},literal:{type:"boolean"},context:{type:"integer",minimum:0,maximum:gd},limit:{type:"integer",minimum:1}},required:["pattern"],additionalProperties:!1};async function wd(t,e){let n=new Map;for(let s of e){if(s==="--"||s===void 0)continue;let i=n.get(s.file)??new Set;i.add(s.line),n.set(s.file,i)}let r=new Map;for(let[s,i]of n)r.set(s,await bd(t,s,i));let o=0;for(let s=0;s<e.length;s++){let i=e[s];i==="--"||i===void 0||r.get(i.file)?.get(i.line)!==i.text&&(e[s]=void 0,o++)}return o}a(wd,"confirm");async function bd(t,e,n){let r=new Map,o=Math.max(...n),s;try{s=await _t(hd(t.root,e),[t.area],"read")}catch{return r}try{let i=0,c=new Pe(d=>(i++,n.has(i)&&r.set(i,d.toString("utf8")),i<o)),l=Buffer.allocUnsafe(64*1024);for(let d=0;;){let{bytesRead:u}=await s.handle.read(l,0,l.length,d);if(u===0){c.end();break}if(d+=u,!c.push(l.subarray(0,u)))break}}catch{}finally{await s.handle.close()}return r}a(bd,"linesAt");function lr(t,e={}){let n=e.git??le(t.root),r=e.backend??"auto",o=Hs(t.area),s=Bs(n);async function i(c,l){if(r==="javascript")return o;if(r==="git")return s;if(r==="auto"&&await n.isWorkTree())return await n.isIgnored(c,l)?o:s;let d=r==="ripgrep"||r==="auto"?Gs(e.env):void 0;return d?Fs(t.root,d,e.env):o}return a(i,"pick"),{name:"grep",description:`Search file contents by regex (Perl-style; literal=true for plain text), respecting .gitignore. Output \`file:line: text\`, context \`file-line- text\`; at most ${Ve} matches (\`limit\` lowers it), lines cut at ${cr} chars, ${$e/1024} KB in all, with a notice when cut. \`path\` may be a command's saved output.`,readOnly:!0,parameters:yd,async execute(c,{signal:l}){if(c.pattern.includes("\0"))throw new L("The pattern contains a NUL byte.");if(c.pattern.length>Us)throw new L(`The pattern is ${c.pattern.length} characters long; at most ${Us} are accepted.`);let d=await t.resolve(c.path,"read");if(!d.exists)throw new L(`Path not found: ${d.rel||"."}.`);let u=d.readOnly||!(await md(d.real)).isDirectory(),g=Math.min(c.limit??$d,Ve),m=c.context??0,b={pattern:c.pattern,literal:c.literal===!0,ignoreCase:c.ignoreCase===!0,context:m,base:d.realRel,filter:u?void 0:qt(c.glob),signal:l},$=[],h=0,f=!1,p=!1,w,x=a(y=>{p&&$.length>0&&$.push("--"),p=!1,$.push(y)},"add"),E=a(y=>y.kind==="break"?(p=m>0,!0):h>=g?y.kind==="context"&&!p&&w&&y.file===w.file&&y.line<=w.line+m?(x(y),!0):(f=!0,!1):(x(y),y.kind==="match"&&(h++,w={file:y.file,line:y.line}),!0),"sink"),v,S=0;try{if(u){v=o;let y=ir(b),{handle:_,stat:Q}=await t.open(d,"read");try{let C=await sr(_,Q.size);C&&ar(d.readOnly?d.real:d.realRel,C,y,m,E,!0)}finally{await _.close()}}else v=await i(b.base,l),await v.search(b,E),v!==o&&(S=await wd(t,$))}catch(y){throw y instanceof de?new L(`grep: ${y.message}`):y}let R=[],P=0;h=0;for(let y of $){if(y==="--"||y===void 0){y==="--"&&R.length>0&&R[R.length-1]!=="--"&&R.push("--");continue}let{text:_,cut:Q}=Dr(y.text,cr);Q&&P++,y.kind==="match"&&h++;let C=ze(y.file);R.push(y.kind==="match"?`${C}:${y.line}: ${_}`:`${C}-${y.line}- ${_}`)}R[R.length-1]==="--"&&R.pop();let I={backend:v.name,matches:h,limitReached:f,linesCut:P},k=d.rel===""?"":` in ${d.rel}`;if(h===0){let y=b.filter?` (files matching ${JSON.stringify(c.glob)})`:"";return{content:[{type:"text",text:`No matches for ${JSON.stringify(c.pattern)}${k}${y}.`}],details:I}}let H=je(R.join(`
`),{maxLines:Number.MAX_SAFE_INTEGER,maxBytes:ge}),M=[];if(f){let y=g<Ve?`Raise limit (up to ${Ve}), narrow`:"Narrow";M.push(`[Showing the first ${h===1?"match":`${h} matches`}; there are more (grep shows at most ${Ve}). ${y} the pattern, or search a narrower \`path\` or \`glob\`; read_file shows a file whole.]`)}return H.truncated&&M.push(`[Output cut at ${K(ge)} (${H.keptLines} of ${H.totalLines} lines). Search a narrower \`path\` or \`glob\`, use less \`context\`, or read a file with read_file and \`offset\`.]`),S>0&&M.push(`[${S} line${S===1?"":"s"} left out: the file changed while it was searched, or is not inside the workspace.]`),P>0&&M.push(`[${P} line${P===1?" was":"s were"} longer than ${cr} characters and cut; read_file shows them whole.]`),{content:[{type:"text",text:M.length>0?`${H.text}

${M.join(`
`)}`:H.text}],details:I}}}}a(lr,"createGrepTool");import{stat as kd}from"node:fs/promises";var xd={type:"object",properties:{path:{type:"string"},limit:{type:"integer",minimum:1}},additionalProperties:!1},Ws=500,ft=1e3;async function vd(t,e,n,r,o){let s=n===""?r:[...r,{rel:n,isDir:!0}],i=await tr(e,s,o);if(i)return{dirIgnored:n!==""&&i.has(n),ignored:i};let c=n.includes("/")?n.slice(0,n.lastIndexOf("/")):"",l=n!==""&&Fe.forFolder(t,c).ignores(n,!0),d=Fe.forFolder(t,n);return{dirIgnored:l,ignored:new Set(r.filter(u=>d.ignores(u.rel,u.isDir)).map(u=>u.rel))}}a(vd,"ignoredSet");function dr(t,e={}){let n=e.git??le(t.root);return{name:"list_dir",description:`List a folder (default: root), sorted; folders end in "/", symlinks in "@". Skips entries ignored by .gitignore; at most \`limit\` (default ${Ws}, max ${ft}), ${$e/1024} KB in all, with a notice when cut.`,readOnly:!0,parameters:xd,async execute(r,{signal:o}){let s=await t.resolve(r.path,"read"),i=s.rel||".";if(!s.exists)throw new L(`Folder not found: ${i}.`);if(!(await kd(s.real)).isDirectory())throw new L(`${i} is a file; use read_file to read it.`);let c=s.realRel,d=(await t.readDir(s.real,i)).filter(x=>x.name.toLowerCase()!==".git").sort((x,E)=>qe(x.name,E.name)).map(x=>{let E=x.isDirectory(),v=E?"/":x.isSymbolicLink()?"@":"";return{name:x.name,rel:c===""?x.name:`${c}/${x.name}`,label:ze(x.name)+v,isDir:E}});if(d.length===0)return{content:[{type:"text",text:`[${i} is empty.]`}],details:{entries:0,shown:0,ignored:0}};let{dirIgnored:u,ignored:g}=await vd(t.root,n,c,d,o),m=u?d:d.filter(x=>!g.has(x.rel)),b=d.length-m.length,$=Math.min(r.limit??Ws,ft),h=je(m.slice(0,$).map(x=>x.label).join(`
`),{maxLines:Number.MAX_SAFE_INTEGER,maxBytes:ge}),f={entries:m.length,shown:h.keptLines,ignored:b},p=[];if(u&&p.push(`[${i} itself is ignored by .gitignore; all its entries are shown.]`),h.keptLines<m.length){let x=h.truncated||$>=ft;p.push(x?`[Showing ${h.keptLines} of ${m.length} entries (list_dir shows at most ${ft} / ${K($e)}). To see the rest, use find_files with this \`path\` and a pattern (e.g. "*.ts"), or list a subfolder.]`:`[Showing ${h.keptLines} of ${m.length} entries. Raise limit (up to ${ft}) to see more.]`)}return b>0&&p.push(`[${b} entr${b===1?"y":"ies"} ignored by .gitignore not shown.]`),m.length===0?{content:[{type:"text",text:`[No entries to show in ${i}: all ${b} are ignored by .gitignore.]`}],details:f}:{content:[{type:"text",text:p.length>0?`${h.text}

${p.join(`
`)}`:h.text}],details:f}}}}a(dr,"createListDirTool");var _d={type:"object",properties:{path:{type:"string"},offset:{type:"integer",minimum:1},limit:{type:"integer",minimum:1}},required:["path"],additionalProperties:!1},Ks=5*1024*1024,Xs=64*1024;async function Sd(t,e,n,r){let o=Buffer.allocUnsafe(Xs),s=[],i=new TextDecoder("utf-8",{fatal:!1}),c=1,l=[],d=0,u=!1,g=0,m,b=a(()=>m===void 0&&c>=e,"collecting"),$=a(()=>{let h=i.decode(Buffer.concat(l));if(l=[],d=0,h.endsWith("\r")&&(h=h.slice(0,-1)),s.length>=n){m="lines";return}let f=Buffer.byteLength(h,"utf8")+(s.length>0?1:0);if(g+f>r){s.length===0?(s.push(vt(h,r)),m="long-line"):m="bytes";return}s.push(h),g+=f},"finishLine");for(let h=0;;){let{bytesRead:f}=await t.read(o,0,Xs,h);if(f===0)break;h+=f;let p=0;for(;p<f;){let w=o.indexOf(10,p),x=w===-1||w>=f?f:w;if(x>p&&(u=!0),b()&&d<=r+4&&(l.push(Buffer.from(o.subarray(p,x))),d+=x-p),x===f)break;b()&&$(),u=!1,c++,p=x+1}}return u&&b()&&$(),{lines:s,totalLines:u?c:c-1,stoppedBy:m}}a(Sd,"readWindow");function ur(t){return{name:"read_file",description:"Read a text file: at most 2000 lines / 50 KB from `offset` (1-based line); when cut, a notice gives the offset to continue. Images (png, jpeg, gif, webp) return as images; other binary files are refused. Also reads a command's saved output (absolute path from its notice).",readOnly:!0,parameters:_d,async execute(e){if(e.path.trim()==="")throw new L("`path` is empty; give a file path relative to the workspace root.");let n=await t.resolve(e.path,"read"),r=n.rel||".";if(!n.exists)throw new L(`File not found: ${r}. Use find_files or list_dir to see what exists.`);let{handle:o,stat:s}=await t.open(n,"read");try{return await Ed(o,s.size,r,e)}finally{await o.close()}}}}a(ur,"createReadFileTool");async function Ed(t,e,n,r){let o={size:e},s=await _e(t,e,8192),i=Qt(s);if(i.kind==="image"){if(o.size>Ks)throw new L(`${n} is an image of ${K(o.size)}, over the ${K(Ks)} that can be shown.`);let b=(await _e(t,o.size)).toString("base64");return{content:[{type:"text",text:`Image ${n} (${i.mimeType}, ${K(o.size)}):`},{type:"image",data:b,mimeType:i.mimeType}],details:{path:n,kind:"image",truncated:!1}}}if(i.kind==="binary")throw new L(`${n} looks like a binary file (${i.reason}; ${K(o.size)}), so it is not shown as text.`);let c=r.offset??1,l=Math.min(r.limit??2e3,2e3),d=await Sd(t,c,l,ge);if(d.totalLines===0)return{content:[{type:"text",text:`[${n} is empty.]`}],details:{path:n,kind:"text",totalLines:0,truncated:!1}};if(c>d.totalLines)throw new L(`offset ${c} is past the end of ${n}, which has ${d.totalLines} line${d.totalLines===1?"":"s"}.`);let u=c+d.lines.length-1;c===1&&d.lines[0]?.startsWith("\uFEFF")&&(d.lines[0]=d.lines[0].slice(1));let g=d.lines.join(`
`),m=u<d.totalLines;if(d.stoppedBy==="long-line")g+=`

[Line ${c} is longer than the ${K(ge)} a result can show; only its start is shown.`,g+=m?` Use offset=${c+1} to continue after it.]`:"]";else if(m){let b=d.stoppedBy==="bytes"?` (${K($e)} limit)`:"";g+=`

[Showing lines ${c}-${u} of ${d.totalLines}${b}. Use offset=${u+1} to continue.]`}return{content:[{type:"text",text:g}],details:{path:n,kind:"text",startLine:c,endLine:u,totalLines:d.totalLines,truncated:m||d.stoppedBy==="long-line"}}}a(Ed,"readOpened");import{existsSync as Ce,statSync as Ad}from"node:fs";import{delimiter as Td,join as ue}from"node:path";var Rd=/no test specified/,Od=1<<20;function fr(t){try{return Et(t,Od).toString("utf8")}catch{return}}a(fr,"readText");function Jt(t,e){for(let n of(e.PATH??"").split(Td))if(n)try{if(Ad(ue(n,t)).isFile())return!0}catch{}return!1}a(Jt,"onPath");function Pd(t,e){let n=fr(ue(t,"package.json"));if(n===void 0)return;let r;try{r=JSON.parse(n).scripts?.test}catch{return}if(typeof r!="string"||r.trim()===""||Rd.test(r))return;let o='package.json "test" script';return Ce(ue(t,"pnpm-lock.yaml"))&&Jt("pnpm",e)?{command:"pnpm test",source:o,argsSeparator:""}:Ce(ue(t,"yarn.lock"))&&Jt("yarn",e)?{command:"yarn test",source:o,argsSeparator:""}:{command:"npm test",source:o,argsSeparator:"-- "}}a(Pd,"nodeCommand");function Cd(t,e){let r=`${Jt("python",e)||!Jt("python3",e)?"python":"python3"} -m pytest`;for(let o of["pytest.ini","conftest.py"])if(Ce(ue(t,o)))return{command:r,source:o,argsSeparator:""};for(let o of["pyproject.toml","setup.cfg","tox.ini"])if(/pytest/.test(fr(ue(t,o))??""))return{command:r,source:`${o} (pytest settings)`,argsSeparator:""};for(let o of["pyproject.toml","setup.py","setup.cfg"])if(Ce(ue(t,o)))return{command:r,source:o,argsSeparator:""}}a(Cd,"pythonCommand");function Ld(t){for(let e of["Makefile","makefile","GNUmakefile"]){let n=fr(ue(t,e));if(n!==void 0&&/^test\s*:/m.test(n))return{command:"make test",source:`${e} "test" target`,argsSeparator:""}}}a(Ld,"makeCommand");function pr(t,e=process.env){let n=Pd(t,e);if(n)return n;let r=Cd(t,e);if(r)return r;if(Ce(ue(t,"go.mod")))return{command:"go test ./...",source:"go.mod",argsSeparator:""};if(Ce(ue(t,"Cargo.toml")))return{command:"cargo test",source:"Cargo.toml",argsSeparator:""};let o=Ld(t);if(o)return o;if(Ce(ue(t,"gradlew")))return{command:"./gradlew test",source:"gradlew",argsSeparator:""};if(Ce(ue(t,"pom.xml")))return{command:"mvn test",source:"pom.xml",argsSeparator:""}}a(pr,"detectTestCommand");var Id={type:"object",properties:{args:{type:"string"}},additionalProperties:!1},Dd=600*1e3;function mr(t,e={}){let n=e.timeoutMs??Dd;return{name:"run_tests",description:`Run the project's tests (configured, or detected: npm test, pytest, go test, cargo test, make test) with \`args\` appended as words (quotes group; not shell text), e.g. a test file. Returns the exit code and the last 2000 lines / 50 KB of output; a cut says where the full output is. Limit ${Math.round(n/6e4)} min.`,parameters:Id,async execute(r,{signal:o,onUpdate:s}){let i=e.testCommand?.trim(),c=i?void 0:pr(t.root,e.env??process.env),l=i||c?.command;if(!l)throw new L('No test command found: the workspace has no package.json "test" script, pytest configuration, go.mod, Cargo.toml or Makefile "test" target. The `test-command` input (CLI: --test-command) sets one.');let d=Xr(r.args??""),u=c?.argsSeparator??"",g=d.length?`${l} ${u}${d.map(At).join(" ")}`:l,m=e.sandbox?.network,b=m?.mark(),$=await Ge({command:g,cwd:t.root,env:e.env,envOptions:e.envOptions,sandbox:e.sandbox,timeoutMs:n,signal:o,limits:ve,artifactsDir:e.artifactsDir,name:"run_tests",onProgress:s?p=>s({content:[{type:"text",text:p}]}):void 0}),h=c?` (detected from ${c.source})`:"",f=b===void 0?void 0:m?.note(b,$.text);return Wt(Ut(g,$,ve,`$ ${g}${h}`),f)}}}a(mr,"createRunTestsTool");var Nd={type:"object",properties:{path:{type:"string"},content:{type:"string"}},required:["path","content"],additionalProperties:!1},Ys=1024*1024;function hr(t){return{name:"write_file",description:"Create or overwrite a file, making parent folders. To change part of a file prefer edit_file. Protected paths (e.g. .github/workflows/) are refused.",parameters:Nd,async execute(e){if(e.path.trim()==="")throw new L("`path` is empty; give a file path relative to the workspace root.");let n=await t.resolve(e.path,"write"),r=n.rel;n.exists||await t.makeParents(n);let{handle:o,stat:s,created:i}=await t.open(n,"write"),c;try{if(!i&&s.size<=Ys){let m=await _e(o,s.size);m.includes(0)||(c=m.toString("utf8"))}await St(o,e.content)}finally{await o.close()}let l=Buffer.byteLength(e.content,"utf8"),d=et(e.content).length,u=i?"Created":"Overwrote",g={path:r,created:i,bytes:l};return(c!==void 0||i)&&l<=Ys&&(g.diff=Kt(r,c??"",e.content).diff),{content:[{type:"text",text:`${u} ${r} (${d} line${d===1?"":"s"}, ${K(l)}).`}],details:g}}}}a(hr,"createWriteFileTool");function ig(t){let e=Jn(t.root,{protectedPaths:t.protectedPaths,readOnlyDirs:t.artifactsDir?[t.artifactsDir]:[],...t.sandbox?.toolGroup?{group:t.sandbox.toolGroup}:{}}),n=t.git??le(e.root),r={env:t.env,envOptions:t.commandEnv,sandbox:t.sandbox,artifactsDir:t.artifactsDir},o=[ur(e),er(e),hr(e),lr(e,{git:n,env:t.env}),rr(e,{git:n}),dr(e,{git:n})];return t.commands===!1||(o.push(mr(e,{...r,testCommand:t.testCommand,timeoutMs:t.testTimeoutMs})),t.allowBash&&o.push(Zn(e,r))),o}a(ig,"createWorkspaceTools");import{BlockList as qs,isIP as Md}from"node:net";var Bd=/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;function vg(t){let e=t.trim().toLowerCase();if(e===""||e==="none")return{kind:"none"};if(e==="all")return{kind:"all"};let n=e.split(/[,\n]/).map(o=>o.trim().replace(/\.$/,"")).filter(Boolean),r=n.find(o=>!Bd.test(o));if(r!==void 0)throw new Error(`command-network is none, all, or host names such as registry.npmjs.org or *.pythonhosted.org (comma- or newline-separated); "${r}" is not a host name.`);return{kind:"hosts",hosts:[...new Set(n)]}}a(vg,"parseCommandNetwork");function pt(t){return t.trim().toLowerCase().replace(/^\[(.*)\]$/,"$1").replace(/\.$/,"")}a(pt,"normalHost");function zs(t,e){let n=pt(e);return t.some(r=>r.startsWith("*.")?n.endsWith(r.slice(1))&&n.length>r.length-1:n===r)}a(zs,"hostAllowed");var[Gd,Fd]=(()=>{let t=new qs,e=new qs,n=[["0.0.0.0",8],["10.0.0.0",8],["100.64.0.0",10],["127.0.0.0",8],["169.254.0.0",16],["172.16.0.0",12],["192.0.0.0",24],["192.0.2.0",24],["192.88.99.0",24],["192.168.0.0",16],["198.18.0.0",15],["198.51.100.0",24],["203.0.113.0",24],["224.0.0.0",3]],r=[["::",96],["64:ff9b:1::",48],["100::",64],["2001::",23],["2001:db8::",32],["2002::",16],["fc00::",7],["fe80::",10],["fec0::",10],["ff00::",8]];for(let[o,s]of n)t.addSubnet(o,s,"ipv4");for(let[o,s]of r)e.addSubnet(o,s,"ipv6");return[t,e]})();function $r(t){let e=Md(t);if(e===0)return!1;if(e===4)return!Gd.check(t,"ipv4");let n=/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(t);return n?$r(n[1]):/^::ffff:/i.test(t)?!1:!Fd.check(t,"ipv6")}a($r,"isPublicAddress");var Hd=10;function Zt(t){return t.kind==="none"?"none (each command has its own loopback only)":t.kind==="all"?"all (commands use the runner\u2019s network)":`HTTP and HTTPS to ${t.hosts.join(", ")} only, through patchloop\u2019s proxy`}a(Zt,"describeNetwork");function Vs(t,e=Hd){let n=t.slice(0,e).map(r=>r.count>1?`${r.host} (${r.count}\xD7)`:r.host);return t.length>e&&n.push(`and ${t.length-e} more`),n.join(", ")}a(Vs,"listRefused");function _g(t,e){let n=Zt(t);return e.length?`${n}; refused: ${Vs(e)}`:n}a(_g,"networkSummaryLine");var Ud=/ENETUNREACH|EAI_AGAIN|Network is unreachable|Could not resolve host|Temporary failure in name resolution|getaddrinfo ENOTFOUND|Name or service not known/i;function Qs(t,e,n){if(t.kind==="all")return;let r=/Network access disabled by the environment; can't reach (\S+)/.exec(n);if(r&&t.kind==="none")return`[corepack wanted to download ${r[1]}: the version package.json's packageManager names is not on this machine, and command-network is none, so commands download nothing. Install that version in a step before patchloop (corepack install), or allow registry.npmjs.org in the workflow's command-network input.]`;if(e.length)return`[command-network refused ${Vs(e,5)} (${e[0].reason}). Commands may reach only ${t.kind==="hosts"?t.hosts.join(", "):"their own loopback"}; the workflow's command-network input sets this.]`;if(Ud.test(n))return t.kind==="none"?"[command-network is none: commands have no network but their own loopback, so downloads and outside services fail. The workflow\u2019s command-network input can allow hosts.]":`[command-network allows only HTTP and HTTPS to ${t.hosts.join(", ")}, through the proxy in HTTPS_PROXY / HTTP_PROXY; a program that ignores those variables finds no network.]`}a(Qs,"networkNote");import{chmodSync as Wf,lstatSync as la,mkdtempSync as jf,realpathSync as Kf,rmSync as da}from"node:fs";import{tmpdir as Xf}from"node:os";import{spawnSync as Yf}from"node:child_process";import{join as Pr}from"node:path";import{chmodSync as Vd,lchownSync as Qd,lstatSync as rn,mkdtempSync as Jd,readFileSync as nn,realpathSync as Zd,rmSync as eu,writeFileSync as tu}from"node:fs";import{tmpdir as nu}from"node:os";import{join as Ie}from"node:path";var F=class extends Error{static{a(this,"SandboxSetupError")}constructor(e){super(e),this.name="SandboxSetupError"}};import{execFile as Wd}from"node:child_process";import{existsSync as jd,readFileSync as Kd,statSync as Xd}from"node:fs";import{join as Zs}from"node:path";var en="patchloop-sandbox";function Le(t,e,n={}){return new Promise(r=>{Wd(t,e,{cwd:n.cwd,env:n.env??{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"},encoding:"utf8",timeout:n.timeoutMs??12e4,maxBuffer:n.maxBuffer??4<<20},(o,s,i)=>{let c=o?typeof o.code=="number"?o.code:127:0;r({code:c,stdout:String(s),stderr:String(i||(o&&c===127?o.message:""))})})})}a(Le,"run");function re(t){return t.trim().split(`
`)[0]??""}a(re,"firstLine");var Yd=["/usr/bin","/bin","/usr/sbin","/sbin"];function V(t){for(let e of Yd){let n=Zs(e,t);try{if(Xd(n).isFile())return n}catch{}}}a(V,"systemBin");async function ei(){if(process.getuid?.()===0)return{prefix:[],viaSudo:!1};let t=V("sudo");return t?(await Le(t,["-n","true"],{timeoutMs:1e4})).code!==0?"not root, and sudo asks for a password":{prefix:[t,"-n","--"],viaSudo:!0}:"not root, and sudo is not installed"}a(ei,"findRootAccess");function Z(t,e,n,r={}){let[o,s]=gr(t,e,n);return Le(o,s,r)}a(Z,"asRoot");function gr(t,e,n){return t.prefix.length?[t.prefix[0],[...t.prefix.slice(1),e,...n]]:[e,n]}a(gr,"rootArgv");function ti(t){return Zs("/var/lib",t)}a(ti,"accountHome");function qd(t){let e;try{e=Kd("/etc/passwd","utf8")}catch{return}for(let n of e.split(`
`)){let r=n.split(":");if(r[0]!==t||r.length<7)continue;let o=Number(r[2]),s=Number(r[3]);return r[2]===""||r[3]===""||!Number.isInteger(o)||!Number.isInteger(s)?void 0:{user:t,uid:o,gid:s,home:r[5]||void 0}}}a(qd,"localAccount");async function Js(t){let e=qd(t);if(e)return e;let n=V("getent");if(!n)return;let r=await Le(n,["passwd",t]);if(r.code!==0)return;let o=r.stdout.trim().split(":");return{user:t,uid:Number(o[2]),gid:Number(o[3]),home:o[5]||void 0}}a(Js,"lookup");async function ni(t,e){let n=await Js(e);if(!n){let r=V("useradd");if(!r)throw new F("useradd is not installed, so the sandbox user cannot be created");let o=["/usr/sbin/nologin","/sbin/nologin"].find(i=>jd(i))??"/bin/false",s=await Z(t,r,["--system","--user-group","--no-create-home","--home-dir",ti(e),"--shell",o,e]);if(n=await Js(e),!n)throw new F(`could not create user ${e}: ${re(s.stderr)||`exit ${s.code}`}`)}if(!Number.isInteger(n.uid)||n.uid===0||!Number.isInteger(n.gid)||n.gid===0)throw new F(`user ${e} exists but is not an unprivileged user (uid ${n.uid})`);return zd(t,n)}a(ni,"ensureUser");async function zd(t,e){let n=e.home,r=ti(e.user);if(!n||n==="/nonexistent"||!n.startsWith("/")){let o=V("usermod");if((o?await Z(t,o,["--home",r,e.user]):void 0)?.code!==0)return e;n=r}if(n===r){let o=V("install");if(!o)throw new F("install (coreutils) is not installed");let s=await Z(t,o,["-d","-m","0700","-o",String(e.uid),"-g",String(e.gid),n]);if(s.code!==0)throw new F(`could not make the home folder ${n}: ${re(s.stderr)||`exit ${s.code}`}`)}return{...e,home:n}}a(zd,"ensureHome");function ai(t,e){if(e.code!==0)throw new F(`${t}: ${re(e.stderr)||`exit ${e.code}`}`)}a(ai,"check");async function tn(t,e){(await e()).code!==0&&ai(t,await e())}a(tn,"twice");var ru=["-type","f","-links","1","-perm","-004"],ou=["-type","f","(","-links","+1","-o","!","-perm","-004",")"],ci=a(t=>["-type","d","!","-perm","-001","!","-samefile",t],"privateFolder");function He(t){let e=V(t);if(!e)throw new F(`${t} is not installed`);return e}a(He,"need");var ri=3130;function mt(t,e,n,r,o){return Z(t,e,["-c",'f=$1; shift; exec "$@" > "$f"',"patchloop-walk",n,r,...o])}a(mt,"toFile");var yr=a((t,e)=>["-type","d","!","-perm","-001","!","-user",String(e),"!","-samefile",t,"-prune"],"closedFolder"),li=a((t,e)=>["-user",String(e),"-exec",He("chown"),"-h",String(rn(t).uid),"{}","+","-false"],"toOwner"),su=a(t=>t.replace(/\\([0-7]{3})/g,(e,n)=>String.fromCharCode(parseInt(n,8))),"unescapeAcl");function oi(t){let e=[];for(let n of t.split(`

`)){let r=/^# file: (.*)$/m.exec(n);r&&e.push({path:su(r[1]),text:n.trim()})}return e}a(oi,"aclBlocks");function si(t){let e=Buffer.from(t,"latin1");try{return rn(e).isSymbolicLink()?!1:Zd(e,{encoding:"buffer"}).equals(e)}catch{return!1}}a(si,"leadsToItself");function ii(t){let e=new Map;for(let n of t.split("\0")){let r=/^(\d+) ([0-7]+) (\d+) (\w) ([^]*)$/.exec(n);r&&e.set(r[5],{ino:BigInt(r[1]),mode:parseInt(r[2],8),gid:Number(r[3]),type:r[4]})}return e}a(ii,"marks");function wr(t){eu(t,{recursive:!0,force:!0})}a(wr,"cleanup");async function di(t,e,n,r){let o=Ie(n,".git"),s=(()=>{try{return rn(o).isDirectory()}catch{return!1}})();if(r==="group"&&t.viaSudo)throw new F("setfacl (package acl) is needed to share the workspace when not running as root");let i=He("find"),c=He("sh"),l=Jd(Ie(nu(),"patchloop-access-"));try{return r==="acl"?await iu(t,e,n,o,s,{find:i,sh:c,dir:l}):await au(t,e,n,o,s,{find:i,sh:c,dir:l})}catch(d){throw wr(l),d}}a(di,"openWorkspace");async function iu(t,e,n,r,o,{find:s,sh:i,dir:c}){let l=He("setfacl"),d=He("getfacl"),u=e.user,g=Ie(c,"before.acl");await tn("could not read the workspace's ACLs",()=>mt(t,i,g,s,[n,...yr(n,e.uid),"-o","!","-type","l","-exec",d,"-s","-P","-p","--","{}","+"]));let m=a(async()=>{try{let f=Ie(c,"linked.acl"),p=await mt(t,i,f,s,[n,...yr(n,e.uid),"-o",...li(n,e.uid),"-o","-type","f","-links","+1","-exec",d,"-s","-P","-p","--","{}","+","-o","!","-type","l","-exec",l,"-P","-b","--","{}","+"]),w=[];p.code!==0&&w.push(re(p.stderr)||`exit ${p.code}`);let x=new RegExp(`^(default:)?user:${u.replace(/[.*+?^${}()|[\]\\]/g,"\\$&")}:`,"m"),E=oi(nn(f,"latin1")).filter(S=>x.test(S.text)&&si(S.path)).map(S=>S.path);for(let S=0;S<E.length;S+=500){let R=await Z(t,l,["-P","-b","--",...E.slice(S,S+500)]);R.code!==0&&w.push(re(R.stderr)||`exit ${R.code}`)}let v=oi(nn(g,"latin1")).filter(S=>si(S.path));if(v.length){let S=Ie(c,"restore.acl");tu(S,v.map(P=>P.text).join(`

`)+`

`,{encoding:"latin1",mode:384});let R=await Z(t,l,[`--restore=${S}`]);R.code!==0&&w.push(re(R.stderr)||`exit ${R.code}`)}if(w.length)throw new F(`the workspace's ACLs were not all put back: ${w[0]}`)}finally{wr(c)}},"revoke"),b=process.getuid?.()??0,$=b===0?"":`,d:u:${b}:rwX`,h=a((f,p,w)=>Z(t,s,[f,...w,...ci(f),"-prune","-o","-type","d","-exec",l,"-P","-m",`u:${u}:${p},d:u:${u}:${p}${$},d:o::rX`,"{}","+","-o",...ru,"-exec",l,"-P","-m",`u:${u}:${p}`,"{}","+"]),"grant");try{await tn(`could not open the workspace to ${u}`,()=>h(n,"rwX",["-path",r,"-prune","-o"])),o&&await tn(`could not make .git read-only to ${u}`,()=>h(r,"rX",[]))}catch(f){throw await m().catch(()=>{}),f}return{method:"acl",revoke:m}}a(iu,"openAcl");async function au(t,e,n,r,o,{find:s,sh:i,dir:c}){let l=He("chmod"),d=He("chown"),u=String(e.gid),g=["-printf","%i %m %G %y %p\\0"],m=a(f=>mt(t,i,f,s,[n,...g,"(","-path",r,"-prune","-o",...ou,"-prune","-o",...ci(n),"-prune","-o","!","-group",u,"-exec",d,"-h",`:${u}`,"{}","+","-false","-o","-type","d","!","-perm","-2070","-exec",l,"g+rwxs","{}","+","-o","!","-type","d","!","-type","l","!","-perm","-060","-exec",l,"g+rw","{}","+",")"]),"open"),b=a(f=>mt(t,i,f,s,[r,"!","-type","l","-perm","-002",...g,"-exec",l,"o-w","{}","+"]),"closeGit"),$=[],h=a(async()=>{try{await cu(t,e,n,s,i,c,$)}finally{wr(c)}},"revoke");try{if(await tn(`could not give the workspace to group ${e.user}`,()=>{let f=Ie(c,`open-${$.length}`);return $.push(f),m(f)}),o){let f=Ie(c,"git");$.push(f),ai("could not make .git read-only to others",await b(f))}}catch(f){throw await h().catch(()=>{}),f}return{method:"group",revoke:h}}a(au,"openGroup");async function cu(t,e,n,r,o,s,i){let c=new Map;for(let $ of i){let h;try{h=nn($,"latin1")}catch{continue}for(let[f,p]of ii(h))c.has(f)||c.set(f,p)}let l=Ie(s,"after"),d=await mt(t,o,l,r,[n,...yr(n,e.uid),"-printf","%i %m %G %y %p\\0","-o",...li(n,e.uid),"-o","-printf","%i %m %G %y %p\\0"]),u=[];d.code!==0&&u.push(re(d.stderr)||`exit ${d.code}`);let g=rn(n),m=new Map,b=a($=>$.slice(0,$.lastIndexOf("/"))||"/","parentOf");for(let[$,h]of ii(nn(l,"latin1"))){let f=c.get($),p=Buffer.from($,"latin1"),w=h.gid,x=h.mode;f&&f.ino===h.ino?(w=f.gid,x=h.mode&~ri|f.mode&ri):h.gid===e.gid&&(w=m.get(b($))??(f?f.gid:g.gid),h.type==="d"&&!(f&&f.mode&1024)&&(x=h.mode&-1025));try{w!==h.gid&&Qd(p,-1,w),h.type!=="l"&&(x!==h.mode||w!==h.gid)&&Vd(p,x)}catch(E){E.code!=="ENOENT"&&u.push(`${$}: ${E.message}`)}h.type==="d"&&m.set($,w)}if(u.length)throw new F(`the workspace's groups and modes were not all put back (${u.length}): ${u[0]}`)}a(cu,"restoreGroup");import{spawnSync as ui}from"node:child_process";var lu={x64:{keyctl:250,addKey:248,arch:"x86_64"},arm64:{keyctl:219,addKey:217,arch:"aarch64"}},ht=["-t","-X"],du=String.raw`my $nr = 0 + shift @ARGV;
for my $ring (-4, -5) {
  if (syscall($nr, 7, $ring) != 0) { print STDERR "patchloop sandbox: the sandbox user's keyrings cannot be emptied\n"; exit 125; }
}
if (syscall($nr, 1, undef) < 0) { print STDERR "patchloop sandbox: no session keyring of its own: $!\n"; exit 125; }
exec { $ARGV[0] } @ARGV;
print STDERR "patchloop sandbox: $ARGV[0]: $!\n";
exit 127;`,uu=String.raw`k=$1 sh=$2; shift 2
{ "$k" clear @u && "$k" clear @us; } || { echo "patchloop sandbox: the sandbox user's keyrings cannot be emptied" >&2; exit 125; }
exec 3>&2
exec "$k" session - "$sh" -c 'exec 2>&3 3>&-; exec "$@"' patchloop-keyring "$@" 2>/dev/null`,fu=String.raw`my ($nr, $arch) = @ARGV;
require Config;
exit 3 unless $Config::Config{archname} =~ /^\Q$arch\E-linux/ && $Config::Config{ptrsize} == 8;
if (syscall(0 + $nr, 1, undef) < 0) { print 0 + $!; exit 4; }
exit 0;`,pu=String.raw`my ($nr, $name) = @ARGV;
local $/;
my $value = <STDIN>;
$value = '' unless defined $value;
my $type = 'user';
my $id = syscall(0 + $nr, $type, $name, $value, length($value), -3);
exit 1 if $id < 0;
print $id;`,mu=String.raw`my ($nr, $id, $name) = @ARGV;
$nr = 0 + $nr;
my $buf = "\0" x 4096;
exit 0 if syscall($nr, 11, 0 + $id, $buf, 4096) >= 0;
my $type = 'user';
exit 0 if syscall($nr, 10, -3, $type, $name, 0) > 0;
exit 1;`,hu=String.raw`my ($nr, $id) = @ARGV;
exit(syscall(0 + $nr, 9, 0 + $id, -3) == 0 ? 0 : 1);`,$u=new Set([1,38]);function fi(t=[]){let e=[],n=t.includes("perl")?void 0:V("perl"),r=lu[process.arch];n&&r&&e.push({kind:"perl",perl:n,...r});let o=t.includes("keyctl")?void 0:V("keyctl");return o&&e.push({kind:"keyctl",keyctl:o}),e.length?e:n?`keyctl is not installed (keyutils), and perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}: each command gets a keyring of its own with one of them`:"neither perl nor keyctl is installed (perl-base or keyutils): each command gets a keyring of its own with one of them"}a(fi,"findKeyringTools");async function pi(t,e){if(t.kind==="keyctl")return(await Le(t.keyctl,["session","-",e,"-c","exit 0"])).code===0?"works":"refused";let n=await Le(t.perl,[...ht,"-e",fu,"--",String(t.keyctl),t.arch]);return n.code===0?"works":n.code===4&&$u.has(Number(n.stdout.trim()))?"refused":n.code===3?`${t.perl} is not a 64-bit ${t.arch} perl`:`${t.perl} could not join a session keyring (exit ${n.code}${n.stdout.trim()?`, errno ${n.stdout.trim()}`:""})`}a(pi,"probeKeyrings");function mi(t,e){return t.kind==="perl"?[t.perl,...ht,"-e",du,"--",String(t.keyctl)]:[e,"-c",uu,"patchloop-keyring",t.keyctl,e]}a(mi,"keyringStep");var hi={PATH:"/usr/sbin:/usr/bin:/sbin:/bin"};function $i(t,e,n){let[r,o]=t.kind==="perl"?[t.perl,[...ht,"-e",pu,"--",String(t.addKey),e]]:[t.keyctl,["padd","user",e,"@s"]],s=ui(r,o,{input:n,encoding:"utf8",env:hi,timeout:1e4}),i=s.stdout?.trim();return s.status===0&&/^\d+$/.test(i??"")?i:void 0}a($i,"plantKey");function gi(t,e){let[n,r]=t.kind==="perl"?[t.perl,[...ht,"-e",hu,"--",String(t.keyctl),e]]:[t.keyctl,["unlink",e,"@s"]];ui(n,r,{stdio:"ignore",env:hi,timeout:1e4})}a(gi,"unlinkKey");function yi(t,e,n){return t.kind==="perl"?[[t.perl,...ht,"-e",mu,"--",String(t.keyctl),e,n]]:[[t.keyctl,"print",e],[t.keyctl,"search","@s","user",n]]}a(yi,"keyLookup");import{join as Ku}from"node:path";import{readFileSync as gu}from"node:fs";import{cpus as yu}from"node:os";var br={processes:1024,fileBytes:2*1024**3,openFiles:8192},wu=3600,wi=10;function bi(t,e=Math.max(1,yu().length)){return(t!==void 0&&t>0?Math.ceil(t/1e3):wu)*e+5}a(bi,"cpuSecondsFor");var bu='echo 1000 > /proc/self/oom_score_adj 2>/dev/null; exec "$@"',ku={processes:"Max processes",dataBytes:"Max data size",fileBytes:"Max file size",openFiles:"Max open files",cpuSeconds:"Max cpu time"};function on(t){let e=t;if(e===void 0)try{e=gu("/proc/self/limits","latin1")}catch{return{}}let n={};for(let[r,o]of Object.entries(ku)){let i=e.split(`
`).find(c=>c.startsWith(o))?.slice(o.length).trim().split(/\s+/)[1];i&&(n[r]=i==="unlimited"?1/0:Number(i))}return n}a(on,"currentHardLimits");function kr(t,e,n=on()){let r=t.cpuSeconds??bi(e),o=a((i,c)=>Math.max(1,Math.floor(Math.min(c,n[i]??1/0))),"n"),s=a((i,c,l)=>[i,o(c,l),o(c,l)],"same");return[s("nproc","processes",t.processes),...t.dataBytes!==void 0?[s("data","dataBytes",t.dataBytes)]:[],s("fsize","fileBytes",t.fileBytes),s("nofile","openFiles",t.openFiles),["cpu",o("cpuSeconds",r),o("cpuSeconds",r+wi)]]}a(kr,"rlimits");function xu(t,e,n=on()){return kr(t,e,n).map(([r,o,s])=>r==="cpu"?`--cpu=${o}:${s}`:`--${r}=${o}`)}a(xu,"prlimitArgs");function ki(t,e,n){return[t.prlimit,...xu(e,n),"--",t.sh,"-c",bu,"patchloop-oom"]}a(ki,"limitSteps");var vu={9:"SIGKILL",24:"SIGXCPU",25:"SIGXFSZ"};function xi(t,e,n){if(n.timedOut||n.aborted)return;let r=n.exitCode,o=n.signal??(r!==null&&r>128?vu[r-128]:void 0),s=t.cpuSeconds??bi(e),i=a(c=>c>=1024**3?`${+(c/1024**3).toFixed(2)} GiB`:`${+(c/1024**2).toFixed(2)} MiB`,"gib");if(o==="SIGXCPU")return`The command was ended by SIGXCPU (exit ${r??152}): a process of it used up the CPU-time limit of ${s} CPU-seconds per process (RLIMIT_CPU, all its threads counted).`;if(o==="SIGXFSZ")return`The command was ended by SIGXFSZ (exit ${r??153}): it wrote past the file-size limit of ${i(t.fileBytes)} per file (RLIMIT_FSIZE).`;if(r!==0&&n.outputTail!==void 0&&/\b(File too large|EFBIG)\b/i.test(n.outputTail))return`A write failed with EFBIG ("File too large"): the file-size limit is ${i(t.fileBytes)} per file (RLIMIT_FSIZE).`;if(o==="SIGKILL")return`The command was killed by SIGKILL (exit ${r??137}), not by patchloop (it had not timed out): most likely the kernel's out-of-memory killer, which takes commands first (the machine ran out of memory), or the CPU-time hard limit of ${s+wi} CPU-seconds per process.`}a(xi,"limitKillNote");import{spawn as Au}from"node:child_process";import{lstatSync as Qe,mkdtempSync as Tu,readdirSync as Oi,readFileSync as Pi,realpathSync as Ru,rmSync as Ou,writeFileSync as Pu}from"node:fs";import{availableParallelism as Cu,tmpdir as Ci}from"node:os";import{join as Ae}from"node:path";var vi=`# The overlay's move (see overlay.ts), run as root once a command has ended: what the command wrote
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
`;var xr=`# The overlay's mounts in a command's namespace (see overlay.ts and launch.ts's prelude), run as
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
`;var _i=`# A command's view of the machine (see view.ts and launch.ts), built as root first thing in the
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
#  1. The binds that must be taken before the overlay is mounted (the checkout's own \`.git\`, the
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

sub fail { print STDERR "patchloop sandbox: $_[0]\\n"; exit 125; }

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
for my $k (qw(read-only tree scratch cover blank layered)) {
  m{\\A/} or fail("--$k is not an absolute path: $_") for @{ $list{$k} };
}
for my $k (qw(bind file link)) {
  for (@{ $list{$k} }) {
    $_->[0] =~ m{\\A/} or fail("--$k is not an absolute path: $_->[0]");
    $k eq 'link' || $_->[1] =~ m{\\A/} or fail("--at is not an absolute path: $_->[1]");
  }
}
@prep && $view !~ /\\A(overlay|in-place)\\z/ and fail("--prep is for the overlay only");
my $layers = $arg{layers} // '';
my ($hreader, %hnr, $HO_DIRECTORY) = ('');
if ($layers ne '') {
  $layers =~ m{\\A/[^,:\\\\\\s]*\\z} or fail("--layers is not a plain absolute path");
  $hreader = need('layer-reader');
  $hreader =~ /\\A[0-9]+\\z/ or fail("--layer-reader is not an id");
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
  for (["uid_map", "$ou $uid 1\\n"], ["gid_map", "$og $gid 1\\n"]) {
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
`;var sn=`${xr}
package main;
PatchloopPrep::run(@ARGV);
exit 0;
`,Si=`${xr}
${_i}`,Ei=vi;var Ai={open_tree:428,move_mount:429,fsopen:430,fsconfig:431,fsmount:432,mount_setattr:442},Lu={x64:{...Ai,unshare:272,mount:165,umount2:166,pivot_root:155,prlimit64:302,setresuid:117,setresgid:119,capset:126,prctl:157,keyctl:250,setfsuid:122,setfsgid:123,setgroups:116,openat:257,mkdirat:258,fchownat:260,unlinkat:263,renameat2:316,fchmodat:268,statx:332,getdents64:217,fgetxattr:193,fremovexattr:199,lremovexattr:198,mknodat:259,readlinkat:267,symlinkat:266,utimensat:280,o_directory:65536,o_nofollow:131072},arm64:{...Ai,unshare:97,mount:40,umount2:39,pivot_root:41,prlimit64:261,setresuid:147,setresgid:149,capset:91,prctl:167,keyctl:219,setfsuid:151,setfsgid:152,setgroups:159,openat:56,mkdirat:34,fchownat:54,unlinkat:35,renameat2:276,fchmodat:53,statx:291,getdents64:61,fgetxattr:10,fremovexattr:16,lremovexattr:15,mknodat:33,readlinkat:78,symlinkat:36,utimensat:88,o_directory:16384,o_nofollow:32768}};function Li(){return Lu[process.arch]}a(Li,"overlaySyscalls");var Iu={x64:"x86_64",arm64:"aarch64"},Du=String.raw`require Config;
exit($Config::Config{archname} =~ /^\Q$ARGV[0]\E-linux/ && $Config::Config{ptrsize} == 8 ? 0 : 3);`,Ti=new Map;function Ii(t){let e=Ti.get(t);if(!e){let n=Iu[process.arch];e=n?Le(t,[...$t,"-e",Du,"--",n]).then(r=>r.code===0):Promise.resolve(!1),Ti.set(t,e)}return e}a(Ii,"perlFits");function an(t,e){return e.map(n=>n.startsWith("o_")?`--o-${n.slice(2)}=${t[n]}`:`--sys-${n}=${t[n]}`)}a(an,"archArgs");var Nu=["setfsuid","setfsgid","setgroups","open_tree","move_mount","mount_setattr","fsopen","fsconfig","fsmount","o_directory"],Di=["mount","unshare","setfsuid","setfsgid","open_tree","move_mount","mount_setattr","fsopen","fsconfig","fsmount","o_directory","umount2","pivot_root","prlimit64","setgroups","setresuid","setresgid","capset","prctl","keyctl"],Mu=["openat","mkdirat","fchownat","unlinkat","renameat2","fchmodat","statx","getdents64","fgetxattr","fremovexattr","lremovexattr","mknodat","readlinkat","symlinkat","utimensat","o_directory","o_nofollow"];var $t=["-t","-X"],Ri=5e3,Bu={bytes:1024**3,seconds:120,waitSeconds:30};function Gu(t,e){return[`--layer=${e.layer}`,`--workspace=${e.workspace}`,`--uid=${e.owner.uid}`,`--gid=${e.owner.gid}`,`--own=${e.own}`,`--max-bytes=${Math.floor(e.budget.bytes)}`,`--max-seconds=${Math.floor(e.budget.seconds)}`,`--wait-seconds=${Math.floor(e.budget.waitSeconds)}`,`--follow=${e.follow?1:0}`,`--spare=${e.spare?1:0}`,...an(t,Mu),...e.hidden.map(n=>`--hidden=${n}`)]}a(Gu,"applyArgs");function Fu(t,e){if(t.code!==0)return`what the command wrote could not be moved into the workspace (${re(t.stderr)||`exit ${t.code}`}); it is kept in ${e}`;let n=t.stdout.split(`
`),r=n.find(s=>s.startsWith("refused "));if(r)return`NOTHING the command wrote was put into the workspace: ${r.slice(8)}; the workspace is as it was before the command, and its changes are discarded (write less, or to fewer, smaller files)`;let o=n.filter(s=>s.startsWith("error ")).map(s=>s.slice(6));if(o.length)return`${o.length} of the command's changes could not be moved into the workspace (kept in ${e}): ${o.slice(0,5).join("; ")}`}a(Fu,"moveNote");function gt(t){return/^[^,:\\\s]+$/.test(t)}a(gt,"isPlainPath");function vr(...t){return[65534,65533,65532].find(e=>!t.includes(e))}a(vr,"readerId");function cn(t,e,n,r,o){return[`--owner-uid=${e.uid}`,`--owner-gid=${e.gid}`,`--sandbox-uid=${n.uid}`,`--sandbox-gid=${n.gid}`,`--reader=${r??""}`,...an(t,Nu),...o.folders.map(s=>`--folder=${s}`),...o.files.map(s=>`--file=${s}`),"--end"]}a(cn,"prepArgs");var _r="patchloop-overlay-",Hu=6*36e5;function Ni(t){try{let e=Pi(`/proc/${t}/stat`,"latin1");return e.slice(e.lastIndexOf(")")+2).split(" ")[19]}catch{return}}a(Ni,"startOf");function ln(t,e=Ci()){let n=Tu(Ae(e,t));return Pu(Ae(n,"owner"),`${process.pid} ${Ni(process.pid)??""}
`,{mode:384}),n}a(ln,"makeState");async function Sr(t,e,n=Ci(),r=_r){let o=process.getuid?.(),s;try{s=Oi(n).filter(c=>c.startsWith(r))}catch{return[]}let i=[];for(let c of s){let l=Ae(n,c);try{let d=Qe(l);if(!d.isDirectory()||d.uid!==o)continue;let u;try{u=Pi(Ae(l,"owner"),"utf8")}catch{u=void 0}if(u===void 0){Date.now()-d.mtimeMs>Hu&&i.push(l);continue}let[g,m]=u.trim().split(" ");/^[0-9]+$/.test(g??"")&&m!==void 0&&Ni(Number(g))===m||i.push(l)}catch{}}return i.length&&await Z(t,e,["-rf","--",...i]),i.map(c=>c.slice(n.length+1))}a(Sr,"removeStaleState");async function Mi(t,e,n,r){await Sr(t,n.rm);let o=Qe(e),s={uid:o.uid,gid:o.gid},i=vr(s.uid,s.gid),c={uid:i,gid:i},l=a(async u=>{let g=ln(`${_r}probe-`);try{if(!gt(g))return`${g} cannot be named in the overlay's options`;let m=await Z(t,n.unshare,["--mount","--propagation","private","--",n.perl,...$t,"-e",sn,"--",`--view=${u?"probe":"overlay"}`,`--sys-unshare=${r.unshare}`,`--sys-mount=${r.mount}`,`--workspace=${e}`,`--stash=${g}`,`--layer=${Ae(g,"layer")}`,...cn(r,s,c,u?vr(s.uid,s.gid,i):void 0,{folders:[],files:[]})]);return m.code===0?void 0:`no idmapped overlay of the workspace here (${re(m.stderr)||`exit ${m.code}`})`}finally{await Z(t,n.rm,["-rf","--",g])}},"attempt");return(o.mode&5)===5&&await l(!0)===void 0?{filter:!0}:await l(!1)??{filter:!1}}a(Mi,"tryOverlay");async function Uu(t,e,n,r,o){let s=Ae(e,".git"),i=["-type","d","!","-perm","-001","-prune","-printf","d%p\\0","-o","-type","f","!","-perm","-004","-printf","f%p\\0","-o","-user",String(o),"-printf","u%p\\0"],c=a(async f=>{let p=await Z(t,n.find,f,{maxBuffer:1073741824,timeoutMs:18e5});if(p.code!==0)throw new F(`could not list the workspace's private paths: ${re(p.stderr)||`exit ${p.code}`}`);return p.stdout},"walk"),l=e.replace(/[[\]*?\\]/g,"\\$&"),d=await c([e,"-maxdepth","2","(","-path",s,"-prune","-o","-samefile",e,"-o","-path",`${l}/*/*`,"-type","d","-perm","-001","-printf","r%p\\0","-o",...i,")"]),u=d.split("\0").filter(f=>f[0]==="r").map(f=>f.slice(1)),g=Math.max(1,Math.min(Cu(),8,u.length)),m=await Promise.all(Array.from({length:u.length?g:0},(f,p)=>c([...u.filter((w,x)=>x%g===p),...i]))),b=new Map,$=[d,...m].join("\0").split("\0").filter(Boolean),h=$.filter(f=>f[0]==="u").map(f=>f.slice(1));for(let f=0;f<h.length;f+=500){let p=await Z(t,n.chown,["-h","--",`${r.uid}:${r.gid}`,...h.slice(f,f+500)]);if(p.code!==0)throw new F(`could not give an earlier run's files back to the checkout's owner: ${re(p.stderr)||`exit ${p.code}`}`)}for(let f of $){if(f[0]!=="d"&&f[0]!=="f")continue;let p=f.slice(1);try{let w=Qe(p);b.set(p,{dev:w.dev,ino:w.ino,folder:f[0]==="d"})}catch{}}return b}a(Uu,"findPrivate");async function Bi(t,e,n,r,o,s){let i=Qe(e),c={uid:i.uid,gid:i.gid},l=s?new Map:await Uu(t,e,n,c,o.uid);if(l.size>Ri)return`the workspace holds ${l.size} paths others may not read (more than ${Ri})`;let d=ln(_r);if(!gt(d))return Ou(d,{recursive:!0,force:!0}),`${d} cannot be named in the overlay's options`;let u=a(m=>m.slice(e.length+1),"relative"),g={owner:c,...s?{reader:vr(c.uid,c.gid,o.uid,o.gid)}:{},hidden:{folders:[...l].filter(([,m])=>m.folder).map(([m])=>m),files:[...l].filter(([,m])=>!m.folder).map(([m])=>m)},state:d,next:0,budget:{...Bu},verify(){for(let[m,b]of l){let $;try{let h=Qe(m);$=h.dev===b.dev&&h.ino===b.ino&&Ru(m)===m}catch{$=!Wu(m)}if(!$)throw new F(`${u(m)} is no longer the private path the set-up covered`)}},async apply(m){let b=Ae(d,String(m));try{if(Oi(Ae(b,"up")).length===0)return}catch{}let $=await ju(t,n.perl,[...$t,"-e",Ei,"--",...Gu(r,{layer:b,workspace:e,owner:c,own:Ae(d,"own"),budget:g.budget,follow:g.followLinks===!0,spare:g.replacesPrivate===!0,hidden:[...l.keys()].map(u)})]);return Fu($,b)},async dispose(){await Z(t,n.rm,["-rf","--",d])}};return g}a(Bi,"openOverlay");function Wu(t){try{return Qe(t),!0}catch{return!1}}a(Wu,"existsQuiet");function ju(t,e,n){let[r,o]=gr(t,e,n);return new Promise(s=>{let i=Au(r,o,{detached:!0,stdio:["ignore","pipe","pipe"],env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"}}),c=[],l=[];i.stdout.on("data",d=>c.push(d)),i.stderr.on("data",d=>l.push(d)),i.once("error",d=>s({code:127,stdout:"",stderr:d.message})),i.once("close",d=>s({code:d??1,stdout:Buffer.concat(c).toString("utf8"),stderr:Buffer.concat(l).toString("utf8")}))})}a(ju,"detachedAsRoot");var pe="/tmp/home",yt=["/tmp","/var/tmp","/dev/shm"],Xu=String.raw`set -euo pipefail
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
exec "$@"`.replaceAll("%{","${"),Yu=['for f in /proc/self/fd/*; do n=${f##*/}; [ "$n" -gt 2 ] && exec {n}>&-; done','umask "$3"',"exec 3>&2 2>/dev/null","set -m",`trap 'kill -TERM -- -"$c"' TERM INT HUP`,'"$2" -c "$1" 0<&0 2>&3 3>&- &',"c=$!",'while :; do wait "$c"; s=$?; kill -0 "$c" 2>/dev/null || exit "$s"; done'].join(`
`),Gi=["--pid","--fork","--kill-child","--mount","--mount-proc","--propagation","private","--ipc","--uts"],qu="--net";function dn(t){return t?[...Gi,qu]:[...Gi]}a(dn,"namespaceOptions");var Fi=String.raw`const net = require('net'), fs = require('fs');
process.setgroups([]); process.setgid(Number(process.argv[2])); process.setuid(Number(process.argv[1]));
const server = net.createServer((c) => {
  const u = net.connect('proxy.sock');
  c.on('error', () => u.destroy()); u.on('error', () => c.destroy());
  c.pipe(u); u.pipe(c);
});
server.listen(0, '127.0.0.1', () => fs.writeSync(1, server.address().port + '\n'));`,zu=String.raw`set -eu
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
exec "$@"`;function Vu(t){let e=t.network;if(!e)return[];let{bins:n,account:r}=t;return[n.bash,"-c",zu,"patchloop-network",e.ip,n.env,e.bridge?.node??"",e.bridge?.socketDir??"/",String(r.uid),String(r.gid),Fi]}a(Vu,"networkStep");var Je=a(t=>[String(t.length),...t],"counted"),Er=a(t=>[String(t.length),...t.flat()],"pairs");function Qu(t,e,n,r,o={}){let{bins:s,account:i}=t,c=t.overlay,l=c!==void 0&&o.layer!==void 0&&!o.readOnly,d=l?c.inPlace?"in-place":"overlay":o.readOnly?"read-only":"shared",u=l?Ku(c.access.state,String(o.layer)):"",g=[s.setpriv,"--pdeathsig","KILL","--",s.unshare,...dn(t.network!==void 0).filter(m=>!t.keepIpcUts||m!=="--ipc"&&m!=="--uts"),"--"];return t.perl?g.push(...Zu(t,t.perl,n,d,u,l,r)):(g.push(...ef(t,n,d,u,l,r),s.setpriv,"--reuid",String(i.uid),"--regid",String(i.gid),"--clear-groups","--no-new-privs","--inh-caps=-all",...t.keepBoundingSet?[]:["--bounding-set=-all"],"--"),t.freshKeyring&&g.push(...mi(s.keyring,s.sh))),g.push(s.bash,"-c",Yu,"patchloop-init",e,s.bash,t.groupAccess?"002":"022"),g}a(Qu,"commandArgv");function Ju(t,e,n){let r=t.overlay,{access:o,syscalls:s}=r;return[`--view=${e}`,`--sys-unshare=${s.unshare}`,`--sys-mount=${s.mount}`,`--workspace=${t.workspace}`,`--stash=${t.stash}`,`--layer=${n}`,...cn(s,o.owner,t.account,o.reader,o.hidden)]}a(Ju,"prepFor");function Zu(t,e,n,r,o,s,i){let c=t.view,{account:l}=t,d=t.network,u=a(($,h)=>h.map(f=>`--${$}=${f}`),"named"),g=t.overlay?.access.reader,m=t.homeLayers!==void 0&&g!==void 0&&c.layered?.length?[`--layers=${t.homeLayers}`,`--layer-reader=${g}`,...u("layered",c.layered)]:[],b=a(($,h,f)=>f.flatMap(([p,w])=>[`--${$}=${p}`,`--${h}=${w}`]),"paired");return[e.perl,...$t,"-e",Si,"--",...an(e.syscalls,Di),`--workspace=${t.workspace}`,`--stash=${t.stash}`,`--cwd=${n}`,`--owner=${l.uid}:${l.gid}`,`--home=${pe}`,`--view=${r}`,`--cache=${t.cache??""}`,`--account-home=${t.accountHome??""}`,...u("read-only",t.readOnly),...u("tree",c.trees),...u("scratch",t.scratch),...u("cover",c.covers),...b("bind","at",c.binds),...m,...b("file","at",c.files),...u("blank",c.blanks),...b("link","to",c.links),...t.limits?[...kr(t.limits,i).map(([$,h,f])=>`--rlimit=${$}:${h}:${f}`),"--oom-first=1"]:[],...d?["--net-lo=1"]:[],...d?.bridge?[`--bridge-node=${d.bridge.node}`,`--bridge-dir=${d.bridge.socketDir}`,`--bridge-uid=${l.uid}`,`--bridge-gid=${l.gid}`,`--bridge-code=${Fi}`]:[],...t.freshKeyring?["--fresh-keyring=1"]:[],...t.keepBoundingSet?["--keep-bounding-set=1"]:[],...s?["--prep",...Ju(t,r,o)]:[],"--"]}a(Zu,"perlView");function ef(t,e,n,r,o,s){let{bins:i,account:c}=t,l=t.view,d=t.overlay,u=o?cn(d.syscalls,d.access.owner,c,d.access.reader,d.access.hidden):[];return[...Vu(t),i.bash,"-c",Xu,"patchloop-prelude",i.mount,i.umount,i.mkdir,i.chown,i.chmod,i.pivot_root,i.findmnt,i.ln,t.workspace,t.stash,`${c.uid}:${c.gid}`,pe,e,n,d?.perl??"",sn,String(d?.syscalls.unshare??0),String(d?.syscalls.mount??0),r,t.cache??"",t.accountHome??"",...Je(t.readOnly),...Je(u),...Je(l.trees),...Je(t.scratch),...Je(l.covers),...Er(l.binds),...Er(l.files),...Je(l.blanks),...t.readOnly,...Er(l.links),...t.limits?ki(i,t.limits,s):[]]}a(ef,"bashView");function un(t,e,n,r,o,s={}){let i=Qu(t,e,n,o,s);if(!t.root.viaSudo)return{file:i[0],args:i.slice(1),env:r};let c=Object.entries(r).map(([l,d])=>`${l}=${d}`);return{file:t.root.prefix[0],args:[...t.root.prefix.slice(1),t.bins.env,"-i",...c,...i],env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin"}}}a(un,"launch");import{chmodSync as tf}from"node:fs";import{createServer as nf,request as rf}from"node:http";import{lookup as of}from"node:dns/promises";import{connect as sf,isIP as af}from"node:net";var cf=new Set([80,443]),Hi=3e4,lf=200,Ar=1e4,df=a(async(t,e)=>af(t)?[{address:t,port:e}]:(await of(t,{all:!0,verbatim:!0})).map(r=>({address:r.address,port:e})),"systemResolver");function Tr(t){return/^[a-z0-9.:-]{1,253}$/.test(t)?t:"(a malformed destination)"}a(Tr,"recordable");function uf(t){let e=/^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):(\d{1,5})$/.exec(t);if(e)return{host:pt(e[1]),port:Number(e[2])}}a(uf,"splitAuthority");async function Ui(t){let e=t.resolve??df,n=t.addressAllowed??$r,r=t.hosts.map(pt),o=new Map,s=[],i=0,c=new Set,l=a(($,h)=>{let f=Tr($);!o.has(f)&&o.size>=lf&&(f="(other hosts)");let p=o.get(f)??{host:f,reason:h,count:0};return p.count++,o.set(f,p),s.push(f),s.length>Ar&&(i+=s.length-Ar/2,s=s.slice(-Ar/2)),t.onRefused?.(f,h),{ok:!1,reason:h}},"refuse"),d=a(async($,h)=>{if(!$)return l("(a malformed destination)","not a host name");if(!zs(r,$))return l($,"not in command-network");if(!cf.has(h))return l(`${$}:${h}`,"only ports 80 and 443 are allowed");let f;try{f=await e($,h)}catch{return{ok:!1,reason:`${$} could not be resolved`}}let p=f.filter(w=>n(w.address));return p.length?{ok:!0,targets:p}:l($,"it resolves to a loopback, private or link-local address")},"decide"),u=a($=>new Promise((h,f)=>{let p=a((w,x)=>{let E=$[w];if(!E)return f(x??new Error("no address"));let v=sf({host:E.address,port:E.port});v.setTimeout(Hi,()=>v.destroy(new Error("connect timeout"))),v.once("connect",()=>{v.setTimeout(0),h(v)}),v.once("error",S=>p(w+1,S))},"next");p(0)}),"open"),g=a($=>{c.add($),$.once("close",()=>c.delete($))},"track"),m=nf();m.on("connection",g),m.on("connect",($,h,f)=>{h.on("error",()=>{});let p=uf($.url??"");(async()=>{let w=p?await d(p.host,p.port):l("","not a host name");if(!w.ok){let E=w.reason.includes("resolved")?"502 Bad Gateway":"403 Forbidden";h.end(`HTTP/1.1 ${E}\r
Content-Type: text/plain\r
Connection: close\r
\r
patchloop command-network: ${p?Tr(p.host):"this destination"} is refused (${w.reason}).
`);return}let x;try{x=await u(w.targets)}catch(E){h.end(`HTTP/1.1 502 Bad Gateway\r
Connection: close\r
\r
${E.message}
`);return}g(x),x.on("error",()=>h.destroy()),h.on("error",()=>x.destroy()),h.on("close",()=>x.destroy()),x.on("close",()=>h.destroy()),h.write(`HTTP/1.1 200 Connection Established\r
\r
`),f.length&&x.write(f),x.pipe(h),h.pipe(x)})()}),m.on("request",($,h)=>{(async()=>{let f;try{f=new URL($.url??"")}catch{f=void 0}if(!f||f.protocol!=="http:"){l("","not an absolute http:// request"),h.writeHead(400,{"content-type":"text/plain"}).end(`patchloop command-network: the proxy takes CONNECT host:443 and absolute http:// requests only.
`);return}let p=pt(f.hostname),w=f.port?Number(f.port):80,x=await d(p,w);if(!x.ok){h.writeHead(x.reason.includes("resolved")?502:403,{"content-type":"text/plain"}).end(`patchloop command-network: ${Tr(p)} is refused (${x.reason}).
`);return}let E={...$.headers};for(let R of["proxy-authorization","proxy-connection","connection","keep-alive"])delete E[R];let v=x.targets[0],S=rf({host:v.address,port:v.port,method:$.method,path:`${f.pathname}${f.search}`,headers:{...E,host:f.host},setHost:!1});S.setTimeout(Hi,()=>S.destroy(new Error("timeout"))),S.on("response",R=>{h.writeHead(R.statusCode??502,R.headers),R.pipe(h)}),S.on("error",R=>{h.headersSent?h.destroy():h.writeHead(502,{"content-type":"text/plain"}).end(`${R.message}
`)}),$.pipe(S)})()}),m.on("clientError",($,h)=>{$.code!=="ECONNRESET"&&h.writable?(l("","not a valid request"),h.end(`HTTP/1.1 400 Bad Request\r
Connection: close\r
\r
`)):h.destroy()}),await new Promise(($,h)=>{m.once("error",h),m.listen(t.socketPath,()=>{m.off("error",h),$()})}),tf(t.socketPath,438);let b=a($=>{let h=new Map;for(let f of $){let p=h.get(f)??{host:f,reason:o.get(f)?.reason??"",count:0};p.count++,h.set(f,p)}return[...h.values()]},"dedupe");return{socketPath:t.socketPath,refused:a(()=>[...o.values()].map($=>({...$})),"refused"),refusals:a(()=>i+s.length,"refusals"),refusedSince:a($=>b(s.slice(Math.max(0,$-i))),"refusedSince"),close:a(()=>new Promise($=>{for(let h of c)h.destroy();m.close(()=>$())}),"close")}}a(Ui,"startNetworkProxy");import{spawnSync as Xi}from"node:child_process";import{createHash as ff,randomBytes as pf}from"node:crypto";import{existsSync as mf,readdirSync as hf,readFileSync as $f,readlinkSync as gf,rmSync as fn,statSync as yf,writeFileSync as Wi}from"node:fs";import{createServer as Yi}from"node:net";import{dirname as ji,join as ke,relative as wf,sep as bf}from"node:path";var kf=["/run","/var/run","/home","/root","/srv","/mnt","/media","/var/lib","/var/cache"];function xf(){return new Promise((t,e)=>{let n=Yi(r=>r.destroy());n.once("error",e),n.listen(0,"127.0.0.1",()=>{let r=n.address();t({port:typeof r=="object"&&r?r.port:0,server:n})})})}a(xf,"hostListener");var Ki="PATCHLOOP_SELF_CHECK_SECRET";async function qi(t,e){let n=pf(6).toString("hex"),r=`s3cret-${n}`,o=At,s=[];for(let p of e.privateDirs){let w=ke(p,`.patchloop-probe-${n}`);try{Wi(w,r,{mode:420,flag:"wx"}),s.push(w)}catch{}}let i=e.network?await xf():void 0,c=await vf(n),l=e.shared?[...new Set([...e.shared,...Ef(e)?[wt]:[]])]:[],d=e.view?kf:[],u=e.sharedReadOnly??[],g=`.patchloop-probe-${n}`,m=`patchloop-probe-${n}`,b=e.keyring?$i(e.keyring,m,r):void 0,$=e.ipcUts?Sf():void 0;for(let p of l){let w=ke(p,g);try{Wi(w,r,{mode:420,flag:"wx"}),s.push(w)}catch{}}let h=['echo "uid $(id -u)"',`if h=$({ sha256sum < /proc/${process.pid}/environ; } 2>/dev/null); then echo "environ $h"; fi`,`f=.patchloop-probe-${n}; if { : > "$f"; } 2>/dev/null && rm -f "$f"; then echo workspace-writable; fi`,e.processes===void 0?":":`[ "$(ulimit -u)" = ${e.processes} ] || echo "nproc $(ulimit -u)"`,`if printenv ${Ki} >/dev/null; then echo env-secret-visible; fi`,`while IFS=$'	' read -r k v; do case "$k" in Cap*:) case "$v" in *[!0]*) echo "privileges-kept $k$v";; esac;; NoNewPrivs:) [ "$v" = 1 ] || echo new-privileges-allowed;; Groups:) case "$v" in *[0-9]*) echo "groups-kept $v";; esac;; esac; done < /proc/self/status`];if(b&&e.keyring){let p=yi(e.keyring,b,m).map(w=>`${w.map(o).join(" ")} >/dev/null 2>&1`);h.push(`if ${p.join(" || ")}; then echo keyring-shared; fi`)}e.ipcUts&&h.push('echo "ns-ipc $(readlink /proc/self/ns/ipc)"','echo "ns-uts $(readlink /proc/self/ns/uts)"','if [ -r /proc/sysvipc/msg ] && [ "$(wc -l < /proc/sysvipc/msg)" -gt 1 ]; then echo ipc-visible; fi');for(let p of l)h.push(`if [ -e ${o(ke(p,g))} ]; then echo shared-visible ${o(p)}; fi`,`if { : > ${o(ke(p,`${g}-left`))}; } 2>/dev/null; then echo shared-writable ${o(p)}; fi`);for(let p of u)h.push(`if { : > ${o(ke(p,`${g}-left`))}; } 2>/dev/null; then echo shared-writable ${o(p)}; fi`);e.hasGit&&h.push(`if mv .git .git-probe-${n} 2>/dev/null; then mv .git-probe-${n} .git; echo git-renamed; fi`,`if [ -d .git ] && { : > .git/probe-${n}; } 2>/dev/null; then rm -f .git/probe-${n}; echo git-written; fi`,"if [ -f .git ] && { : >> .git; } 2>/dev/null; then echo git-written; fi");let f=a((p,w)=>{let E=["''",...[e.workspace,pe,...yt,...e.readOnlyDirs,...e.view??[]].filter(v=>v!==p&&N(v,p)).map(v=>wf(p,v).split(bf)[0]).map(o)].join("|");return`ls -A ${o(p)} 2>/dev/null | while IFS= read -r n; do case "$n" in ${E}) ;; *) echo ${w} ${o(p)}/"$n";; esac; done`},"onlyWays");i&&h.push('while IFS=: read -r n _; do n=$(printf %s $n); case "$n" in lo|Inter-*|face*) ;; *) echo "interface-visible $n";; esac; done < /proc/net/dev',`if (exec 3<>/dev/tcp/127.0.0.1/${i.port}) 2>/dev/null; then echo host-loopback-reachable; fi`,'case "$( (exec 3<>/dev/tcp/127.0.0.1/1) 2>&1)" in *refused*) ;; *) echo loopback-down;; esac',e.network?.proxy?'case "${HTTPS_PROXY:-}" in http://127.0.0.1:*) (exec 3<>/dev/tcp/127.0.0.1/"${HTTPS_PROXY##*:}") 2>/dev/null || echo proxy-unreachable;; *) echo proxy-unset;; esac':'[ -z "${HTTPS_PROXY:-}" ] || echo proxy-set');for(let p=ji(e.workspace);p!=="/";p=ji(p))h.push(f(p,"above-visible"));for(let p of e.privateDirs)h.push(f(p,"private-visible"));for(let p of d)h.push(f(p,"outside-view"));c&&h.push(`if [ -e ${o(c.path)} ]; then echo run-socket-visible; fi`);for(let p of e.readOnlyDirs)h.push(`ls ${o(p)} >/dev/null 2>&1 || echo read-only-unreadable ${o(p)}`,`if { : > ${o(ke(p,`probe-${n}`))}; } 2>/dev/null; then echo read-only-writable ${o(p)}; fi`);try{if(e.keyring&&!b)return"a key could not be put in patchloop's session keyring to probe with";let p=await Ge({command:h.join(`
`),cwd:e.workspace,env:{...e.env,[Ki]:r},sandbox:t,timeoutMs:3e4}),w=p.text.trim().split(`
`);if(p.exitCode!==0||p.spawnError)return`the probe command failed (${p.spawnError??`exit ${p.exitCode??p.signal}`}): ${w.slice(-3).join(" / ")}`;if(w[0]!==`uid ${e.uid}`)return`the probe ran as ${w[0]??"nobody"}, not uid ${e.uid}`;let x=ff("sha256").update($f("/proc/self/environ")).digest("hex");if(w.some(S=>S.startsWith("environ ")&&S.includes(x)))return"the probe could read patchloop's /proc/<pid>/environ";if(!w.includes("workspace-writable"))return"the probe could not write in the workspace";if(p.text.includes(r))return"the probe saw a value it must not see";for(let S of e.ipcUts?["ipc","uts"]:[]){let R=w.find(P=>P.startsWith(`ns-${S} `))?.slice(`ns-${S} `.length);if(!R?.startsWith(`${S}:[`))return`the probe could not tell its ${S} namespace`;if(R===gf(`/proc/self/ns/${S}`))return`the probe shares patchloop's ${S==="ipc"?"System V IPC":"host name"} namespace`}let E=[...l,...u].map(S=>ke(S,`${g}-left`)).filter(S=>mf(S));if(E.length)return`the probe left ${E.join(", ")} behind, outside its namespace`;let v=w.filter(S=>!S.startsWith("uid ")&&!S.startsWith("environ ")&&!S.startsWith("ns-")&&S!=="workspace-writable");return v.length?`the probe found: ${v.join("; ")}`:void 0}finally{i?.server.close(),c?.close();for(let p of s)fn(p,{force:!0});for(let p of[...l,...u])fn(ke(p,`${g}-left`),{force:!0});b&&e.keyring&&gi(e.keyring,b),$&&Xi($.ipcrm,["-q",$.id],{stdio:"ignore"});for(let p of e.readOnlyDirs)for(let w of _f(p))w===`probe-${n}`&&fn(ke(p,w),{force:!0})}}a(qi,"selfCheck");function vf(t){let e=ke("/run",`.patchloop-probe-${t}.sock`);return new Promise(n=>{let r=Yi(o=>o.destroy());r.once("error",()=>n(void 0)),r.listen(e,()=>n({path:e,close:a(()=>{r.close(),fn(e,{force:!0})},"close")}))})}a(vf,"runSocket");function _f(t){try{return hf(t)}catch{return[]}}a(_f,"safeList");function Sf(){let t=V("ipcmk"),e=V("ipcrm");if(!t||!e)return;let n=Xi(t,["-Q","-p","0600"],{encoding:"utf8"}),r=/(\d+)\s*$/.exec(n.stdout?.trim()??"")?.[1];return n.status===0&&r?{id:r,ipcrm:e}:void 0}a(Sf,"plantQueue");var wt="/run/lock";function Ef(t){try{let e=yf(wt);return e.isDirectory()&&(e.mode&514)===514&&!(t.sharedReadOnly??[]).includes(wt)&&!N(t.workspace,wt)&&!N(wt,t.workspace)}catch{return!1}}a(Ef,"isSharedLock");import{execFile as Af}from"node:child_process";var Tf=4,Rf=3e4;function Of(t){return t.replace(/[*?[\]\\]/g,"\\$&")}a(Of,"literal");function zi(t,e){let n=["/proc","/sys",...e].flatMap((o,s)=>[...s?["-o"]:[],"-path",Of(o)]),r=["/","-mindepth","1","-maxdepth",String(Tf),"(",...n,")","-prune","-o","-type","d","-perm","-0002","-printf","%m %p\\0","-prune"];return new Promise((o,s)=>{Af(t,r,{env:{PATH:"/usr/sbin:/usr/bin:/sbin:/bin",LC_ALL:"C"},encoding:"buffer",timeout:Rf,maxBuffer:4<<20},(i,c)=>{if(i&&(i.killed||i.signal||typeof i.code!="number")){s(new F(`the machine's world-writable folders could not be listed: ${i.message}`));return}let l={scratch:[],other:[]};for(let d of c.toString("utf8").split("\0")){let u=d.indexOf(" ");if(u<0)continue;let g=parseInt(d.slice(0,u),8),m=d.slice(u+1);!m.startsWith("/")||m==="/"||(g&512?l.scratch:l.other).push(m)}o(l)})})}a(zi,"findSharedDirs");import{mkdirSync as Vi,rmSync as Pf}from"node:fs";import{join as Qi}from"node:path";var Ji="/var/tmp",Zi="patchloop-cache-";async function ea(t,e,n){let r=V("rm");r&&await Sr(t,r,Ji,Zi).catch(()=>[]);let o=ln(Zi,Ji),s=Qi(o,"cache"),i=Qi(o,"home"),c=a(async()=>{r&&await Z(t,r,["-rf","--",o]),Pf(o,{recursive:!0,force:!0})},"remove");Vi(s,{mode:448}),Vi(i,{mode:448});let l=await Z(t,n,[`${e.uid}:${e.gid}`,s]);if(l.code!==0)throw await c(),new F(`the run's cache folder could not be given to ${e.user}: ${re(l.stderr)||`exit ${l.code}`}`);return{dir:s,layers:i,remove:c}}a(ea,"makeRunCache");import{lstatSync as Cf,readdirSync as ta,readlinkSync as Lf,realpathSync as If}from"node:fs";import{isAbsolute as mn,join as bt,normalize as na,posix as Df}from"node:path";var Nf=["/usr","/bin","/sbin","/lib","/lib32","/lib64","/libx32","/etc","/opt","/home/linuxbrew/.linuxbrew","/nix/store","/var/lib/dpkg","/var/lib/gems"],Mf=[".cargo",".rustup",".m2",".gradle",".sbt",".ivy2","go/pkg/mod",".nvm",".pyenv",".rbenv",".sdkman",".dotnet",".bun",".deno",".local/share/pnpm",".cache/ms-playwright",".cache/Cypress",".cache/puppeteer",".cache/node/corepack",".cache/coursier"],Rr="PATCHLOOP_COMMAND_HOME_DIRS",Bf=[".cargo",".m2",".gradle","go/pkg/mod"],Gf={".cache/ms-playwright":"PLAYWRIGHT_BROWSERS_PATH",".cache/Cypress":"CYPRESS_CACHE_FOLDER",".cache/puppeteer":"PUPPETEER_CACHE_DIR",".cache/node/corepack":"COREPACK_HOME",".cache/coursier":"COURSIER_CACHE"},Ff=[".ssh",".aws",".azure",".config/gh",".config/gcloud",".config/hub",".config/git",".netrc",".docker",".gnupg",".kube",".git-credentials",".npmrc",".yarnrc",".yarnrc.yml",".pypirc",".gem",".terraform.d",".vault-token",".password-store",".local/share/keyrings",".pki"],Hf=/credential|secret|token|passw|^settings(-security)?\.xml$|^gradle\.properties$|^\.(netrc|npmrc|pypirc)$|\.(pem|key|p12|jks)$/i;function ra(t){return t.split("/").some(e=>/^gha-creds-/i.test(e))?!0:Ff.some(e=>t===e||N(t,e)||N(e,t))}a(ra,"isDeniedName");function Uf(t){let e=(t??"").split(/[\s,:]+/).filter(Boolean);for(let n of e){let r=Df.normalize(n).replace(/\/$/,"");if(mn(n)||r!==n.replace(/\/$/,"")||r==="."||r.startsWith(".."))return new Error(`${Rr}: "${n}" is not a plain folder name relative to the home`);if(ra(r))return new Error(`${Rr}: "${n}" is, or holds, a folder of credentials; it is never shown`)}return e.map(n=>n.replace(/\/$/,""))}a(Uf,"parseHomeDirs");function Ze(t){try{return Cf(t)}catch{return}}a(Ze,"lstatOf");function pn(t){try{return If(t)}catch{return}}a(pn,"realOf");function oa(t){let{workspace:e,privateDirs:n}=t,r=a(v=>v==="/"||N(v,e)||n.some(S=>N(v,S)),"treeClashes"),o=a(v=>v==="/"||N(e,v)||N(v,e)||n.some(S=>N(S,v)||N(v,S)),"clashes"),s=[],i=[],c=a(v=>{let S=Ze(v);if(S){if(S.isSymbolicLink()){let R=pn(v);if(!R||!Ze(R)?.isDirectory()||r(R))return;i.push([v,Lf(v)]),s.some(P=>N(R,P))||s.push(R);return}S.isDirectory()&&!r(v)&&!s.some(R=>N(v,R))&&s.push(v)}},"addTree"),l=t.env.RUNNER_TOOL_CACHE;for(let v of[...Nf,...l&&mn(l)?[na(l)]:[],...t.extraTrees??[]])c(v);let d=s.filter(v=>!s.some(S=>S!==v&&N(v,S))),u=i.filter(([v])=>!d.some(S=>N(v,S)&&v!==S)),g=a(v=>d.some(S=>N(v,S)),"inView"),m=[],b=[];try{b=ta("/etc")}catch{}for(let v of b){let S=bt("/etc",v);if(!Ze(S)?.isSymbolicLink())continue;let R=pn(S);!R||g(R)||!Ze(R)?.isFile()||o(R)||m.push([R,R])}let $=[],h=[],f=[],p={},w=Uf(t.env[Rr]);if(w instanceof Error)throw w;let x=t.home&&mn(t.home)?pn(t.home):void 0;if(x&&x!=="/"&&Ze(x)?.isDirectory())for(let v of[...new Set([...Mf,...w])]){if(ra(v))continue;let S=bt(x,v),R=pn(S);if(!R||!Ze(R)?.isDirectory()||o(R))continue;let P=v.startsWith(".cache/")?[]:[bt(t.commandHome,v)];if(!g(S)&&!N(S,e)&&P.push(S),!P.length)continue;let I=Gf[v];I&&P.includes(S)&&(p[I]=S);let k=[];try{k=ta(R)}catch{}let H=k.filter(M=>Hf.test(M));for(let M of P){$.push([R,M]);for(let W of H)f.push(bt(M,W))}Bf.includes(v)&&!h.includes(R)&&h.push(R)}let E=[];for(let v of n)g(v)&&!N(e,v)&&E.push(v);for(let v of d){if(!N(e,v)||e===v)continue;let S=bt(v,e.slice(v.length+1).split("/")[0]);E.includes(S)||E.push(S)}return{trees:d,links:u,binds:$,layered:h,files:m,blanks:f,covers:E,env:p}}a(oa,"planView");function Or(t){return[...t.trees,...t.links.map(([e])=>e),...t.binds.map(([,e])=>e),...t.files.map(([,e])=>e)]}a(Or,"viewPaths");function sa(t,e,n,r,o){if(!(!t||!mn(t)||na(t)!==t||t===r||t==="/"||[...Or(e),n,...o].some(i=>N(t,i)||N(i,t))))return t}a(sa,"accountHomeInView");var De=a(t=>({kind:"unavailable",reason:t}),"unavailable"),ia=["/media","/srv","/mnt","/opt","/run","/var"];function kt(t){try{let e=Kf(t);return la(e).isDirectory()?e:void 0}catch{return}}a(kt,"realDir");function qf(){let t=["unshare","setpriv","mount","umount","mkdir","chown","chmod","find","prlimit","bash","sh","env","kill","pivot_root","findmnt","ln"],e={};for(let n of t){let r=V(n);if(!r)return`${n} is not installed (${n==="find"?"findutils":n==="bash"||n==="sh"?"a shell":"util-linux / coreutils"})`;e[n]=r}return e}a(qf,"resolveBins");async function zf(t,e){let n=fi(e);if(typeof n=="string")return n;let r="";for(let o of n){let s=await pi(o,t);if(s==="works"||s==="refused")return{tool:o,works:s==="works"};r=s}return r}a(zf,"findKeyring");async function Vf(t){try{return await t()}catch(e){if(!(e instanceof F))throw e;return t()}}a(Vf,"retryOnce");function Qf(t,e,n){let{account:r,root:o}=t,s=new Set([...Fr,...e]);return{outputFileMode:420,toolGroup:a(()=>t.groupAccess?r.gid:void 0,"toolGroup"),limitNote:a((i,c)=>t.limits?xi(t.limits,c,i):void 0,"limitNote"),envOptions:{pass:e,privateDirs:n},wrap(i){let c={};for(let[g,m]of Object.entries(i.env))s.has(g)&&(c[g]=m);c.PATH=Ur(c.PATH,n),c.HOME=pe,t.cache&&!e.includes("GOCACHE")&&(c.GOCACHE=`${pe}/.cache/go-build`);for(let[g,m]of Object.entries(t.view.env))e.includes(g)||(c[g]=m);t.network&&!t.network.bridge&&!e.includes("COREPACK_ENABLE_NETWORK")&&(c.COREPACK_ENABLE_NETWORK="0"),c.TMPDIR="/tmp",c.USER=r.user,c.LOGNAME=r.user;let l=Number(c.GIT_CONFIG_COUNT??0)||0;c[`GIT_CONFIG_KEY_${l}`]="safe.directory",c[`GIT_CONFIG_VALUE_${l}`]="*",c.GIT_CONFIG_COUNT=String(l+1),Object.assign(c,i.ownEnv);let d=t.overlay?.access;if(!d)return un(t,i.command,i.cwd,c,i.timeoutMs);if(i.readOnlyWorkspace)return un(t,i.command,i.cwd,c,i.timeoutMs,{readOnly:!0});d.verify();let u=d.next++;return{...un(t,i.command,i.cwd,c,i.timeoutMs,{layer:u}),settle:a(()=>d.apply(u),"settle")}},signal:a(((i,c)=>{if(!o.viaSudo){try{process.kill(-i,c)}catch{}return}Yf(o.prefix[0],[...o.prefix.slice(1),t.bins.kill,"-s",c.replace(/^SIG/,""),"--",`-${i}`],{stdio:"ignore",timeout:1e4})}),"signal")}}a(Qf,"makeSandbox");var aa=new Map,ca=new Map;function ua(t,e){let n=ca.get(e);return n||(n=Vf(()=>ni(t.root,e)),n.catch(()=>{}),ca.set(e,n)),n}a(ua,"accountOf");function Jf(t=en,e=[]){let n=[t,...[...e].sort()].join("\0"),r=aa.get(n);return r||(r=(async()=>{if(process.platform!=="linux")return`commands cannot be isolated on ${process.platform}; only Linux is supported`;let o=await ei();if(typeof o=="string")return`commands cannot run as another user: ${o}`;let s=qf();if(typeof s=="string")return`commands cannot be isolated: ${s}`;let[i,c,l]=await Promise.all([Z(o,s.unshare,[...dn(!1),"--",s.mount,"-t","tmpfs","patchloop-probe","/tmp"]),Zf(o,s),zf(s.sh,e)]);if(i.code!==0)return`no PID and mount namespace for commands here (${re(i.stderr)||`exit ${i.code}`})`;if(typeof l=="string")return`commands cannot be isolated: ${l}`;let d={...s,keyring:l.tool},u={root:o,bins:d,network:c,keyrings:l.works};return ua(u,t),u})(),r.catch(()=>{}),aa.set(n,r)),r}a(Jf,"probeMachine");async function Zf(t,e){let n=V("ip");if(!n)return"ip (iproute2) is not installed, so a command network namespace cannot get its loopback";let r=await Z(t,e.unshare,[...dn(!0),"--",n,"link","set","lo","up"]);return r.code!==0?`no network namespace for commands here (${re(r.stderr)||`exit ${r.code}`})`:{ip:n}}a(Zf,"probeNetwork");async function ep(t,e){let n=jf(Pr(Xf(),"patchloop-net-"));Wf(n,457);try{return{proxy:await Ui({hosts:t,socketPath:Pr(n,"proxy.sock"),...e}),dir:n}}catch(r){throw da(n,{recursive:!0,force:!0}),new F(`the network proxy could not be started: ${r.message}`)}}a(ep,"startProxy");async function kw(t){let e=await tp(t);return e.kind==="isolated"&&await e.ready,e}a(kw,"createSandbox");async function tp(t){if(t.mode==="off")return De("turned off");if(process.platform!=="linux")return De(`commands cannot be isolated on ${process.platform}; only Linux is supported`);let e=t.env??process.env,n=new Set(t.weaken??[]),r=kt(t.workspace);if(!r)throw new F(`the workspace ${t.workspace} is not a folder`);if(r==="/"||r==="/tmp")throw new F(`the workspace cannot be ${r} itself`);let o=await Jf(t.user,t.hideBins);if(typeof o=="string")return De(o);let{root:s,bins:i}=o,c=t.network??{kind:"none"},l=c.kind!=="all"&&!n.has("network");if(l&&typeof o.network=="string")return De(o.network);let d=V("setfacl")?"acl":"group",u=t.access??"overlay",g=[...new Set((t.privateDirs??(e.RUNNER_TEMP?[e.RUNNER_TEMP]:[])).map(kt))].filter(O=>O!==void 0&&O!=="/"),m;try{m=oa({workspace:r,home:e.HOME,commandHome:pe,privateDirs:g,env:e})}catch(O){throw new F(O.message)}let b=r.split("/").filter(Boolean),$=n.has("hide-above")&&b.length>1?`/${b[0]}`:void 0;if($&&(m.trees=m.trees.filter(O=>!N(O,$)),m.binds=[...m.binds.filter(([,O])=>!N(O,$)),[$,$]],m.covers=m.covers.filter(O=>!N(O,$))),n.has("private-dirs"))for(let O of g)m.binds.unshift([O,O]);n.has("view")&&m.trees.push(...["/run"].filter(O=>kt(O)===O));let h=[...m.trees,...m.binds.map(([O])=>O),...m.files.map(([O])=>O)],f=ia.map(kt).find(O=>O!==void 0&&!N(r,O)&&!N(O,r)&&!h.some(U=>N(U,O)||N(O,U)));if(!f)throw new F(`none of ${ia.join(", ")} can hold the command's new root`);let p=t.hideBins?.includes("perl")?void 0:V("perl"),w=V("rm"),x=Li(),E=p&&x?await Ii(p):!1,v=!p||!w?"perl is not installed":x?E?{bins:{find:i.find,perl:p,unshare:i.unshare,mount:i.mount,mkdir:i.mkdir,rm:w},syscalls:x}:`${p} is not a 64-bit ${process.arch} perl`:`Perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}`;if(u==="overlay"&&typeof v=="string"){if(t.access==="overlay")return De(v);u=d}let S=a(()=>typeof v=="string"?Promise.resolve(v):Mi(s,r,v.bins,v.syscalls).catch(O=>`the overlay could not be tried: ${O.message}`),"tryMounts"),P=u==="overlay"&&d==="group"&&s.viaSudo?S():void 0,I=yt.filter(O=>!$||!N(O,$)),k=Pr(r,".git"),H=(()=>{try{let O=la(k);return O.isDirectory()||O.isFile()}catch{return!1}})(),M=[...new Set((t.readOnlyDirs??[]).map(kt))].filter(O=>O!==void 0&&O!=="/"),W=[...H&&!n.has("read-only-git")?[k]:[],...M],y={...br,...t.limits},_=Math.min(y.processes,on().processes??1/0),Q=(t.commandEnv??[]).filter(Hr),[C,X]=await Promise.all([ua(o,t.user??en),P]);if(typeof X=="string"){if(t.access==="overlay")return De(X);u=d}if(u==="overlay"&&!gt(f))throw new F(`${f} cannot be named in the overlay's options`);if(u==="acl"&&!V("setfacl"))return De("setfacl (package acl) is not installed");if(u==="group"&&s.viaSudo)return De("setfacl (package acl) is needed to share the workspace when not running as root");let j=l&&c.kind==="hosts"?await ep(c.hosts,t.proxyOverride):void 0,z=a(async()=>{j&&(await j.proxy.close(),da(j.dir,{recursive:!0,force:!0}))},"closeProxy"),ae=await ea(s,C,i.chown).catch(async O=>{throw await z(),O}),Ne=ae.dir,ee={root:s,account:C,bins:i,workspace:r,stash:f,view:m,scratch:I,cache:$&&N(pe,$)?void 0:Ne,...gt(ae.layers)&&!($&&N(pe,$))?{homeLayers:ae.layers}:{},accountHome:sa(C.home,m,r,pe,I),freshKeyring:o.keyrings&&!n.has("keyring"),keepIpcUts:n.has("ipc-uts"),keepBoundingSet:n.has("bounding-set"),readOnly:W,limits:n.has("limits")?void 0:y,groupAccess:u==="group",...p&&x&&E?{perl:{perl:p,syscalls:x}}:{},...l&&typeof o.network!="string"?{network:{ip:o.network.ip,...j?{bridge:{node:process.execPath,socketDir:j.dir}}:{}}}:{}},ce={...Qf(ee,Q,g),network:{mark:a(()=>j?.proxy.refusals()??0,"mark"),note:a((O,U)=>Qs(c,j?j.proxy.refusedSince(O):[],U),"note")}},B=!1,Ue={...ce,wrap(O){if(!B)throw new F("no command runs before the sandbox self-check has passed");return ce.wrap(O)}},Te,T,A=(async()=>{await new Promise(te=>setImmediate(te));let O=a(te=>(u=te,ee.groupAccess=te==="group",di(s,C,r,te).then(ne=>Te=ne)),"openWalks");T=u==="overlay"?a(async()=>{if(typeof v=="string")throw new F(v);let te=X??await S(),ne=typeof te=="string"?te:await Bi(s,r,{...v.bins,chown:i.chown},v.syscalls,C,te.filter&&!t.overlayCovers);if(typeof ne!="string"){n.has("cover-private")&&(delete ne.reader,ne.hidden={folders:[],files:[]}),n.has("apply-follows-links")&&(ne.followLinks=!0),n.has("apply-replaces-private")&&(ne.replacesPrivate=!0),ee.overlay={perl:v.bins.perl,syscalls:v.syscalls,access:ne,inPlace:n.has("overlay-in-place")},Te={method:"overlay",revoke:a(()=>ne.dispose(),"revoke")};return}if(t.access==="overlay")throw new F(ne);if(d==="group"&&s.viaSudo)throw new F(`${ne}, and setfacl (package acl) is needed to share it when not running as root`);return O(d)},"openOverlayOrWalks")():O(u);let[,oe]=await Promise.all([T,zi(i.find,[r,...g,...M])]),me=[...oe.scratch,...oe.other].filter(te=>!N(r,te)&&!N(te,r)&&!yt.some(ne=>N(te,ne))),he=Or(m),fa=me.filter(te=>!he.some(ne=>N(te,ne))),pa=me.filter(te=>he.some(ne=>N(te,ne)));if(t.selfCheck!==!1){let te=a(()=>qi(ce,{uid:C.uid,workspace:r,hasGit:H,privateDirs:g,readOnlyDirs:M,processes:n.has("limits")?void 0:_,env:e,network:ee.network?{proxy:j!==void 0}:void 0,keyring:o.keyrings?i.keyring:void 0,ipcUts:!0,shared:fa,sharedReadOnly:pa,view:[...he,...ee.accountHome?[ee.accountHome]:[]]}),"check"),ne=await te()&&await te();if(ne)throw new F(`the sandbox self-check failed: ${ne}`)}B=!0})().catch(async O=>{await T?.catch(()=>{});let U=Te;throw Te=void 0,await Promise.all([U?.revoke(),z(),ae.remove()]).catch(oe=>{throw new F(`${O.message}; and then: ${oe.message}`)}),O});A.catch(()=>{});let G=a(()=>[`commands run as user ${C.user} (uid ${C.uid}) in their own PID and mount namespace`,ee.keepIpcUts?"":"with their own System V IPC and host name",ee.freshKeyring?"a session keyring of their own":"",ee.homeLayers&&ee.overlay?.access.reader!==void 0&&m.layered?.length?"seeing only the workspace, the system folders and the toolchain folders of the home (read-only; its cache folders written to a layer of the run's own)":"seeing only the workspace, the system folders and the toolchain folders of the home (read-only)",g.length?`${g.join(", ")} hidden`:"",H?".git read-only":"",u==="overlay"?"the workspace as an overlay whose writes patchloop moves in after each command":`${u==="acl"?"ACL":"group"} access to the workspace`,`network: ${ee.network?Zt(c):Zt({kind:"all"})}`,n.has("limits")?"":`limits of ${_} processes and ${Math.round(y.fileBytes/1024**2)} MiB per file`].filter(Boolean).join(", "),"describe"),Y;return{kind:"isolated",sandbox:Ue,get reason(){return G()},ready:A,dispose:a(()=>Y??=A.then(()=>{let O=Te;return Te=void 0,Promise.all([O?.revoke(),z(),ae.remove()]).then(()=>{})},()=>{}),"dispose"),network:{policy:ee.network?c:{kind:"all"},refused:a(()=>j?.proxy.refused()??[],"refused")}}}a(tp,"startSandbox");function Aw(t){let e=new AbortController,n,r=a(o=>{if(n){t(o);return}n=o,e.abort(new Error(`interrupted by ${o}`))},"handler");return process.on("SIGINT",r),process.on("SIGTERM",r),{signal:e.signal,get received(){return n},dispose(){process.off("SIGINT",r),process.off("SIGTERM",r)}}}a(Aw,"watchInterrupts");export{wn as a,ma as b,ha as c,Cc as d,it as e,bo as f,Qa as g,ec as h,Bt as i,Gt as j,nl as k,ls as l,Ht as m,$s as n,ig as o,pe as p,vg as q,Zt as r,Vs as s,_g as t,Jf as u,kw as v,tp as w,Aw as x};
