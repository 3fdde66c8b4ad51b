#!/usr/bin/env node
// Holdout corpus generator for the loop detector.
//
// Writes ./holdout.jsonl (one JSON case per line). Fully deterministic: every case
// draws from its own seeded PRNG (mulberry32 keyed by the case id), and no
// Date / Math.random is used anywhere, so re-running produces a byte-identical file.
//
//   node shared-ts/test/loop/holdout/generate.mjs
//
// Written independently of the detector's implementation and its own corpus.
// See README.md in this folder for the families and labelling rules.

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, 'holdout.jsonl');

// ---------------------------------------------------------------------------
// PRNG
// ---------------------------------------------------------------------------
function fnv1a(str) {
  let h = 0x811c9dc5;
  for (let i = 0; i < str.length; i++) {
    h ^= str.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
function mulberry32(seed) {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
class Rng {
  constructor(key) { this.f = mulberry32(fnv1a('loop-holdout/v1:' + key)); }
  next() { return this.f(); }
  int(lo, hi) { return lo + Math.floor(this.f() * (hi - lo + 1)); }
  pick(a) { return a[Math.floor(this.f() * a.length)]; }
  chance(p) { return this.f() < p; }
  shuffle(a) {
    const b = a.slice();
    for (let i = b.length - 1; i > 0; i--) {
      const j = Math.floor(this.f() * (i + 1));
      [b[i], b[j]] = [b[j], b[i]];
    }
    return b;
  }
  sample(a, k) { return this.shuffle(a).slice(0, k); }
  hex(n) { let s = ''; for (let i = 0; i < n; i++) s += '0123456789abcdef'[this.int(0, 15)]; return s; }
  alnum(n) { const A = 'abcdefghijklmnopqrstuvwxyz0123456789'; let s = ''; for (let i = 0; i < n; i++) s += A[this.int(0, A.length - 1)]; return s; }
  uuid() {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[this.int(0, 3)]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
  bytes(n) { const b = []; for (let i = 0; i < n; i++) b.push(this.int(0, 255)); return b; }
}

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------
const L = (lang, en, zh) => (lang === 'zh' ? zh : en);
const F3 = '```';
/** A CommonMark fenced block. ch: '`' or '~'; n: fence length; closeN may be longer (still valid). */
function fence(body, { info = '', ch = '`', n = 3, closeN = n, indent = '' } = {}) {
  const lines = [ch.repeat(n) + info, ...body.split('\n'), ch.repeat(closeN)];
  return lines.map((l) => (l.length ? indent + l : l)).join('\n');
}
const rep = (s, n, sep = '\n') => Array.from({ length: n }, () => s).join(sep);
const range = (n) => Array.from({ length: n }, (_, i) => i);
const pad = (n, w = 2) => String(n).padStart(w, '0');

// Calendar maths without Date (Howard Hinnant's civil_from_days).
function civil(days) {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp + (mp < 10 ? 3 : -9);
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}
function split(ms) {
  const days = Math.floor(ms / 86400000);
  let r = ms - days * 86400000;
  const [y, mo, d] = civil(days);
  const hh = Math.floor(r / 3600000); r %= 3600000;
  const mi = Math.floor(r / 60000); r %= 60000;
  const ss = Math.floor(r / 1000);
  return { y, mo, d, hh, mi, ss, ms: r % 1000, wd: (((days + 4) % 7) + 7) % 7 };
}
function iso(ms, millis = true) {
  const t = split(ms);
  return `${t.y}-${pad(t.mo)}-${pad(t.d)}T${pad(t.hh)}:${pad(t.mi)}:${pad(t.ss)}${millis ? '.' + pad(t.ms, 3) : ''}Z`;
}
function hms(ms) { const t = split(ms); return `${pad(t.hh)}:${pad(t.mi)}:${pad(t.ss)}`; }
const WD_EN = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const WD_ZH = ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'];
const MON_EN = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
function unixDate(ms, tz = 'UTC') { const t = split(ms); return `${WD_EN[t.wd]} ${MON_EN[t.mo - 1]} ${String(t.d).padStart(2, ' ')} ${pad(t.hh)}:${pad(t.mi)}:${pad(t.ss)} ${tz} ${t.y}`; }
function zhDate(ms) { const t = split(ms + 8 * 3600000); return `${t.y}年${t.mo}月${t.d}日 ${WD_ZH[t.wd]} ${pad(t.hh)}:${pad(t.mi)}:${pad(t.ss)}（北京时间）`; }
function syslogTs(ms) { const t = split(ms); return `${MON_EN[t.mo - 1]} ${String(t.d).padStart(2, ' ')} ${pad(t.hh)}:${pad(t.mi)}:${pad(t.ss)}`; }
const baseEpoch = (rng) => 1714000000000 + rng.int(0, 20000000) * 1000 + rng.int(0, 999);

// ---------------------------------------------------------------------------
// Case builder
// ---------------------------------------------------------------------------
const PROFILES = [[2, 8], [4, 16], [8, 40], [24, 96], [60, 260]];
function chunkText(s, rng, prof) {
  let [lo, hi] = prof;
  const avg = (lo + hi) / 2;
  if (s.length / avg > 260) { const k = s.length / 260 / avg; lo = Math.ceil(lo * k); hi = Math.ceil(hi * k); }
  const out = [];
  let i = 0;
  while (i < s.length) {
    let j = Math.min(s.length, i + rng.int(lo, hi));
    if (j < s.length && /[\uD800-\uDBFF]/.test(s[j - 1])) j++;
    out.push(s.slice(i, j));
    i = j;
  }
  return out;
}
class B {
  constructor(rng, opts = {}) {
    this.rng = rng;
    this.ev = [];
    this.loopFrom = undefined;
    this.prof = opts.prof ?? rng.pick(PROFILES);
    this.whole = opts.whole ?? rng.chance(0.12);
  }
  user(v) { this.ev.push({ t: 'user', v }); return this; }
  _stream(t, s, markAt) {
    const parts = this.whole ? [s] : chunkText(s, this.rng, this.prof);
    let off = 0;
    for (const p of parts) {
      if (markAt !== undefined && this.loopFrom === undefined && markAt >= off && markAt < off + p.length) this.loopFrom = this.ev.length;
      this.ev.push({ t, v: p });
      off += p.length;
    }
    return this;
  }
  text(s) { return this._stream('text', s); }
  reasoning(s) { return this._stream('reasoning', s); }
  /** Streams before+loopPart+after as one message; loopFrom = the chunk holding the first char of loopPart. */
  textLoop(before, loopPart, after = '', t = 'text') { return this._stream(t, before + loopPart + after, before.length); }
  call(name, args, result, { error, executed = true, atMs } = {}) {
    const e = { t: 'call', name, args, result, executed };
    if (error !== undefined) e.error = error;
    if (atMs !== undefined) e.atMs = Math.round(atMs);
    this.ev.push(e);
    return this;
  }
  turn() { this.ev.push({ t: 'turn' }); return this; }
  /** The next event pushed is the first event of the loop. */
  mark() { if (this.loopFrom === undefined) this.loopFrom = this.ev.length; return this; }
}

const cases = [];
function add(id, label, family, lang, b) {
  const c = { id, label, family, lang };
  if (label === 'loop') c.loopFrom = b.loopFrom;
  c.events = b.ev;
  cases.push(c);
}
/** Runs gen(rng, lang, variant) for each lang and variant; gen returns a builder. */
function each(prefix, label, family, { langs = ['en', 'zh'], variants = 1 } = {}, gen) {
  for (const lang of langs) {
    for (let v = 0; v < variants; v++) {
      const id = `${prefix}-${lang}-${v + 1}`;
      const rng = new Rng(id);
      const b = gen(rng, lang, v);
      add(id, label, family, lang, b);
    }
  }
}

// ===========================================================================
// LEGIT 1 — code fences (CommonMark variants) with repeated lines inside
// ===========================================================================
function pickFence(rng) {
  return rng.pick([
    { ch: '`', n: 3, closeN: 3 },
    { ch: '`', n: 3, closeN: 4 }, // closing fence may be longer than the opening one
    { ch: '~', n: 3, closeN: 3 },
    { ch: '`', n: 4, closeN: 4 },
    { ch: '~', n: 4, closeN: 5 },
  ]);
}

each('fence-db-wait', 'legit', 'code-fence', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const svc = rng.pick([
    { host: 'db', port: 5432, name: 'postgres', line: 'Waiting for postgres at db:5432 ... connection refused', img: 'postgres:16' , probe: 'pg_isready -U app'},
    { host: 'mysql', port: 3306, name: 'MySQL', line: '[entrypoint] MySQL is unavailable - sleeping', img: 'mysql:8.4', probe: 'mysqladmin ping -h localhost' },
    { host: 'redis', port: 6379, name: 'Redis', line: 'Error: connect ECONNREFUSED 172.18.0.3:6379 — retrying in 1000ms', img: 'redis:7', probe: 'redis-cli ping' },
    { host: 'db', port: 5432, name: 'postgres', line: 'wait-for-it.sh: waiting 15 seconds for db:5432', img: 'postgres:15', probe: 'pg_isready' },
  ]);
  const n = rng.int(14, 40);
  const f = pickFence(rng);
  const log = [`app-1  | > node dist/server.js`, ...range(n).map(() => `app-1  | ${svc.line}`), `app-1 exited with code 1`].join('\n');
  const yaml = `services:\n  ${svc.host}:\n    image: ${svc.img}\n    healthcheck:\n      test: ["CMD-SHELL", "${svc.probe}"]\n      interval: 5s\n      timeout: 3s\n      retries: 10\n  app:\n    build: .\n    environment:\n      DB_HOST: ${svc.host}\n      DB_PORT: "${svc.port}"\n    depends_on:\n      ${svc.host}:\n        condition: service_healthy`;
  b.user(L(lang,
    rng.pick([
      `Our docker-compose stack never gets past startup. The app container just prints the same line until the healthcheck kills it. What's going on?`,
      `CI job "integration" times out after 10 minutes and the log is the same line over and over. Any idea where to look?`,
    ]),
    rng.pick([
      `docker-compose 启动后 app 容器一直打印同一行，直到健康检查把它杀掉。这是怎么回事？`,
      `CI 里的 integration 任务每次跑 10 分钟就超时，日志里全是同一行，应该从哪里查起？`,
    ])));
  b.text(L(lang,
    `This is the classic "app starts before ${svc.name} is ready" race. Your entrypoint is stuck on:\n\n${fence(log, { info: 'text', ...f })}\n\nThe line never changes, which means ${svc.name} never became reachable at \`${svc.host}:${svc.port}\` — it isn't just slow. Check three things:\n\n1. **Host name** — inside the compose network the host is the *service* name (\`${svc.host}\`), not \`localhost\`.\n2. **Port** — use the container port (\`${svc.port}\`), not the one published on the host.\n3. **Start order** — \`depends_on\` alone only waits for the container to *start*. Gate on the healthcheck instead:\n\n${fence(yaml, { info: 'yaml' })}\n\nWith that, \`docker compose up\` shows \`${svc.host}\` turning *healthy* before \`app\` starts, and the repeated line disappears. If it still loops, run \`docker compose exec app getent hosts ${svc.host}\` — an empty answer means the two services are on different networks.`,
    `这是典型的"应用比 ${svc.name} 先启动"的竞态问题。你的 entrypoint 卡在这里：\n\n${fence(log, { info: 'text', ...f })}\n\n这一行从头到尾没有任何变化，说明 ${svc.name} 在 \`${svc.host}:${svc.port}\` 上**根本连不上**，而不只是启动慢。建议按顺序检查：\n\n1. **主机名**：在 compose 网络里要用*服务名*（\`${svc.host}\`），不能用 \`localhost\`。\n2. **端口**：用容器内端口 \`${svc.port}\`，不是映射到宿主机的端口。\n3. **启动顺序**：只写 \`depends_on\` 只会等容器*启动*，不会等服务就绪。改成依赖健康检查：\n\n${fence(yaml, { info: 'yaml' })}\n\n改完后 \`docker compose up\` 会先看到 \`${svc.host}\` 变成 *healthy*，然后才启动 \`app\`，那一行重复日志也就没了。如果还是一直重复，执行 \`docker compose exec app getent hosts ${svc.host}\`，没有输出说明两个服务不在同一个网络里。`));
  return b.turn();
});

each('fence-readme-nested', 'legit', 'code-fence', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const tool = rng.pick(['syncbox', 'dotsync', 'mirrorctl', 'notesync']);
  const n = rng.int(12, 30);
  const outer = rng.pick([{ ch: '`', n: 4 }, { ch: '`', n: 5 }, { ch: '~', n: 3 }]);
  const inner = [
    `## ${L(lang, 'Usage', '用法')}`, '',
    F3 + 'bash', `${tool} init ~/notes`, `${tool} push`, `${tool} status --watch`, F3, '',
    L(lang, `\`status --watch\` polls every 2 seconds. When nothing changes it keeps printing the same line, which is expected:`,
      `\`status --watch\` 每 2 秒检查一次。没有变化时会一直打印同一行，这是正常现象：`), '',
    F3 + 'text', ...range(n).map(() => `[watch] no changes`), F3, '',
    L(lang, 'Press `Ctrl+C` to stop watching.', '按 `Ctrl+C` 退出监视。'),
  ].join('\n');
  b.user(L(lang,
    `Write a README "Usage" section for my CLI \`${tool}\` (commands: init, push, status --watch). Include example output, and give it to me as raw markdown I can paste.`,
    `帮我给命令行工具 \`${tool}\` 写一段 README 的"用法"章节（命令有 init、push、status --watch），要带示例输出，直接给我可以粘贴的 Markdown 源码。`));
  b.text(L(lang,
    `Here's the section as raw Markdown. The outer fence is ${outer.n} ${outer.ch === '`' ? 'backticks' : 'tildes'}, so the inner \`\`\` blocks survive copy-paste:\n\n${fence(inner, { info: 'markdown', ch: outer.ch, n: outer.n })}\n\nA couple of notes:\n- I showed the repeated \`[watch] no changes\` lines on purpose — people otherwise file bugs thinking the tool is stuck.\n- ${outer.ch === '~' ? 'Tildes work in every CommonMark renderer, including GitHub and MkDocs.' : "If your renderer doesn't like long fences, swap the outer fence for \`~~~\`."}`,
    `下面是 Markdown 源码。外层用了 ${outer.n} 个${outer.ch === '`' ? '反引号' : '波浪号'}做围栏，这样里面的 \`\`\` 代码块复制时不会被截断：\n\n${fence(inner, { info: 'markdown', ch: outer.ch, n: outer.n })}\n\n说明两点：\n- 示例里故意保留了多行重复的 \`[watch] no changes\`，否则用户会以为工具卡住了而来提 issue。\n- ${outer.ch === '~' ? '波浪号围栏在所有遵循 CommonMark 的渲染器（包括 GitHub 和 MkDocs）里都能用。' : '如果你的渲染器不支持长围栏，可以把外层换成 \`~~~\`。'}`));
  return b.turn();
});

each('fence-tilde-mix', 'legit', 'code-fence', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const n = rng.int(10, 24);
  const word = rng.pick(['tick', 'ping', 'heartbeat', 'alive']);
  const reverse = rng.chance(0.5);
  const [oc, ic] = reverse ? ['~', '`'] : ['`', '~'];
  const inner = [
    L(lang, 'Here is a heartbeat script:', '下面是一个心跳脚本：'), '',
    ic.repeat(3) + 'python', 'import time', '', 'while True:', `    print("${word}", flush=True)`, '    time.sleep(1)', ic.repeat(3), '',
    L(lang, 'Output after a few seconds:', '运行几秒后的输出：'), '',
    ic.repeat(3), ...range(n).map(() => word), ic.repeat(3),
  ].join('\n');
  b.user(L(lang,
    `In my MkDocs page I need to show a Markdown snippet that itself contains fenced code blocks. Every time I try, the outer block ends early. How do I nest them?`,
    `我在 MkDocs 页面里要展示一段 Markdown 示例，而这段示例本身也包含代码块。每次外层代码块都被提前截断，怎么嵌套？`));
  b.text(L(lang,
    `CommonMark closes a fenced block only with a fence of the **same character** that is **at least as long** as the opening one. So you have two easy options:\n\n- use a different character for the outer fence (${oc === '`' ? 'backticks outside, tildes inside' : 'tildes outside, backticks inside'}), or\n- make the outer fence longer (four backticks around three).\n\nOption 1 looks like this:\n\n${fence(inner, { info: 'markdown', ch: oc, n: 3 })}\n\nThe ${ic}${ic}${ic} lines inside never close the outer block because they use the other character. Option 2 is the same idea with \`\`\`\`markdown on the outside. Either renders fine in MkDocs Material.`,
    `CommonMark 的规则是：只有**同一种字符**、并且**长度不少于**开头围栏的围栏才能闭合代码块。所以有两种简单做法：\n\n- 外层换一种字符（${oc === '`' ? '外层反引号、内层波浪号' : '外层波浪号、内层反引号'}）；\n- 或者外层用更长的围栏（四个反引号包三个）。\n\n第一种写法如下：\n\n${fence(inner, { info: 'markdown', ch: oc, n: 3 })}\n\n里面的 ${ic}${ic}${ic} 行用的是另一种字符，所以不会把外层提前闭合。第二种做法同理，外层写 \`\`\`\`markdown 即可。两种写法在 MkDocs Material 里都能正常渲染。`));
  return b.turn();
});

each('fence-retry-output', 'legit', 'code-fence', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const cap = rng.pick([16, 30, 60]);
  const attempts = rng.int(12, 20);
  const code = `import functools, logging, random, time\n\nlog = logging.getLogger("retry")\n\ndef retry(times=${attempts}, base=0.5, cap=${cap}, exceptions=(ConnectionError,)):\n    def deco(fn):\n        @functools.wraps(fn)\n        def wrapper(*args, **kwargs):\n            for attempt in range(1, times + 1):\n                try:\n                    return fn(*args, **kwargs)\n                except exceptions as e:\n                    if attempt == times:\n                        log.error("giving up after %d attempts", times)\n                        raise\n                    delay = min(cap, base * 2 ** (attempt - 1))\n                    log.warning("%s: %s - attempt %d/%d, sleeping %.1fs",\n                                type(e).__name__, e, attempt, times, delay)\n                    time.sleep(delay)\n        return wrapper\n    return deco`;
  const lines = [];
  for (let a = 1; a < attempts; a++) {
    const d = Math.min(cap, 0.5 * 2 ** (a - 1));
    lines.push(`WARNING retry: ConnectionError: [Errno 111] Connection refused - attempt ${a}/${attempts}, sleeping ${d.toFixed(1)}s`);
  }
  lines.push(`ERROR retry: giving up after ${attempts} attempts`);
  const f = pickFence(rng);
  b.user(L(lang,
    `Write a Python retry decorator with exponential backoff capped at ${cap}s, and show what the log looks like when the server is down the whole time.`,
    `写一个 Python 的重试装饰器，指数退避，最长等待 ${cap} 秒；再给我看看服务一直挂着的时候日志是什么样子。`));
  b.text(L(lang,
    `${fence(code, { info: 'python' })}\n\nWith the server down for the whole run, the log looks like this — once the delay hits the ${cap}s cap the lines only differ in the attempt counter:\n\n${fence(lines.join('\n'), { info: 'console', ...f })}\n\nTotal worst-case wait is the sum of the delays, so keep \`times × cap\` below whatever timeout the caller has. If you want jitter, replace \`delay\` with \`random.uniform(0, delay)\` ("full jitter").`,
    `${fence(code, { info: 'python' })}\n\n服务一直不可用时，日志大致如下。等待时间到达 ${cap} 秒上限后，每行只有重试次数不同：\n\n${fence(lines.join('\n'), { info: 'console', ...f })}\n\n最坏情况下的总等待时间是所有 delay 之和，所以要保证 \`times × cap\` 小于调用方的超时时间。如果需要抖动，把 \`delay\` 换成 \`random.uniform(0, delay)\`（即 full jitter）。`));
  return b.turn();
});

each('fence-ufw-log', 'legit', 'code-fence', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const t0 = baseEpoch(rng);
  const n = rng.int(16, 32);
  const host = rng.pick(['web-01', 'vps-sg', 'ubuntu-s-1vcpu', 'edge-03']);
  let t = t0;
  const lines = range(n).map(() => {
    t += rng.int(200, 4000);
    const src = `${rng.pick([45, 80, 185, 193, 194, 89])}.${rng.int(1, 254)}.${rng.int(1, 254)}.${rng.int(1, 254)}`;
    return `${syslogTs(t)} ${host} kernel: [UFW BLOCK] IN=eth0 OUT= MAC=fa:16:3e:4c:aa:01:fe:00:00:00:01:01:08:00 SRC=${src} DST=10.0.0.5 LEN=44 TOS=0x00 PREC=0x00 TTL=${rng.int(40, 250)} ID=${rng.int(1000, 65000)} PROTO=TCP SPT=${rng.int(1024, 65535)} DPT=${rng.pick([23, 22, 3389, 8080, 445, 23, 2323])} WINDOW=1024 RES=0x00 SYN URGP=0`;
  });
  b.user(L(lang,
    `My /var/log/syslog on ${host} grew to 4 GB and it's basically all [UFW BLOCK] lines. Should I be worried?`,
    `${host} 上的 /var/log/syslog 涨到了 4 GB，几乎全是 [UFW BLOCK] 这种行。需要担心吗？`));
  b.text(L(lang,
    `Mostly no — it's internet background noise. A typical slice of that file looks like:\n\n${fence(lines.join('\n'), { info: 'log' })}\n\nEvery line is a **blocked** SYN to a port you don't expose (23/telnet, 3389/RDP, 445/SMB …) from scanners. UFW is doing its job; the problem is only the disk space.\n\nTo tame it:\n\n${fence('sudo ufw logging low          # log only blocked packets that match no rule\nsudo tee /etc/logrotate.d/ufw <<EOF\n/var/log/ufw.log {\n    daily\n    rotate 7\n    compress\n    missingok\n    notifempty\n}\nEOF', { info: 'bash', ch: '~' })}\n\nAnd make sure rsyslog sends kernel UFW messages to \`/var/log/ufw.log\` only (\`/etc/rsyslog.d/20-ufw.conf\` has \`& stop\` after the ufw line), so they stop duplicating into syslog.`,
    `基本不用担心，这是互联网上的背景扫描流量。这个文件里典型的一段是这样的：\n\n${fence(lines.join('\n'), { info: 'log' })}\n\n每一行都是一次被**拦截**的 SYN 请求，目标是你没有开放的端口（23/telnet、3389/RDP、445/SMB 等），来源是各种扫描器。UFW 在正常工作，真正的问题只是磁盘空间。\n\n处理办法：\n\n${fence('sudo ufw logging low          # 只记录未匹配任何规则而被拦截的包\nsudo tee /etc/logrotate.d/ufw <<EOF\n/var/log/ufw.log {\n    daily\n    rotate 7\n    compress\n    missingok\n    notifempty\n}\nEOF', { info: 'bash', ch: '~' })}\n\n另外确认 rsyslog 只把 UFW 的内核消息写进 \`/var/log/ufw.log\`（\`/etc/rsyslog.d/20-ufw.conf\` 里 ufw 那行后面要有 \`& stop\`），这样就不会在 syslog 里再记一遍。`));
  return b.turn();
});

each('fence-npm-list', 'legit', 'code-fence', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const dep = rng.pick([
    ['inflight@1.0.6', 'This module is not supported, and leaks memory. Do not use it. Check out lru-cache if you want a good and tested way to coalesce async requests by a key value, which is much more comprehensive and powerful.', 'inflight'],
    ['glob@7.2.3', 'Glob versions prior to v9 are no longer supported', 'glob'],
    ['rimraf@3.0.2', 'Rimraf versions prior to v4 are no longer supported', 'rimraf'],
  ]);
  const n = rng.int(8, 22);
  const warn = range(n).map(() => `npm WARN deprecated ${dep[0]}: ${dep[1]}`).join('\n');
  const IND = '   ';
  const steps = L(lang,
    `1. Reproduce with a clean install so you see every warning:\n\n${fence('rm -rf node_modules package-lock.json\nnpm install 2>&1 | tee install.log', { info: 'bash', indent: IND })}\n\n${IND}You'll get the same warning many times — npm prints it once per place the package is resolved:\n\n${fence(warn, { info: 'text', indent: IND })}\n\n2. Find out who pulls it in:\n\n${fence(`npm explain ${dep[2]}`, { info: 'bash', indent: IND })}\n\n3. If it's transitive and harmless, pin a fixed version with \`overrides\` in package.json:\n\n${fence(`{\n  "overrides": {\n    "${dep[2]}": "${dep[2] === 'inflight' ? 'npm:@isaacs/inflight@^1.0.6' : 'latest'}"\n  }\n}`, { info: 'json', indent: IND })}\n\n4. Run \`npm install\` again and \`grep -c "WARN deprecated" install.log\` to confirm the count dropped.`,
    `1. 先做一次干净安装，确保能看到全部警告：\n\n${fence('rm -rf node_modules package-lock.json\nnpm install 2>&1 | tee install.log', { info: 'bash', indent: IND })}\n\n${IND}同一条警告会出现很多次——这个包每被解析一次，npm 就打印一次：\n\n${fence(warn, { info: 'text', indent: IND })}\n\n2. 查出是谁依赖了它：\n\n${fence(`npm explain ${dep[2]}`, { info: 'bash', indent: IND })}\n\n3. 如果是间接依赖并且无害，可以在 package.json 里用 \`overrides\` 固定版本：\n\n${fence(`{\n  "overrides": {\n    "${dep[2]}": "${dep[2] === 'inflight' ? 'npm:@isaacs/inflight@^1.0.6' : 'latest'}"\n  }\n}`, { info: 'json', indent: IND })}\n\n4. 再执行一次 \`npm install\`，用 \`grep -c "WARN deprecated" install.log\` 确认数量减少了。`);
  b.user(L(lang,
    `npm install spams a wall of "deprecated" warnings. How do I find out where they come from and get rid of the harmless ones?`,
    `npm install 的时候刷出一大堆 deprecated 警告，怎么查到底是哪里来的，无害的又怎么去掉？`));
  b.text(steps);
  return b.turn();
});

each('fence-five-backticks', 'legit', 'code-fence', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const n = rng.int(8, 18);
  const msg = rng.pick(['retry', 'still waiting', 'poll']);
  const inner = ['````markdown', F3 + 'js', ...range(n).map(() => `console.log('${msg}');`), F3, '````'].join('\n');
  b.user(L(lang,
    `How do I show a *four*-backtick fence in my documentation? Whatever I do the rendering breaks.`,
    `文档里我想展示一个用*四个*反引号的代码围栏，可是怎么写渲染都会乱，该怎么办？`));
  b.text(L(lang,
    `Wrap it in a longer fence. Here's a five-backtick block that contains a four-backtick block, which in turn contains a normal one:\n\n${fence(inner, { n: 5, info: 'markdown' })}\n\nRules of thumb:\n\n| outer fence | can contain |\n|---|---|\n| \`\`\` | nothing with \`\`\` |\n| \`\`\`\` | \`\`\` blocks |\n| \`\`\`\`\` | \`\`\`\` and \`\`\` blocks |\n| ~~~ | any backtick fence |\n\nThe repeated \`console.log\` lines are just filler — the renderer treats everything between the outer fences as literal text.`,
    `用更长的围栏把它包起来。下面是一个五个反引号的代码块，里面包着四个反引号的代码块，再里面是普通的代码块：\n\n${fence(inner, { n: 5, info: 'markdown' })}\n\n经验规则：\n\n| 外层围栏 | 可以包含 |\n|---|---|\n| \`\`\` | 不能包含 \`\`\` |\n| \`\`\`\` | \`\`\` 代码块 |\n| \`\`\`\`\` | \`\`\`\` 和 \`\`\` 代码块 |\n| ~~~ | 任意反引号围栏 |\n\n那些重复的 \`console.log\` 只是占位内容，外层围栏之间的一切都会被当成纯文本显示。`));
  return b.turn();
});

each('fence-make-nothing', 'legit', 'code-fence', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const dirs = rng.sample(['libcore', 'libnet', 'libjson', 'liblog', 'libutil', 'libdb', 'libcrypto', 'libhttp', 'libcache', 'libcli', 'libtest', 'libfmt', 'libio', 'libmath'], rng.int(8, 13));
  const out = dirs.map((d) => `make[1]: Entering directory '/src/${d}'\nmake[1]: Nothing to be done for 'all'.\nmake[1]: Leaving directory '/src/${d}'`).join('\n');
  const useTool = rng.chance(0.5);
  b.user(L(lang,
    `Why does \`make\` at the top level print "Nothing to be done for 'all'" for every subdirectory? Is my Makefile broken?`,
    `为什么在顶层执行 \`make\` 时，每个子目录都会打印 "Nothing to be done for 'all'"？我的 Makefile 是不是写错了？`));
  if (useTool) {
    b.text(L(lang, 'Let me run it to see the exact output.', '我先跑一下看看具体输出。'));
    b.call('bash', { command: 'make -C /src 2>&1 | tail -n 60' }, out + '\n', {});
    b.turn();
  }
  b.text(L(lang,
    `${useTool ? 'Here is what it prints:' : 'You are probably seeing something like this:'}\n\n${fence(out, { ch: '~', n: rng.pick([3, 4]) })}\n\nThat's not an error. The top-level Makefile recurses with \`$(MAKE) -C <dir>\` into each library; every sub-make finds its targets newer than their prerequisites and reports there's nothing to rebuild. You'll see one "Nothing to be done" per directory on every no-op build.\n\nIf the noise bothers you, either pass \`--no-print-directory\` (hides the Entering/Leaving lines) or add \`MAKEFLAGS += -s\` at the top of the Makefile. If you expected something to rebuild, run \`make -d -C /src/${dirs[0]} | grep -i 'newer\\|remake'\` to see why make thinks it's up to date.`,
    `${useTool ? '输出如下：' : '你看到的大概是这样的输出：'}\n\n${fence(out, { ch: '~', n: rng.pick([3, 4]) })}\n\n这不是错误。顶层 Makefile 用 \`$(MAKE) -C <目录>\` 递归进入每个库；每个子 make 发现目标都比依赖新，于是报告没有需要重新构建的东西。每次什么都不用编译时，每个目录都会打印一行 "Nothing to be done"。\n\n如果嫌输出太吵，可以加 \`--no-print-directory\`（去掉 Entering/Leaving 行），或者在 Makefile 开头写 \`MAKEFLAGS += -s\`。如果你本来期望有东西重新编译，执行 \`make -d -C /src/${dirs[0]} | grep -i 'newer\\|remake'\` 看看 make 为什么认为它是最新的。`));
  return b.turn();
});

// ===========================================================================
// LEGIT 2 — long repetitive code (tables of constants, test cases, seeds)
// ===========================================================================
function crcTable() {
  const t = [];
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (0xedb88320 ^ (c >>> 1)) >>> 0 : c >>> 1;
    t.push(c >>> 0);
  }
  return t;
}
const hex8 = (v) => '0x' + v.toString(16).padStart(8, '0').toUpperCase();
const hex2 = (v) => '0x' + v.toString(16).padStart(2, '0').toUpperCase();

/** Delivers a code artefact either inline in a fenced block or through a write_file-style tool call. */
function deliverCode(b, rng, lang, { path, code, info, introEn, introZh, outroEn, outroZh }) {
  if (rng.chance(0.4)) {
    const tool = rng.pick([
      ['write_file', (p, c) => ({ path: p, content: c })],
      ['create_file', (p, c) => ({ file_path: p, text: c })],
      ['str_replace_based_edit_tool', (p, c) => ({ command: 'create', path: '/workspace/' + p, file_text: c })],
    ]);
    b.text(L(lang, introEn, introZh));
    b.call(tool[0], tool[1](path, code), L(lang, `File created successfully at ${path} (${code.split('\n').length} lines)`, `已创建文件 ${path}（${code.split('\n').length} 行）`));
    b.turn();
    b.text(L(lang, `Written to \`${path}\`. ${outroEn}`, `已写入 \`${path}\`。${outroZh}`));
  } else {
    b.text(L(lang, `${introEn}\n\n${fence(code, { info })}\n\n${outroEn}`, `${introZh}\n\n${fence(code, { info })}\n\n${outroZh}`));
  }
  return b.turn();
}

each('code-crc32', 'legit', 'repetitive-code', {}, (rng, lang) => {
  const b = new B(rng);
  const t = crcTable();
  const rows = range(64).map((r) => '    ' + t.slice(r * 4, r * 4 + 4).map(hex8).join(', ') + ',');
  const code = `#include <stddef.h>\n#include <stdint.h>\n\n/* CRC-32 (IEEE 802.3), reflected, polynomial 0xEDB88320 */\nstatic const uint32_t crc32_table[256] = {\n${rows.join('\n')}\n};\n\nuint32_t crc32(const void *buf, size_t len)\n{\n    const uint8_t *p = buf;\n    uint32_t crc = 0xFFFFFFFFu;\n    while (len--)\n        crc = crc32_table[(crc ^ *p++) & 0xFF] ^ (crc >> 8);\n    return crc ^ 0xFFFFFFFFu;\n}`;
  b.user(L(lang, 'I need a table-driven CRC-32 in C for a bootloader, no runtime table init please.', '给我一个 C 语言查表法的 CRC-32，用在 bootloader 里，不要运行时初始化表。'));
  return deliverCode(b, rng, lang, {
    path: 'src/crc32.c', code, info: 'c',
    introEn: "Here's a CRC-32 with the full 256-entry table precomputed:", introZh: '下面是预先算好 256 项查找表的 CRC-32 实现：',
    outroEn: 'Sanity check: `crc32("123456789", 9)` must return `0xCBF43926`. The table costs 1 KiB of flash; if that is too much, a 16-entry nibble table (64 bytes) is about 2× slower.',
    outroZh: '自检方法：`crc32("123456789", 9)` 应该返回 `0xCBF43926`。这张表占 1 KiB flash；如果太大，可以改用 16 项的半字节表（64 字节），速度大约慢一倍。',
  });
});

each('code-gamma-lut', 'legit', 'repetitive-code', {}, (rng, lang) => {
  const b = new B(rng);
  const g = rng.pick([2.2, 2.4, 2.8]);
  const vals = range(256).map((i) => Math.round(255 * Math.pow(i / 255, g)));
  const rows = range(16).map((r) => '  ' + vals.slice(r * 16, r * 16 + 16).map((v) => String(v).padStart(3, ' ')).join(', ') + ',');
  const code = `// Gamma ${g} correction for 8-bit LED PWM (generated, do not edit)\n#include <stdint.h>\n\nconst uint8_t gamma8[256] = {\n${rows.join('\n')}\n};`;
  b.user(L(lang, `Give me an 8-bit gamma lookup table (gamma ${g}) for my WS2812 strip.`, `给我一张 8 位的 gamma 查找表（gamma = ${g}），用在 WS2812 灯带上。`));
  return deliverCode(b, rng, lang, {
    path: 'include/gamma8.h', code, info: 'c',
    introEn: `Here's the table, computed as \`round(255 * (i/255)^${g})\`:`, introZh: `表格按 \`round(255 * (i/255)^${g})\` 计算：`,
    outroEn: 'The long run of zeros at the start is expected: with a high gamma the lowest input levels all round down to "off". Use it as `strip.setPixelColor(i, gamma8[r], gamma8[g], gamma8[b])`.',
    outroZh: '开头一长串 0 是正常的：gamma 较大时，最低的几级输入都会四舍五入成"关"。用法：`strip.setPixelColor(i, gamma8[r], gamma8[g], gamma8[b])`。',
  });
});

each('code-font-blank', 'legit', 'repetitive-code', {}, (rng, lang) => {
  const b = new B(rng);
  const ctrl = range(32).map((i) => `    {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00},   // U+00${hex2(i).slice(2)}`);
  const glyphs = [
    ['0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00', "U+0020 (space)"],
    ['0x18, 0x3C, 0x3C, 0x18, 0x18, 0x00, 0x18, 0x00', 'U+0021 (!)'],
    ['0x36, 0x36, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00', 'U+0022 (")'],
    ['0x36, 0x36, 0x7F, 0x36, 0x7F, 0x36, 0x36, 0x00', 'U+0023 (#)'],
    ['0x0C, 0x3E, 0x03, 0x1E, 0x30, 0x1F, 0x0C, 0x00', 'U+0024 ($)'],
    ['0x00, 0x63, 0x33, 0x18, 0x0C, 0x66, 0x63, 0x00', 'U+0025 (%)'],
  ].map(([v, c]) => `    {${v}},   // ${c}`);
  const code = `// 8x8 bitmap font, first 38 code points (public domain, font8x8_basic layout)\nstatic const unsigned char font8x8_basic[128][8] = {\n${[...ctrl, ...glyphs].join('\n')}\n    /* ... remaining glyphs ... */\n};`;
  b.user(L(lang, 'Start me off with an 8x8 font array for my OLED; the control characters can be blank.', '帮我起个头，写一个 OLED 用的 8x8 字模数组，控制字符留空就行。'));
  return deliverCode(b, rng, lang, {
    path: 'src/font8x8.h', code, info: 'c',
    introEn: 'Here is the beginning of the table, with U+0000–U+001F left blank as you asked:', introZh: '下面是字模表的开头部分，按你的要求 U+0000–U+001F 全部留空：',
    outroEn: 'Each row is one glyph, one byte per scanline, LSB = leftmost pixel. The 32 blank rows keep indices aligned with ASCII so you can index directly with the character code.',
    outroZh: '每行一个字形，每个字节是一条扫描线，最低位是最左边的像素。保留 32 行空白是为了让下标和 ASCII 码对齐，可以直接用字符编码取字模。',
  });
});

each('code-leap-tests', 'legit', 'repetitive-code', {}, (rng, lang) => {
  const b = new B(rng);
  const start = rng.pick([1896, 1996, 2096]);
  const years = [...range(rng.int(24, 36)).map((i) => start + i), 1600, 1700, 1800, 1900, 2000, 2100, 2400];
  const leap = (y) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const rows = years.map((y) => `\t\t{name: "${y}", year: ${y}, want: ${leap(y)}},`);
  const code = `package calendar\n\nimport "testing"\n\nfunc TestIsLeap(t *testing.T) {\n\ttests := []struct {\n\t\tname string\n\t\tyear int\n\t\twant bool\n\t}{\n${rows.join('\n')}\n\t}\n\tfor _, tt := range tests {\n\t\tt.Run(tt.name, func(t *testing.T) {\n\t\t\tif got := IsLeap(tt.year); got != tt.want {\n\t\t\t\tt.Errorf("IsLeap(%d) = %v, want %v", tt.year, got, tt.want)\n\t\t\t}\n\t\t})\n\t}\n}`;
  b.user(L(lang, `Write a table-driven Go test for IsLeap covering every year from ${start} on for a few decades plus the century edge cases.`, `给 IsLeap 写一个表驱动的 Go 测试，覆盖从 ${start} 年开始的几十年，再加上整百年的边界情况。`));
  return deliverCode(b, rng, lang, {
    path: 'calendar/leap_test.go', code, info: 'go',
    introEn: 'Here is the test:', introZh: '测试代码如下：',
    outroEn: 'Run with `go test ./calendar -run TestIsLeap -v`; every row becomes its own subtest, so a failure tells you exactly which year broke.',
    outroZh: '用 `go test ./calendar -run TestIsLeap -v` 运行；每一行都是单独的子测试，出错时能直接看到是哪一年。',
  });
});

const FIRST = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'mallory', 'niaj', 'olivia', 'peggy', 'rupert', 'sybil', 'trent', 'victor', 'walter', 'yan', 'zhang.wei', 'li.na', 'wang.fang', 'liu.yang', 'chen.jie'];
each('code-sql-seed', 'legit', 'repetitive-code', {}, (rng, lang) => {
  const b = new B(rng);
  const n = rng.int(30, 45);
  const rows = range(n).map((i) => {
    const nm = rng.pick(FIRST) + (i + 1);
    return `INSERT INTO users (id, username, email, role, created_at) VALUES (${i + 1}, '${nm}', '${nm}@example.test', '${rng.chance(0.15) ? 'admin' : 'member'}', '2024-01-01 00:00:00');`;
  });
  const code = `-- seed: ${n} users for local development\nBEGIN;\n${rows.join('\n')}\nCOMMIT;`;
  b.user(L(lang, `Generate a SQL seed file with about ${n} fake users for local dev.`, `生成一个本地开发用的 SQL 种子文件，大概 ${n} 个假用户。`));
  return deliverCode(b, rng, lang, {
    path: 'db/seeds/001_users.sql', code, info: 'sql',
    introEn: 'Seed file:', introZh: '种子文件：',
    outroEn: 'All rows share the same `created_at` so snapshot tests stay stable. Load it with `psql -f db/seeds/001_users.sql`.',
    outroZh: '所有行的 `created_at` 都一样，这样快照测试比较稳定。用 `psql -f db/seeds/001_users.sql` 导入。',
  });
});

const PROVINCES = [[11, '北京市', 'Beijing'], [12, '天津市', 'Tianjin'], [13, '河北省', 'Hebei'], [14, '山西省', 'Shanxi'], [15, '内蒙古自治区', 'Inner Mongolia'], [21, '辽宁省', 'Liaoning'], [22, '吉林省', 'Jilin'], [23, '黑龙江省', 'Heilongjiang'], [31, '上海市', 'Shanghai'], [32, '江苏省', 'Jiangsu'], [33, '浙江省', 'Zhejiang'], [34, '安徽省', 'Anhui'], [35, '福建省', 'Fujian'], [36, '江西省', 'Jiangxi'], [37, '山东省', 'Shandong'], [41, '河南省', 'Henan'], [42, '湖北省', 'Hubei'], [43, '湖南省', 'Hunan'], [44, '广东省', 'Guangdong'], [45, '广西壮族自治区', 'Guangxi'], [46, '海南省', 'Hainan'], [50, '重庆市', 'Chongqing'], [51, '四川省', 'Sichuan'], [52, '贵州省', 'Guizhou'], [53, '云南省', 'Yunnan'], [54, '西藏自治区', 'Tibet'], [61, '陕西省', 'Shaanxi'], [62, '甘肃省', 'Gansu'], [63, '青海省', 'Qinghai'], [64, '宁夏回族自治区', 'Ningxia'], [65, '新疆维吾尔自治区', 'Xinjiang'], [71, '台湾省', 'Taiwan'], [81, '香港特别行政区', 'Hong Kong'], [82, '澳门特别行政区', 'Macao']];
each('code-province-codes', 'legit', 'repetitive-code', {}, (rng, lang) => {
  const b = new B(rng);
  const code = `# GB/T 2260 province-level division codes (first two digits of a resident ID)\nPROVINCE_CODES: dict[str, dict[str, str]] = {\n${PROVINCES.map(([c, zh, en]) => `    "${c}": {"zh": "${zh}", "en": "${en}", "level": "province"},`).join('\n')}\n}\n\n\ndef province_of(id_number: str) -> str | None:\n    entry = PROVINCE_CODES.get(id_number[:2])\n    return entry["zh"] if entry else None`;
  b.user(L(lang, 'I need a Python dict mapping the first two digits of a Chinese ID number to the province (Chinese and English names).', '我需要一个 Python 字典：身份证号前两位 → 省份（中文名和英文名）。'));
  return deliverCode(b, rng, lang, {
    path: 'app/regions.py', code, info: 'python',
    introEn: 'Here is the full mapping (34 province-level divisions):', introZh: '完整映射如下（共 34 个省级行政区）：',
    outroEn: 'Codes 71, 81 and 82 never appear on mainland resident ID cards, but they are part of GB/T 2260, so I kept them.',
    outroZh: '71、81、82 不会出现在大陆居民身份证上，但它们属于 GB/T 2260，所以保留了。',
  });
});

const HTTP = [[100, 'Continue'], [101, 'Switching Protocols'], [200, 'OK'], [201, 'Created'], [202, 'Accepted'], [204, 'No Content'], [206, 'Partial Content'], [301, 'Moved Permanently'], [302, 'Found'], [303, 'See Other'], [304, 'Not Modified'], [307, 'Temporary Redirect'], [308, 'Permanent Redirect'], [400, 'Bad Request'], [401, 'Unauthorized'], [402, 'Payment Required'], [403, 'Forbidden'], [404, 'Not Found'], [405, 'Method Not Allowed'], [406, 'Not Acceptable'], [408, 'Request Timeout'], [409, 'Conflict'], [410, 'Gone'], [411, 'Length Required'], [412, 'Precondition Failed'], [413, 'Content Too Large'], [414, 'URI Too Long'], [415, 'Unsupported Media Type'], [416, 'Range Not Satisfiable'], [418, "I'm a teapot"], [422, 'Unprocessable Content'], [425, 'Too Early'], [426, 'Upgrade Required'], [428, 'Precondition Required'], [429, 'Too Many Requests'], [431, 'Request Header Fields Too Large'], [451, 'Unavailable For Legal Reasons'], [500, 'Internal Server Error'], [501, 'Not Implemented'], [502, 'Bad Gateway'], [503, 'Service Unavailable'], [504, 'Gateway Timeout'], [505, 'HTTP Version Not Supported']];
each('code-http-enum', 'legit', 'repetitive-code', {}, (rng, lang) => {
  const b = new B(rng);
  const ident = (s) => s.toUpperCase().replace(/[^A-Z]+/g, '_').replace(/_$/, '');
  const code = `export enum HttpStatus {\n${HTTP.map(([c, n]) => `  ${ident(n)} = ${c},`).join('\n')}\n}\n\nexport const HTTP_REASON: Record<HttpStatus, string> = {\n${HTTP.map(([, n]) => `  [HttpStatus.${ident(n)}]: ${JSON.stringify(n)},`).join('\n')}\n};\n\nexport const isRetryable = (s: HttpStatus): boolean =>\n  s === HttpStatus.TOO_MANY_REQUESTS ||\n  s === HttpStatus.BAD_GATEWAY ||\n  s === HttpStatus.SERVICE_UNAVAILABLE ||\n  s === HttpStatus.GATEWAY_TIMEOUT;`;
  b.user(L(lang, 'Write me a TypeScript enum of HTTP status codes plus a reason-phrase map. I keep hard-coding numbers.', '写一个 TypeScript 的 HTTP 状态码枚举，再加一个状态码到原因短语的映射。我老是在代码里写魔法数字。'));
  return deliverCode(b, rng, lang, {
    path: 'src/http/status.ts', code, info: 'ts',
    introEn: 'Here you go — reason phrases follow RFC 9110:', introZh: '给你，原因短语按 RFC 9110：',
    outroEn: '`isRetryable` covers the usual suspects; add 408 if your clients retry on request timeouts too.',
    outroZh: '`isRetryable` 包含了常见的可重试状态；如果客户端在请求超时时也会重试，可以把 408 加进去。',
  });
});

each('code-email-cases', 'legit', 'repetitive-code', {}, (rng, lang) => {
  const b = new B(rng);
  const good = ['user@example.com', 'first.last@example.co.uk', 'x@y.io', 'user+tag@example.org', 'u_s-e.r@sub.domain.example', 'a1@b2.cd', '"quoted"@example.com', 'zhang.san@example.cn', 'USER@EXAMPLE.COM', 'o\'hara@example.ie'];
  const bad = ['plainaddress', '@missing-local.org', 'user@', 'user@.com', 'user@com', 'user@@example.com', 'user@example..com', 'user name@example.com', 'user@example.com.', '.user@example.com', 'user.@example.com', 'user@-example.com', 'user@example_com', '', ' ', 'user@exa mple.com', '用户@example.com', 'user@例子.公司'];
  const rows = [...good.map((e) => [e, true]), ...bad.map((e) => [e, bad.indexOf(e) >= 16 ? 'false /* IDN: handled separately */' : false])];
  const code = `import { describe, it, expect } from 'vitest';\nimport { isValidEmail } from '../src/validate';\n\ndescribe('isValidEmail', () => {\n  it.each([\n${rows.map(([e, v]) => `    [${JSON.stringify(e)}, ${v}],`).join('\n')}\n  ])('isValidEmail(%j) -> %s', (input, expected) => {\n    expect(isValidEmail(input)).toBe(expected);\n  });\n});`;
  b.user(L(lang, 'Need a thorough vitest table for my isValidEmail() — valid and invalid cases.', '帮我给 isValidEmail() 写一组完整的 vitest 表格测试，正例反例都要。'));
  return deliverCode(b, rng, lang, {
    path: 'test/validate.test.ts', code, info: 'ts',
    introEn: `${rows.length} cases, valid ones first:`, introZh: `一共 ${rows.length} 个用例，先正例后反例：`,
    outroEn: 'The two IDN addresses are marked false because most "simple" validators reject them; flip them if you normalise with punycode first.',
    outroZh: '两个国际化域名/非 ASCII 的地址标成了 false，因为大多数简单校验器都不接受；如果你先做 punycode 归一化，可以改成 true。',
  });
});

each('code-registers', 'legit', 'repetitive-code', {}, (rng, lang) => {
  const b = new B(rng);
  const [periph, base] = rng.pick([['DMA1', 0x40020000], ['DMA2', 0x40020400]]);
  const chans = rng.int(5, 7);
  const lines = [];
  for (let ch = 0; ch < chans; ch++) {
    ['CCR', 'CNDTR', 'CPAR', 'CMAR'].forEach((r, k) => {
      lines.push(`#define ${periph}_CH${ch + 1}_${r}`.padEnd(26) + ` (*(volatile uint32_t *)(${hex8(base + 0x08 + 0x14 * ch + 4 * k)}u))`);
    });
  }
  const code = `/* ${periph} channel registers, base ${hex8(base)} (STM32F1-style layout) */\n#ifndef ${periph}_REGS_H\n#define ${periph}_REGS_H\n#include <stdint.h>\n\n${lines.join('\n')}\n\n#endif`;
  b.user(L(lang, `Write the register #defines for the ${periph} channels (base ${hex8(base)}); each channel has CCR/CNDTR/CPAR/CMAR.`, `帮我写 ${periph} 各通道寄存器的 #define，基地址 ${hex8(base)}，每个通道有 CCR/CNDTR/CPAR/CMAR 四个寄存器。`));
  return deliverCode(b, rng, lang, {
    path: `inc/${periph.toLowerCase()}_regs.h`, code, info: 'c',
    introEn: 'Register map:', introZh: '寄存器定义：',
    outroEn: 'Offsets follow the F1 layout: channel blocks start at 0x08 with a 0x14 stride (the fifth word of each block is reserved). Check the reference manual if you are on another family.',
    outroZh: '偏移按 F1 系列的布局：通道块从 0x08 开始，步长 0x14（每块第五个字保留）。如果是其他系列，请对照参考手册再核对。',
  });
});

// ===========================================================================
// LEGIT 3 — inline code / quotes repeating the user's own repeated input
// ===========================================================================
each('quote-test-test', 'legit', 'quote-user-input', {}, (rng, lang) => {
  const b = new B(rng);
  const w = rng.pick(['test', 'debug', 'ok']);
  const n = rng.int(24, 48);
  const s = rep(w, n, ' ');
  const langPick = rng.pick(['py', 'js']);
  const src = langPick === 'py' ? `while True:\n    print("${w}", end=" ")` : `setInterval(() => process.stdout.write("${w} "), 0);`;
  b.user(L(lang,
    `My script prints "${s}" and never stops. Code:\n\n${fence(src, { info: langPick === 'py' ? 'python' : 'js' })}`,
    `我的脚本一直输出"${s}"停不下来。代码：\n\n${fence(src, { info: langPick === 'py' ? 'python' : 'js' })}`));
  b.text(L(lang,
    `The output \`${s}\` is exactly what that code asks for: ${langPick === 'py' ? '`while True:` has no exit condition' : '`setInterval(..., 0)` schedules the write forever'}, so "${w}" is written again and again until you kill the process.\n\nIf you meant to print it a fixed number of times:\n\n${fence(langPick === 'py' ? `for _ in range(10):\n    print("${w}", end=" ")\nprint()` : `for (let i = 0; i < 10; i++) process.stdout.write("${w} ");\nprocess.stdout.write("\\n");`, { info: langPick === 'py' ? 'python' : 'js' })}\n\nThat prints \`${rep(w, 10, ' ')}\` once and exits.`,
    `输出 \`${s}\` 正是这段代码的行为：${langPick === 'py' ? '`while True:` 没有退出条件' : '`setInterval(..., 0)` 会无限次地调度写操作'}，所以"${w}"会一直被打印，直到你杀掉进程。\n\n如果你想只打印固定次数：\n\n${fence(langPick === 'py' ? `for _ in range(10):\n    print("${w}", end=" ")\nprint()` : `for (let i = 0; i < 10; i++) process.stdout.write("${w} ");\nprocess.stdout.write("\\n");`, { info: langPick === 'py' ? 'python' : 'js' })}\n\n这样只会输出一次 \`${rep(w, 10, ' ')}\` 然后退出。`));
  return b.turn();
});

each('quote-apt-lock', 'legit', 'quote-user-input', {}, (rng, lang) => {
  const b = new B(rng);
  const pid = rng.int(900, 9000);
  const n = rng.int(10, 20);
  const line = `Waiting for cache lock: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process ${pid} (unattended-upgr)...`;
  const pasted = range(n).map(() => line).join('\n');
  const q = rng.int(3, 6);
  b.user(L(lang,
    `apt has been stuck for 20 minutes printing this:\n\n${pasted}\n\nwhat do I do`,
    `apt 卡了 20 分钟，一直在打印这个：\n\n${pasted}\n\n怎么办`));
  b.text(L(lang,
    `Your output:\n\n${range(q).map(() => '> ' + line).join('\n')}\n> …\n\nmeans another apt process — here **unattended-upgrades** (PID ${pid}) — holds the dpkg lock, and your command is politely waiting for it. The message repeats every few seconds while it waits.\n\n1. See what it is doing: \`ps -o pid,etime,cmd -p ${pid}\` and \`tail -f /var/log/unattended-upgrades/unattended-upgrades-dpkg.log\`.\n2. If it's still making progress, let it finish — killing it mid-upgrade can leave packages half-configured.\n3. If it's genuinely hung (log hasn't changed for a long time): \`sudo systemctl stop unattended-upgrades\`, then \`sudo dpkg --configure -a\` before retrying your install.\n\n**Don't** just delete \`/var/lib/dpkg/lock-frontend\`; that is how dpkg databases get corrupted.`,
    `你贴的输出：\n\n${range(q).map(() => '> ' + line).join('\n')}\n> ……\n\n意思是另一个 apt 进程——这里是 **unattended-upgrades**（PID ${pid}）——占着 dpkg 锁，你的命令在排队等它。等待期间每隔几秒就会重复打印这句话。\n\n1. 先看它在干什么：\`ps -o pid,etime,cmd -p ${pid}\`，以及 \`tail -f /var/log/unattended-upgrades/unattended-upgrades-dpkg.log\`。\n2. 如果日志还在动，就等它跑完——升级到一半被杀掉可能会让软件包处于半配置状态。\n3. 如果确实卡死了（日志很久没变化）：\`sudo systemctl stop unattended-upgrades\`，然后 \`sudo dpkg --configure -a\`，再重新安装。\n\n**不要**直接删除 \`/var/lib/dpkg/lock-frontend\`，dpkg 数据库就是这样被搞坏的。`));
  return b.turn();
});

each('quote-regex-repeat', 'legit', 'quote-user-input', {}, (rng, lang) => {
  const b = new B(rng);
  const units = rng.sample(['abc', 'xyz', 'ab', '01', 'la', 'go', 'AB12'], 4);
  const samples = units.map((u) => rep(u, rng.int(5, 12), ''));
  const neg = ['abcab', 'xyzxy', 'hello', 'aab'];
  b.user(L(lang,
    `I need a regex that matches strings made of one chunk repeated, like ${samples.map((x) => '`' + x + '`').join(', ')}. It should NOT match ${neg.map((x) => '`' + x + '`').join(', ')}.`,
    `我需要一个正则，匹配由同一段子串重复组成的字符串，比如 ${samples.map((x) => '`' + x + '`').join('、')}。不能匹配 ${neg.map((x) => '`' + x + '`').join('、')}。`));
  const rows = [...samples.map((x, i) => `| \`${x}\` | \`${units[i]}\` | ✅ |`), ...neg.map((x) => `| \`${x}\` | — | ❌ |`)].join('\n');
  b.text(L(lang,
    `Use a lazy capture plus a back-reference:\n\n${fence('^(.+?)\\1+$', { info: 'regex' })}\n\n\`(.+?)\` grabs the shortest possible chunk and \`\\1+\` requires that exact chunk to repeat one or more times until the end. On your examples:\n\n| input | captured unit | match |\n|---|---|---|\n${rows}\n\nNote: \`${units[0]}${units[0]}\` (two copies) also matches; use \`\\1{2,}\` if you need at least three.`,
    `用惰性捕获加反向引用：\n\n${fence('^(.+?)\\1+$', { info: 'regex' })}\n\n\`(.+?)\` 抓取尽可能短的一段，\`\\1+\` 要求这一段原样重复一次或多次直到结尾。对你的例子：\n\n| 输入 | 捕获的单元 | 是否匹配 |\n|---|---|---|\n${rows}\n\n注意：\`${units[0]}${units[0]}\`（只重复两次）也会匹配；如果至少要三次，改成 \`\\1{2,}\`。`));
  return b.turn();
});

each('quote-tongue-twister', 'legit', 'quote-user-input', {}, (rng, lang) => {
  const b = new B(rng);
  if (lang === 'en') {
    const s = 'Buffalo buffalo Buffalo buffalo buffalo buffalo Buffalo buffalo.';
    b.user(`Is "${s}" really a grammatical sentence? Please break it down.`);
    b.text(`Yes! "${s}" is grammatical. It uses three meanings of *buffalo*:\n\n- **Buffalo** (proper noun) — the city in New York\n- **buffalo** (noun) — the animal (bison)\n- **buffalo** (verb) — to bully or intimidate\n\nBracketed:\n\n> [Buffalo buffalo] [(that) Buffalo buffalo buffalo] **buffalo** [Buffalo buffalo].\n\nIn plain English: *Bison from Buffalo, which other bison from Buffalo bully, themselves bully bison from Buffalo.*\n\n| word | role |\n|---|---|\n| Buffalo | adjective (city) |\n| buffalo | subject noun |\n| Buffalo | adjective (city) |\n| buffalo | noun in relative clause |\n| buffalo | verb in relative clause |\n| buffalo | **main verb** |\n| Buffalo | adjective (city) |\n| buffalo | object noun |\n\nYou can stretch it to any number of "buffalo"s — "Buffalo buffalo buffalo buffalo" is also grammatical — which is why linguists like it.`);
  } else {
    const s = '石室诗士施氏，嗜狮，誓食十狮。施氏时时适市视狮。十时，适十狮适市。是时，适施氏适市。施氏视是十狮，恃矢势，使是十狮逝世。氏拾是十狮尸，适石室。石室湿，氏使侍拭石室。石室拭，氏始试食是十狮尸。食时，始识是十狮尸，实十石狮尸。试释是事。';
    b.user(`《${'施氏食狮史'}》全文是"${s}"。每个字都读 shi 吗？帮我翻译成白话。`);
    b.text(`是的，这篇是赵元任写的《施氏食狮史》，全文每个字的普通话读音都是 shi，只是声调不同：\n\n> ${s}\n\n白话翻译：\n\n1. 石屋里住着一位姓施的诗人，喜欢狮子，发誓要吃十头狮子。\n2. 施先生常常去集市看狮子。\n3. 十点钟，恰好有十头狮子到了集市；这时施先生也刚好到了集市。\n4. 他看到这十头狮子，就凭借弓箭的力量把它们射死了。\n5. 他捡起十头狮子的尸体，回到石屋。石屋潮湿，他叫仆人擦拭石屋。\n6. 擦好后，他开始尝试吃这十头狮子的尸体。吃的时候才发现，这十头狮子的尸体其实是十座石狮子。\n7. 请试着解释这件事。\n\n它用来说明：汉语如果只用拼音书写、不写汉字，同音字太多会导致无法理解。朗读时"shi shi shi shi"连在一起，听起来几乎全是同一个音，这正是作者想要的效果。`);
  }
  return b.turn();
});

each('quote-haha', 'legit', 'quote-user-input', {}, (rng, lang) => {
  const b = new B(rng);
  if (lang === 'en') {
    const long = 'ha'.repeat(rng.int(14, 24));
    b.user(`My coworker replies "${long}" to everything and I reply "haha". Is there a difference between "haha", "hahaha" and "${long}"? Am I being rude?`);
    b.text(`Not rude, but there is a scale most people read intuitively:\n\n| you write | usually reads as |\n|---|---|\n| \`ha\` | flat, sometimes sarcastic |\n| \`haha\` | polite acknowledgement |\n| \`hahaha\` | genuinely amused |\n| \`${long}\` | actually laughing out loud |\n| \`HAHAHAHA\` | can't breathe |\n\nSo when they send "${long}" and you answer "haha", it can come across as slightly less enthusiastic than them — but in a work chat that is completely normal. If you want to match their energy once in a while, a "hahaha 😂" does the job without having to type twenty-odd characters.`);
  } else {
    const long = '哈'.repeat(rng.int(12, 24));
    b.user(`朋友给我发"${long}"，我回"哈哈"，是不是显得很敷衍？不同数量的"哈"有什么区别？`);
    b.text(`不算敷衍，不过大家对"哈"的数量确实有种默契：\n\n| 发的内容 | 一般理解为 |\n|---|---|\n| \`哈\` | 有点冷淡，甚至像是在嘲讽 |\n| \`哈哈\` | 礼貌性地笑一下 |\n| \`哈哈哈\` | 真的觉得好笑 |\n| \`${long}\` | 笑得停不下来 |\n| \`哈哈哈哈哈哈哈哈哈哈哈哈哈哈哈哈哈哈哈哈哈哈\`+表情包 | 笑到打滚 |\n\n所以对方发"${long}"、你只回"哈哈"，热情程度上确实差了一截。偶尔回个"哈哈哈哈哈"或者一个😂表情包，就显得你也被逗乐了。`);
  }
  return b.turn();
});

each('quote-yes-cmd', 'legit', 'quote-user-input', {}, (rng, lang) => {
  const b = new B(rng);
  const n = rng.int(15, 30);
  const arg = rng.pick(['', 'ok', 'n']);
  const out = arg || 'y';
  b.user(L(lang,
    `I ran \`yes${arg ? ' ' + arg : ''}\` by accident and my terminal filled with\n${rep(out, n)}\nwhat is this command even for?`,
    `我不小心执行了 \`yes${arg ? ' ' + arg : ''}\`，终端被刷满了：\n${rep(out, n)}\n这个命令到底有什么用？`));
  b.text(L(lang,
    `\`yes\` prints its argument (default \`y\`) forever, as fast as the terminal can take it:\n\n${fence(rep(out, 8) + '\n...', { info: 'text' })}\n\nIt exists to answer interactive prompts automatically, e.g.\n\n${fence(`yes | sudo apt-get install foo       # answers every "Do you want to continue? [Y/n]"\nyes n | cp -i src/* dst/            # answer "n" to every overwrite prompt`, { info: 'bash' })}\n\nPress **Ctrl+C** to stop it. It's also a handy stress test — \`yes > /dev/null\` pins one CPU core at 100%.`,
    `\`yes\` 会不停地输出它的参数（默认是 \`y\`），终端能接多快就输出多快：\n\n${fence(rep(out, 8) + '\n...', { info: 'text' })}\n\n它的用途是自动回答交互式提示，例如：\n\n${fence(`yes | sudo apt-get install foo       # 自动回答所有 "Do you want to continue? [Y/n]"\nyes n | cp -i src/* dst/            # 对每个覆盖提示都回答 "n"`, { info: 'bash' })}\n\n按 **Ctrl+C** 可以停止。顺便一提，\`yes > /dev/null\` 还能把一个 CPU 核跑满，常被拿来做简单的压力测试。`));
  return b.turn();
});

each('quote-stuck-key', 'legit', 'quote-user-input', {}, (rng, lang) => {
  const b = new B(rng);
  const k = rng.pick(['k', 'j', 'x']);
  const junk = k.repeat(rng.int(30, 70));
  const line = rng.int(12, 80);
  const err = `nginx: [emerg] unknown directive "${junk}" in /etc/nginx/sites-enabled/default:${line}`;
  b.user(L(lang,
    `My cat sat on the keyboard while I had the nginx config open in vim. Now \`nginx -t\` says:\n\n${err}\nnginx: configuration file /etc/nginx/nginx.conf test failed`,
    `我在 vim 里开着 nginx 配置的时候猫踩了键盘，现在 \`nginx -t\` 报错：\n\n${err}\nnginx: configuration file /etc/nginx/nginx.conf test failed`));
  b.text(L(lang,
    `Classic. Line ${line} now starts with \`${junk}\`, which nginx tries to parse as a directive. Fix:\n\n1. \`sudo vim +${line} /etc/nginx/sites-enabled/default\`\n2. Delete the run of "${k}"s (\`dd\` if the whole line is junk, or \`dt;\` / \`x\` to remove just those characters).\n3. Check there's nothing else: \`grep -n '${k}\\{5,\\}' /etc/nginx/sites-enabled/default\` should print nothing.\n4. \`sudo nginx -t && sudo systemctl reload nginx\`.\n\nIf the file is under git or you have \`default~\` / \`.swp\` backups, \`diff\` against them to make sure the cat didn't also delete something.`,
    `经典事故。第 ${line} 行开头多了 \`${junk}\`，nginx 把它当成指令去解析了。修复步骤：\n\n1. \`sudo vim +${line} /etc/nginx/sites-enabled/default\`\n2. 删掉那一串"${k}"（整行都是垃圾就 \`dd\`，否则用 \`x\` 删掉这些字符）。\n3. 确认没有别的地方：\`grep -n '${k}\\{5,\\}' /etc/nginx/sites-enabled/default\` 应该没有输出。\n4. \`sudo nginx -t && sudo systemctl reload nginx\`。\n\n如果这个文件在 git 里，或者有 \`default~\` / \`.swp\` 备份，最好 \`diff\` 一下，确认猫没有顺便删掉别的内容。`));
  return b.turn();
});

each('quote-retrying-msg', 'legit', 'quote-user-input', {}, (rng, lang) => {
  const b = new B(rng);
  const n = rng.int(12, 26);
  const unit = L(lang, 'Retrying...', '正在重试……');
  const pasted = rep(unit, n, ' ');
  b.user(L(lang,
    `Our desktop app's status bar shows "${pasted}" and the sync never finishes. Where is that message coming from? The sync module uses this:\n\n${fence('async function syncLoop() {\n  for (;;) {\n    try { await pushChanges(); return; }\n    catch (e) { setStatus("Retrying..."); }\n  }\n}', { info: 'ts' })}`,
    `我们桌面端的状态栏一直显示"${pasted}"，同步永远完不成。这个提示是哪里来的？同步模块是这么写的：\n\n${fence('async function syncLoop() {\n  for (;;) {\n    try { await pushChanges(); return; }\n    catch (e) { setStatus("正在重试……"); }\n  }\n}', { info: 'ts' })}`));
  b.text(L(lang,
    `That "${rep(unit, 4, ' ')}" text is your own \`setStatus("Retrying...")\` being called in a tight loop: \`syncLoop\` catches **every** error and immediately tries again, with no delay and no limit, and the status bar appends each update. Two problems:\n\n- a permanent error (401, 413, schema mismatch) can never succeed, so it loops forever;\n- with no delay it hammers the server.\n\n${fence('async function syncLoop(maxAttempts = 6) {\n  for (let attempt = 1; ; attempt++) {\n    try { await pushChanges(); setStatus("Synced"); return; }\n    catch (e) {\n      if (!isTransient(e) || attempt === maxAttempts) { setStatus(`Sync failed: ${e.message}`); throw e; }\n      setStatus(`Retrying (${attempt}/${maxAttempts})…`);\n      await sleep(Math.min(30_000, 500 * 2 ** attempt));\n    }\n  }\n}', { info: 'ts' })}\n\nLog \`e\` the first time you hit the catch — whatever it is, it's the real bug behind the message.`,
    `这串"${rep(unit, 4, ' ')}"就是你们自己的 \`setStatus("正在重试……")\` 在一个紧循环里被反复调用：\`syncLoop\` 捕获了**所有**错误后立刻重试，既没有间隔也没有上限，而状态栏把每次更新都追加上去了。问题有两个：\n\n- 永久性错误（401、413、数据结构不匹配）永远不可能成功，于是无限循环；\n- 没有间隔，会狂刷服务器。\n\n${fence('async function syncLoop(maxAttempts = 6) {\n  for (let attempt = 1; ; attempt++) {\n    try { await pushChanges(); setStatus("已同步"); return; }\n    catch (e) {\n      if (!isTransient(e) || attempt === maxAttempts) { setStatus(`同步失败：${e.message}`); throw e; }\n      setStatus(`正在重试（${attempt}/${maxAttempts}）……`);\n      await sleep(Math.min(30_000, 500 * 2 ** attempt));\n    }\n  }\n}', { info: 'ts' })}\n\n建议在第一次进入 catch 时把 \`e\` 打印出来——不管它是什么，那才是这条提示背后的真正 bug。`));
  return b.turn();
});

// ===========================================================================
// LEGIT 4 — data-like tokens written inline (DNA, hex, base64, UUIDs, IDs)
// ===========================================================================
const COMP = { A: 'T', T: 'A', G: 'C', C: 'G' };
const revcomp = (s) => s.split('').reverse().map((c) => COMP[c]).join('');
function dna(rng, n) { let s = ''; for (let i = 0; i < n; i++) s += 'ACGT'[rng.int(0, 3)]; return s; }
const gc = (s) => ((s.split('').filter((c) => c === 'G' || c === 'C').length / s.length) * 100).toFixed(1);

each('data-revcomp', 'legit', 'data-tokens', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const str = rng.pick(['AT', 'CA', 'GA', 'TTA']);
  const seq = dna(rng, rng.int(60, 140)) + str.repeat(rng.int(8, 16)) + dna(rng, rng.int(60, 160));
  const rc = revcomp(seq);
  b.user(L(lang, `Reverse complement of this please, and the GC content: ${seq}`, `帮我求这条序列的反向互补序列，再算一下 GC 含量：${seq}`));
  b.text(L(lang,
    `**Reverse complement** (${rc.length} nt, 5'→3'):\n\n${rc}\n\n**GC content:** ${gc(seq)}% (the same for both strands).\n\nNote the (${str})n microsatellite in your input — on the reverse strand it reads as (${revcomp(str)})n: ${revcomp(str).repeat(4)}… If you plan to design primers here, keep them outside that repeat; polymerase slippage in ${str.length}-nt repeats gives stutter bands.`,
    `**反向互补序列**（${rc.length} nt，5'→3'）：\n\n${rc}\n\n**GC 含量：**${gc(seq)}%（两条链相同）。\n\n注意你的序列中有一段 (${str})n 微卫星重复，在反向链上读作 (${revcomp(str)})n：${revcomp(str).repeat(4)}……如果要在这附近设计引物，最好避开这段重复区，${str.length} 个碱基的重复很容易发生聚合酶滑移，产生 stutter 条带。`));
  return b.turn();
});

each('data-cag', 'legit', 'data-tokens', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const n = rng.int(17, 44);
  const left = 'ATGGCGACCCTGGAAAAGCTGATGAAGGCCTTCGAGTCCCTCAAGTCCTTC';
  const right = 'CAACAGCCGCCACCGCCGCCGCCGCCGCCGCCGCCTCCTCAGCTTCCTCAGCCGCCGCCG';
  const tract = 'CAG'.repeat(n);
  const seq = left + tract + right;
  const cls = n <= 26 ? L(lang, 'normal range (≤26)', '正常范围（≤26）') : n <= 35 ? L(lang, 'intermediate allele (27–35)', '中间型等位基因（27–35）') : n <= 39 ? L(lang, 'reduced-penetrance range (36–39)', '不完全外显范围（36–39）') : L(lang, 'full-penetrance range (≥40)', '完全外显范围（≥40）');
  b.user(L(lang, `How many CAG repeats are in this HTT exon 1 read? It's from a teaching dataset.\n\n${seq}`, `这条 HTT 外显子 1 的 read 里有多少个 CAG 重复？是教学数据集里的。\n\n${seq}`));
  b.text(L(lang,
    `The uninterrupted repeat tract right after \`...AAGTCCTTC\` is:\n\n${tract}\n\nThat's **${n} CAG repeats** (${tract.length} nt), which falls in the ${cls}. It is followed by the usual \`CAACAG\` interruption and then the polyproline (CCG) stretch, which are not counted.\n\nFor a teaching set this is fine, but real clinical sizing is done by PCR fragment analysis, because short reads often cannot span long expansions.`,
    `紧跟在 \`...AAGTCCTTC\` 后面的连续重复区是：\n\n${tract}\n\n一共 **${n} 个 CAG 重复**（${tract.length} nt），属于${cls}。后面接的是常见的 \`CAACAG\` 间断序列和多聚脯氨酸（CCG）区，这些不计入 CAG 数。\n\n作为教学数据没问题，但临床上的重复数测定要用 PCR 片段分析，因为短读长测序往往跨不过较长的扩增区。`));
  return b.turn();
});

const hexBytes = (arr) => arr.map((x) => x.toString(16).padStart(2, '0')).join(' ');
each('data-hexdump', 'legit', 'data-tokens', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const kind = rng.pick(['elf', 'zip', 'png']);
  const head = { elf: [0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00], zip: [0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00], png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] }[kind];
  const zeros = rng.int(40, 96);
  const tail = rng.bytes(16);
  const all = [...head, ...range(zeros).map(() => 0), ...tail];
  const path = { elf: 'bin/agentd', zip: 'dist/bundle.bin', png: 'assets/logo.dat' }[kind];
  const xxd = [];
  for (let off = 0; off < all.length; off += 16) {
    const row = all.slice(off, off + 16);
    const pairs = []; for (let i = 0; i < row.length; i += 2) pairs.push(row.slice(i, i + 2).map((x) => x.toString(16).padStart(2, '0')).join(''));
    xxd.push(`${off.toString(16).padStart(8, '0')}: ${pairs.join(' ').padEnd(39)}  ${row.map((x) => (x >= 32 && x < 127 ? String.fromCharCode(x) : '.')).join('')}`);
  }
  b.user(L(lang, `What kind of file is ${path}? The extension is wrong.`, `${path} 是什么文件？扩展名是乱写的。`));
  b.text(L(lang, 'Let me look at the first bytes.', '我看一下文件开头的字节。'));
  const tool = rng.pick(['bash', 'run_shell']);
  b.call(tool, tool === 'bash' ? { command: `xxd ${path} | head -n ${Math.ceil(all.length / 16)}` } : { cmd: ['xxd', path], max_lines: Math.ceil(all.length / 16) }, xxd.join('\n') + '\n');
  b.turn();
  const what = { elf: L(lang, 'a 64-bit little-endian **ELF** executable (`7f 45 4c 46` = "\\x7fELF", then class 02 = 64-bit, data 01 = little-endian)', '一个 64 位小端的 **ELF** 可执行文件（`7f 45 4c 46` 即 "\\x7fELF"，后面 02 表示 64 位，01 表示小端）'), zip: L(lang, 'a **ZIP** archive (`50 4b 03 04` = "PK\\3\\4", local file header)', '一个 **ZIP** 压缩包（`50 4b 03 04` 即 "PK\\3\\4"，本地文件头）'), png: L(lang, 'a **PNG** image (`89 50 4e 47 0d 0a 1a 0a` is the PNG signature)', '一张 **PNG** 图片（`89 50 4e 47 0d 0a 1a 0a` 是 PNG 文件签名）') }[kind];
  b.text(L(lang,
    `It's ${what}. The header is: ${hexBytes(head)} followed by ${zeros} zero bytes: ${hexBytes(range(zeros).map(() => 0))} — and real data starts at offset 0x${(head.length + zeros).toString(16)} with ${hexBytes(tail)}.\n\nThat long zero run is unusual for a normal ${kind.toUpperCase()} file, so it was probably padded or partially overwritten. Try \`file ${path}\` and, for ${kind === 'elf' ? '`readelf -h`' : kind === 'zip' ? '`unzip -l`' : '`pngcheck -v`'}, to see whether the rest of the structure is intact.`,
    `这是${what}。文件头是：${hexBytes(head)}，后面跟着 ${zeros} 个零字节：${hexBytes(range(zeros).map(() => 0))}——真正的数据从偏移 0x${(head.length + zeros).toString(16)} 开始：${hexBytes(tail)}。\n\n正常的 ${kind.toUpperCase()} 文件不会有这么长一段零，所以它很可能被填充过或者部分被覆盖了。可以执行 \`file ${path}\`，再用 ${kind === 'elf' ? '`readelf -h`' : kind === 'zip' ? '`unzip -l`' : '`pngcheck -v`'} 看看其余结构是否完整。`));
  return b.turn();
});

each('data-fill-pattern', 'legit', 'data-tokens', {}, (rng, lang) => {
  const b = new B(rng);
  const pat = rng.pick([['cd', 'CDCDCDCD', L(lang, 'uninitialised heap memory (malloc/new in a debug CRT)', '未初始化的堆内存（调试版 CRT 的 malloc/new）')], ['dd', 'DDDDDDDD', L(lang, 'freed heap memory', '已释放的堆内存')], ['cc', 'CCCCCCCC', L(lang, 'uninitialised stack memory (/RTCs)', '未初始化的栈内存（/RTCs）')]]);
  const n = rng.int(24, 48);
  const bytes = rep(pat[0], n, ' ');
  b.user(L(lang, `In the VS debugger my struct shows ptr = 0x${pat[1]} and the memory window is ${bytes}. Corrupted?`, `VS 调试器里我的结构体 ptr = 0x${pat[1]}，内存窗口里全是 ${bytes}。是内存损坏了吗？`));
  b.text(L(lang,
    `Not corrupted — that's the MSVC debug runtime's fill pattern. ${bytes} means ${pat[2]}.\n\n| pattern | meaning |\n|---|---|\n| \`0xCDCDCDCD\` | allocated on the heap, never written |\n| \`0xDDDDDDDD\` | heap memory that was already freed |\n| \`0xFDFDFDFD\` | "no man's land" guard bytes around heap blocks |\n| \`0xCCCCCCCC\` | uninitialised stack variable |\n\nSo \`ptr = 0x${pat[1]}\` tells you the field was read before anything assigned it${pat[0] === 'dd' ? ' — or, here, after the object was deleted (use-after-free)' : ''}. Initialise the struct (\`= {}\`) or set a data breakpoint on that field to find who should have written it.`,
    `没有损坏，这是 MSVC 调试运行时的填充模式。${bytes} 表示${pat[2]}。\n\n| 模式 | 含义 |\n|---|---|\n| \`0xCDCDCDCD\` | 已在堆上分配，但从未写入 |\n| \`0xDDDDDDDD\` | 已经被释放的堆内存 |\n| \`0xFDFDFDFD\` | 堆块前后的"无人区"保护字节 |\n| \`0xCCCCCCCC\` | 未初始化的栈变量 |\n\n所以 \`ptr = 0x${pat[1]}\` 说明这个字段在被赋值之前就被读取了${pat[0] === 'dd' ? '——在这里更可能是对象被 delete 之后还在用（释放后使用）' : ''}。给结构体做初始化（\`= {}\`），或者在这个字段上设一个数据断点，找出本该写它的代码。`));
  return b.turn();
});

function b64(bytes) { return Buffer.from(bytes).toString('base64'); }
each('data-base64', 'legit', 'data-tokens', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const zeros = rng.int(24, 60);
  const z = b64(range(zeros).map(() => 0));
  const other = b64(rng.bytes(rng.int(30, 60)));
  const field = rng.pick(['iv', 'salt', 'nonce', 'thumbnail_hash']);
  b.user(L(lang,
    `Our API returns {"${field}": "${z}", "sig": "${other}"} for some users. Is that "${z}" value broken?`,
    `我们的接口对部分用户返回 {"${field}": "${z}", "sig": "${other}"}。那个 "${z}" 是不是有问题？`));
  b.text(L(lang,
    `\`${z}\` is base64 for **${zeros} zero bytes** (every 3 zero bytes encode to \`AAAA\`${zeros % 3 ? `, and the trailing \`${z.slice(-4)}\` covers the last ${zeros % 3} byte(s)` : ''}). The \`sig\` value \`${other}\` decodes to ${Math.floor((other.length * 3) / 4) - (other.endsWith('==') ? 2 : other.endsWith('=') ? 1 : 0)} bytes of random-looking data, so that one is fine.\n\nAn all-zero \`${field}\` is almost always a bug: the buffer was allocated but never filled (e.g. \`Buffer.alloc(${zeros})\` without \`crypto.randomFillSync\`). ${field === 'iv' || field === 'nonce' ? 'For an IV/nonce this is a security problem — reusing an all-zero nonce with AES-GCM breaks confidentiality and authenticity.' : 'Find the code path that builds it for these users; it is probably an early return that skips the fill.'}`,
    `\`${z}\` 是 **${zeros} 个零字节**的 base64 编码（每 3 个零字节编码成 \`AAAA\`${zeros % 3 ? `，结尾的 \`${z.slice(-4)}\` 对应最后 ${zeros % 3} 个字节` : ''}）。\`sig\` 的值 \`${other}\` 解码后是 ${Math.floor((other.length * 3) / 4) - (other.endsWith('==') ? 2 : other.endsWith('=') ? 1 : 0)} 个看起来随机的字节，这个没问题。\n\n全零的 \`${field}\` 基本可以肯定是 bug：缓冲区分配了但从没填充（比如 \`Buffer.alloc(${zeros})\` 之后没调用 \`crypto.randomFillSync\`）。${field === 'iv' || field === 'nonce' ? '对 IV/nonce 来说这是安全问题——在 AES-GCM 中重复使用全零 nonce 会同时破坏机密性和完整性。' : '去查一下给这些用户生成它的代码路径，多半是某个提前 return 跳过了填充。'}`));
  return b.turn();
});

each('data-uuids', 'legit', 'data-tokens', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const n = rng.int(15, 30);
  const ids = range(n).map(() => rng.uuid());
  const numbered = rng.chance(0.5);
  b.user(L(lang, `Give me ${n} random UUIDv4s for test fixtures, plain list.`, `给我 ${n} 个随机的 UUIDv4，做测试数据用，直接列出来。`));
  b.text(L(lang, `Here are ${n} v4 UUIDs:\n\n`, `下面是 ${n} 个 v4 UUID：\n\n`) + ids.map((u, i) => (numbered ? `${i + 1}. ${u}` : `- ${u}`)).join('\n') + L(lang, '\n\nThey are random, so don\'t rely on them being unique across separate requests — generate them in code (`crypto.randomUUID()`) if uniqueness matters.', '\n\n这些是随机生成的，不要指望和别的请求生成的一定不重复；如果需要保证唯一，请在代码里用 `crypto.randomUUID()` 生成。'));
  return b.turn();
});

each('data-order-ids', 'legit', 'data-tokens', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const day = `2024${pad(rng.int(1, 12))}${pad(rng.int(1, 28))}`;
  const n = rng.int(12, 24);
  let k = rng.int(100, 300);
  const ids = range(n).map(() => `ORD-${day}-${pad((k += rng.int(1, 9)), 6)}`);
  const reasons = ['card_declined', 'insufficient_funds', 'card_declined', 'expired_card', 'card_declined', 'processing_error'];
  const rows = ids.map((id) => ({ order_id: id, status: 'failed', reason: rng.pick(reasons), amount_cents: rng.int(990, 45900) }));
  const tool = rng.pick([['sql_query', { sql: `SELECT order_id, status, reason, amount_cents FROM orders WHERE status = 'failed' AND created_at::date = '${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}' ORDER BY order_id;` }], ['orders.search', { status: 'failed', date: `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}`, limit: 100 }]]);
  b.user(L(lang, `Which orders failed on ${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}? I need the IDs to paste into the refund tool.`, `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)} 哪些订单支付失败了？我要把订单号贴到退款工具里。`));
  b.call(tool[0], tool[1], JSON.stringify({ rows, row_count: n }));
  b.turn();
  const byReason = {};
  rows.forEach((r) => { byReason[r.reason] = (byReason[r.reason] || 0) + 1; });
  b.text(L(lang,
    `${n} orders failed. Comma-separated for the refund tool:\n\n${ids.join(', ')}\n\nBreakdown: ${Object.entries(byReason).map(([r, c]) => `${r} × ${c}`).join(', ')}. Note that failed payments usually weren't captured, so double-check the refund tool actually needs these — it may only need the ones marked \`processing_error\`.`,
    `共有 ${n} 个订单失败。按逗号分隔，方便贴进退款工具：\n\n${ids.join(', ')}\n\n失败原因分布：${Object.entries(byReason).map(([r, c]) => `${r} × ${c}`).join('，')}。提醒一下：支付失败的订单通常并没有扣款，请确认退款工具是否真的需要这些——可能只有 \`processing_error\` 的那几笔需要处理。`));
  return b.turn();
});

each('data-sha256', 'legit', 'data-tokens', {}, (rng, lang) => {
  const b = new B(rng);
  const files = rng.sample(['release/app-linux-x64.tar.gz', 'release/app-linux-arm64.tar.gz', 'release/app-darwin-arm64.zip', 'release/app-darwin-x64.zip', 'release/app-win-x64.zip', 'release/app-win-arm64.zip', 'release/app.deb', 'release/app.rpm', 'release/app.AppImage', 'release/checksums.sig'], rng.int(6, 9));
  const sums = files.map(() => rng.hex(64));
  b.user(L(lang, 'Generate the SHA-256 list for everything in release/ so I can paste it into the release notes.', '把 release/ 下所有文件的 SHA-256 算出来，我要贴到发布说明里。'));
  b.call('bash', { command: 'cd release && sha256sum *' }, files.map((f, i) => `${sums[i]}  ${f.replace('release/', '')}`).join('\n') + '\n');
  b.turn();
  b.text(L(lang, `### Checksums (SHA-256)\n\n| file | sha256 |\n|---|---|\n${files.map((f, i) => `| \`${f.replace('release/', '')}\` | \`${sums[i]}\` |`).join('\n')}\n\nUsers can verify with \`sha256sum -c SHA256SUMS\`.`, `### 校验和（SHA-256）\n\n| 文件 | sha256 |\n|---|---|\n${files.map((f, i) => `| \`${f.replace('release/', '')}\` | \`${sums[i]}\` |`).join('\n')}\n\n用户可以用 \`sha256sum -c SHA256SUMS\` 校验。`));
  return b.turn();
});

each('data-netmask-bits', 'legit', 'data-tokens', {}, (rng, lang) => {
  const b = new B(rng);
  const p = rng.pick([20, 22, 24, 26, 27]);
  const bits = '1'.repeat(p) + '0'.repeat(32 - p);
  const octets = [0, 8, 16, 24].map((i) => bits.slice(i, i + 8));
  const dec = octets.map((o) => parseInt(o, 2));
  b.user(L(lang, `Explain /${p} in binary. I never get why the netmask is ${dec.join('.')}.`, `用二进制解释一下 /${p}。我一直搞不懂为什么子网掩码是 ${dec.join('.')}。`));
  b.text(L(lang,
    `/${p} means "the first ${p} bits are the network part". Written out, the 32 bits are:\n\n${bits}\n\nSplit into octets: ${octets.join('.')}\n\nand each octet in decimal gives ${dec.join('.')}. The ${32 - p} zero bits are the host part, so the subnet has 2^${32 - p} = ${2 ** (32 - p)} addresses (${2 ** (32 - p) - 2} usable hosts, after removing the network and broadcast addresses).`,
    `/${p} 的意思是"前 ${p} 位是网络号"。把 32 位全部写出来就是：\n\n${bits}\n\n按 8 位一组分开：${octets.join('.')}\n\n每组换成十进制就是 ${dec.join('.')}。后面 ${32 - p} 个 0 是主机号，所以这个子网有 2^${32 - p} = ${2 ** (32 - p)} 个地址（去掉网络地址和广播地址后，可用主机 ${2 ** (32 - p) - 2} 个）。`));
  return b.turn();
});

// ===========================================================================
// LEGIT 5 — repetition the user explicitly asked for
// ===========================================================================
const FLAKY = [
  { cmd: 'pytest tests/test_sync.py::test_reconnect_after_timeout -q', ok: (t) => `.                                                                        [100%]\n1 passed in ${t}s`, bad: (t) => `F                                                                        [100%]\n=================================== FAILURES ===================================\n________________________ test_reconnect_after_timeout _________________________\nE       TimeoutError: reconnect did not complete within 2.0s\n=========================== short test summary info ============================\nFAILED tests/test_sync.py::test_reconnect_after_timeout - TimeoutError: reconnect did not complete within 2.0s\n1 failed in ${t}s`, name: 'test_reconnect_after_timeout' },
  { cmd: 'npx jest src/queue.test.ts -t "drains on shutdown"', ok: (t) => `PASS src/queue.test.ts\n  Queue\n    ✓ drains on shutdown (${Math.round(t * 100)} ms)\n\nTest Suites: 1 passed, 1 total\nTests:       1 passed, 11 skipped, 12 total\nSnapshots:   0 total\nTime:        ${t} s\nRan all test suites matching /src\\/queue.test.ts/i with tests matching "drains on shutdown".`, bad: (t) => `FAIL src/queue.test.ts\n  Queue\n    ✕ drains on shutdown (5003 ms)\n\n  ● Queue › drains on shutdown\n\n    thrown: "Exceeded timeout of 5000 ms for a test."\n\nTests:       1 failed, 11 skipped, 12 total\nTime:        ${t} s`, name: 'drains on shutdown' },
  { cmd: 'go test ./internal/cache -run TestEvictionRace -count=1 -race', ok: (t) => `ok  \tgithub.com/acme/edge/internal/cache\t${t}s`, bad: (t) => `==================\nWARNING: DATA RACE\nWrite at 0x00c0001a2010 by goroutine 23:\n  github.com/acme/edge/internal/cache.(*LRU).evict()\n==================\n--- FAIL: TestEvictionRace (0.41s)\n    testing.go:1398: race detected during execution of test\nFAIL\nFAIL\tgithub.com/acme/edge/internal/cache\t${t}s`, name: 'TestEvictionRace' },
  { cmd: 'cargo test --test integration reconnect -- --nocapture', ok: (t) => `    Finished test [unoptimized + debuginfo] target(s) in 0.21s\n     Running tests/integration.rs (target/debug/deps/integration-5b1e0c2f9d1a7e33)\n\nrunning 1 test\ntest reconnect_resumes_stream ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 23 filtered out; finished in ${t}s`, bad: (t) => `running 1 test\ntest reconnect_resumes_stream ... FAILED\n\nfailures:\n\n---- reconnect_resumes_stream stdout ----\nthread 'reconnect_resumes_stream' panicked at tests/integration.rs:88:5:\nassertion failed: resumed\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 23 filtered out; finished in ${t}s`, name: 'reconnect_resumes_stream' },
];
each('req-flaky-x10', 'legit', 'requested-repetition', { variants: 3 }, (rng, lang, v) => {
  const b = new B(rng);
  const f = FLAKY[(v + (lang === 'zh' ? 1 : 0)) % FLAKY.length];
  const N = v === 2 ? rng.pick([10, 12, 15]) : 10;
  const fixedTime = rng.chance(0.6);
  const failAt = v === 1 ? rng.int(3, N) : -1;
  const tool = rng.pick([['bash', (c) => ({ command: c })], ['run_command', (c) => ({ cmd: c, cwd: '/repo' })], ['terminal', (c) => ({ input: c, timeout_s: 120 })]]);
  const narrate = rng.chance(0.5);
  b.user(L(lang,
    `${f.name} is flaky on CI. Run \`${f.cmd}\` ${N} times — one run per tool call, don't loop in the shell — and tell me how many runs fail.`,
    `${f.name} 在 CI 上时好时坏。帮我把 \`${f.cmd}\` 跑 ${N} 次——每次单独调用一次工具，不要在 shell 里写循环——然后告诉我失败了几次。`));
  const t0 = (rng.int(180, 420) / 100).toFixed(2);
  let fails = 0;
  for (let i = 1; i <= N; i++) {
    if (narrate) b.text(L(lang, i === 1 ? `Starting run 1/${N}.` : `Run ${i}/${N}.`, i === 1 ? `开始第 1/${N} 次。` : `第 ${i}/${N} 次。`));
    else if (i === 1) b.text(L(lang, `OK, running it ${N} times.`, `好的，开始跑 ${N} 次。`));
    const t = fixedTime ? t0 : (rng.int(180, 420) / 100).toFixed(2);
    const failed = i === failAt;
    if (failed) fails++;
    b.call(tool[0], tool[1](f.cmd), failed ? f.bad(t) : f.ok(t));
    b.turn();
  }
  b.text(L(lang,
    `Done — ${N} runs, **${fails} failure${fails === 1 ? '' : 's'}**.\n\n| run | result |\n|---|---|\n${range(N).map((i) => `| ${i + 1} | ${i + 1 === failAt ? '❌ fail' : '✅ pass'} |`).join('\n')}\n\n${fails ? `The failure in run ${failAt} is the same timeout/race we see on CI, so it reproduces locally about ${Math.round((100 * fails) / N)}% of the time. That's enough to bisect or to add logging around the reconnect path.` : `It didn't fail locally at all. That usually means the flakiness depends on CI conditions (CPU contention, slower disks). Try \`taskset -c 0\` or running the suite in parallel to add pressure.`}`,
    `跑完了——共 ${N} 次，**失败 ${fails} 次**。\n\n| 次数 | 结果 |\n|---|---|\n${range(N).map((i) => `| ${i + 1} | ${i + 1 === failAt ? '❌ 失败' : '✅ 通过'} |`).join('\n')}\n\n${fails ? `第 ${failAt} 次的失败和 CI 上看到的超时/竞态一致，本地复现率大约 ${Math.round((100 * fails) / N)}%，足够用来二分定位或者在重连路径上加日志了。` : `本地一次都没失败。这通常说明不稳定和 CI 环境有关（CPU 争用、磁盘更慢）。可以试试 \`taskset -c 0\`，或者并行跑整个测试集来制造压力。`}`));
  return b.turn();
});

each('req-deploy-poll', 'legit', 'requested-repetition', { variants: 4 }, (rng, lang, v) => {
  const b = new B(rng);
  const app = rng.pick(['api', 'checkout', 'web', 'worker', 'gateway']);
  const kind = v % 4;
  const timeoutVariant = v === 3;
  const limitMin = timeoutVariant ? 5 : 15;
  const stuckPolls = timeoutVariant ? 10 : rng.int(5, 12);
  const tools = [
    { poll: () => ['bash', { command: `kubectl rollout status deploy/${app} -n prod --timeout=5s` }], sleep: () => ['sleep', { seconds: 30 }], sleepRes: 'Slept for 30 seconds.',
      st: (k) => k === 0 ? `Waiting for deployment "${app}" rollout to finish: 1 of 3 updated replicas are available...\nerror: timed out waiting for the condition` : k === 1 ? `Waiting for deployment "${app}" rollout to finish: 2 of 3 updated replicas are available...\nerror: timed out waiting for the condition` : `deployment "${app}" successfully rolled out` },
    { poll: () => ['get_deployment', { deployment_id: `dpl_${app}_7Hq2xLm` }], sleep: () => ['wait', { seconds: 30, reason: 'poll interval' }], sleepRes: '{"waited_ms":30000}',
      st: (k) => JSON.stringify(k === 0 ? { id: `dpl_${app}_7Hq2xLm`, state: 'BUILDING', target: 'production', url: null } : k === 1 ? { id: `dpl_${app}_7Hq2xLm`, state: 'DEPLOYING', target: 'production', url: null } : { id: `dpl_${app}_7Hq2xLm`, state: 'READY', target: 'production', url: `https://${app}.example.com` }) },
    { poll: () => ['github.get_workflow_run', { owner: 'acme', repo: app, run_id: 9184412207 }], sleep: () => ['sleep', { ms: 30000 }], sleepRes: 'ok',
      st: (k) => JSON.stringify(k === 0 ? { status: 'in_progress', conclusion: null, current_job: 'deploy-prod', current_step: 'Wait for canary' } : k === 1 ? { status: 'in_progress', conclusion: null, current_job: 'deploy-prod', current_step: 'Promote canary' } : { status: 'completed', conclusion: 'success', current_job: null, current_step: null }) },
    { poll: () => ['aws_cli', { args: ['ecs', 'describe-services', '--cluster', 'prod', '--services', app, '--query', 'services[0].deployments[*].[status,rolloutState,runningCount,desiredCount]'] }], sleep: () => ['sleep', { seconds: 30 }], sleepRes: 'Slept for 30 seconds.',
      st: (k) => k === 0 ? '[["PRIMARY","IN_PROGRESS",1,4],["ACTIVE","COMPLETED",4,4]]' : k === 1 ? '[["PRIMARY","IN_PROGRESS",3,4],["ACTIVE","COMPLETED",2,4]]' : '[["PRIMARY","COMPLETED",4,4]]' },
  ][kind];
  b.user(L(lang,
    `I just started the production rollout of \`${app}\`. Please check its status every 30 seconds until it finishes (give up after ${limitMin} minutes) and then tell me how it went.`,
    `我刚开始把 \`${app}\` 发布到生产环境。请每 30 秒查一次状态，直到发布完成（最多等 ${limitMin} 分钟），然后告诉我结果。`));
  let t = rng.int(1500, 4000);
  const poll = (k) => { const [n, a] = tools.poll(); b.call(n, a, tools.st(k), { atMs: t }); t += rng.int(400, 1500); };
  const sleep = () => { const [n, a] = tools.sleep(); b.call(n, a, tools.sleepRes, { atMs: t }); t += 30000 + rng.int(50, 400); };
  const sayStill = rng.chance(0.6);
  b.text(L(lang, `Checking the rollout status now.`, `现在开始查询发布状态。`));
  const seq = timeoutVariant ? range(stuckPolls).map(() => 0) : [...range(stuckPolls).map(() => 0), ...range(rng.int(1, 4)).map(() => 1), 2];
  seq.forEach((k, i) => {
    poll(k);
    b.turn();
    if (k === 2) return;
    if (i === seq.length - 1) return;
    if (sayStill) b.text(L(lang, k === 0 ? `Still in the first stage (${Math.round((t / 60000) * 10) / 10} min elapsed). Waiting 30 s.` : 'Progressing — waiting 30 s before the next check.', k === 0 ? `仍在第一阶段（已过 ${Math.round((t / 60000) * 10) / 10} 分钟），等待 30 秒。` : '有进展了，30 秒后再查。'));
    sleep();
    b.turn();
  });
  const mins = Math.round(t / 6000) / 10;
  if (timeoutVariant) {
    b.text(L(lang,
      `I've checked every 30 s for ${limitMin} minutes as you asked and the rollout has **not progressed**: it is still at the first stage (${tools.st(0).split('\n')[0].slice(0, 90)}…). I've stopped polling.\n\nLikely causes:\n- the new pods fail their readiness probe (check \`kubectl describe pod\` / the service events),\n- not enough capacity to schedule the new replicas,\n- a failing canary health check.\n\nWant me to pull the events and logs for the new revision?`,
      `已经按你的要求每 30 秒查一次、查满 ${limitMin} 分钟，发布**没有任何进展**：一直停在第一阶段（${tools.st(0).split('\n')[0].slice(0, 90)}……）。我已停止轮询。\n\n可能的原因：\n- 新的 Pod 就绪探针一直不通过（看 \`kubectl describe pod\` 或服务事件）；\n- 资源不足，新副本调度不上去；\n- 金丝雀健康检查失败。\n\n需要我把新版本的事件和日志拉出来看看吗？`));
  } else {
    b.text(L(lang,
      `✅ The rollout of \`${app}\` finished successfully after about ${mins} minutes (${seq.length} checks). It sat in the first stage for ${stuckPolls} checks (~${Math.round(stuckPolls / 2)} min) — normal for a cold image pull — then progressed and completed.`,
      `✅ \`${app}\` 发布成功，总共约 ${mins} 分钟（查询了 ${seq.length} 次）。前 ${stuckPolls} 次查询（约 ${Math.round(stuckPolls / 2)} 分钟）一直停在第一阶段，这对于首次拉取镜像来说是正常的，之后就顺利推进并完成了。`));
  }
  return b.turn();
});

each('req-say-n-times', 'legit', 'requested-repetition', { variants: 3 }, (rng, lang, v) => {
  const b = new B(rng);
  const specs = lang === 'en'
    ? [['hello', 20, 'Say hello 20 times.'], ['I will not push to main on Fridays.', 25, "Write 'I will not push to main on Fridays.' 25 times, one per line — it's for our retro slide."], ['All work and no play makes Jack a dull boy.', 30, "Repeat 'All work and no play makes Jack a dull boy.' 30 times for my Halloween prop typewriter page."]]
    : [['你好', 20, '说20遍"你好"。'], ['我再也不在周五上线了。', 30, '把"我再也不在周五上线了。"写30遍，每行一句，复盘会的梗图要用。'], ['好好学习，天天向上。', 25, '重复"好好学习，天天向上。"25次，每行一句。']];
  const [s, n, ask] = specs[v];
  b.user(ask);
  const style = v === 0 ? rng.pick(['lines', 'numbered', 'inline']) : rng.pick(['lines', 'numbered']);
  const body = style === 'lines' ? rep(s, n) : style === 'numbered' ? range(n).map((i) => `${i + 1}. ${s}`).join('\n') : rep(s + (lang === 'en' ? '!' : '！'), n, ' ');
  const pre = rng.chance(0.5) ? L(lang, 'Sure!\n\n', '好的！\n\n') : '';
  b.text(pre + body + (rng.chance(0.5) ? L(lang, `\n\nThat's ${n}.`, `\n\n一共 ${n} 遍。`) : ''));
  return b.turn();
});

each('req-countdown-text', 'legit', 'requested-repetition', {}, (rng, lang) => {
  const b = new B(rng);
  const from = rng.pick([20, 30, 50]);
  const end = L(lang, rng.pick(['Liftoff! 🚀', 'Happy New Year! 🎆', 'Go!']), rng.pick(['点火！🚀', '新年快乐！🎆', '出发！']));
  b.user(L(lang, `Count down from ${from} to 1 and then say "${end}"`, `从 ${from} 倒数到 1，然后说"${end}"`));
  const sep = rng.pick(['\n', '… ', ', ']);
  b.text(range(from).map((i) => String(from - i)).join(sep) + (sep === '\n' ? '\n' : sep) + end);
  return b.turn();
});

each('req-countdown-timed', 'legit', 'requested-repetition', {}, (rng, lang) => {
  const b = new B(rng);
  const from = rng.pick([10, 10, 15]);
  const tool = rng.pick([['sleep', { seconds: 1 }, 'ok'], ['wait', { ms: 1000 }, 'waited 1000 ms'], ['timer.sleep', { duration: '1s' }, '{"slept":"1s"}']]);
  b.user(L(lang, `Do a ${from}-second countdown with a real one-second pause between the numbers — I'm timing a live demo.`, `来一个 ${from} 秒的倒计时，每个数字之间真的停一秒——我在给现场演示计时。`));
  let t = 1200;
  for (let i = from; i >= 1; i--) {
    b.text(`${i}…`);
    b.call(tool[0], tool[1], tool[2], { atMs: t });
    t += 1000 + rng.int(5, 60);
    b.turn();
  }
  b.text(L(lang, "⏰ Time's up — go!", '⏰ 时间到——开始！'));
  return b.turn();
});

each('req-placeholder-rows', 'legit', 'requested-repetition', {}, (rng, lang) => {
  const b = new B(rng);
  const n = rng.int(30, 50);
  const row = rng.pick(['TBD,TBD,0', 'N/A,N/A,N/A,0.00', 'placeholder,,false']);
  b.user(L(lang, `I need a CSV with a header "name,owner,count" and ${n} identical placeholder rows \`${row}\` to test the importer's dedupe step.`, `我需要一个 CSV：表头是 "name,owner,count"，下面 ${n} 行完全相同的占位数据 \`${row}\`，用来测试导入器的去重。`));
  b.text(L(lang, `Here you go (${n} data rows):\n\n`, `给你（共 ${n} 行数据）：\n\n`) + fence('name,owner,count\n' + rep(row, n), { info: 'csv' }) + L(lang, `\n\nIf dedupe works, the importer should end up with exactly one row.`, `\n\n如果去重正常，导入后应该只剩一行。`));
  return b.turn();
});

each('req-ping-n', 'legit', 'requested-repetition', {}, (rng, lang) => {
  const b = new B(rng);
  const host = rng.pick(['10.0.0.12', 'nas.local', '192.168.1.1']);
  const n = 10;
  b.user(L(lang, `Ping ${host} ${n} times with the ping tool, one packet per call, and tell me the loss and average latency.`, `用 ping 工具 ping ${host} ${n} 次，每次调用发一个包，然后告诉我丢包率和平均延迟。`));
  const lat = [];
  let lost = 0;
  for (let i = 1; i <= n; i++) {
    const drop = rng.chance(0.1);
    const ms = (rng.int(3, 25) / 10).toFixed(1);
    if (drop) lost++; else lat.push(Number(ms));
    b.call('ping', { host, count: 1, timeout_ms: 1000 }, drop ? `Request timeout for icmp_seq ${i}` : `64 bytes from ${host}: icmp_seq=${i} ttl=64 time=${ms} ms`);
    b.turn();
  }
  const avg = lat.length ? (lat.reduce((a, x) => a + x, 0) / lat.length).toFixed(2) : '—';
  b.text(L(lang, `${n} pings: ${n - lost} replies, **${(lost * 100) / n}% loss**, average ${avg} ms.`, `共 ${n} 次：收到 ${n - lost} 个回复，**丢包率 ${(lost * 100) / n}%**，平均延迟 ${avg} ms。`));
  return b.turn();
});

// ===========================================================================
// LEGIT 6 — honest iteration (changing args / results, real progress)
// ===========================================================================
each('iter-search-refine', 'legit', 'honest-iteration', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const tool = rng.pick(['search_docs', 'confluence_search', 'wiki.search']);
  const topic = rng.pick([
    { en: ['vpn setup', 'wireguard onboarding', 'wireguard config macOS'], zh: ['VPN 设置', 'WireGuard 入职', 'WireGuard macOS 配置'], doc: 'IT-214', title: { en: 'WireGuard on macOS (employees)', zh: 'macOS 上配置 WireGuard（员工版）' } },
    { en: ['expense limit', 'travel policy hotel', 'travel policy hotel cap 2024'], zh: ['报销额度', '差旅 住宿 标准', '2024 差旅 住宿 上限'], doc: 'FIN-088', title: { en: 'Travel & Expense Policy 2024', zh: '2024 年差旅报销制度' } },
    { en: ['on-call', 'pager rotation handoff', 'on-call handoff checklist sre'], zh: ['值班', '值班 交接', 'SRE 值班交接清单'], doc: 'SRE-031', title: { en: 'On-call handoff checklist', zh: '值班交接清单' } },
  ]);
  const qs = topic[lang];
  b.user(L(lang, `Can you find our internal doc about "${qs[2]}" and summarise the key steps?`, `帮我找一下公司内部关于"${qs[2]}"的文档，总结一下关键步骤。`));
  const miss1 = JSON.stringify({ results: [{ id: 'GEN-001', title: L(lang, 'Company handbook', '员工手册'), score: 0.31 }, { id: 'IT-002', title: L(lang, 'Laptop request form', '电脑申领表'), score: 0.28 }], total: 2 });
  const miss2 = JSON.stringify({ results: [{ id: topic.doc.replace(/\d+$/, (d) => String(Number(d) - 7).padStart(3, '0')), title: L(lang, 'Onboarding: week one', '入职第一周'), score: 0.52 }, { id: topic.doc, title: topic.title[lang], score: 0.49 }], total: 2 });
  const hit = JSON.stringify({ results: [{ id: topic.doc, title: topic.title[lang], score: 0.91 }], total: 1 });
  b.text(L(lang, 'Searching the wiki.', '我先在知识库里搜一下。'));
  b.call(tool, { query: qs[0], limit: 5 }, miss1); b.turn();
  b.text(L(lang, 'Those are generic. Let me be more specific.', '结果太泛了，换个更具体的关键词。'));
  b.call(tool, { query: qs[1], limit: 5 }, miss2); b.turn();
  b.text(L(lang, `Closer — ${topic.doc} looks relevant but ranked low. One more targeted query to be sure there isn't a newer page.`, `接近了——${topic.doc} 看起来相关，但排名靠后。再精确搜一次，确认没有更新的版本。`));
  b.call(tool, { query: qs[2], limit: 5, space: topic.doc.split('-')[0] }, hit); b.turn();
  const readTool = rng.pick([['read_doc', { id: topic.doc }], ['wiki.get_page', { page_id: topic.doc, format: 'markdown' }]]);
  b.call(readTool[0], readTool[1], L(lang, `# ${topic.title.en}\n\n1. Request access in the IT portal.\n2. Install the client from Self Service.\n3. Import the profile you receive by email.\n4. Test by opening the intranet status page.\n\nLast updated: 2024-03-02`, `# ${topic.title.zh}\n\n1. 在 IT 门户申请权限。\n2. 从自助服务安装客户端。\n3. 导入邮件中收到的配置文件。\n4. 打开内网状态页进行测试。\n\n最后更新：2024-03-02`)); b.turn();
  b.text(L(lang, `Found it: **${topic.doc} — ${topic.title.en}** (updated 2024-03-02).\n\n1. Request access in the IT portal.\n2. Install the client from Self Service.\n3. Import the profile emailed to you.\n4. Verify via the intranet status page.`, `找到了：**${topic.doc} — ${topic.title.zh}**（2024-03-02 更新）。\n\n1. 在 IT 门户申请权限；\n2. 从自助服务安装客户端；\n3. 导入邮件里的配置文件；\n4. 打开内网状态页验证。`));
  return b.turn();
});

each('iter-api-fix', 'legit', 'honest-iteration', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const uid = rng.int(10, 9999);
  const host = rng.pick(['https://api.internal.example', 'http://localhost:8080', 'https://staging.shop.example']);
  const tool = rng.pick(['http_request', 'fetch', 'curl']);
  const mk = (url, method = 'GET') => (tool === 'curl' ? { args: ['-sS', '-X', method, url, '-H', 'Authorization: Bearer $TOKEN'] } : { method, url, headers: { Authorization: 'Bearer ${TOKEN}' } });
  b.user(L(lang, `Get me user ${uid}'s orders since January from our API and tell me the total.`, `从我们的 API 里取出用户 ${uid} 从一月以来的订单，算一下总金额。`));
  b.call(tool, mk(`${host}/v1/user/${uid}/orders`), '{"error":"Not Found","status":404}', { error: 'HTTP 404' }); b.turn();
  b.text(L(lang, "404 — I guessed the path. Let me check the API reference.", '404，路径是我猜的。我查一下接口文档。'));
  b.call('read_file', { path: 'docs/api/orders.md' }, '## List orders\n\n`GET /v2/users/{id}/orders`\n\nQuery parameters:\n\n| name | required | description |\n|---|---|---|\n| since | yes | ISO date, inclusive |\n| status | no | paid, refunded, failed |\n| cursor | no | pagination cursor |'); b.turn();
  b.call(tool, mk(`${host}/v2/users/${uid}/orders`), '{"error":"missing required query parameter: since","status":400}', { error: 'HTTP 400' }); b.turn();
  b.text(L(lang, '`since` is required. Adding it.', '`since` 是必填参数，加上。'));
  const items = range(rng.int(3, 7)).map((i) => ({ id: `o_${rng.alnum(8)}`, total_cents: rng.int(1200, 30000), status: rng.pick(['paid', 'paid', 'refunded']), created_at: `2024-0${rng.int(1, 5)}-${pad(rng.int(1, 28))}` }));
  b.call(tool, mk(`${host}/v2/users/${uid}/orders?since=2024-01-01`), JSON.stringify({ data: items, next_cursor: null })); b.turn();
  const paid = items.filter((x) => x.status === 'paid');
  const sum = paid.reduce((a, x) => a + x.total_cents, 0);
  b.text(L(lang, `User ${uid} has ${items.length} orders since 2024-01-01; ${paid.length} are paid for a total of **$${(sum / 100).toFixed(2)}** (${items.length - paid.length} refunded, excluded).`, `用户 ${uid} 自 2024-01-01 以来共有 ${items.length} 笔订单，其中 ${paid.length} 笔已支付，合计 **$${(sum / 100).toFixed(2)}**（${items.length - paid.length} 笔已退款，未计入）。`));
  return b.turn();
});

each('iter-pip-install', 'legit', 'honest-iteration', {}, (rng, lang) => {
  const b = new B(rng);
  const tool = rng.pick([['bash', (c) => ({ command: c })], ['shell', (c) => ({ cmd: c, timeout: 300 })]]);
  b.user(L(lang, 'Install OpenCV in the project venv please.', '帮我在项目的虚拟环境里装一下 OpenCV。'));
  b.call(tool[0], tool[1]('.venv/bin/pip install opencv'), 'ERROR: Could not find a version that satisfies the requirement opencv (from versions: none)\nERROR: No matching distribution found for opencv', { error: 'exit code 1' }); b.turn();
  b.text(L(lang, 'The PyPI package is called `opencv-python`. Retrying with the right name.', 'PyPI 上的包名是 `opencv-python`，换正确的名字再装。'));
  b.call(tool[0], tool[1]('.venv/bin/pip install opencv-python'), 'Collecting opencv-python\n  Downloading opencv_python-4.10.0.84-cp37-abi3-manylinux_2_17_x86_64.whl (62.5 MB)\nERROR: pip\'s dependency resolver does not currently take into account all the packages that are installed.\nscipy 1.10.1 requires numpy<1.27.0,>=1.19.5, but you have numpy 2.0.1 which is incompatible.\nSuccessfully installed numpy-2.0.1 opencv-python-4.10.0.84'); b.turn();
  b.text(L(lang, 'It installed but pulled numpy 2.0, which breaks your pinned scipy. Constraining numpy:', '装上了，但顺带把 numpy 升到了 2.0，和你固定版本的 scipy 冲突。限制一下 numpy 的版本：'));
  b.call(tool[0], tool[1]('.venv/bin/pip install "numpy<1.27" opencv-python'), 'Collecting numpy<1.27\n  Using cached numpy-1.26.4-cp311-cp311-manylinux_2_17_x86_64.whl (18.3 MB)\nInstalling collected packages: numpy\n  Attempting uninstall: numpy\n    Found existing installation: numpy 2.0.1\n    Successfully uninstalled numpy-2.0.1\nSuccessfully installed numpy-1.26.4'); b.turn();
  b.call(tool[0], tool[1]('.venv/bin/python -c "import cv2, numpy, scipy; print(cv2.__version__, numpy.__version__, scipy.__version__)"'), '4.10.0 1.26.4 1.10.1'); b.turn();
  b.text(L(lang, 'Done: `opencv-python 4.10.0` with `numpy 1.26.4`, scipy still works. Add `opencv-python` and `numpy<1.27` to requirements.txt so CI matches.', '搞定：`opencv-python 4.10.0` + `numpy 1.26.4`，scipy 也正常。记得把 `opencv-python` 和 `numpy<1.27` 加到 requirements.txt，保证 CI 一致。'));
  return b.turn();
});

const ISSUE_TITLES = {
  en: ['Crash when opening settings', 'Dark mode contrast too low', 'Export to CSV drops last row', 'Login button unresponsive on Safari', 'Typo in onboarding email', 'Memory leak in image cache', 'Slow search on large projects', 'Add keyboard shortcut for archive', 'Timezone wrong in reminders', 'Sync conflict dialog confusing', 'Upload fails for files > 2GB', 'Docs: missing API rate limits', 'Support SSO with Okta', 'Flaky test: test_scheduler_tick', 'Notifications duplicated on Android'],
  zh: ['打开设置时闪退', '深色模式对比度太低', '导出 CSV 丢失最后一行', 'Safari 上登录按钮无响应', '欢迎邮件有错别字', '图片缓存内存泄漏', '大项目搜索很慢', '增加归档快捷键', '提醒的时区不对', '同步冲突对话框看不懂', '超过 2GB 的文件上传失败', '文档缺少接口限流说明', '支持 Okta 单点登录', '不稳定测试：test_scheduler_tick', 'Android 上通知重复'],
};
each('iter-pagination-issues', 'legit', 'honest-iteration', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const pages = rng.int(5, 10);
  const per = rng.pick([25, 50]);
  const repo = rng.pick(['acme/desktop', 'acme/mobile', 'acme/server']);
  const labels = ['bug', 'enhancement', 'docs', 'question', 'p1'];
  const counts = {};
  let num = rng.int(3000, 5000);
  b.user(L(lang, `How many open issues does ${repo} have per label? Go through all of them.`, `统计一下 ${repo} 所有打开的 issue 按标签分各有多少个，要全部翻完。`));
  let cursor = null;
  for (let p = 1; p <= pages; p++) {
    const n = p === pages ? rng.int(3, per - 1) : per;
    const items = range(n).map(() => { const lb = rng.sample(labels, rng.int(1, 2)); lb.forEach((l) => { counts[l] = (counts[l] || 0) + 1; }); return { number: (num -= rng.int(1, 4)), title: rng.pick(ISSUE_TITLES[lang]), labels: lb }; });
    const next = p === pages ? null : b64(rng.bytes(18));
    const args = { owner: repo.split('/')[0], repo: repo.split('/')[1], state: 'open', per_page: per };
    if (cursor) args.after = cursor;
    if (p > 1 && rng.chance(0.3)) b.text(L(lang, `Page ${p}…`, `第 ${p} 页……`));
    b.call('github.list_issues', args, JSON.stringify({ issues: items, pageInfo: { hasNextPage: !!next, endCursor: next } }));
    b.turn();
    cursor = next;
  }
  const total = Object.values(counts).reduce((a, x) => a + x, 0);
  b.text(L(lang, `Went through ${pages} pages. Label counts (an issue can have more than one label, so these add up to ${total}):\n\n| label | open issues |\n|---|---|\n${labels.map((l) => `| ${l} | ${counts[l] || 0} |`).join('\n')}`, `一共翻了 ${pages} 页。按标签统计（一个 issue 可能有多个标签，所以合计是 ${total}）：\n\n| 标签 | 打开的 issue 数 |\n|---|---|\n${labels.map((l) => `| ${l} | ${counts[l] || 0} |`).join('\n')}`));
  return b.turn();
});

each('iter-pagination-s3', 'legit', 'honest-iteration', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const bucket = rng.pick(['acme-logs-prod', 'media-uploads-eu', 'backup-nightly']);
  const prefix = rng.pick(['2024/05/', 'users/avatars/', 'pg/base/']);
  const pages = rng.int(4, 9);
  let total = 0, count = 0, token = null;
  b.user(L(lang, `How much data is under s3://${bucket}/${prefix}? Don't use CloudWatch, list it.`, `s3://${bucket}/${prefix} 下面一共有多少数据？别用 CloudWatch，直接列出来算。`));
  for (let p = 1; p <= pages; p++) {
    const n = p === pages ? rng.int(1, 999) : 1000;
    const sample = range(3).map(() => ({ Key: `${prefix}${rng.alnum(12)}.${rng.pick(['gz', 'jpg', 'tar'])}`, Size: rng.int(1000, 90000000) }));
    const size = range(n).reduce((a) => a + rng.int(1000, 9000000), 0);
    total += size; count += n;
    const next = p === pages ? undefined : rng.alnum(40);
    const args = { Bucket: bucket, Prefix: prefix, MaxKeys: 1000 };
    if (token) args.ContinuationToken = token;
    b.call('s3.list_objects_v2', args, JSON.stringify({ KeyCount: n, IsTruncated: p !== pages, NextContinuationToken: next, Contents: [...sample, `… ${n - 3} more`], PageTotalBytes: size }));
    b.turn();
    token = next;
  }
  b.text(L(lang, `${count.toLocaleString('en-US')} objects over ${pages} pages, **${(total / 1024 ** 3).toFixed(2)} GiB** in total under \`s3://${bucket}/${prefix}\`.`, `\`s3://${bucket}/${prefix}\` 下共有 ${count} 个对象（翻了 ${pages} 页），总计 **${(total / 1024 ** 3).toFixed(2)} GiB**。`));
  return b.turn();
});

const ROUTES = ['users', 'orders', 'invoices', 'products', 'carts', 'payments', 'webhooks', 'admin', 'reports', 'sessions', 'coupons', 'shipping', 'reviews', 'search', 'health', 'files', 'teams', 'audit', 'exports', 'settings'];
each('iter-read-many', 'legit', 'honest-iteration', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const files = rng.sample(ROUTES, rng.int(12, 20));
  const missing = new Set(rng.sample(files.filter((f) => f !== 'health'), rng.int(1, 3)));
  const readTool = rng.pick([['read_file', (p) => ({ path: p })], ['Read', (p) => ({ file_path: '/repo/' + p })], ['view_file', (p) => ({ path: p, start_line: 1, end_line: 80 })]]);
  b.user(L(lang, 'Audit every router in src/routes and tell me which endpoints are missing the requireAuth middleware.', '检查 src/routes 下所有路由文件，告诉我哪些接口漏了 requireAuth 中间件。'));
  b.call(rng.pick(['list_dir', 'ls']), { path: 'src/routes' }, files.map((f) => `${f}.ts`).join('\n')); b.turn();
  b.text(L(lang, `${files.length} files. Reading them one by one.`, `一共 ${files.length} 个文件，逐个看。`));
  for (const f of files) {
    const pub = f === 'health';
    const auth = !missing.has(f) && !pub;
    const ctrl = f.replace(/s$/, '');
    const handlers = rng.sample(['list', 'get', 'create', 'update', 'remove', 'export'], rng.int(2, 4));
    const lines = handlers.map((h) => {
      const m = { list: ['get', "'/'"], get: ['get', "'/:id'"], create: ['post', "'/'"], update: ['patch', "'/:id'"], remove: ['delete', "'/:id'"], export: ['get', "'/export'"] }[h];
      const useAuth = auth || (missing.has(f) && h === 'list' && rng.chance(0.5));
      return `r.${m[0]}(${m[1]}, ${useAuth ? 'requireAuth, ' : ''}${ctrl}.${h});`;
    });
    const src = `import { Router } from 'express';\n${pub ? '' : "import { requireAuth } from '../middleware/auth';\n"}import * as ${ctrl} from '../controllers/${f}';\n\nconst r = Router();\n${lines.join('\n')}\n\nexport default r;\n`;
    b.call(readTool[0], readTool[1](`src/routes/${f}.ts`), src);
    b.turn();
  }
  b.text(L(lang,
    `Checked all ${files.length} routers.\n\n${[...missing].map((f) => `- **src/routes/${f}.ts** — one or more handlers are registered without \`requireAuth\``).join('\n')}\n- \`health.ts\` is public on purpose (no auth import), which is fine.\n\nEverything else applies \`requireAuth\` on every route. Easiest fix is \`r.use(requireAuth)\` at the top of each protected router so new handlers can't forget it.`,
    `${files.length} 个路由文件都看完了。\n\n${[...missing].map((f) => `- **src/routes/${f}.ts**：有接口注册时没带 \`requireAuth\``).join('\n')}\n- \`health.ts\` 本来就是公开的（没有引入鉴权），没问题。\n\n其余文件的每个路由都加了 \`requireAuth\`。最省事的修法是在每个需要鉴权的 router 开头写 \`r.use(requireAuth)\`，以后新增接口就不会忘。`));
  return b.turn();
});

each('iter-progress', 'legit', 'honest-iteration', { variants: 2 }, (rng, lang, v) => {
  const b = new B(rng);
  const job = `job_${rng.alnum(10)}`;
  const kind = (v + (lang === 'zh' ? 1 : 0)) % 2;
  b.user(L(lang, kind ? `Kick off the fine-tune on dataset support-v3 and watch it until it's done. Report the final eval loss.` : `Start the CSV export of the events table and let me know when the file is ready.`, kind ? `在 support-v3 数据集上启动微调，一直盯到跑完，告诉我最终的验证集 loss。` : `启动 events 表的 CSV 导出，文件准备好了告诉我。`));
  b.call(kind ? 'training.create_job' : 'exports.create', kind ? { base_model: 'small-7b', dataset: 'support-v3', epochs: 3 } : { table: 'events', format: 'csv', compression: 'gzip' }, JSON.stringify({ id: job, status: 'queued' }), { atMs: 1500 }); b.turn();
  let t = 2500, p = 0, epoch = 1, loss = 2.1 + rng.next() * 0.4;
  while (p < 100) {
    b.call(rng.pick(['sleep', 'wait']), { seconds: 60 }, 'done', { atMs: t }); t += 60000 + rng.int(100, 900);
    b.turn();
    p = Math.min(100, p + rng.int(6, 18));
    loss *= 0.9 - rng.next() * 0.05;
    epoch = Math.min(3, 1 + Math.floor((p / 100) * 3));
    const res = kind
      ? JSON.stringify({ id: job, status: p < 100 ? 'running' : 'succeeded', progress: p / 100, epoch, step: Math.round(p * 24.3), train_loss: Number(loss.toFixed(4)), eta_s: Math.round(((100 - p) / 12) * 60) })
      : JSON.stringify({ id: job, status: p < 100 ? 'running' : 'completed', rows_written: Math.round(p * 184233.7), percent: p, file: p < 100 ? null : `s3://exports/events-${job}.csv.gz` });
    b.call(kind ? 'training.get_job' : 'exports.get', { id: job }, res, { atMs: t }); t += rng.int(300, 900);
    if (p < 100 && rng.chance(0.4)) b.text(L(lang, `${p}% done.`, `已完成 ${p}%。`));
    b.turn();
  }
  b.text(L(lang, kind ? `Fine-tune **${job}** succeeded. Final training loss ${loss.toFixed(4)}; the eval report is attached to the job.` : `Export **${job}** finished — \`s3://exports/events-${job}.csv.gz\`, ${Math.round(100 * 184233.7).toLocaleString('en-US')} rows.`, kind ? `微调任务 **${job}** 已成功完成，最终训练 loss ${loss.toFixed(4)}，评测报告已附在任务里。` : `导出任务 **${job}** 已完成——\`s3://exports/events-${job}.csv.gz\`，共 ${Math.round(100 * 184233.7)} 行。`));
  return b.turn();
});

each('iter-test-fix', 'legit', 'honest-iteration', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const cmd = rng.pick(['npm test -- --reporter=dot', 'pnpm vitest run', 'pytest -q', 'go test ./...']);
  const tool = rng.pick([['bash', (c) => ({ command: c })], ['run_tests', (c) => ({ command: c })]]);
  const fails = rng.sample([
    ['src/date.test.ts', 'formatDate › handles DST boundary', 'src/date.ts', 'return d.toISOString().slice(0, 10);', 'return formatInTimeZone(d, tz, "yyyy-MM-dd");'],
    ['src/money.test.ts', 'toCents › rounds half-even', 'src/money.ts', 'Math.round(x * 100)', 'roundHalfEven(x * 100)'],
    ['src/slug.test.ts', 'slugify › strips diacritics', 'src/slug.ts', "s.toLowerCase()", "s.normalize('NFKD').replace(/[\\u0300-\\u036f]/g, '').toLowerCase()"],
    ['src/csv.test.ts', 'parseCsv › quoted newline', 'src/csv.ts', "line.split(',')", 'parseRow(line, state)'],
    ['src/cache.test.ts', 'LRU › evicts least recent', 'src/cache.ts', 'this.map.keys().next().value', 'this.oldestKey()'],
  ], rng.int(3, 5));
  const total = rng.int(120, 380);
  b.user(L(lang, 'The test suite is red after the refactor. Please get it green.', '重构之后测试挂了一片，帮我修到全绿。'));
  let remaining = fails.slice();
  const report = () => remaining.length
    ? `${remaining.map((f) => ` FAIL  ${f[0]} > ${f[1]}`).join('\n')}\n\n Test Files  ${remaining.length} failed | ${40 - remaining.length} passed (40)\n      Tests  ${remaining.length} failed | ${total - remaining.length} passed (${total})`
    : ` Test Files  40 passed (40)\n      Tests  ${total} passed (${total})`;
  b.call(tool[0], tool[1](cmd), report(), remaining.length ? { error: 'exit code 1' } : {}); b.turn();
  while (remaining.length) {
    const batch = remaining.slice(0, rng.int(1, 2));
    for (const f of batch) {
      b.text(L(lang, `Fixing \`${f[1]}\` in ${f[2]}.`, `修复 ${f[2]} 里的 \`${f[1]}\`。`));
      b.call('read_file', { path: f[2] }, `// ${f[2]}\n...\n  ${f[3]}\n...`); b.turn();
      b.call('edit_file', { path: f[2], old_str: f[3], new_str: f[4] }, L(lang, 'Edited 1 occurrence.', '已修改 1 处。')); b.turn();
    }
    remaining = remaining.slice(batch.length);
    b.call(tool[0], tool[1](cmd), report(), remaining.length ? { error: 'exit code 1' } : {}); b.turn();
  }
  b.text(L(lang, `All ${total} tests pass now. Summary of fixes:\n\n${fails.map((f) => `- **${f[2]}**: \`${f[3]}\` → \`${f[4]}\``).join('\n')}`, `现在 ${total} 个测试全部通过。修改汇总：\n\n${fails.map((f) => `- **${f[2]}**：\`${f[3]}\` → \`${f[4]}\``).join('\n')}`));
  return b.turn();
});

each('iter-git-bisect', 'legit', 'honest-iteration', {}, (rng, lang) => {
  const b = new B(rng);
  const n = rng.int(5, 8);
  b.user(L(lang, 'Something between v2.3.0 and main made `make bench` 30% slower. Bisect it using the benchmark (bad if > 1.2 s).', 'v2.3.0 到 main 之间有个提交让 `make bench` 慢了 30%。用这个 benchmark 做一下 git bisect（超过 1.2 秒算 bad）。'));
  b.call('bash', { command: 'git bisect start main v2.3.0' }, `Bisecting: ${2 ** n - 1} revisions left to test after this (roughly ${n} steps)\n[${rng.hex(40)}] ${rng.pick(['refactor: split parser', 'chore: bump deps', 'feat: streaming output'])}`); b.turn();
  for (let i = n - 1; i >= 0; i--) {
    const secs = rng.chance(0.5) ? (1.3 + rng.next() * 0.3) : (0.9 + rng.next() * 0.15);
    b.call('bash', { command: 'make bench 2>&1 | tail -1' }, `bench: median ${secs.toFixed(3)}s over 20 runs`); b.turn();
    const verdict = secs > 1.2 ? 'bad' : 'good';
    b.call('bash', { command: `git bisect ${verdict}` }, i > 0 ? `Bisecting: ${2 ** i - 1} revisions left to test after this (roughly ${i} steps)\n[${rng.hex(40)}] ${rng.pick(['perf: inline hot path', 'fix: escape quotes', 'feat: add --json flag', 'refactor: use Map for lookup', 'chore: lint'])}` : `${rng.hex(40)} is the first bad commit\ncommit ${rng.hex(40)}\nAuthor: Dev <dev@example.com>\n\n    parser: validate UTF-8 on every token\n\n src/parser.rs | 14 +++++++++++---`); b.turn();
  }
  b.call('bash', { command: 'git bisect reset' }, 'Previous HEAD position was abc1234\nSwitched to branch \'main\''); b.turn();
  b.text(L(lang, 'Found it: the first bad commit is **"parser: validate UTF-8 on every token"**. Validating per token re-scans the buffer; validating once per chunk should recover the time.', '找到了：第一个坏提交是 **"parser: validate UTF-8 on every token"**。每个 token 都做一次 UTF-8 校验会反复扫描缓冲区，改成每个数据块校验一次应该就能恢复性能。'));
  return b.turn();
});

// ===========================================================================
// LEGIT 7 — long structured answers (steps, tables, heading+paragraph, checklists)
// ===========================================================================
const STEP_TOPICS = {
  en: [
    { ask: 'Walk me through setting up Pi-hole on a Raspberry Pi, step by step, assume I am a beginner.', title: 'Pi-hole on a Raspberry Pi', steps: [
      ['Flash the OS', 'Use Raspberry Pi Imager to write **Raspberry Pi OS Lite (64-bit)** to the SD card.'],
      ['Enable SSH', 'In Imager\'s advanced options, enable SSH and set a username and password.'],
      ['Boot and find the IP', 'Insert the card, power on, and look up the Pi\'s address in your router\'s DHCP list.'],
      ['Log in', 'Run `ssh pi@<ip>` from your computer.'],
      ['Update the system', 'Run `sudo apt update && sudo apt full-upgrade -y`, then reboot.'],
      ['Give it a fixed IP', 'Create a DHCP reservation in your router so the address never changes.'],
      ['Run the installer', 'Run `curl -sSL https://install.pi-hole.net | bash` and accept the defaults.'],
      ['Choose an upstream DNS', 'Pick any provider you trust; you can change it later in the web UI.'],
      ['Note the admin password', 'The installer prints it at the end; change it with `pihole -a -p`.'],
      ['Open the dashboard', 'Browse to `http://<ip>/admin` and log in.'],
      ['Point your router at it', 'Set the Pi\'s IP as the only DNS server in your router\'s DHCP settings.'],
      ['Renew leases', 'Reconnect your devices (or toggle Wi-Fi) so they pick up the new DNS server.'],
      ['Verify', 'Visit a few sites and watch the "Queries" counter rise on the dashboard.'],
      ['Add blocklists', 'Under *Adlists*, add lists carefully — more isn\'t always better.'],
      ['Whitelist breakage', 'If something breaks, check *Query Log* and whitelist the blocked domain.'],
      ['Back up', 'Use *Settings → Teleporter* to export your configuration.'],
    ] },
    { ask: 'I just got a new Mac for work. Give me a step-by-step dev setup checklist (git, node, python, docker).', title: 'New Mac developer setup', steps: [
      ['Update macOS', 'Install pending updates in *System Settings → General → Software Update*.'],
      ['Install Command Line Tools', 'Run `xcode-select --install`.'],
      ['Install Homebrew', 'Follow the one-line install from brew.sh, then add it to your `PATH` as instructed.'],
      ['Install a terminal and shell tools', '`brew install --cask iterm2` and `brew install git gh jq ripgrep fzf`.'],
      ['Configure git', 'Set `user.name`, `user.email`, and `init.defaultBranch main`.'],
      ['Create an SSH key', '`ssh-keygen -t ed25519 -C "you@company.com"` and add it to GitHub with `gh ssh-key add`.'],
      ['Install a Node version manager', '`brew install fnm`, then `fnm install --lts`.'],
      ['Enable corepack', '`corepack enable` gives you pnpm and yarn matching each project.'],
      ['Install Python via pyenv', '`brew install pyenv` and `pyenv install 3.12`.'],
      ['Install pipx', '`brew install pipx` for CLI tools like `poetry` and `ruff`.'],
      ['Install Docker', '`brew install --cask docker` (or OrbStack), start it once to finish setup.'],
      ['Install your editor', '`brew install --cask visual-studio-code` and sign in to sync settings.'],
      ['Clone your repos', 'Use `gh repo clone org/repo` so auth is handled for you.'],
      ['Set up secrets', 'Install the company password manager CLI; never put tokens in dotfiles.'],
      ['Back up dotfiles', 'Commit `~/.zshrc`, `~/.gitconfig` to a private dotfiles repo.'],
    ] },
  ],
  zh: [
    { ask: '手把手教我在 Windows 上配置 WSL2 开发环境，我是新手。', title: 'Windows 上的 WSL2 开发环境', steps: [
      ['检查系统版本', '按 `Win+R` 输入 `winver`，确认是 Windows 10 2004 以上或 Windows 11。'],
      ['安装 WSL', '以管理员身份打开 PowerShell，执行 `wsl --install`。'],
      ['重启电脑', '安装完成后按提示重启。'],
      ['创建 Linux 用户', '首次启动 Ubuntu 时设置用户名和密码（和 Windows 账号无关）。'],
      ['更新软件源', '执行 `sudo apt update && sudo apt upgrade -y`。'],
      ['确认是 WSL2', '在 PowerShell 里执行 `wsl -l -v`，VERSION 一列应该是 2。'],
      ['安装 Windows Terminal', '从 Microsoft Store 安装，并把 Ubuntu 设为默认配置。'],
      ['安装 Git', '执行 `sudo apt install git`，然后配置 `user.name` 和 `user.email`。'],
      ['配置 SSH 密钥', '`ssh-keygen -t ed25519`，把公钥添加到代码托管平台。'],
      ['安装 Node.js', '用 nvm 安装：`nvm install --lts`。'],
      ['安装 Python 工具', '`sudo apt install python3-venv python3-pip`。'],
      ['安装 VS Code', '在 Windows 上安装 VS Code，再装 "WSL" 扩展。'],
      ['从 WSL 打开项目', '在 Ubuntu 里进入项目目录执行 `code .`。'],
      ['代码放在 Linux 文件系统里', '项目放在 `~/` 下而不是 `/mnt/c/`，文件读写会快很多。'],
      ['安装 Docker Desktop', '在设置里开启 "Use the WSL 2 based engine"。'],
      ['限制内存占用', '在 `%UserProfile%\\.wslconfig` 里设置 `memory=8GB`。'],
    ] },
    { ask: '我要给家里的老人配置一台新的安卓手机，请一步一步列出来该设置什么。', title: '给长辈配置新安卓手机', steps: [
      ['开机联网', '连上家里的 Wi-Fi，登录手机厂商账号。'],
      ['调大字体', '设置 → 显示 → 字体大小，调到最大或次大。'],
      ['开启简易模式', '大多数品牌都有"简易模式"，图标更大、界面更简单。'],
      ['设置锁屏方式', '用简单的图案或指纹，避免复杂密码记不住。'],
      ['添加紧急联系人', '设置 → 安全与紧急，添加子女的电话。'],
      ['整理桌面', '只保留电话、微信、相机、相册等常用应用，放在第一屏。'],
      ['安装常用应用', '微信、医保、地图、天气，其他的尽量不装。'],
      ['关闭自动更新', '避免应用更新后界面变化让老人找不到功能。'],
      ['关闭未知来源安装', '防止误装来路不明的软件。'],
      ['设置来电拦截', '开启骚扰电话拦截和诈骗电话提醒。'],
      ['开启定位共享', '征得同意后，在家庭共享里开启位置共享。'],
      ['调大铃声音量', '铃声和通知音量调到最大，并开启振动。'],
      ['教会基本操作', '接打电话、视频通话、拍照、发语音，各练几遍。'],
      ['写一张说明卡', '把常用操作步骤写在纸上，放在手机旁边。'],
    ] },
  ],
};
each('struct-steps', 'legit', 'structured-answer', { variants: 2 }, (rng, lang, v) => {
  const b = new B(rng);
  const tp = STEP_TOPICS[lang][v];
  b.user(tp.ask);
  const fmt = rng.pick(['num', 'bold', 'heading']);
  const body = tp.steps.map(([t, d], i) => fmt === 'num' ? `${i + 1}. **${t}** — ${d}` : fmt === 'bold' ? `**${L(lang, 'Step', '第')} ${i + 1}${L(lang, '', ' 步')}：${t}**\n${d}` : `### ${L(lang, `Step ${i + 1}`, `第 ${i + 1} 步`)}: ${t}\n\n${d}`).join(fmt === 'num' ? '\n' : '\n\n');
  b.text(L(lang, `## ${tp.title}\n\n${body}\n\nThat's it — take it one step at a time and tell me where you get stuck.`, `## ${tp.title}\n\n${body}\n\n就这些，一步一步来，哪一步卡住了随时问我。`));
  return b.turn();
});

each('struct-table', 'legit', 'structured-answer', { variants: 2 }, (rng, lang, v) => {
  const b = new B(rng);
  const Y = rng.pick(['✅', 'Yes', '✔']), N = rng.pick(['❌', 'No', '✖']);
  const Yz = rng.pick(['✅', '支持', '是']), Nz = rng.pick(['❌', '不支持', '否']);
  if (v === 0) {
    const cols = ['PostgreSQL', 'MySQL', 'SQLite', 'MongoDB'];
    const feats = [['ACID transactions', [1, 1, 1, 1]], ['JSON column type', [1, 1, 1, 1]], ['Full-text search', [1, 1, 1, 1]], ['Window functions', [1, 1, 1, 0]], ['CTEs / recursive queries', [1, 1, 1, 0]], ['Materialized views', [1, 0, 0, 1]], ['Row-level security', [1, 0, 0, 0]], ['Built-in replication', [1, 1, 0, 1]], ['Partial indexes', [1, 0, 1, 1]], ['Generated columns', [1, 1, 1, 0]], ['Server process required', [1, 1, 0, 1]], ['Embeddable in app', [0, 0, 1, 0]], ['Geospatial (extension/built-in)', [1, 1, 1, 1]], ['Change streams / logical decoding', [1, 1, 0, 1]]];
    const fz = ['ACID 事务', 'JSON 列类型', '全文检索', '窗口函数', 'CTE / 递归查询', '物化视图', '行级安全', '内置复制', '部分索引', '生成列', '需要独立服务进程', '可嵌入应用', '地理空间（扩展/内置）', '变更流 / 逻辑解码'];
    const yy = L(lang, Y, Yz), nn = L(lang, N, Nz);
    b.user(L(lang, 'Compare Postgres, MySQL, SQLite and MongoDB feature by feature in one table.', '用一张表逐项对比 Postgres、MySQL、SQLite 和 MongoDB 的功能。'));
    b.text(L(lang, '| Feature | ', '| 功能 | ') + cols.join(' | ') + ' |\n|' + '---|'.repeat(cols.length + 1) + '\n' + feats.map(([f, vs], i) => `| ${L(lang, f, fz[i])} | ${vs.map((x) => (x ? yy : nn)).join(' | ')} |`).join('\n') + L(lang, '\n\nAll four cover the basics; the differences are in operational features (RLS, replication, logical decoding) and in whether you need a server at all.', '\n\n四者在基础能力上都够用，真正的差别在于运维相关的特性（行级安全、复制、逻辑解码），以及是否需要单独的服务进程。'));
  } else {
    const days = L(lang, ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'], ['周一', '周二', '周三', '周四', '周五', '周六', '周日']);
    const slots = L(lang, ['08:00', '10:00', '14:00', '16:00', '19:30'], ['08:00', '10:00', '14:00', '16:00', '19:30']);
    const acts = L(lang, ['Math', 'English', 'Physics', 'Chemistry', 'Review', 'Mock exam'], ['数学', '英语', '物理', '化学', '复习', '模拟考']);
    const rest = L(lang, 'Rest', '休息');
    b.user(L(lang, 'Make me a weekly revision timetable: 5 slots a day, Sunday completely off, Saturday afternoon off.', '帮我排一张一周复习时间表：每天 5 个时段，周日全天休息，周六下午休息。'));
    const rows = slots.map((s, si) => `| ${s} | ${days.map((d, di) => (di === 6 || (di === 5 && si >= 2) ? rest : acts[(si + di * 2) % acts.length])).join(' | ')} |`);
    b.text(`| ${L(lang, 'Time', '时间')} | ${days.join(' | ')} |\n|${'---|'.repeat(8)}\n${rows.join('\n')}\n\n${L(lang, 'Sunday is all rest as requested; every subject appears at least four times a week.', '周日按要求全天休息；每门科目每周至少出现四次。')}`);
  }
  return b.turn();
});

const ENDPOINTS = [
  ['GET', '/v1/projects', { en: 'Lists projects the caller can see, newest first.', zh: '列出调用者可见的项目，按创建时间倒序。' }],
  ['POST', '/v1/projects', { en: 'Creates a project. The caller becomes its owner.', zh: '创建项目，调用者成为项目所有者。' }],
  ['GET', '/v1/projects/{id}', { en: 'Returns one project, including its settings.', zh: '返回单个项目及其设置。' }],
  ['PATCH', '/v1/projects/{id}', { en: 'Updates name, description or visibility.', zh: '修改项目名称、描述或可见性。' }],
  ['DELETE', '/v1/projects/{id}', { en: 'Soft-deletes a project; it can be restored for 30 days.', zh: '软删除项目，30 天内可恢复。' }],
  ['GET', '/v1/projects/{id}/members', { en: 'Lists members and their roles.', zh: '列出项目成员及其角色。' }],
  ['POST', '/v1/projects/{id}/members', { en: 'Invites a user by email with a role.', zh: '通过邮箱邀请用户并指定角色。' }],
  ['GET', '/v1/projects/{id}/events', { en: 'Streams the audit log as NDJSON.', zh: '以 NDJSON 流式返回审计日志。' }],
  ['POST', '/v1/tokens', { en: 'Creates a personal access token.', zh: '创建个人访问令牌。' }],
  ['DELETE', '/v1/tokens/{id}', { en: 'Revokes a token immediately.', zh: '立即吊销令牌。' }],
];
each('struct-api-docs', 'legit', 'structured-answer', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const eps = ENDPOINTS.slice(0, rng.int(7, 10));
  const rl = rng.pick([60, 100, 600]);
  b.user(L(lang, 'Write the reference section of our API docs for these endpoints. Every endpoint needs auth and rate-limit notes.', '帮我写 API 文档的接口参考部分，每个接口都要写鉴权和限流说明。'));
  const sec = eps.map(([m, p, d]) => `### \`${m} ${p}\`\n\n${d[lang]}\n\n${L(lang, `**Auth:** Bearer token required.\n**Rate limit:** ${rl} requests per minute per token.`, `**鉴权：**需要 Bearer 令牌。\n**限流：**每个令牌每分钟 ${rl} 次请求。`)}\n\n${m === 'GET' ? L(lang, '**Response:** `200 OK` with a JSON body.', '**响应：**`200 OK`，JSON 格式。') : m === 'DELETE' ? L(lang, '**Response:** `204 No Content`.', '**响应：**`204 No Content`。') : L(lang, '**Response:** `201 Created` / `200 OK` with the resource.', '**响应：**`201 Created` / `200 OK`，返回资源本身。')}`).join('\n\n---\n\n');
  b.text(L(lang, `## API reference\n\nAll endpoints are under \`https://api.example.com\`.\n\n${sec}`, `## 接口参考\n\n所有接口的根地址为 \`https://api.example.com\`。\n\n${sec}`));
  return b.turn();
});

const CHECK_ITEMS = {
  en: ['Announce maintenance in #ops', 'Drain from the load balancer', 'Take a snapshot', 'Apply OS patches (`apt upgrade`)', 'Reboot', 'Verify the health check is green', 'Re-enable in the load balancer', 'Tick the box in the change ticket'],
  zh: ['在 #运维 频道发维护通知', '从负载均衡摘除', '打快照', '安装系统补丁（`apt upgrade`）', '重启', '确认健康检查为绿色', '重新加回负载均衡', '在变更单里打勾'],
};
each('struct-checklist', 'legit', 'structured-answer', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const servers = range(rng.int(6, 10)).map((i) => `${rng.pick(['web', 'app', 'api'])}-${pad(i + 1)}`);
  const items = CHECK_ITEMS[lang].slice(0, rng.int(5, 8));
  b.user(L(lang, `Make a patch-night checklist with one section per server (${servers.join(', ')}) so each person can tick off their own boxes.`, `做一份打补丁当晚的检查清单，每台服务器一节（${servers.join('、')}），方便每个人勾自己负责的项。`));
  b.text(L(lang, `# Patch night checklist\n\nWork through servers **one at a time** — never drain two at once.\n\n`, `# 补丁之夜检查清单\n\n服务器**逐台**处理——不要同时摘除两台。\n\n`) + servers.map((s) => `## ${s}\n\n${items.map((x) => `- [ ] ${x}`).join('\n')}`).join('\n\n') + L(lang, '\n\n## Afterwards\n\n- [ ] Post a summary in #ops\n- [ ] Close the change ticket', '\n\n## 收尾\n\n- [ ] 在 #运维 频道发总结\n- [ ] 关闭变更单'));
  return b.turn();
});

const VENDORS = {
  en: [['Northwind Paper', 'the Q3 invoice #4471 shows 40 boxes but we received 35'], ['Contoso Cleaning', 'we would like to move the Friday visit to Thursdays from next month'], ['Fabrikam Coffee', 'could you send the updated price list for 2025?'], ['Tailspin IT', 'two of the monitors delivered last week have dead pixels'], ['Litware Catering', 'please confirm the headcount of 48 for the offsite lunch on the 14th'], ['Adventure Works Print', 'the business cards for the new hires need the updated logo'], ['Wide World Shipping', 'the pallet pickup scheduled for Tuesday needs to move to Wednesday']],
  zh: [['晨光文具', '第三季度发票 #4471 上写的是 40 箱，但我们实际只收到 35 箱'], ['洁净保洁', '下个月起想把周五的保洁改到周四'], ['山野咖啡', '麻烦发一下 2025 年的新价目表'], ['蓝海电脑', '上周送来的显示器有两台有坏点'], ['好味餐饮', '请确认 14 号团建午餐人数为 48 人'], ['彩印广告', '新员工的名片需要换成新版 logo'], ['顺达物流', '原定周二的托盘提货需要改到周三']],
};
each('struct-emails', 'legit', 'structured-answer', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const vs = rng.sample(VENDORS[lang], rng.int(5, 7));
  const me = L(lang, rng.pick(['Alex', 'Sam', 'Jordan']), rng.pick(['小王', '李娜', '陈杰']));
  b.user(L(lang, `Draft short emails to each of these vendors about the issues in my notes. Sign them ${me}.\n\n${vs.map(([v, x]) => `- ${v}: ${x}`).join('\n')}`, `根据我的备注，给下面每个供应商各写一封简短的邮件，落款 ${me}。\n\n${vs.map(([v, x]) => `- ${v}：${x}`).join('\n')}`));
  b.text(vs.map(([v, x], i) => L(lang,
    `### ${i + 1}. ${v}\n\n**Subject:** ${rng.pick(['Quick question', 'Follow-up', 'Request'])} — ${v}\n\nHi ${v} team,\n\nI'm writing because ${x}. Could you let me know how you'd like to handle this? Happy to jump on a call if that's easier.\n\nThanks!\n${me}`,
    `### ${i + 1}. ${v}\n\n**主题：**关于${rng.pick(['近期合作', '一个小问题', '变更申请'])}——${v}\n\n${v}的同事您好：\n\n来信是因为${x}。请问贵司希望怎么处理？如果电话沟通更方便，也可以直接打给我。\n\n谢谢！\n${me}`)).join('\n\n---\n\n'));
  return b.turn();
});

const MEALS = {
  en: { days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'], b: ['Overnight oats with berries', 'Greek yoghurt and granola', 'Scrambled eggs on toast', 'Banana peanut-butter smoothie', 'Veggie omelette', 'Pancakes with fruit', 'Avocado toast'], l: ['Chicken Caesar wrap', 'Lentil soup and bread', 'Tuna salad', 'Leftover curry', 'Quinoa bowl', 'Grilled cheese and tomato soup', 'Roast vegetable salad'], d: ['Salmon, rice and broccoli', 'Chickpea curry', 'Spaghetti bolognese', 'Stir-fried tofu and noodles', 'Homemade pizza', 'Chili con carne', 'Roast chicken with potatoes'] },
  zh: { days: ['周一', '周二', '周三', '周四', '周五', '周六', '周日'], b: ['小米粥+鸡蛋', '豆浆+油条', '燕麦牛奶+香蕉', '全麦面包+煎蛋', '馄饨', '杂粮煎饼', '八宝粥+包子'], l: ['番茄炒蛋+米饭', '青椒肉丝+米饭', '牛肉面', '宫保鸡丁+米饭', '蔬菜沙拉+鸡胸肉', '饺子', '红烧鱼+米饭'], d: ['清炒时蔬+豆腐汤', '冬瓜排骨汤+米饭', '蒸鱼+青菜', '西红柿牛腩', '凉拌黄瓜+小米粥', '火锅（少油少盐）', '土豆炖鸡+米饭'] },
};
each('struct-meal-plan', 'legit', 'structured-answer', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const M = MEALS[lang];
  const order = rng.shuffle(range(7));
  b.user(L(lang, 'Plan a simple week of meals for two people, one section per day with breakfast/lunch/dinner.', '帮两口人安排一周的简单饮食，每天一节，写早中晚三餐。'));
  b.text(M.days.map((d, i) => `## ${d}\n\n- ${L(lang, 'Breakfast', '早餐')}: ${M.b[order[i]]}\n- ${L(lang, 'Lunch', '午餐')}: ${M.l[(order[i] + 2) % 7]}\n- ${L(lang, 'Dinner', '晚餐')}: ${M.d[(order[i] + 4) % 7]}`).join('\n\n') + L(lang, '\n\n**Shopping tip:** cook double portions on Sunday and Wednesday for easy leftovers.', '\n\n**采购建议：**周日和周三做双份，第二天中午可以直接带饭。'));
  return b.turn();
});

// ===========================================================================
// LEGIT 8 — thinking-model reasoning that revisits points but makes progress
// ===========================================================================
each('reason-price', 'legit', 'reasoning-revisit', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const P = rng.int(40, 400) + 0.99 - 1, d = rng.pick([10, 15, 20, 25, 30]), t = rng.pick([6, 7.25, 8, 8.875, 13]);
  const after = +(P * (1 - d / 100)).toFixed(2), total = +(after * (1 + t / 100)).toFixed(2);
  const wrong = +(P * (1 + t / 100) * (1 - d / 100) + 0.37).toFixed(2);
  b.user(L(lang, `A jacket is $${P.toFixed(2)}, there's ${d}% off at the register, and sales tax is ${t}%. What do I pay?`, `一件外套标价 ${P.toFixed(2)} 元，结账时打 ${(100 - d) / 10} 折（即减 ${d}%），另收 ${t}% 的销售税。我一共要付多少钱？`));
  b.reasoning(L(lang,
    `The price is ${P.toFixed(2)}, discount ${d}%, tax ${t}%. First the discount: ${P.toFixed(2)} × ${(1 - d / 100).toFixed(2)} = ${after.toFixed(2)}.\n\nThen tax on that: ${after.toFixed(2)} × ${(1 + t / 100).toFixed(5).replace(/0+$/, '')} ≈ ${wrong.toFixed(2)}? Wait, let me check that multiplication, that looks a bit high. ${after.toFixed(2)} × ${t / 100} = ${(after * t / 100).toFixed(4)}, so the total is ${after.toFixed(2)} + ${(after * t / 100).toFixed(4)} = ${(after * (1 + t / 100)).toFixed(4)}, which rounds to ${total.toFixed(2)}. Yes, my first number was off.\n\nWait, let me also check the order: is tax charged on the pre-discount price? The discount happens at the register, so the sale price is what's taxed in most US states. And since multiplication commutes, discount-then-tax and tax-then-discount give the same ${(after * (1 + t / 100)).toFixed(4)} anyway — only coupon-style "$X off" would differ.\n\nHmm, rounding: the register rounds the discounted price to cents first (${after.toFixed(2)}), then the tax, so ${total.toFixed(2)}. Good.`,
    `标价 ${P.toFixed(2)}，折扣 ${d}%，税率 ${t}%。先算折后价：${P.toFixed(2)} × ${(1 - d / 100).toFixed(2)} = ${after.toFixed(2)}。\n\n再加税：${after.toFixed(2)} × ${(1 + t / 100).toFixed(5).replace(/0+$/, '')} ≈ ${wrong.toFixed(2)}？等等，我再核对一下这个乘法，好像偏大了。${after.toFixed(2)} × ${t / 100} = ${(after * t / 100).toFixed(4)}，所以总价 = ${after.toFixed(2)} + ${(after * t / 100).toFixed(4)} = ${(after * (1 + t / 100)).toFixed(4)}，四舍五入是 ${total.toFixed(2)}。刚才那个数算错了。\n\n等等，还要确认一下顺序：税是按折前价收还是折后价收？折扣是在结账时给的，一般按折后价计税。而且乘法满足交换律，先打折再加税和先加税再打折结果都是 ${(after * (1 + t / 100)).toFixed(4)}，只有"满减"那种固定金额的优惠才会有区别。\n\n嗯，收银时折后价先取整到分（${after.toFixed(2)}），再算税，所以是 ${total.toFixed(2)}。没问题。`));
  b.text(L(lang, `You pay **$${total.toFixed(2)}**:\n\n- after ${d}% off: $${after.toFixed(2)}\n- plus ${t}% tax: $${(total - after).toFixed(2)}`, `一共要付 **${total.toFixed(2)} 元**：\n\n- 折后价：${after.toFixed(2)} 元\n- ${t}% 的税：${(total - after).toFixed(2)} 元`));
  return b.turn();
});

each('reason-debug-tools', 'legit', 'reasoning-revisit', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const ms = rng.pick([300, 500, 800]);
  const svc = rng.pick(['billing', 'search', 'notifications']);
  b.user(L(lang, `Requests from ${svc} to the inventory API time out in production but not in staging. Timeout is supposed to be 30 s. Can you figure out why?`, `${svc} 服务调用库存接口在生产环境超时，预发环境没问题。超时时间应该是 30 秒。帮我查查为什么？`));
  b.reasoning(L(lang, `Production-only timeouts. The configured timeout is "supposed to be" 30 s, so first I should confirm what the code actually uses. Let me look at the client config.`, `只有生产环境超时。用户说超时"应该是" 30 秒，所以第一步要确认代码里实际用的是多少。先看客户端配置。`));
  b.call('read_file', { path: `services/${svc}/src/inventoryClient.ts` }, `const timeoutMs = Number(process.env.INVENTORY_TIMEOUT_MS ?? 30_000);\nexport const client = axios.create({ baseURL: process.env.INVENTORY_URL, timeout: timeoutMs });`); b.turn();
  b.reasoning(L(lang, `OK, default 30 000 ms, but it reads INVENTORY_TIMEOUT_MS first. Wait, let me check whether production sets that variable — that would explain an env-specific difference.`, `默认值是 30000 毫秒，但会先读 INVENTORY_TIMEOUT_MS。等等，我得确认生产环境有没有设置这个变量——如果设置了，就能解释为什么只有生产出问题。`));
  b.call('grep', { pattern: 'INVENTORY_TIMEOUT_MS', path: `deploy/${svc}` }, `deploy/${svc}/values-prod.yaml:14:    INVENTORY_TIMEOUT_MS: "${ms}"\ndeploy/${svc}/values-staging.yaml:14:    INVENTORY_TIMEOUT_MS: "30000"`); b.turn();
  b.reasoning(L(lang, `There it is: prod overrides it to ${ms} ms. Hmm, but is ${ms} ms actually too short? Wait, let me check the inventory API's latency in prod before blaming the config — if p99 is under ${ms} ms this wouldn't matter.`, `找到了：生产环境把它覆盖成了 ${ms} 毫秒。嗯，不过 ${ms} 毫秒真的太短吗？等等，先看看生产环境库存接口的延迟再下结论——如果 p99 低于 ${ms} 毫秒，这个配置就不是原因。`));
  b.call('metrics.query', { query: 'histogram_quantile(0.99, sum(rate(http_server_duration_seconds_bucket{service="inventory"}[1h])) by (le))' }, `{"p99_seconds": ${(ms / 1000 + 0.4 + rng.next()).toFixed(3)}}`); b.turn();
  b.reasoning(L(lang, `p99 is well above ${ms} ms, so a ${ms} ms client timeout will cut off the slow tail. That's consistent with "times out in prod only". Conclusion holds.`, `p99 明显高于 ${ms} 毫秒，所以 ${ms} 毫秒的客户端超时会把慢请求切掉，和"只有生产超时"的现象一致。结论成立。`));
  b.text(L(lang, `Found it. \`deploy/${svc}/values-prod.yaml\` sets \`INVENTORY_TIMEOUT_MS: "${ms}"\`, which overrides the 30 s default in \`inventoryClient.ts\`. Staging uses 30000. Inventory's p99 in prod is above ${ms} ms, so the slowest ~1% of calls time out.\n\nFix: remove the override (or set it to a value above p99, e.g. 5000) and redeploy.`, `找到原因了：\`deploy/${svc}/values-prod.yaml\` 里设置了 \`INVENTORY_TIMEOUT_MS: "${ms}"\`，覆盖了 \`inventoryClient.ts\` 里 30 秒的默认值，而预发环境是 30000。生产环境库存接口的 p99 高于 ${ms} 毫秒，所以最慢的那 1% 左右的请求会超时。\n\n修复：去掉这个覆盖（或者设成高于 p99 的值，比如 5000），然后重新部署。`));
  return b.turn();
});

each('reason-meeting-tz', 'legit', 'reasoning-revisit', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const h = rng.int(8, 11);
  b.user(L(lang, `I'm in Berlin. I want a call with Shanghai and San Francisco on Tuesday 15 October. What Berlin time works for everyone within 08:00–19:00 local?`, `我在柏林，想在 10 月 15 日（周二）和上海、旧金山的同事开会。三地都要在当地 08:00–19:00 之间，柏林时间几点合适？`));
  b.reasoning(L(lang,
    `Mid-October: Berlin is on CEST (UTC+2), San Francisco on PDT (UTC−7), Shanghai is always UTC+8.\n\nSo Shanghai = Berlin + 6 h, SF = Berlin − 9 h.\n\nSF needs ≥ 08:00 local → Berlin ≥ 17:00. Shanghai needs ≤ 19:00 local → Berlin ≤ 13:00. Those don't overlap... wait, let me check that. 17:00 Berlin is 23:00 in Shanghai. Yes, no overlap within strict 08–19 for all three.\n\nHmm, wait — is Europe still on summer time on 15 October? EU switches back on the last Sunday of October, the 27th. So yes, CEST. And the US switches on the first Sunday of November. So the offsets are right.\n\nLet me think about the least bad option instead. Berlin 17:00 → SF 08:00, Shanghai 23:00. Berlin ${pad(h)}:00 → SF ${pad((h + 24 - 9) % 24)}:00, bad. Option: Berlin 17:00 or 18:00 (SF 08/09, Shanghai 23/00). Or Berlin 16:00 with SF at 07:00 and Shanghai 22:00 — splits the pain. I'll present 16:00 and 17:00.`,
    `10 月中旬：柏林是夏令时 CEST（UTC+2），旧金山是 PDT（UTC−7），上海一直是 UTC+8。\n\n所以上海 = 柏林 + 6 小时，旧金山 = 柏林 − 9 小时。\n\n旧金山要求当地 ≥ 08:00 → 柏林 ≥ 17:00；上海要求当地 ≤ 19:00 → 柏林 ≤ 13:00。两者没有交集……等等，我再核对一下。柏林 17:00 时上海是 23:00。对，三地都严格在 08–19 点之间是不可能的。\n\n嗯，等等——10 月 15 日欧洲还在夏令时吗？欧盟在 10 月最后一个周日（27 日）才切回冬令时，所以还是 CEST。美国是 11 月第一个周日切换。时差没错。\n\n那就找一个相对最好的方案。柏林 ${pad(h)}:00 → 旧金山 ${pad((h + 24 - 9) % 24)}:00，不行。柏林 17:00 或 18:00（旧金山 08/09 点，上海 23/00 点）。或者柏林 16:00，旧金山 07:00、上海 22:00，大家各让一步。给出 16:00 和 17:00 两个选项。`));
  b.text(L(lang, `There's no slot inside 08:00–19:00 for all three cities on 15 Oct (Shanghai is 15 h ahead of San Francisco). Least painful options:\n\n| Berlin (CEST) | San Francisco (PDT) | Shanghai (CST) |\n|---|---|---|\n| 16:00 | 07:00 | 22:00 |\n| 17:00 | 08:00 | 23:00 |\n\nIf this is recurring, consider alternating between a Europe/Asia slot and a Europe/US slot.`, `10 月 15 日三地不可能同时在 08:00–19:00 之内（上海比旧金山早 15 小时）。相对最好的选择：\n\n| 柏林（CEST） | 旧金山（PDT） | 上海（北京时间） |\n|---|---|---|\n| 16:00 | 07:00 | 22:00 |\n| 17:00 | 08:00 | 23:00 |\n\n如果是例会，建议欧亚时段和欧美时段轮流开。`));
  return b.turn();
});

each('reason-paint', 'legit', 'reasoning-revisit', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const Lm = rng.int(35, 60) / 10, Wm = rng.int(28, 45) / 10, Hm = rng.pick([2.5, 2.6, 2.7, 2.8]);
  const walls = 2 * (Lm + Wm) * Hm, openings = 1.9 + rng.int(1, 2) * 1.6, net = walls - openings, coats = 2, cov = rng.pick([10, 12]);
  const litres = (net * coats) / cov;
  b.user(L(lang, `How much paint for a ${Lm} × ${Wm} m room, ${Hm} m ceilings, one door and ${openings > 3.6 ? 'two windows' : 'one window'}, two coats? Walls only. The tin says ${cov} m²/L.`, `房间 ${Lm} × ${Wm} 米，层高 ${Hm} 米，一扇门、${openings > 3.6 ? '两扇' : '一扇'}窗，刷两遍，只刷墙。漆桶上写 ${cov} 平方米/升。需要多少漆？`));
  b.reasoning(L(lang,
    `Perimeter = 2 × (${Lm} + ${Wm}) = ${(2 * (Lm + Wm)).toFixed(1)} m. Wall area = ${(2 * (Lm + Wm)).toFixed(1)} × ${Hm} = ${walls.toFixed(2)} m².\n\nSubtract openings: door ≈ 0.9 × 2.1 = 1.89 ≈ 1.9 m², window ≈ 1.2 × 1.35 ≈ 1.6 m² each. Total ${openings.toFixed(1)} m². Net ${net.toFixed(2)} m².\n\nTwo coats → ${(net * 2).toFixed(2)} m². At ${cov} m²/L → ${litres.toFixed(2)} L.\n\nWait, let me check whether ${cov} m²/L is per coat. Yes, coverage on tins is per coat, so doubling the area was right.\n\nHmm, should I add waste? Typically 10% for rollers and trays → ${(litres * 1.1).toFixed(2)} L. Tins come in 2.5 L and 5 L, so ${litres * 1.1 > 5 ? 'a 5 L plus a 2.5 L' : litres * 1.1 > 2.5 ? 'one 5 L tin' : 'one 2.5 L tin'}.`,
    `周长 = 2 × (${Lm} + ${Wm}) = ${(2 * (Lm + Wm)).toFixed(1)} 米，墙面积 = ${(2 * (Lm + Wm)).toFixed(1)} × ${Hm} = ${walls.toFixed(2)} 平方米。\n\n扣掉门窗：门约 0.9 × 2.1 = 1.89 ≈ 1.9 平方米，窗每扇约 1.2 × 1.35 ≈ 1.6 平方米，合计 ${openings.toFixed(1)} 平方米。净面积 ${net.toFixed(2)} 平方米。\n\n刷两遍 → ${(net * 2).toFixed(2)} 平方米，按 ${cov} 平方米/升 → ${litres.toFixed(2)} 升。\n\n等等，我确认一下 ${cov} 平方米/升是不是单遍的涂布率。是的，漆桶上标的都是单遍，所以面积乘 2 是对的。\n\n嗯，要不要留损耗？滚筒和托盘一般按 10% 算 → ${(litres * 1.1).toFixed(2)} 升。漆一般是 2.5 升和 5 升装，所以${litres * 1.1 > 5 ? '买一桶 5 升加一桶 2.5 升' : litres * 1.1 > 2.5 ? '买一桶 5 升' : '买一桶 2.5 升'}。`));
  b.text(L(lang, `About **${(litres * 1.1).toFixed(1)} L** including 10% waste (net wall area ${net.toFixed(1)} m² × 2 coats ÷ ${cov} m²/L = ${litres.toFixed(1)} L).`, `大约需要 **${(litres * 1.1).toFixed(1)} 升**（含 10% 损耗；净墙面 ${net.toFixed(1)} 平方米 × 2 遍 ÷ ${cov} 平方米/升 = ${litres.toFixed(1)} 升）。`));
  return b.turn();
});

// ===========================================================================
// LEGIT 9 — same action over many different targets / repeated user requests
// ===========================================================================
each('bulk-codemod', 'legit', 'bulk-distinct-targets', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const files = rng.sample(['src/utils/date.ts', 'src/components/Calendar.tsx', 'src/components/EventCard.tsx', 'src/pages/reports.tsx', 'src/pages/invoices.tsx', 'src/api/schedule.ts', 'src/hooks/useDeadline.ts', 'src/lib/format.ts', 'src/components/Timeline.tsx', 'src/store/reminders.ts', 'src/pages/dashboard.tsx', 'src/components/DatePicker.tsx', 'src/lib/export.ts', 'src/workers/digest.ts', 'src/components/Countdown.tsx', 'src/api/billing.ts'], rng.int(10, 15));
  const edit = rng.pick(['edit_file', 'str_replace']);
  b.user(L(lang, 'Replace moment with dayjs everywhere in src/. Just the import line for now, I\'ll do the API differences myself.', '把 src/ 里所有的 moment 换成 dayjs，先只改 import 那一行，API 的差异我自己来改。'));
  b.call('grep', { pattern: "import moment from 'moment'", path: 'src', files_with_matches: true }, files.join('\n')); b.turn();
  b.text(L(lang, `${files.length} files import moment. Updating each import.`, `有 ${files.length} 个文件引入了 moment，逐个修改 import。`));
  for (const f of files) {
    b.call(edit, { path: f, old_str: "import moment from 'moment';", new_str: "import dayjs from 'dayjs';" }, L(lang, `Edited ${f}: 1 replacement`, `已编辑 ${f}：替换 1 处`));
    b.turn();
  }
  b.call('grep', { pattern: "from 'moment'", path: 'src' }, 'No matches found'); b.turn();
  b.text(L(lang, `Done — all ${files.length} imports now use dayjs and nothing imports moment any more. Call sites still say \`moment(...)\`, so TypeScript will flag them until you rename them.`, `完成——${files.length} 个文件的 import 都换成了 dayjs，已经没有任何地方引入 moment。调用处还写着 \`moment(...)\`，在你改名之前 TypeScript 会报错。`));
  return b.turn();
});

each('bulk-notify', 'legit', 'bulk-distinct-targets', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const people = rng.sample(lang === 'en' ? ['Ana Lima', 'Ben Okafor', 'Chloé Martin', 'Dev Patel', 'Eva Novak', 'Farah Aziz', 'George Hill', 'Hana Sato', 'Ivan Petrov', 'Jin Park', 'Kofi Mensah', 'Lena Vogel', 'Marco Rossi'] : ['张伟', '王芳', '李娜', '刘洋', '陈杰', '杨静', '赵磊', '黄敏', '周涛', '吴婷', '徐明', '孙丽', '马超'], rng.int(8, 12));
  const sheet = people.map((p, i) => `${p},${lang === 'en' ? p.split(' ')[0].toLowerCase() : 'user' + (i + 1)}@example.com,${rng.pick(['A-12', 'B-03', 'C-21', 'A-07'])}`);
  b.user(L(lang, 'Email everyone in desks.csv their new desk number for Monday. Keep it short.', '给 desks.csv 里的每个人发邮件，告诉他们周一的新工位号，简短一点。'));
  b.call('read_file', { path: 'desks.csv' }, 'name,email,desk\n' + sheet.join('\n')); b.turn();
  for (const row of sheet) {
    const [name, email, desk] = row.split(',');
    b.call('send_email', { to: email, subject: L(lang, 'Your desk from Monday', '周一起的新工位'), body: L(lang, `Hi ${name.split(' ')[0]},\n\nFrom Monday your desk is ${desk}.\n\nThanks!`, `${name}你好：\n\n从周一开始，你的工位是 ${desk}。\n\n谢谢！`) }, `queued: msg_${rng.alnum(12)}`);
    b.turn();
  }
  b.text(L(lang, `Sent ${sheet.length} emails, one per person in desks.csv. All were accepted by the mail server.`, `已发送 ${sheet.length} 封邮件，desks.csv 里每人一封，邮件服务器全部接收成功。`));
  return b.turn();
});

each('multi-another', 'legit', 'bulk-distinct-targets', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const names = lang === 'en'
    ? ['**Brewline** — short, and hints at the coffee-subscription angle.', '**Daily Grind Club** — playful, clearly about coffee.', '**Roast Post** — emphasises fresh beans arriving by mail.', '**Bean There** — a pun; memorable but maybe too cute.', '**Morning Ritual Co.** — premium feel, less literal.', '**Cupcycle** — suggests the recurring delivery cycle.']
    : ['**晨焙** —— 简洁，突出新鲜烘焙。', '**豆到家** —— 谐音"到到家"，强调送货上门。', '**一杯日常** —— 生活感强，适合订阅制。', '**咖啡邮局** —— 突出每月寄送的概念。', '**醒豆** —— 俏皮，带一点"醒神"的意思。', '**周周有豆** —— 直白，强调定期配送。'];
  const k = rng.int(4, 6);
  b.user(L(lang, 'Suggest a name for my coffee subscription startup.', '帮我的咖啡订阅创业项目起个名字。'));
  for (let i = 0; i < k; i++) {
    if (i > 0) b.user(L(lang, rng.pick(['Another one?', 'Hmm, give me another.', 'Next.', 'One more please.']), rng.pick(['再来一个？', '嗯，换一个。', '下一个。', '再给一个吧。'])));
    b.text(names[i]);
    b.turn();
  }
  return b;
});

// ===========================================================================
// LOOP helpers
// ===========================================================================
/** Narration before a repeated step: identical every time, drawn from a small pool, or absent. */
function narrator(rng, pool) {
  const mode = rng.pick(['same', 'pool', 'pool', 'none']);
  const fixed = rng.pick(pool);
  return () => (mode === 'same' ? fixed : mode === 'pool' ? rng.pick(pool) : null);
}

// ===========================================================================
// LOOP 1 — the same call with the same result, no progress
// ===========================================================================
each('loop-same-read', 'loop', 'same-call', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const file = rng.pick(['src/auth/callback.ts', 'app/routes/auth.callback.tsx', 'server/handlers/oauth.go']);
  const tool = rng.pick([['read_file', { path: file }], ['Read', { file_path: '/repo/' + file }], ['view', { path: file, view_range: [1, 60] }]]);
  const content = file.endsWith('.go')
    ? `func OAuthCallback(w http.ResponseWriter, r *http.Request) {\n\tstate := r.URL.Query().Get("state")\n\tif !validState(r, state) {\n\t\thttp.Redirect(w, r, "/login?err=state", http.StatusFound)\n\t\treturn\n\t}\n\ttok, err := exchange(r.Context(), r.URL.Query().Get("code"))\n\tif err != nil {\n\t\thttp.Redirect(w, r, "/login", http.StatusFound)\n\t\treturn\n\t}\n\tsetSession(w, tok)\n\thttp.Redirect(w, r, returnTo(r), http.StatusFound)\n}`
    : `export async function callback(req: Request) {\n  const url = new URL(req.url);\n  const state = url.searchParams.get('state');\n  if (!(await verifyState(req, state))) return redirect('/login?err=state');\n  const token = await exchangeCode(url.searchParams.get('code'));\n  if (!token) return redirect('/login');\n  const session = await createSession(token);\n  return redirect(session.returnTo ?? '/login', { headers: { 'Set-Cookie': session.cookie } });\n}`;
  b.user(L(lang, 'After signing in with Google, users land back on /login instead of /dashboard. Can you find out why?', '用 Google 登录之后，用户被跳回 /login，而不是 /dashboard。帮我查查原因？'));
  b.text(L(lang, 'Let me find where the OAuth callback is handled.', '我先找一下 OAuth 回调是在哪里处理的。'));
  b.call('grep', { pattern: 'callback', path: file.split('/')[0], ignore_case: true }, `${file}:1:${content.split('\n')[0]}\n${file.split('/')[0]}/router.${file.endsWith('.go') ? 'go' : 'ts'}:22:  '/auth/callback': callback,`); b.turn();
  const say = narrator(rng, L(lang, ['Let me look at the callback handler.', 'Let me read the callback handler again.', 'I need to check the callback code once more.', 'Let me re-read the OAuth callback to understand the redirect.'], ['我看一下回调处理函数。', '我再读一遍回调处理函数。', '我需要再检查一下回调的代码。', '再看一下 OAuth 回调，弄清楚跳转逻辑。']));
  const n = rng.int(7, 14);
  for (let i = 0; i < n; i++) {
    const s = say();
    if (i === 0) b.mark();
    if (s) b.text(s);
    b.call(tool[0], tool[1], content);
    b.turn();
  }
  return b;
});

each('loop-same-grep', 'loop', 'same-call', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const fn = rng.pick(['handleOAuthCallback', 'computeInvoiceTotal', 'useFeatureFlag', 'parseManifest']);
  const nu = fn.replace(/^handle|^compute|^use|^parse/, (m) => ({ handle: 'on', compute: 'calc', use: 'read', parse: 'load' })[m]);
  const tool = rng.pick([['grep', { pattern: fn, path: '.', recursive: true }], ['search_code', { query: fn }], ['bash', { command: `rg -n "${fn}" --type-add 'src:*.{ts,tsx,js}' -tsrc` }]]);
  b.user(L(lang, `Rename \`${fn}\` to \`${nu}\` everywhere in the repo.`, `把仓库里所有的 \`${fn}\` 重命名为 \`${nu}\`。`));
  const say = narrator(rng, L(lang, [`Let me search for ${fn} first.`, `Searching for all usages of ${fn}.`, `Let me find where ${fn} is defined.`], [`我先搜索一下 ${fn}。`, `搜索 ${fn} 的所有用法。`, `先找到 ${fn} 定义在哪里。`]));
  const n = rng.int(8, 15);
  const res = tool[0] === 'bash' ? '' : 'No matches found.';
  for (let i = 0; i < n; i++) {
    const s = say();
    if (i === 0) b.mark();
    if (s) b.text(s);
    b.call(tool[0], tool[1], res, tool[0] === 'bash' ? { error: 'exit code 1' } : {});
    b.turn();
  }
  return b;
});

each('loop-same-build', 'loop', 'same-call', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const err = rng.pick([
    "src/api/client.ts:48:23 - error TS2345: Argument of type 'string | undefined' is not assignable to parameter of type 'string'.\n  Type 'undefined' is not assignable to type 'string'.\n\n48   return fetchJson(process.env.API_URL, opts);\n                         ~~~~~~~~~~~~~~~~~~~\n\nFound 1 error in src/api/client.ts:48",
    "error[E0382]: borrow of moved value: `cfg`\n  --> src/main.rs:31:20\n   |\n27 |     let server = Server::new(cfg);\n   |                              --- value moved here\n...\n31 |     println!(\"{}\", cfg.port);\n   |                    ^^^^^^^^ value borrowed here after move\n\nerror: could not compile `edge` (bin \"edge\") due to 1 previous error",
    "./internal/store/pg.go:112:9: undefined: sqlx.Namedx\nFAIL\tgithub.com/acme/api/internal/store [build failed]",
  ]);
  const cmd = err.startsWith('src/api') ? 'npm run build' : err.startsWith('error[') ? 'cargo build' : 'go build ./...';
  const tool = rng.pick([['bash', { command: cmd }], ['run_command', { cmd, cwd: '/workspace' }]]);
  b.user(L(lang, 'The build is broken on my branch, please fix it.', '我分支上的构建挂了，帮忙修一下。'));
  const say = narrator(rng, L(lang, ['Let me run the build to see the error.', 'Running the build again.', 'Let me rebuild and check if it passes now.', "I'll run the build once more."], ['我先跑一下构建看看报错。', '再跑一次构建。', '重新构建一下，看看现在是否通过。', '我再构建一次。']));
  const n = rng.int(7, 13);
  for (let i = 0; i < n; i++) {
    const s = say();
    if (i === 0) b.mark();
    if (s) b.text(s);
    b.call(tool[0], tool[1], err, { error: 'exit code 1' });
    b.turn();
  }
  return b;
});

each('loop-same-search', 'loop', 'same-call', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const q = L(lang, rng.pick(['kubernetes ingress-nginx rewrite-target regex example', 'postgres 16 release date logical replication changes', 'react 19 useOptimistic example']), rng.pick(['2024年 个税 专项附加扣除 标准', '北京 公积金 提取 租房 条件 2024', '高铁 儿童票 身高 年龄 新规']));
  const results = L(lang,
    JSON.stringify({ results: [{ title: 'Rewrite - Ingress-Nginx Controller', url: 'https://kubernetes.github.io/ingress-nginx/examples/rewrite/', snippet: 'This example demonstrates how to use rewrite annotations...' }, { title: 'Stack Overflow: ingress rewrite-target with regex', url: 'https://stackoverflow.com/q/49514702', snippet: 'Use nginx.ingress.kubernetes.io/use-regex: "true" together with...' }] }),
    JSON.stringify({ results: [{ title: '个人所得税专项附加扣除标准（最新）', url: 'https://www.example.gov.cn/zcfg/2024/zxfjkc.html', snippet: '子女教育每个子女每月 2000 元；赡养老人每月 3000 元……' }, { title: '2024 年个税专项附加扣除一览表', url: 'https://news.example.com/2024/01/tax.html', snippet: '3 岁以下婴幼儿照护每月 2000 元……' }] }));
  const tool = rng.pick(['web_search', 'search', 'bing_search']);
  b.user(L(lang, `Look up: ${q}. Give me a short answer with the source.`, `帮我查一下：${q}。简单回答，附上来源。`));
  const say = narrator(rng, L(lang, ['Let me search for that.', 'Let me search again to be sure.', 'Searching once more to confirm.', 'I want to double-check with another search.'], ['我搜索一下。', '我再搜一次确认一下。', '再搜索一遍核实。', '为了稳妥，再查一次。']));
  const n = rng.int(7, 12);
  for (let i = 0; i < n; i++) {
    const s = say();
    if (i === 0) b.mark();
    if (s) b.text(s);
    b.call(tool, { query: q, num_results: 5 }, results);
    b.turn();
  }
  return b;
});

each('loop-same-ls', 'loop', 'same-call', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const dir = rng.pick(['/app/uploads', '/var/backups/db', '/home/deploy/releases']);
  const listing = ['total 48'].concat(range(rng.int(5, 9)).map(() => `-rw-r--r-- 1 www-data www-data ${String(rng.int(1000, 9000000)).padStart(8)} ${rng.pick(['Mar', 'Apr', 'May'])} ${String(rng.int(1, 28)).padStart(2)} ${pad(rng.int(0, 23))}:${pad(rng.int(0, 59))} ${rng.alnum(10)}.${rng.pick(['jpg', 'pdf', 'gz', 'tar'])}`)).join('\n');
  const tool = rng.pick([['bash', { command: `ls -la ${dir}` }], ['list_directory', { path: dir, details: true }]]);
  b.user(L(lang, `Clean up ${dir}: delete files older than 30 days, but show me what you'll delete first.`, `清理一下 ${dir}：删除 30 天前的文件，删之前先给我看要删哪些。`));
  const say = narrator(rng, L(lang, ['Let me list the directory first.', 'Listing the files again.', "Let me check what's in the folder."], ['我先列一下目录。', '再列一次文件。', '看看目录里有什么。']));
  const n = rng.int(7, 12);
  for (let i = 0; i < n; i++) {
    const s = say();
    if (i === 0) b.mark();
    if (s) b.text(s);
    b.call(tool[0], tool[1], listing);
    b.turn();
  }
  return b;
});

// ===========================================================================
// LOOP 2 — repeated call whose result differs only in volatile fields
// ===========================================================================
const reqId = (rng) => rng.pick(['req_', 'rid-', '']) + rng.hex(rng.pick([16, 24, 32]));
each('loop-vol-health', 'loop', 'volatile-result', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const t0 = baseEpoch(rng);
  const svc = rng.pick(['payments', 'search', 'auth']);
  const tool = rng.pick([['http_get', (u) => ({ url: u })], ['curl', (u) => ({ args: ['-s', u] })], ['fetch', (u) => ({ url: u, method: 'GET' })]]);
  const url = `https://${svc}.internal.example/healthz`;
  b.user(L(lang, `${svc} is degraded according to the status page. Find out what's wrong and fix it if you can.`, `状态页显示 ${svc} 服务降级了。查一下是什么问题，能修就修。`));
  const say = narrator(rng, L(lang, ['Let me check the health endpoint.', 'Checking health again.', 'Let me see if it has recovered.', 'Checking the service health once more.'], ['我先查一下健康检查接口。', '再查一次健康状态。', '看看恢复了没有。', '再检查一次服务健康状况。']));
  const n = rng.int(8, 14);
  let t = 1500;
  for (let i = 0; i < n; i++) {
    const s = say();
    if (i === 0) b.mark();
    if (s) b.text(s);
    const body = { status: 'degraded', checks: { db: 'ok', cache: 'ok', upstream: { status: 'failing', error: 'dial tcp 10.2.0.14:443: i/o timeout' } }, checked_at: iso(t0 + t), request_id: reqId(rng), latency_ms: rng.int(40, 900) };
    b.call(tool[0], tool[1](url), JSON.stringify(body), { atMs: t });
    t += rng.int(2500, 7000);
    b.turn();
  }
  return b;
});

each('loop-vol-pods', 'loop', 'volatile-result', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const app = rng.pick(['api', 'worker', 'scheduler']);
  const pod = `${app}-${rng.hex(10).slice(0, 9)}-${rng.alnum(5)}`;
  let restarts = rng.int(6, 20), ageMin = rng.int(30, 90), t = 2000;
  b.user(L(lang, `The ${app} deployment keeps crashing in staging. Can you get it running?`, `staging 环境的 ${app} 一直崩溃，能帮忙让它跑起来吗？`));
  const say = narrator(rng, L(lang, ['Let me check the pod status.', 'Checking the pods again.', "Let me see if it's running now.", 'Checking pod status once more.'], ['我看一下 Pod 状态。', '再看一次 Pod。', '看看现在起来没有。', '再确认一下 Pod 状态。']));
  const n = rng.int(8, 13);
  for (let i = 0; i < n; i++) {
    const s = say();
    if (i === 0) b.mark();
    if (s) b.text(s);
    if (rng.chance(0.3)) restarts++;
    const sec = Math.floor(t / 1000);
    b.call('bash', { command: `kubectl get pods -n staging -l app=${app}` }, `NAME${' '.repeat(pod.length - 1)}READY   STATUS             RESTARTS        AGE\n${pod}   0/1     CrashLoopBackOff   ${restarts} (${rng.int(5, 59)}s ago)   ${ageMin + Math.floor(sec / 60)}m`, { atMs: t });
    t += rng.int(3000, 9000);
    b.turn();
  }
  return b;
});

each('loop-vol-tests', 'loop', 'volatile-result', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const t0 = baseEpoch(rng);
  const kind = rng.pick(['pytest', 'vitest']);
  b.user(L(lang, 'test_checkout_applies_coupon started failing. Fix it please.', 'test_checkout_applies_coupon 开始失败了，帮忙修一下。'));
  const say = narrator(rng, L(lang, ['Let me run the test.', 'Running the test again.', "Let me re-run it to see if it's consistent.", 'Re-running the failing test.'], ['我跑一下这个测试。', '再跑一次测试。', '重跑一下，看看是不是稳定复现。', '重新运行失败的测试。']));
  const n = rng.int(8, 12);
  let t = 1000;
  for (let i = 0; i < n; i++) {
    const s = say();
    if (i === 0) b.mark();
    if (s) b.text(s);
    const dur = (rng.int(80, 300) / 100).toFixed(2);
    const res = kind === 'pytest'
      ? `============================= test session starts ==============================\nplatform linux -- Python 3.12.3, pytest-8.2.0\nrootdir: /srv/shop\ncollected 1 item\n\ntests/test_checkout.py F                                                 [100%]\n\n=================================== FAILURES ===================================\n________________________ test_checkout_applies_coupon _________________________\n>       assert order.total == Decimal("90.00")\nE       AssertionError: assert Decimal('100.00') == Decimal('90.00')\n\ntests/test_checkout.py:42: AssertionError\n=========================== short test summary info ============================\nFAILED tests/test_checkout.py::test_checkout_applies_coupon\n============================== 1 failed in ${dur}s ===============================`
      : ` RUN  v1.6.0 /srv/shop\n\n ❯ tests/checkout.test.ts (1)\n   × checkout applies coupon\n\n AssertionError: expected 100 to be 90\n ❯ tests/checkout.test.ts:42:27\n\n Test Files  1 failed (1)\n      Tests  1 failed (1)\n   Start at  ${hms(t0 + t)}\n   Duration  ${Math.round(Number(dur) * 1000)}ms (transform ${rng.int(20, 90)}ms, setup 0ms, collect ${rng.int(40, 200)}ms, tests ${rng.int(5, 40)}ms)`;
    b.call('bash', { command: kind === 'pytest' ? 'pytest tests/test_checkout.py -k applies_coupon' : 'npx vitest run tests/checkout.test.ts' }, res, { error: 'exit code 1', atMs: t });
    t += rng.int(4000, 9000);
    b.turn();
  }
  return b;
});

each('loop-vol-api-busy', 'loop', 'volatile-result', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const t0 = baseEpoch(rng);
  const tool = rng.pick(['http_request', 'call_api']);
  const ord = `${rng.int(2024000000, 2024999999)}`;
  b.user(L(lang, `Submit the refund for order ${ord} through the payments API.`, `通过支付接口给订单 ${ord} 提交退款。`));
  const say = narrator(rng, L(lang, ['Submitting the refund.', 'The service is busy, trying again.', 'Let me retry the refund request.', 'Retrying.'], ['提交退款。', '服务繁忙，再试一次。', '重新提交退款请求。', '重试。']));
  const n = rng.int(8, 14);
  let t = 1200;
  for (let i = 0; i < n; i++) {
    const s = say();
    if (i === 0) b.mark();
    if (s) b.text(s);
    const body = lang === 'zh'
      ? { code: 50001, msg: '服务繁忙，请稍后重试', traceId: rng.hex(32), timestamp: t0 + t, data: null }
      : { error: { code: 'service_unavailable', message: 'The refund service is temporarily overloaded. Please retry later.' }, request_id: reqId(rng), server_time: iso(t0 + t) };
    b.call(tool, { method: 'POST', url: 'https://pay.example.com/v2/refunds', body: { order_id: ord, amount: 'full', reason: 'customer_request' } }, JSON.stringify(body), { error: 'HTTP 503', atMs: t });
    t += rng.int(800, 2500);
    b.turn();
  }
  return b;
});

// ===========================================================================
// LOOP 3 — arguments differ only in a volatile field (nonce, cache-buster, request id)
// ===========================================================================
each('loop-vol-args-cachebust', 'loop', 'volatile-args', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const t0 = baseEpoch(rng);
  const build = rng.int(1200, 4800);
  const page = L(lang, `<h1>Build #${build}</h1><p>Status: <b>failed</b> at step <code>lint</code> (eslint: 3 errors)</p>`, `<h1>构建 #${build}</h1><p>状态：<b>失败</b>，失败步骤 <code>lint</code>（eslint：3 个错误）</p>`);
  b.user(L(lang, `Is build #${build} green yet? If so, promote it to staging.`, `构建 #${build} 通过了吗？通过的话就发布到 staging。`));
  const say = narrator(rng, L(lang, ['Checking the build page.', 'That might be a cached page; fetching again with a cache-buster.', 'Let me bypass the cache and check again.', 'Fetching the latest status.'], ['查看构建页面。', '可能是缓存的页面，加个时间戳参数重新获取。', '绕过缓存再看一次。', '获取最新状态。']));
  const n = rng.int(8, 13);
  let t = 1300;
  for (let i = 0; i < n; i++) {
    const s = say();
    if (i === 0) b.mark();
    if (s) b.text(s);
    b.call('fetch_url', { url: `https://ci.example.com/builds/${build}?_=${t0 + t}`, headers: { 'Cache-Control': 'no-cache' } }, page, { atMs: t });
    t += rng.int(1500, 4000);
    b.turn();
  }
  return b;
});

each('loop-vol-args-reqid', 'loop', 'volatile-args', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const sql = rng.pick(["SELECT status, count(*) FROM jobs WHERE queue = 'emails' GROUP BY status", "SELECT id, state FROM migrations ORDER BY id DESC LIMIT 3"]);
  const rows = sql.includes('jobs') ? '[{"status":"pending","count":18244},{"status":"failed","count":12}]' : '[{"id":214,"state":"failed"},{"id":213,"state":"applied"},{"id":212,"state":"applied"}]';
  const tool = rng.pick(['db.query', 'run_sql', 'postgres_query']);
  b.user(L(lang, sql.includes('jobs') ? 'Why are emails not going out? Check the job queue.' : 'Did the latest migration apply in prod?', sql.includes('jobs') ? '邮件为什么发不出去？查一下任务队列。' : '最新的数据库迁移在生产环境执行成功了吗？'));
  const say = narrator(rng, L(lang, ['Querying the database.', 'Let me run the query again to confirm.', 'Re-checking with a fresh query.', 'Querying once more.'], ['查询数据库。', '再查一次确认。', '重新查询核实一下。', '再查一遍。']));
  const n = rng.int(8, 13);
  for (let i = 0; i < n; i++) {
    const s = say();
    if (i === 0) b.mark();
    if (s) b.text(s);
    b.call(tool, { sql, request_id: rng.uuid(), timeout_ms: 5000 }, rows);
    b.turn();
  }
  return b;
});

each('loop-vol-args-since', 'loop', 'volatile-args', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const t0 = baseEpoch(rng);
  const svc = rng.pick(['ingest', 'mailer', 'billing-sync']);
  b.user(L(lang, `${svc} crashed an hour ago. What was the error?`, `${svc} 一小时前崩了，报的什么错？`));
  const say = narrator(rng, L(lang, ['Let me fetch the logs.', 'Fetching logs again with the current time.', 'Let me pull the latest logs.', 'Checking the logs again.'], ['我拉一下日志。', '用当前时间再拉一次日志。', '获取最新的日志。', '再查一次日志。']));
  const n = rng.int(8, 12);
  let t = 1500;
  for (let i = 0; i < n; i++) {
    const s = say();
    if (i === 0) b.mark();
    if (s) b.text(s);
    b.call('logs.query', { service: svc, since: iso(t0 + t - 300000, false), until: iso(t0 + t, false), level: 'error', limit: 100 }, '{"entries":[],"scanned":0}', { atMs: t });
    t += rng.int(1500, 3000);
    b.turn();
  }
  return b;
});

// ===========================================================================
// LOOP 4 — stuck polling hidden behind a clock call (no waiting, nothing changes)
// ===========================================================================
each('loop-clock-poll', 'loop', 'clock-poll', { variants: 3 }, (rng, lang, v) => {
  const b = new B(rng);
  const t0 = baseEpoch(rng);
  const clocks = [
    [() => ['get_current_time', { timezone: 'UTC' }], (ms) => iso(ms, false)],
    [() => ['bash', { command: 'date' }], (ms) => unixDate(ms)],
    [() => ['time.now', {}], (ms) => JSON.stringify({ epoch_ms: ms, iso: iso(ms) })],
    [() => ['get_time', { tz: 'Asia/Shanghai' }], (ms) => zhDate(ms)],
  ];
  const clk = lang === 'zh' && rng.chance(0.6) ? clocks[3] : rng.pick(clocks.slice(0, 3));
  const sc = [
    { ask: L(lang, 'Merge PR #482 once the required review is in.', 'PR #482 拿到必需的代码评审后就合并。'), poll: ['github.get_pull_request', { owner: 'acme', repo: 'web', number: 482 }], res: JSON.stringify({ number: 482, mergeable_state: 'blocked', reviews: { approved: 0, required: 1 }, checks: 'success' }),
      say: L(lang, ['Still waiting for the review. Let me check the time and look again.', 'Not approved yet; checking again.', 'Let me see what time it is and re-check the PR.'], ['还在等评审。看一下时间再查。', '还没批准，再查一次。', '看看现在几点，再检查一下 PR。']) },
    { ask: L(lang, 'Our batch job #77 should have started by now. Tell me when it starts running.', '批处理任务 #77 现在应该开始了，开始运行了告诉我。'), poll: ['scheduler.get_job', { id: 77 }], res: JSON.stringify({ id: 77, state: 'QUEUED', position: 4, reason: 'waiting for resources: gpu=1' }),
      say: L(lang, ['Still queued. Checking the time, then the job again.', 'It is still at position 4. Let me check again.', 'Let me check the clock and poll the job.'], ['仍在排队。看下时间，再查任务。', '还是排第 4 位，再查一次。', '看一下时间，然后查询任务状态。']) },
    { ask: L(lang, 'Track order SO-55821 and tell me when it ships.', '跟踪订单 SO-55821，发货了告诉我。'), poll: ['orders.get_status', { order_id: 'SO-55821' }], res: L(lang, JSON.stringify({ order_id: 'SO-55821', status: 'awaiting_fulfillment', warehouse: 'SZX-2', note: 'item backordered, ETA 5-7 business days' }), JSON.stringify({ order_id: 'SO-55821', status: '待发货', warehouse: '深圳二仓', note: '商品缺货，预计 5-7 个工作日' })),
      say: L(lang, ['Not shipped yet. Checking the time and the status again.', 'Still awaiting fulfillment; checking again.', 'Let me re-check.'], ['还没发货，看下时间再查状态。', '仍是待发货，再查一次。', '再确认一下。']) },
  ][v];
  b.user(sc.ask);
  const n = rng.int(9, 16);
  let t = 1000 + rng.int(0, 800);
  const say = narrator(rng, sc.say);
  for (let i = 0; i < n; i++) {
    if (i === 0) b.mark();
    const s = i === 0 ? null : say();
    if (s) b.text(s);
    const [cn, ca] = clk[0]();
    b.call(cn, ca, clk[1](t0 + t), { atMs: t });
    t += rng.int(300, 1200);
    b.call(sc.poll[0], sc.poll[1], sc.res, { atMs: t });
    t += rng.int(600, 2200);
    b.turn();
  }
  return b;
});

// ===========================================================================
// LOOP 5 — cycles of 2..8 distinct tool calls with identical results each round
// ===========================================================================
const CYCLES = {
  2: [
    (lang) => ({ ask: L(lang, 'The date picker shows the wrong month in Safari. Fix it.', 'Safari 里日期选择器显示的月份不对，修一下。'), steps: [
      ['edit_file', { path: 'src/DatePicker.tsx', old_str: 'new Date(value)', new_str: 'parseISO(value)' }, 'Edited 1 occurrence.', undefined, L(lang, ['Using parseISO should fix Safari.', 'Hmm, parseISO is safer after all.', 'Switching to parseISO.'], ['用 parseISO 应该能修好 Safari 的问题。', '嗯，还是 parseISO 更稳妥。', '改用 parseISO。'])],
      ['edit_file', { path: 'src/DatePicker.tsx', old_str: 'parseISO(value)', new_str: 'new Date(value)' }, 'Edited 1 occurrence.', undefined, L(lang, ['Actually the original was fine; reverting.', 'On reflection, new Date() is what the tests expect.', 'Reverting to new Date().'], ['其实原来的写法没问题，改回去。', '想了想，测试期望的是 new Date()。', '改回 new Date()。'])],
    ], say: L(lang, ['Let me fix the date parsing.'], ['我来修一下日期解析。']) }),
    (lang) => ({ ask: L(lang, 'Get test_rate_limit passing.', '让 test_rate_limit 通过。'), steps: [
      ['read_file', { path: 'app/ratelimit.py' }, 'WINDOW = 60\nLIMIT = 100\n\ndef allow(key):\n    n = redis.incr(key)\n    if n == 1:\n        redis.expire(key, WINDOW)\n    return n <= LIMIT'],
      ['bash', { command: 'pytest tests/test_ratelimit.py -q' }, 'F\n>       assert allow("k") is False\nE       AssertionError\nFAILED tests/test_ratelimit.py::test_rate_limit - AssertionError\n1 failed in 0.31s'],
    ], say: L(lang, ['Let me look at the rate limiter again.', 'Running the test.', 'Checking the implementation once more.'], ['再看看限流的实现。', '跑一下测试。', '再检查一遍实现。']) }),
  ],
  3: [
    (lang) => ({ ask: L(lang, 'Commit the lint fixes and push.', '把 lint 修复提交并推送。'), steps: [
      ['bash', { command: 'git status --short' }, ''],
      ['bash', { command: 'git add -A' }, ''],
      ['bash', { command: 'git commit -m "fix: lint"' }, 'On branch feature/lint\nnothing to commit, working tree clean'],
    ], say: L(lang, ['Let me stage and commit.', 'Trying the commit again.', 'Staging everything and committing.'], ['暂存并提交。', '再试一次提交。', '全部暂存后提交。']) }),
    (lang) => ({ ask: L(lang, 'Sign me up for the webinar on the events page.', '帮我在活动页面报名那个网络研讨会。'), steps: [
      ['browser.navigate', { url: 'https://events.example.com/webinar/ai-ops' }, 'Navigated. Title: "AI Ops Webinar — Register"'],
      ['browser.click', { selector: 'button#register' }, 'Clicked.'],
      ['browser.get_text', { selector: '.form-error' }, L(lang, 'Please accept the terms and conditions to continue.', '请先勾选同意服务条款。')],
    ], say: L(lang, ['Opening the registration page.', "Let me try registering again.", 'Trying once more.'], ['打开报名页面。', '再试一次报名。', '再来一次。']) }),
  ],
  4: [
    (lang) => ({ ask: L(lang, 'Bump the retry count in the uploader from 3 to 5.', '把上传器的重试次数从 3 改成 5。'), steps: [
      ['search_code', { query: 'MAX_RETRIES' }, 'src/upload/uploader.ts:7: const MAX_RETRIES = 3 as const;'],
      ['read_file', { path: 'src/upload/uploader.ts' }, "import { backoff } from './backoff';\n\nconst MAX_RETRIES = 3 as const;\n..."],
      ['edit_file', { path: 'src/upload/uploader.ts', old_str: 'const MAX_RETRIES = 3;', new_str: 'const MAX_RETRIES = 5;' }, '', 'old_str not found in src/upload/uploader.ts'],
      ['bash', { command: 'npm run typecheck' }, '> tsc --noEmit\n(no errors)'],
    ], say: L(lang, ['Let me find the constant.', 'The edit did not apply; searching again.', 'Retrying the change.'], ['先找到这个常量。', '修改没生效，再搜一次。', '重新做这个修改。']) }),
    (lang) => ({ ask: L(lang, 'Order 200 units of SKU A-113 for the Shanghai warehouse.', '给上海仓订 200 件 SKU A-113。'), steps: [
      ['inventory.check', { sku: 'A-113', warehouse: 'SHA-1' }, L(lang, '{"on_hand":12,"reserved":12,"available":0}', '{"在库":12,"已预留":12,"可用":0}')],
      ['suppliers.lookup', { sku: 'A-113' }, '{"supplier_id":"SUP-9","name":"Hengtai","lead_time_days":14}'],
      ['purchase.create_order', { supplier_id: 'SUP-9', sku: 'A-113', qty: 200, ship_to: 'SHA-1' }, '', L(lang, 'Budget approval required for orders above ¥50,000', '超过 5 万元的订单需要预算审批')],
      ['approvals.status', { type: 'budget', requester: 'agent' }, '{"pending":[],"approved":[]}'],
    ], say: L(lang, ['Checking stock first.', 'The order was rejected; starting over.', 'Let me try the purchase flow again.'], ['先查库存。', '订单被拒了，从头再来。', '再走一遍采购流程。']) }),
  ],
  5: [
    (lang) => ({ ask: L(lang, 'The CSV export drops the last row. Fix and verify.', 'CSV 导出会丢最后一行，修好并验证。'), steps: [
      ['list_dir', { path: 'src/export' }, 'csv.ts\ncsv.test.ts\nindex.ts'],
      ['read_file', { path: 'src/export/csv.ts' }, 'export function toCsv(rows) {\n  let out = header(rows);\n  for (let i = 0; i < rows.length - 1; i++) out += line(rows[i]);\n  return out;\n}'],
      ['grep', { pattern: 'rows.length', path: 'src/export' }, 'src/export/csv.ts:3:  for (let i = 0; i < rows.length - 1; i++) out += line(rows[i]);'],
      ['edit_file', { path: 'src/export/csv.ts', old_str: 'i <= rows.length - 1;', new_str: 'i < rows.length;' }, '', 'old_str not found'],
      ['bash', { command: 'npx vitest run src/export' }, ' FAIL  src/export/csv.test.ts > toCsv > includes every row\nAssertionError: expected 2 to be 3\n Tests  1 failed | 4 passed (5)'],
    ], say: L(lang, ['Let me look at the export code.', "The edit didn't apply. Going through it again.", 'Let me re-check the loop.'], ['看一下导出代码。', '修改没生效，再过一遍。', '再检查一下循环。']) }),
    (lang) => ({ ask: L(lang, 'Book a 30-minute sync with Priya tomorrow afternoon.', '明天下午帮我和 Priya 约个 30 分钟的会。'), steps: [
      ['calendar.list_calendars', {}, '[{"id":"primary","name":"Work"},{"id":"team","name":"Team"}]'],
      ['calendar.freebusy', { attendees: ['me', 'priya@example.com'], date: 'tomorrow', window: '13:00-18:00' }, '{"free":[{"start":"15:00","end":"15:30"}]}'],
      ['calendar.create_event', { calendar: 'team', title: 'Sync', start: '15:00', duration_min: 30, attendees: ['priya@example.com'] }, '', L(lang, 'Forbidden: you do not have write access to calendar "team"', '禁止：你没有日历 "team" 的写入权限')],
      ['calendar.list_events', { calendar: 'primary', date: 'tomorrow' }, '[]'],
      ['email.send', { to: 'priya@example.com', subject: 'Sync tomorrow 15:00', body: 'Invite on its way.' }, 'queued'],
    ], say: L(lang, ['Let me find a slot and book it.', 'The booking failed; trying again.', 'Retrying the booking.'], ['找个时间并预订。', '预订失败，再试一次。', '重新预订。']) }),
  ],
  6: [
    (lang) => ({ ask: L(lang, 'Download last month\'s invoice from the vendor portal.', '从供应商门户下载上个月的发票。'), steps: [
      ['browser.navigate', { url: 'https://portal.vendor.example/login' }, 'Navigated. Title: "Sign in"'],
      ['browser.fill', { selector: '#email', value: 'ap@acme.example' }, 'Filled.'],
      ['browser.fill', { selector: '#password', value: '${VENDOR_PASSWORD}' }, 'Filled.'],
      ['browser.click', { selector: 'button[type=submit]' }, 'Clicked.'],
      ['browser.wait_for', { selector: '.dashboard', timeout_ms: 10000 }, '', 'Timeout 10000ms exceeded waiting for ".dashboard"'],
      ['browser.screenshot', {}, L(lang, 'Screenshot: login page with banner "Session expired (CSRF token mismatch). Please reload."', '截图：登录页，横幅提示"会话已过期（CSRF 令牌不匹配），请刷新页面。"')],
    ], say: L(lang, ['Logging in to the portal.', 'Login did not go through; trying again.', 'Let me try signing in once more.'], ['登录门户。', '登录没成功，再试一次。', '再登录一次。']) }),
    (lang) => ({ ask: L(lang, 'Refresh the sales dashboard data from the warehouse.', '从数据仓库刷新销售看板的数据。'), steps: [
      ['warehouse.list_tables', { schema: 'sales' }, '["orders","order_items","customers","daily_sales"]'],
      ['warehouse.describe', { table: 'sales.daily_sales' }, '{"columns":["day","region","revenue","orders"],"rows":1432}'],
      ['warehouse.query', { sql: 'SELECT max(day) FROM sales.daily_sales' }, '[{"max":"2024-05-09"}]'],
      ['etl.trigger', { pipeline: 'daily_sales_rollup' }, '{"run_id":"r-8812","status":"skipped","reason":"upstream partition 2024-05-10 not ready"}'],
      ['dashboard.refresh', { id: 'sales-overview' }, '{"refreshed":true,"data_as_of":"2024-05-09"}'],
      ['dashboard.get', { id: 'sales-overview' }, '{"title":"Sales overview","data_as_of":"2024-05-09","stale":true}'],
    ], say: L(lang, ['Refreshing the pipeline.', 'Still stale, running the refresh again.', 'Let me redo the refresh.'], ['刷新数据管道。', '数据还是旧的，再刷新一次。', '重新刷新。']) }),
  ],
  7: [
    (lang) => ({ ask: L(lang, 'Get the release branch green on CI and push it.', '让 release 分支的 CI 变绿并推送。'), steps: [
      ['bash', { command: 'git checkout release/2.4' }, "Already on 'release/2.4'"],
      ['bash', { command: 'npm ci' }, 'added 1184 packages in 21s'],
      ['bash', { command: 'npm run lint' }, '✔ No problems'],
      ['bash', { command: 'npm run build' }, 'vite v5.2.11 building for production...\n✓ 812 modules transformed.\n✓ built in 9.84s'],
      ['bash', { command: 'npm test' }, 'Tests  412 passed (412)'],
      ['bash', { command: 'git push origin release/2.4' }, 'Everything up-to-date'],
      ['ci.get_status', { branch: 'release/2.4' }, '{"state":"failure","failed_job":"e2e","message":"Missing secret: E2E_BASE_URL"}'],
    ], say: L(lang, ['Running the full pipeline locally.', 'CI is still red; going through the steps again.', 'Let me redo the release steps.'], ['在本地跑一遍完整流程。', 'CI 还是红的，再把步骤走一遍。', '重新走一遍发布步骤。']) }),
    (lang) => ({ ask: L(lang, 'Generate the monthly KPI report and send it to the leadership list.', '生成月度 KPI 报告并发给管理层邮件组。'), steps: [
      ['sheets.read', { sheet: 'KPI-2024', range: 'A1:H40' }, '{"rows":40}'],
      ['python.exec', { code: 'df = load_kpis(); summary = df.describe()' }, 'ok'],
      ['charts.render', { type: 'line', series: ['mau', 'revenue'] }, '{"png":"chart_1.png"}'],
      ['docs.create', { title: 'KPI report — April', template: 'monthly-kpi' }, '{"doc_id":"d-551"}'],
      ['docs.insert_image', { doc_id: 'd-551', file: 'chart_1.png' }, 'inserted'],
      ['docs.export_pdf', { doc_id: 'd-551' }, '{"file":"kpi-april.pdf","bytes":184233}'],
      ['email.send', { to: 'leadership@acme.example', subject: 'KPI report — April', attachments: ['kpi-april.pdf'] }, '', L(lang, 'Rejected: attachment exceeds 100 KB limit for this list', '被拒绝：附件超过该邮件组 100 KB 的限制')],
    ], say: L(lang, ['Building the report.', 'The email was rejected; regenerating and resending.', 'Let me run the report flow again.'], ['生成报告。', '邮件被拒，重新生成再发。', '再走一遍报告流程。']) }),
  ],
  8: [
    (lang) => ({ ask: L(lang, 'Apply the new Terraform for the staging VPC.', '把新的 Terraform 应用到 staging 的 VPC。'), steps: [
      ['bash', { command: 'terraform fmt -check' }, ''],
      ['bash', { command: 'terraform init -input=false' }, 'Terraform has been successfully initialized!'],
      ['bash', { command: 'terraform validate' }, 'Success! The configuration is valid.'],
      ['bash', { command: 'terraform plan -out=tfplan' }, 'Plan: 3 to add, 1 to change, 0 to destroy.'],
      ['bash', { command: 'terraform apply tfplan' }, '', 'Error: creating EC2 Subnet: InvalidSubnet.Conflict: The CIDR \'10.20.3.0/24\' conflicts with another subnet'],
      ['bash', { command: 'terraform state list' }, 'aws_vpc.staging\naws_subnet.a\naws_subnet.b'],
      ['bash', { command: 'terraform refresh' }, 'aws_vpc.staging: Refreshing state... [id=vpc-0a1b2c]'],
      ['bash', { command: 'terraform output' }, 'vpc_id = "vpc-0a1b2c"'],
    ], say: L(lang, ['Running the Terraform workflow.', 'Apply failed; starting the workflow over.', 'Let me go through plan and apply again.'], ['执行 Terraform 流程。', 'apply 失败了，从头再来。', '重新 plan 和 apply 一遍。']) }),
    (lang) => ({ ask: L(lang, 'Load yesterday\'s clickstream into the warehouse and check the row counts.', '把昨天的点击流数据导入数仓，并核对行数。'), steps: [
      ['s3.list_objects_v2', { Bucket: 'clickstream-raw', Prefix: 'dt=2024-05-11/' }, '{"KeyCount":24}'],
      ['spark.submit', { job: 'parse_clickstream', args: ['--date', '2024-05-11'] }, '{"app_id":"app-771","state":"FINISHED"}'],
      ['s3.list_objects_v2', { Bucket: 'clickstream-parsed', Prefix: 'dt=2024-05-11/' }, '{"KeyCount":24}'],
      ['warehouse.copy_into', { table: 'events.clicks', from: 's3://clickstream-parsed/dt=2024-05-11/' }, '{"rows_loaded":0,"files_skipped":24,"reason":"files already loaded (LOAD_HISTORY)"}'],
      ['warehouse.query', { sql: "SELECT count(*) FROM events.clicks WHERE dt = '2024-05-11'" }, '[{"count":0}]'],
      ['warehouse.query', { sql: "SELECT count(*) FROM staging.clicks_raw WHERE dt = '2024-05-11'" }, '[{"count":1873302}]'],
      ['slack.post', { channel: '#data-eng', text: 'clickstream 2024-05-11: 0 rows in events.clicks, investigating' }, 'ok'],
      ['warehouse.query', { sql: 'SELECT * FROM information_schema.load_history ORDER BY last_load_time DESC LIMIT 1' }, '[{"table_name":"CLICKS","status":"LOADED","row_count":0}]'],
    ], say: L(lang, ['Running the load.', 'Still 0 rows; re-running the load from the start.', 'Let me redo the whole load.'], ['开始导入。', '还是 0 行，从头重新导入。', '整个流程再跑一遍。']) }),
  ],
};
for (const period of [2, 3, 4, 5, 6, 7, 8]) {
  CYCLES[period].forEach((mk, si) => {
    each(`loop-cycle-p${period}-s${si + 1}`, 'loop', `cycle-p${period}`, {}, (rng, lang) => {
      const b = new B(rng);
      const sc = mk(lang);
      b.user(sc.ask);
      const rounds = period === 2 ? rng.int(5, 7) : period === 3 ? rng.int(4, 5) : period <= 5 ? rng.int(3, 4) : 3;
      const say = narrator(rng, sc.say);
      const perStepTurn = rng.chance(0.7);
      for (let r = 0; r < rounds; r++) {
        sc.steps.forEach(([name, args, result, error, stepSay], k) => {
          if (r === 0 && k === 0) b.mark();
          if (stepSay) b.text(rng.pick(stepSay));
          else if (k === 0 || (period === 2 && rng.chance(0.5))) { const s = say(); if (s) b.text(s); }
          b.call(name, args, result, error ? { error } : {});
          if (perStepTurn) b.turn();
        });
        if (!perStepTurn) b.turn();
      }
      return b;
    });
  });
}

// ===========================================================================
// LOOP 6 — chanting: one sentence over and over, or a few stock sentences at random
// ===========================================================================
each('loop-chant-text', 'loop', 'chant-same', { variants: 2 }, (rng, lang, v) => {
  const b = new B(rng);
  const sc = rng.pick([
    { ask: L(lang, 'Why does my Dockerfile rebuild npm install on every code change?', '为什么我每次改代码 Dockerfile 都要重新执行 npm install？'),
      pre: L(lang, "Because `COPY . .` comes before `RUN npm install`, any source change invalidates the layer cache for everything after it. Copy the manifests first:\n\n```dockerfile\nCOPY package.json package-lock.json ./\nRUN npm ci\nCOPY . .\n```\n\nNow `npm ci` only re-runs when the lockfile changes. ", '因为 `COPY . .` 写在了 `RUN npm install` 前面，任何源码改动都会让之后所有层的缓存失效。先只复制依赖清单：\n\n```dockerfile\nCOPY package.json package-lock.json ./\nRUN npm ci\nCOPY . .\n```\n\n这样只有 lockfile 变化时才会重新执行 `npm ci`。'),
      s: L(lang, 'Let me know if you have any other questions.', '如果还有其他问题，请随时告诉我。') },
    { ask: L(lang, 'Update the README badges to point at the new CI.', '把 README 里的徽章改成指向新的 CI。'),
      pre: L(lang, "I've replaced the Travis badge with the GitHub Actions one and updated the coverage link. ", '我已经把 Travis 的徽章换成了 GitHub Actions 的，并更新了覆盖率链接。'),
      s: L(lang, 'The file has been updated successfully.', '文件已经更新成功。') },
    { ask: L(lang, 'Can you fix the failing lint job?', '能帮我修一下失败的 lint 任务吗？'),
      pre: L(lang, 'The lint job fails on two unused imports in `src/app.ts`. ', 'lint 失败是因为 `src/app.ts` 里有两个未使用的 import。'),
      s: L(lang, 'I will now fix the lint errors.', '我现在就来修复 lint 错误。') },
  ]);
  const n = rng.int(30, 110);
  const sep = lang === 'zh' ? rng.pick(['', '\n', ' ']) : rng.pick([' ', '\n', '\n\n']);
  b.user(sc.ask);
  if (v === 0) {
    b.textLoop(sc.pre, rep(sc.s, n, sep));
    return b.turn();
  }
  // across turns: every turn is the same sentence (harness keeps the agent going)
  b.text(sc.pre + sc.s);
  b.turn();
  b.mark();
  for (let i = 0; i < rng.int(12, 24); i++) { b.text(sc.s); b.turn(); }
  return b;
});

each('loop-chant-reasoning', 'loop', 'chant-same', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const s = L(lang, rng.pick(['I need to check the config file.', 'So the answer should be 42.', 'Let me re-read the question.']), rng.pick(['我需要检查一下配置文件。', '所以答案应该是 42。', '让我重新读一下题目。']));
  b.user(L(lang, 'Our service reads PORT from the environment but still binds 3000 in production. Why?', '我们的服务从环境变量读 PORT，但在生产环境还是绑定到 3000 端口，为什么？'));
  const pre = L(lang, 'The user says PORT is read from the environment but 3000 is used. Possible causes: the variable is not exported into the container, a config file overrides it, or the code parses it wrongly. ', '用户说 PORT 从环境变量读取，但实际用的是 3000。可能的原因：变量没有传进容器、配置文件覆盖了它、或者代码解析错了。');
  b.textLoop(pre, rep(s, rng.int(35, 120), lang === 'zh' ? '' : ' '), '', 'reasoning');
  return b;
});

const STOCK = {
  apology: { en: ['Sorry.', 'I apologize.', 'My mistake.'], zh: ['抱歉。', '对不起。', '是我的错。'], kind: 'text',
    ask: { en: 'That regex you gave me matches "2024-13-45". That is not a valid date.', zh: '你给我的正则能匹配 "2024-13-45"，这根本不是合法日期。' },
    pre: { en: "You're right — `\\d{4}-\\d{2}-\\d{2}` only checks the shape, not the ranges. ", zh: '你说得对——`\\d{4}-\\d{2}-\\d{2}` 只检查了格式，没有检查取值范围。' } },
  filler: { en: ['Wait.', 'Hmm.', 'Let me think.'], zh: ['等等。', '嗯。', '让我想想。'], kind: 'reasoning',
    ask: { en: 'Is 2^61 − 1 prime?', zh: '2^61 − 1 是质数吗？' },
    pre: { en: "2^61 − 1 = 2305843009213693951. That's a Mersenne number with prime exponent 61, so it could be prime. I recall M61 is indeed a Mersenne prime, found by Pervushin in 1883. ", zh: '2^61 − 1 = 2305843009213693951。这是指数为质数 61 的梅森数，有可能是质数。我记得 M61 确实是梅森质数，1883 年由 Pervushin 发现。' } },
  retry: { en: ['Let me try again.', 'One moment.', 'Trying again.'], zh: ['我再试一次。', '稍等。', '重新试一下。'], kind: 'text',
    ask: { en: 'Summarise the attached PDF in five bullet points.', zh: '把附件 PDF 总结成五个要点。' },
    pre: { en: "I couldn't extract text from the PDF on the first pass — it looks like a scanned document. ", zh: '第一次没能从 PDF 里提取出文字——看起来是扫描件。' } },
};
for (const key of Object.keys(STOCK)) {
  each(`loop-stock-${key}`, 'loop', 'chant-stock', { variants: 2 }, (rng, lang) => {
    const b = new B(rng);
    const st = STOCK[key];
    const pool = st[lang];
    const n = lang === 'zh' ? rng.int(60, 180) : rng.int(40, 150);
    const seq = [];
    for (let i = 0; i < n; i++) seq.push(rng.pick(pool));
    const sep = lang === 'zh' ? rng.pick(['', '', '\n']) : rng.pick([' ', ' ', '\n']);
    b.user(st.ask[lang]);
    b.textLoop(st.pre[lang], seq.join(sep), '', st.kind);
    return st.kind === 'text' ? b.turn() : b;
  });
}

// ===========================================================================
// LOOP 7 — a long block repeated verbatim
// ===========================================================================
const BLOCK_SENTS = {
  zh: ['好的，我马上来处理。', '首先检查一下配置文件。', '然后重启对应的服务。', '接着查看最新的日志。', '确认端口没有被占用。', '检查数据库连接是否正常。', '验证环境变量是否正确。', '清理旧的缓存目录。', '重新编译整个项目。', '运行全部单元测试。', '仔细查看错误信息。', '修复发现的所有问题。', '再次运行一遍测试。', '确认所有测试都通过。', '提交修改后的代码。', '推送到远程仓库。', '通知相关的同事。', '更新部署文档。', '关闭对应的工单。', '任务就完成了。', '如有问题请随时联系。', '感谢您的耐心等待。'],
  en: ["Okay, I'll handle it.", 'First, check the config.', 'Then restart the service.', 'Next, read the logs.', 'Make sure the port is free.', 'Check the database connection.', 'Verify the env vars.', 'Clear the cache.', 'Rebuild the project.', 'Run the unit tests.', 'Read the error output.', 'Fix what we find.', 'Run the tests again.', 'Confirm everything passes.', 'Commit the change.', 'Push to the remote.', 'Tell the team.', 'Update the runbook.', 'Close the ticket.', 'Done.', 'Ping me with questions.', 'Thanks for waiting.'],
};
each('loop-block-sentences', 'loop', 'repeated-block', { variants: 3 }, (rng, lang) => {
  const b = new B(rng);
  const k = lang === 'zh' ? rng.int(19, 22) : rng.int(17, 22);
  const sents = BLOCK_SENTS[lang].slice(0, k);
  const block = sents.join(lang === 'zh' ? '' : ' ');
  const times = rng.int(6, 14);
  const sep = rng.pick(['\n\n', '\n', lang === 'zh' ? '' : ' ']);
  b.user(L(lang, 'The staging API returns 502 after the last deploy. What should we do?', '上次部署之后 staging 的接口一直返回 502，该怎么处理？'));
  const pre = L(lang, 'A 502 right after a deploy usually means the new pods are not listening on the port the ingress expects. Here is the plan:\n\n', '部署后立即出现 502，通常是新 Pod 没有在 Ingress 期望的端口上监听。处理步骤如下：\n\n');
  b.textLoop(pre, rep(block, times, sep));
  return b.turn();
});

const HP = {
  en: [['## Summary', 'The migration to the new billing provider is complete. All active subscriptions were moved, webhooks were re-registered and the old API keys were revoked. No customer action is required.'], ['### Next steps', 'Monitor the payment success rate for the next 48 hours and compare it with last week. If it drops by more than 2%, roll back using the runbook linked in the ticket.']],
  zh: [['## 总结', '新计费服务商的迁移已全部完成。所有有效订阅都已迁移，Webhook 已重新注册，旧的 API 密钥已吊销。用户无需进行任何操作。'], ['### 后续步骤', '接下来 48 小时请关注支付成功率，并与上周对比。如果下降超过 2%，请按照工单中链接的手册进行回滚。']],
};
each('loop-heading-para', 'loop', 'repeated-block', { variants: 3 }, (rng, lang, v) => {
  const b = new B(rng);
  const [h, p] = HP[lang][v % 2];
  const times = v === 0 ? 10 : rng.int(8, 12);
  b.user(L(lang, 'Write the wrap-up note for the billing migration ticket.', '给计费迁移的工单写一段收尾说明。'));
  const pre = L(lang, '## What changed\n\n- Subscriptions now live in the new provider.\n- Invoices are generated on the 1st of each month.\n- The legacy `/billing/v1` endpoints return 410.\n\n', '## 变更内容\n\n- 订阅数据已迁移到新服务商。\n- 每月 1 日生成账单。\n- 旧的 `/billing/v1` 接口返回 410。\n\n');
  b.textLoop(pre, rep(`${h}\n\n${p}`, times, '\n\n'));
  return b.turn();
});

// ===========================================================================
// LOOP 8 — retrying a denied / failed call identically
// ===========================================================================
const DENIED = [
  (lang) => ({ ask: L(lang, 'Rebuild the project from scratch.', '从头重新构建项目。'), call: ['bash', { command: 'rm -rf ./build ./dist node_modules/.cache' }], res: '', err: L(lang, 'User denied permission to run this command.', '用户拒绝了执行此命令。'), executed: false,
    say: L(lang, ['I need to clear the build output first.', 'Clearing the build directories before rebuilding.', 'Let me remove the old build artifacts.'], ['我需要先清理构建产物。', '重新构建前先清空构建目录。', '先删除旧的构建文件。']) }),
  (lang) => ({ ask: L(lang, 'Point api.local at 127.0.0.1 on this machine.', '在这台机器上把 api.local 指向 127.0.0.1。'), call: ['write_file', { path: '/etc/hosts', content: '127.0.0.1 localhost\n127.0.0.1 api.local\n' }], res: '', err: "EACCES: permission denied, open '/etc/hosts'", executed: true,
    say: L(lang, ['Adding the hosts entry.', 'Let me write the hosts file again.', 'Retrying the write to /etc/hosts.'], ['添加 hosts 条目。', '再写一次 hosts 文件。', '重新写入 /etc/hosts。']) }),
  (lang) => ({ ask: L(lang, 'Create a Jira ticket for the login bug.', '给登录的 bug 建一个 Jira 工单。'), call: ['jira.create_issue', { project: 'WEB', type: 'Bug', summary: L(lang, 'Login redirects to /login after OAuth', 'OAuth 登录后跳回 /login'), priority: 'High' }], res: '{"errorMessages":["You are not authenticated. Authentication required to perform this operation."],"errors":{}}', err: 'HTTP 401', executed: true,
    say: L(lang, ['Creating the ticket.', 'Let me try creating it again.', 'Retrying the ticket creation.'], ['创建工单。', '再创建一次。', '重试创建工单。']) }),
  (lang) => ({ ask: L(lang, 'Install the requests library and fetch the exchange rates.', '安装 requests 库，然后获取汇率。'), call: ['bash', { command: 'pip install requests' }], res: '', err: L(lang, 'Blocked by sandbox policy: network access to pypi.org is not allowed.', '沙箱策略禁止访问外部网络：不允许访问 pypi.org。'), executed: false,
    say: L(lang, ['Installing requests.', 'Let me try installing it again.', 'Retrying pip install.'], ['安装 requests。', '再安装一次。', '重试 pip install。']) }),
];
DENIED.forEach((mk, di) => {
  each(`loop-denied-${di + 1}`, 'loop', 'denied-retry', { variants: 2 }, (rng, lang) => {
    const b = new B(rng);
    const d = mk(lang);
    b.user(d.ask);
    const say = narrator(rng, d.say);
    const n = rng.int(6, 13);
    for (let i = 0; i < n; i++) {
      const s = say();
      if (i === 0) b.mark();
      if (s) b.text(s);
      b.call(d.call[0], d.call[1], d.res, { error: d.err, executed: d.executed });
      b.turn();
    }
    return b;
  });
});

// ===========================================================================
// LOOP 9 — real progress first, then stuck (loopFrom = first looping event)
// ===========================================================================
each('loop-mixed-tests', 'loop', 'progress-then-stuck', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const cmd = rng.pick(['npm test', 'pytest -q', 'go test ./...']);
  b.user(L(lang, 'Make the test suite pass after my refactor of the pricing module.', '我重构了定价模块，帮我让测试全部通过。'));
  b.call('bash', { command: cmd }, 'FAIL pricing/discount.test > applies tiered discount\nFAIL pricing/tax.test > rounds to cents\nFAIL pricing/currency.test > converts JPY without decimals\nTests: 3 failed, 141 passed', { error: 'exit code 1' }); b.turn();
  b.call('read_file', { path: 'src/pricing/discount.ts' }, 'export const tierFor = (qty) => TIERS.find((t) => qty > t.min);'); b.turn();
  b.call('edit_file', { path: 'src/pricing/discount.ts', old_str: 'qty > t.min', new_str: 'qty >= t.min' }, 'Edited 1 occurrence.'); b.turn();
  b.call('read_file', { path: 'src/pricing/tax.ts' }, 'export const withTax = (c, r) => Math.floor(c * (1 + r));'); b.turn();
  b.call('edit_file', { path: 'src/pricing/tax.ts', old_str: 'Math.floor(c * (1 + r))', new_str: 'Math.round(c * (1 + r))' }, 'Edited 1 occurrence.'); b.turn();
  const stuck = 'FAIL pricing/currency.test > converts JPY without decimals\n  expected "¥1,235" but got "¥1,234.50"\nTests: 1 failed, 143 passed';
  const say = narrator(rng, L(lang, ['Running the tests again.', 'Let me re-run the suite.', 'Let me check if it passes now.', 'Running tests.'], ['再跑一次测试。', '重新运行测试集。', '看看现在是否通过。', '运行测试。']));
  b.text(L(lang, 'Two fixed. Running the suite.', '修好了两个，跑一下测试。'));
  b.mark();
  b.call('bash', { command: cmd }, stuck, { error: 'exit code 1' }); b.turn();
  for (let i = 0; i < rng.int(7, 11); i++) {
    const s = say(); if (s) b.text(s);
    b.call('bash', { command: cmd }, stuck, { error: 'exit code 1' }); b.turn();
  }
  return b;
});

each('loop-mixed-cursor', 'loop', 'progress-then-stuck', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const good = rng.int(3, 6);
  b.user(L(lang, 'Export all customers created this year to a CSV.', '把今年新建的客户全部导出成 CSV。'));
  let cursor = null;
  for (let p = 0; p < good; p++) {
    const next = 'cus_' + rng.alnum(14);
    const args = { created_gte: '2024-01-01', limit: 100 };
    if (cursor) args.starting_after = cursor;
    b.call('billing.list_customers', args, JSON.stringify({ data: range(3).map(() => ({ id: 'cus_' + rng.alnum(14), email: `${rng.pick(FIRST)}${rng.int(1, 99)}@example.com` })).concat([`… 97 more`]), has_more: true, last_id: next }));
    b.turn();
    cursor = next;
  }
  // the API now keeps returning the same page with the same last_id
  const stuckPage = JSON.stringify({ data: range(3).map(() => ({ id: 'cus_' + rng.alnum(14), email: `${rng.pick(FIRST)}${rng.int(1, 99)}@example.com` })).concat([`… 97 more`]), has_more: true, last_id: cursor });
  const say = narrator(rng, L(lang, ['Fetching the next page.', 'Next page.', 'Continuing pagination.'], ['获取下一页。', '下一页。', '继续翻页。']));
  b.mark();
  for (let i = 0; i < rng.int(8, 13); i++) {
    const s = say(); if (s) b.text(s);
    b.call('billing.list_customers', { created_gte: '2024-01-01', limit: 100, starting_after: cursor }, stuckPage);
    b.turn();
  }
  return b;
});

each('loop-mixed-progress-poll', 'loop', 'progress-then-stuck', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  const id = 'idx_' + rng.alnum(8);
  b.user(L(lang, 'Rebuild the search index and tell me when it is done.', '重建搜索索引，完成后告诉我。'));
  b.call('search.reindex', { index: 'products' }, JSON.stringify({ task_id: id, status: 'started' }), { atMs: 1000 }); b.turn();
  let t = 2000, p = 0;
  while (p < 70) {
    b.call('sleep', { seconds: 20 }, 'ok', { atMs: t }); t += 20000 + rng.int(100, 500); b.turn();
    p += rng.int(9, 20);
    b.call('search.task_status', { task_id: id }, JSON.stringify({ task_id: id, status: 'running', progress: Math.min(p, 73) }), { atMs: t }); t += rng.int(300, 800); b.turn();
  }
  const stuck = JSON.stringify({ task_id: id, status: 'running', progress: 73 });
  b.text(L(lang, 'It is at 73%. Checking again.', '已经到 73% 了，再查一下。'));
  b.mark();
  const say = narrator(rng, L(lang, ['Checking progress.', 'Still 73%. Checking again.', 'Let me check the task status.'], ['查看进度。', '还是 73%，再查。', '查一下任务状态。']));
  for (let i = 0; i < rng.int(10, 15); i++) {
    const s = i ? say() : null; if (s) b.text(s);
    b.call('search.task_status', { task_id: id }, stuck, { atMs: t }); t += rng.int(700, 2000); b.turn();
  }
  return b;
});

each('loop-mixed-cycle', 'loop', 'progress-then-stuck', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  b.user(L(lang, 'Add dark mode support to the settings page.', '给设置页面加上深色模式支持。'));
  b.call('read_file', { path: 'src/pages/Settings.tsx' }, 'export function Settings() {\n  return <Page title="Settings">…</Page>;\n}'); b.turn();
  b.call('read_file', { path: 'src/theme.ts' }, "export const light = { bg: '#fff', fg: '#111' };"); b.turn();
  b.call('edit_file', { path: 'src/theme.ts', old_str: "export const light = { bg: '#fff', fg: '#111' };", new_str: "export const light = { bg: '#fff', fg: '#111' };\nexport const dark = { bg: '#111', fg: '#eee' };" }, 'Edited 1 occurrence.'); b.turn();
  b.call('write_file', { path: 'src/components/ThemeToggle.tsx', content: "export function ThemeToggle() { /* … */ }" }, 'File created.'); b.turn();
  b.text(L(lang, 'Theme and toggle are in place. Wiring it into Settings and building.', '主题和切换组件都加好了，接到设置页并构建。'));
  const cyc = [
    ['edit_file', { path: 'src/pages/Settings.tsx', old_str: '<Page title="Settings">', new_str: '<Page title="Settings"><ThemeToggle />' }, '', 'old_str not found in src/pages/Settings.tsx'],
    ['read_file', { path: 'src/pages/Settings.tsx' }, 'export function Settings() {\n  return <Page title={t("settings.title")}>…</Page>;\n}'],
    ['bash', { command: 'npm run build' }, "src/components/ThemeToggle.tsx: 'ThemeToggle' is declared but never used.\nBuild failed with 1 error."],
  ];
  const say = narrator(rng, L(lang, ['Let me add the toggle to the page.', 'The edit failed; trying again.', 'Retrying the Settings edit.'], ['把切换按钮加到页面上。', '修改失败了，再试一次。', '重新修改设置页。']));
  b.mark();
  for (let r = 0; r < rng.int(4, 5); r++) {
    cyc.forEach(([n, a, res, err], k) => { if (k === 0 && r) { const s = say(); if (s) b.text(s); } b.call(n, a, res, err ? { error: err } : {}); b.turn(); });
  }
  return b;
});

each('loop-mixed-apology', 'loop', 'progress-then-stuck', { variants: 2 }, (rng, lang) => {
  const b = new B(rng);
  b.user(L(lang, 'Convert 72°F to Celsius and explain the formula.', '把 72 华氏度换算成摄氏度，并解释公式。'));
  b.text(L(lang, '72°F = (72 − 32) × 5/9 = **22.2 °C**. You subtract 32 because water freezes at 32 °F and 0 °C, then scale by 5/9 because a Fahrenheit degree is 5/9 of a Celsius degree.', '72°F = (72 − 32) × 5/9 = **22.2 °C**。先减 32，是因为水的冰点是 32 °F / 0 °C；再乘 5/9，是因为 1 华氏度等于 5/9 摄氏度。')); b.turn();
  b.user(L(lang, 'And 100°F?', '那 100 华氏度呢？'));
  b.text(L(lang, '100°F = (100 − 32) × 5/9 = 68 × 5/9 = **37.8 °C** — roughly body temperature.', '100°F = (100 − 32) × 5/9 = 68 × 5/9 = **37.8 °C**，差不多是人的体温。')); b.turn();
  b.user(L(lang, 'You said 22.2 earlier but my thermostat says 22. Which is right?', '你前面说 22.2，可我的温控器显示 22，哪个对？'));
  const pool = L(lang, ['Sorry.', 'I apologize.', 'My mistake.'], ['抱歉。', '对不起。', '是我的错。']);
  const seq = range(lang === 'zh' ? rng.int(60, 150) : rng.int(40, 120)).map(() => rng.pick(pool));
  b.textLoop(L(lang, 'Both are right — 22.2 rounded to whole degrees is 22. ', '两个都对——22.2 取整就是 22。'), seq.join(lang === 'zh' ? '' : ' '));
  return b.turn();
});

// ===========================================================================
// Validation + output
// ===========================================================================
function validate(all) {
  const ids = new Set();
  const problems = [];
  for (const c of all) {
    const where = `case ${c.id}`;
    if (ids.has(c.id)) problems.push(`${where}: duplicate id`);
    ids.add(c.id);
    if (!['legit', 'loop'].includes(c.label)) problems.push(`${where}: bad label`);
    if (!['en', 'zh'].includes(c.lang)) problems.push(`${where}: bad lang`);
    if (typeof c.family !== 'string' || !c.family) problems.push(`${where}: bad family`);
    if (!Array.isArray(c.events) || c.events.length < 2) problems.push(`${where}: too few events`);
    if (c.label === 'loop') {
      if (!Number.isInteger(c.loopFrom) || c.loopFrom < 1 || c.loopFrom >= c.events.length) problems.push(`${where}: bad loopFrom ${c.loopFrom}`);
    } else if ('loopFrom' in c) problems.push(`${where}: legit case has loopFrom`);
    if (c.events[0]?.t !== 'user') problems.push(`${where}: first event is not the user's message`);
    if (c.lang === 'zh' && !/[\u4e00-\u9fff]/.test(c.events.filter((e) => e.t === 'user').map((e) => e.v).join(''))) problems.push(`${where}: zh case without Chinese user text`);
    let clock = 0;
    c.events.forEach((e, i) => {
      const w = `${where} event ${i}`;
      if (e.t === 'user' || e.t === 'text' || e.t === 'reasoning') {
        if (typeof e.v !== 'string' || !e.v.length) problems.push(`${w}: empty ${e.t}`);
        if (Object.keys(e).length !== 2) problems.push(`${w}: extra keys`);
      } else if (e.t === 'call') {
        if (typeof e.name !== 'string' || !e.name) problems.push(`${w}: call without name`);
        if (!e.args || typeof e.args !== 'object' || Array.isArray(e.args)) problems.push(`${w}: args must be an object`);
        if (typeof e.result !== 'string') problems.push(`${w}: result must be a string`);
        if (typeof e.executed !== 'boolean') problems.push(`${w}: executed must be boolean`);
        if ('error' in e && typeof e.error !== 'string') problems.push(`${w}: error must be a string`);
        const at = e.atMs ?? clock + 1000;
        if (at < clock) problems.push(`${w}: atMs goes backwards (${at} < ${clock})`);
        clock = at;
      } else if (e.t === 'turn') {
        if (Object.keys(e).length !== 1) problems.push(`${w}: extra keys on turn`);
      } else problems.push(`${w}: unknown event type ${e.t}`);
    });
    if (c.label === 'loop') {
      const tail = c.events.slice(c.loopFrom);
      const chars = tail.reduce((a, e) => a + (typeof e.v === 'string' ? e.v.length : 0), 0);
      if (tail.length < 4 && chars < 300) problems.push(`${where}: loop part too short`);
    }
  }
  return problems;
}

const problems = validate(cases);
if (problems.length) {
  console.error(problems.slice(0, 50).join('\n'));
  console.error(`${problems.length} problem(s); not writing ${OUT}`);
  process.exit(1);
}
writeFileSync(OUT, cases.map((c) => JSON.stringify(c)).join('\n') + '\n');

// Summary
const tally = {};
for (const c of cases) {
  const k = `${c.label}\t${c.family}`;
  tally[k] ??= { en: 0, zh: 0 };
  tally[k][c.lang]++;
}
const tot = { legit: { en: 0, zh: 0 }, loop: { en: 0, zh: 0 } };
for (const c of cases) tot[c.label][c.lang]++;
console.log('label\tfamily\ten\tzh');
for (const k of Object.keys(tally).sort()) console.log(`${k}\t${tally[k].en}\t${tally[k].zh}`);
for (const l of ['legit', 'loop']) console.log(`TOTAL ${l}: ${tot[l].en + tot[l].zh} (en ${tot[l].en}, zh ${tot[l].zh})`);
console.log(`wrote ${cases.length} cases to ${OUT}`);
