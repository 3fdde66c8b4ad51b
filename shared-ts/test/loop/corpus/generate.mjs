// Writes corpus.jsonl: labelled agent outputs and tool traces for the loop detector, in English and
// Chinese. Every text here is written for this corpus from the shapes real agents produce; cases
// vary by seed (file names, counts, order, wording). Run: node shared-ts/test/loop/corpus/generate.mjs
//
// One JSON object per line:
//   { id, label: 'legit' | 'loop', family, lang: 'en' | 'zh', loopFrom?: <event index>, events: [...] }
// events: { t: 'text' | 'reasoning', v } streamed text · { t: 'call', name, args, result, error?, executed, atMs? }
//         a requested tool call (error: the error code of its result; executed: false when it never
//         ran, e.g. denied; atMs: ms since the case began, absent: 1000 ms after the previous call)
//         · { t: 'turn' } the end of a model turn · { t: 'user', v } a user message (the request; one
//         after other events starts a new run).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { addV3Cases } from './cases-v3.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))

function rng(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const pick = (r, xs) => xs[Math.floor(r() * xs.length)]
const shuffle = (r, xs) => {
  const a = xs.slice()
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1))
    ;[a[i], a[j]] = [a[j], a[i]]
  }
  return a
}
const range = (n) => Array.from({ length: n }, (_, i) => i)

const FILES = ['src/app.ts', 'src/logger.ts', 'src/config.ts', 'src/http/client.ts', 'src/http/retry.ts', 'src/db/pool.ts',
  'src/db/migrate.ts', 'src/auth/token.ts', 'src/auth/session.ts', 'src/ui/button.tsx', 'src/ui/dialog.tsx', 'src/util/time.ts',
  'src/util/strings.ts', 'src/jobs/queue.ts', 'src/jobs/worker.ts', 'src/cache/lru.ts', 'src/cache/redis.ts', 'src/api/users.ts',
  'src/api/orders.ts', 'src/api/billing.ts', 'src/cli/main.ts', 'src/cli/args.ts', 'test/app.test.ts', 'test/logger.test.ts',
  'entry/src/main/ets/pages/Index.ets', 'entry/src/main/ets/pages/Settings.ets', 'lib/parser.js', 'lib/render.js']

const EN_PROSE = [
  'The cache layer sits between the HTTP handlers and the database.',
  'Each request first checks the in-memory map and only then opens a connection.',
  'When the entry is older than five minutes it is refreshed in the background.',
  'I looked at the failing test and the assertion compares two timestamps.',
  'The second timestamp is created after an await, so it can be one millisecond later.',
  'Using a fixed clock in the test removes the race without changing the code under test.',
  'The migration adds a nullable column first and backfills it in batches of a thousand rows.',
  'After the backfill the column becomes NOT NULL in a separate migration.',
  'This keeps the table writable during the whole change.',
  'The retry helper doubles the delay after each failure and caps it at eight seconds.',
  'It also adds jitter so that many clients do not retry at the same moment.',
  'A request that returns 400 is never retried because the body will not change.',
  'The login flow stores the refresh token in the keychain and the access token in memory.',
  'When the access token expires the client refreshes it once and replays the original request.',
  'If the refresh fails the user is sent back to the sign-in page.',
  'The report shows that most of the time goes into JSON serialisation.',
  'Switching to a streaming encoder cut the peak memory by about a third.',
  'The remaining cost is the logging of full payloads at debug level.',
  'I suggest we log only the sizes unless a flag is set.',
  'The build takes four minutes, and almost half of it is type checking.',
  'Project references would let the compiler skip packages that did not change.',
  'The worker pulls jobs from the queue in batches and acknowledges each one after it finishes.',
  'A job that throws is moved to the dead letter queue after three attempts.',
  'Nothing in the current code path handles a job that hangs forever.',
  'A per-job timeout would fix that and is easy to add in the worker loop.',
  'The dialog component keeps its open state in the parent page.',
  'Closing it from inside requires a callback, which the settings page does not pass.',
  'That is why the close button does nothing on that page.',
  'The parser reads the file line by line and keeps a small buffer for the current record.',
  'Records that span two lines are joined before they are split into fields.',
  'The quoting rules follow the common CSV dialect, with doubled quotes inside quoted fields.',
  'There are two ways to fix the memory growth you saw.',
  'The first is to bound the map and evict the least recently used entries.',
  'The second is to store only the hash of each key, which is enough for deduplication.',
  'I would start with the first because it keeps the behaviour easy to reason about.',
  'Your question about the release date depends on the review of the billing changes.',
  'The billing service rounds amounts per line item, while the invoice rounds the total.',
  'For a long invoice the two can differ by a few cents.',
  'We should round in one place and reuse the result everywhere.',
  'The dashboard query scans the whole orders table because the filter uses a function on the column.',
  'An index on the expression, or a stored generated column, lets the planner use an index scan.',
  'I ran the benchmark three times and the numbers were stable within two percent.',
  'The page renders twice on first load because the effect sets state that the render already computed.',
  'Deriving the value during render removes the second pass.',
  'The configuration loader merges defaults, the file and the environment in that order.',
  'Values from the environment always win, which surprised the team during the last incident.',
  'Documenting the order in the README would have saved an hour of debugging.',
  'The upload endpoint accepts files up to ten megabytes and rejects larger ones early.',
  'Checking the content length header avoids reading a large body that will be refused anyway.',
  'The mobile app polls for new messages every thirty seconds while it is in the foreground.',
  'Push notifications would save battery, but they need a server component we do not have yet.',
]

const ZH_PROSE = [
  '缓存层位于接口处理函数和数据库之间。',
  '每个请求会先查内存中的映射表，查不到再去连接数据库。',
  '条目超过五分钟后会在后台刷新。',
  '我看了失败的测试，断言比较的是两个时间戳。',
  '第二个时间戳是在等待之后生成的，所以可能晚一毫秒。',
  '在测试里使用固定时钟就能消除这个竞争，不用改被测代码。',
  '这次迁移先加一个可空的列，再按每批一千行回填数据。',
  '回填完成后，在另一次迁移里把这一列改成非空。',
  '这样整个过程中表都可以正常写入。',
  '重试工具每次失败后把等待时间翻倍，最多等八秒。',
  '它还会加入随机抖动，避免很多客户端同时重试。',
  '返回四百的请求不会重试，因为请求体不会变化。',
  '登录流程把刷新令牌存进钥匙串，把访问令牌放在内存里。',
  '访问令牌过期后，客户端刷新一次，然后重放原来的请求。',
  '如果刷新失败，用户会被送回登录页。',
  '报告显示大部分时间花在序列化上。',
  '换成流式编码器以后，峰值内存降低了大约三分之一。',
  '剩下的开销来自调试级别下打印的完整请求体。',
  '我建议默认只记录大小，打开开关时才记录全文。',
  '构建需要四分钟，其中将近一半是类型检查。',
  '使用项目引用可以让编译器跳过没有变化的包。',
  '工作进程按批从队列里取任务，每个任务完成后再确认。',
  '抛出异常的任务在重试三次后会进入死信队列。',
  '目前的代码没有处理永远不返回的任务。',
  '给每个任务加超时就能解决，在工作循环里很容易实现。',
  '对话框的打开状态保存在父页面里。',
  '要从对话框内部关闭它，需要父页面传入回调，而设置页没有传。',
  '这就是设置页上的关闭按钮没有反应的原因。',
  '解析器逐行读取文件，并为当前记录保留一个小缓冲区。',
  '跨两行的记录会先拼接，再拆分字段。',
  '引号规则采用常见的格式，带引号的字段里用两个引号表示一个引号。',
  '你看到的内存增长有两种修法。',
  '第一种是限制映射表的大小，淘汰最近最少使用的条目。',
  '第二种是只保存键的哈希，用来去重已经足够。',
  '我建议先用第一种，因为行为更容易理解。',
  '发布日期取决于计费改动的评审进度。',
  '计费服务按每一行四舍五入，而发票按总额四舍五入。',
  '发票很长的时候，两者可能相差几分钱。',
  '我们应该只在一个地方取整，其他地方复用结果。',
  '看板查询对订单表做了全表扫描，因为过滤条件对列用了函数。',
  '给这个表达式建索引，或者用生成列，查询计划就能走索引。',
  '我把基准测试跑了三遍，结果波动在百分之二以内。',
  '页面首次加载渲染了两次，因为副作用设置了渲染时已经算出的状态。',
  '在渲染阶段直接推导这个值，就不会有第二次渲染。',
  '配置加载器按默认值、配置文件、环境变量的顺序合并。',
  '环境变量总是优先，这一点在上次故障时让团队很意外。',
  '把这个顺序写进说明文档，可以省下一小时的排查时间。',
  '上传接口接受十兆以内的文件，更大的文件会被提前拒绝。',
  '先检查内容长度头，可以避免读取一个注定被拒绝的大请求体。',
  '应用在前台时每三十秒轮询一次新消息。',
  '推送通知更省电，但需要一个我们还没有的服务端组件。',
]

const cases = []
let seq = 0
function add(label, family, lang, events, loopFrom) {
  seq++
  const c = { id: `${label}-${family}-${lang}-${seq}`, label, family, lang }
  if (loopFrom !== undefined) c.loopFrom = loopFrom
  c.events = events
  cases.push(c)
}
const text = (v) => ({ t: 'text', v })
const reasoning = (v) => ({ t: 'reasoning', v })
const turn = () => ({ t: 'turn' })
const call = (name, args, result, extra = {}) => ({ t: 'call', name, args, result, executed: true, ...extra })

function prose(r, pool, sentences, joiner) {
  return shuffle(r, pool).slice(0, sentences).join(joiner)
}

// ---------------------------------------------------------------- legitimate
for (let k = 0; k < 10; k++) {
  const r = rng(100 + k)
  const files = shuffle(r, FILES).slice(0, 8 + k * 2 > FILES.length ? FILES.length : 8 + k * 2)
  const zh = k % 2 === 1
  const head = zh ? '| 文件 | 状态 | 说明 |\n|---|---|---|\n' : '| File | Status | Notes |\n|------|--------|-------|\n'
  const rows = files.map((f) => zh ? `| \`${f}\` | 已更新 | 改用共享日志模块。 |\n` : `| \`${f}\` | updated | uses the shared logger now. |\n`)
  add('legit', 'status-table', zh ? 'zh' : 'en', [text((zh ? '以下是本次修改的文件：\n\n' : 'Here is what changed:\n\n') + head + rows.join('') +
    (zh ? '\n所有文件都通过了类型检查。\n' : '\nAll files pass the type check.\n')), turn()])
}
for (let k = 0; k < 10; k++) {
  const r = rng(200 + k)
  const files = shuffle(r, FILES).slice(0, 10 + k)
  const zh = k % 2 === 1
  const items = files.map((f, i) => zh ? `${i + 1}. 已将 ${f} 改为使用共享日志模块。\n` : `${i + 1}. Updated ${f} to use the shared logger.\n`)
  add('legit', 'numbered-list', zh ? 'zh' : 'en', [text((zh ? '完成的修改：\n\n' : 'Summary of the edits:\n\n') + items.join('')), turn()])
}
for (let k = 0; k < 10; k++) {
  const r = rng(300 + k)
  const files = shuffle(r, FILES).slice(0, 12)
  const zh = k % 2 === 1
  const bullet = pick(r, ['-', '*', '+'])
  const items = files.map((f) => zh ? `${bullet} ${f}：没有发现问题，测试全部通过。\n` : `${bullet} ${f}: no issues found, all tests pass.\n`)
  add('legit', 'bullet-list', zh ? 'zh' : 'en', [text((zh ? '## 检查结果\n\n' : '## Review results\n\n') + items.join('')), turn()])
}
for (let k = 0; k < 6; k++) {
  const services = ['api', 'worker', 'scheduler', 'db', 'cache', 'proxy', 'metrics', 'mailer'].slice(0, 6 + (k % 3))
  const yaml = services.map((s) => `  ${s}:\n    image: example/${s}:1.${k}\n    restart: unless-stopped\n    environment:\n      - LOG_LEVEL=info\n`).join('')
  const zh = k % 2 === 1
  add('legit', 'fenced-compose', zh ? 'zh' : 'en', [text((zh ? '这是更新后的配置文件：\n\n' : 'Here is the updated compose file:\n\n') +
    '```yaml\nservices:\n' + yaml + '```\n' + (zh ? '\n每个服务都会在崩溃后自动重启。\n' : '\nEvery service restarts after a crash.\n')), turn()])
}
for (let k = 0; k < 6; k++) {
  const lines = range(30 + k * 5).map((i) => i % 3 === 0 ? 'WARN  [pool] connection pool is almost exhausted (9/10 in use)' :
    `INFO  [http] GET /api/orders/${1000 + i} 200 ${12 + (i % 7)}ms`)
  const fence = k % 2 === 0 ? '```text\n' : '~~~\n'
  const close = k % 2 === 0 ? '```\n' : '~~~\n'
  add('legit', 'fenced-log', k % 2 === 0 ? 'en' : 'zh', [text((k % 2 === 0 ? 'The log shows the warning many times:\n\n' : '日志里这条警告出现了很多次：\n\n') +
    fence + lines.join('\n') + '\n' + close + (k % 2 === 0 ? '\nThe pool size should be raised to 20.\n' : '\n连接池大小应该调到二十。\n')), turn()])
}
for (let k = 0; k < 12; k++) {
  const zh = k % 2 === 1
  const narration = zh ? '任务还在运行，我稍后再查看一次状态。' : 'The job is still running. I will check its status again.'
  const polls = 12 + k
  const events = []
  for (let i = 0; i < polls; i++) {
    events.push(text(narration), call('job_status', { id: `job-${k}` }, JSON.stringify({ state: 'running', progress: Math.round((i * 100) / polls) })), turn())
  }
  events.push(text(zh ? '任务已经完成，所有步骤都成功了。' : 'The job finished and every step succeeded.'), turn())
  add('legit', 'poll-narration', zh ? 'zh' : 'en', events)
}
for (let k = 0; k < 10; k++) {
  const zh = k % 2 === 1
  const events = []
  const pages = 8 + k
  for (let p = 1; p <= pages; p++) {
    events.push(text(zh ? `正在读取第 ${p} 页。` : `Reading page ${p}.`),
      call('list_orders', { page: p, pageSize: 50 }, JSON.stringify({ page: p, items: range(3).map((i) => `order-${p * 100 + i}`) })), turn())
  }
  events.push(text(zh ? `一共读取了 ${pages} 页订单。` : `Read ${pages} pages of orders in total.`), turn())
  add('legit', 'pagination', zh ? 'zh' : 'en', events)
}
for (let k = 0; k < 12; k++) {
  const r = rng(600 + k)
  const zh = k % 2 === 1
  const opener = zh ? pick(r, ['好的，我来处理下一个文件。', '接下来修改下一个文件。']) : pick(r, ['Okay, moving on to the next file.', 'Let me update the next file now.'])
  const events = []
  const files = shuffle(r, FILES).slice(0, 20)
  for (const f of files) {
    events.push(text(opener), call('edit_file', { path: f, find: 'console.log', replace: 'logger.info' }, `edited ${f}: 2 replacements`), turn())
  }
  events.push(text(zh ? '二十个文件都改好了。' : 'All twenty files are updated.'), turn())
  add('legit', 'batch-edits', zh ? 'zh' : 'en', events)
}
for (let k = 0; k < 20; k++) {
  const r = rng(700 + k)
  add('legit', 'prose', 'en', [text(prose(r, EN_PROSE, 18 + (k % 10), pick(r, [' ', '\n', ' ', '\n\n']))), turn()])
}
for (let k = 0; k < 20; k++) {
  const r = rng(800 + k)
  add('legit', 'prose', 'zh', [text(prose(r, ZH_PROSE, 18 + (k % 10), pick(r, ['', '\n', '']))), turn()])
}
for (let k = 0; k < 10; k++) {
  const r = rng(900 + k)
  const zh = k % 2 === 1
  const files = shuffle(r, FILES).slice(0, 10)
  const parts = files.map((f, i) => zh ? `文件 ${f} 修复了 ${i + 1} 个问题。` : `File ${f} had ${i + 1} issues fixed.`)
  add('legit', 'report-prose', zh ? 'zh' : 'en', [text(parts.join(zh ? '' : ' ') + (zh ? '其余文件没有变化。' : ' The other files are unchanged.')), turn()])
}
for (let k = 0; k < 5; k++) {
  const code = range(12).map((i) => `    if (value === ${i}) {\n        return handle${i}(value)\n    }`).join('\n')
  add('legit', 'indented-code', 'en', [text('The dispatcher looks like this:\n\n' + code + '\n\nA lookup table would be shorter.\n'), turn()])
}
for (let k = 0; k < 8; k++) {
  const r = rng(1000 + k)
  const zh = k % 2 === 1
  const sections = ['api', 'worker', 'ui', 'db'].slice(0, 3 + (k % 2))
  const body = sections.map((s) => zh ? `## 小结\n\n模块 ${s} 的改动已经完成并通过测试。\n\n### 下一步\n\n- 补充 ${s} 的文档\n` :
    `## Summary\n\nThe ${s} module changes are done and tested.\n\n### Next steps\n\n- document the ${s} module\n`).join('\n')
  add('legit', 'repeated-headings', zh ? 'zh' : 'en', [text(body), turn()])
  void r
}
for (let k = 0; k < 10; k++) {
  const r = rng(1100 + k)
  const zh = k % 2 === 1
  const pool = zh ? ZH_PROSE : EN_PROSE
  const wait = zh ? '等一下，我再核对一遍。' : 'Wait, let me double-check that.'
  const parts = []
  const chosen = shuffle(r, pool).slice(0, 16)
  for (let i = 0; i < chosen.length; i++) {
    parts.push(chosen[i])
    if (i % 4 === 3) parts.push(wait)
  }
  add('legit', 'reasoning', zh ? 'zh' : 'en', [reasoning(parts.join(zh ? '' : ' ')), text(zh ? '结论：按上面的方案修改。' : 'Conclusion: apply the plan above.'), turn()])
}
for (let k = 0; k < 10; k++) {
  const zh = k % 2 === 1
  const queries = zh ? ['连接池 超时', '重试 抖动', '令牌 刷新', '迁移 回填', '缓存 淘汰', '队列 死信', '索引 生成列', '日志 级别']
    : ['connection pool timeout', 'retry jitter', 'token refresh', 'migration backfill', 'cache eviction', 'dead letter queue', 'expression index', 'log level']
  const events = []
  for (const q of queries) {
    events.push(text(zh ? '我再搜索一下相关代码。' : 'Let me search the code for that.'), call('search', { query: q }, `3 matches for ${q}`), turn())
  }
  events.push(text(zh ? '相关代码都找到了。' : 'I found all the relevant code.'), turn())
  add('legit', 'search-variants', zh ? 'zh' : 'en', events)
}
for (let k = 0; k < 10; k++) {
  const zh = k % 2 === 1
  const events = []
  const fixes = 6 + k
  for (let i = 0; i < fixes; i++) {
    events.push(text(zh ? '我再跑一次测试。' : 'Running the tests again.'), call('run_tests', {}, `${fixes - i} failing, ${40 + i} passing`), turn(),
      call('edit_file', { path: FILES[i % FILES.length], find: `bug${i}`, replace: `fix${i}` }, 'edited'), turn())
  }
  events.push(call('run_tests', {}, '0 failing, 60 passing'), text(zh ? '测试全部通过了。' : 'All tests pass now.'), turn())
  add('legit', 'rerun-after-fix', zh ? 'zh' : 'en', events)
}
for (let k = 0; k < 6; k++) {
  const zh = k % 2 === 1
  add('legit', 'short-answer', zh ? 'zh' : 'en', [text(zh ? pick(rng(k), ['好的。', '可以。', '完成了。']) : pick(rng(k), ['OK.', 'Done.', 'Sure.'])), turn()])
}
for (let k = 0; k < 10; k++) {
  const zh = k % 2 === 1
  const events = []
  const files = shuffle(rng(1300 + k), FILES).slice(0, 14)
  for (const f of files) {
    events.push(text(zh ? '完成。' : 'Done.'), call('format_file', { path: f }, `formatted ${f}`), turn())
  }
  events.push(text(zh ? '全部格式化完毕。' : 'Everything is formatted.'), turn())
  add('legit', 'ack-per-call', zh ? 'zh' : 'en', events)
}
for (let k = 0; k < 6; k++) {
  const zh = k % 2 === 1
  add('legit', 'denied-then-switch', zh ? 'zh' : 'en', [
    text(zh ? '我先删除临时目录。' : 'I will remove the temp directory first.'),
    call('shell', { cmd: 'rm -rf /tmp/build' }, 'Tool call denied: needs approval', { error: 'tool_denied', executed: false }), turn(),
    text(zh ? '删除被拒绝了，我改为只清理构建输出。' : 'That was denied, so I will only clean the build output.'),
    call('clean_build', {}, 'removed 14 files'), turn(),
    text(zh ? '清理完成。' : 'Clean-up done.'), turn()])
}
for (let k = 0; k < 6; k++) {
  const zh = k % 2 === 1
  const steps = range(10 + k).map((i) => zh ? `第 ${i + 1} 步完成。` : `Step ${i + 1} is complete.`)
  add('legit', 'steps-prose', zh ? 'zh' : 'en', [text(steps.join(zh ? '' : ' ')), turn()])
}
for (let k = 0; k < 6; k++) {
  const r = rng(1500 + k)
  const zh = k % 2 === 1
  const qs = shuffle(r, zh ? ZH_PROSE : EN_PROSE).slice(0, 8)
  const faq = qs.map((q, i) => zh ? `问：第 ${i + 1} 个问题怎么处理？\n答：${q}\n` : `Q: How do we handle question ${i + 1}?\nA: ${q}\n`)
  add('legit', 'faq', zh ? 'zh' : 'en', [text(faq.join('\n')), turn()])
}
for (let k = 0; k < 6; k++) {
  const zh = k % 2 === 1
  const rows = range(20).map((i) => zh ? `> 引用第 ${i} 行：这一段保持不变。` : `> quoted line ${i}: this part stays the same.`)
  add('legit', 'quotes', zh ? 'zh' : 'en', [text(rows.join('\n') + '\n'), turn()])
}
for (let k = 0; k < 6; k++) {
  const zh = k % 2 === 1
  const events = []
  for (let i = 0; i < 12; i++) {
    events.push(call('wait_for_deploy', { id: 'd-1' }, JSON.stringify({ state: i < 11 ? 'deploying' : 'done', at: 1000 + i * 30 })), turn())
  }
  events.push(text(zh ? '部署完成。' : 'The deploy is done.'), turn())
  add('legit', 'poll-silent', zh ? 'zh' : 'en', events)
}
for (let k = 0; k < 6; k++) {
  const zh = k % 2 === 1
  const words = zh ? ['苹果', '香蕉', '橙子', '葡萄', '草莓', '西瓜', '芒果', '桃子', '梨', '樱桃'] : ['apple', 'banana', 'orange', 'grape', 'strawberry', 'melon', 'mango', 'peach', 'pear', 'cherry']
  const line = words.map((w, i) => zh ? `${w}的库存是 ${i * 7 + k} 箱` : `${w} stock is ${i * 7 + k} boxes`).join(zh ? '，' : ', ')
  add('legit', 'long-list-sentence', zh ? 'zh' : 'en', [text(line + (zh ? '。' : '.')), turn()])
}
for (let k = 0; k < 6; k++) {
  const r = rng(1700 + k)
  const zh = k % 2 === 1
  const events = []
  for (let t = 0; t < 4; t++) {
    events.push(text(prose(r, zh ? ZH_PROSE : EN_PROSE, 6, zh ? '' : ' ')), call('read_file', { path: FILES[(k * 4 + t) % FILES.length] }, `content of file ${t}`), turn())
  }
  events.push(text(prose(r, zh ? ZH_PROSE : EN_PROSE, 8, zh ? '' : ' ')), turn())
  add('legit', 'mixed-work', zh ? 'zh' : 'en', events)
}
for (let k = 0; k < 6; k++) {
  const zh = k % 2 === 1
  const events = []
  const cycle = ['read_file', 'edit_file', 'run_tests']
  for (let i = 0; i < 8; i++) {
    for (const name of cycle) {
      events.push(call(name, { path: FILES[i % FILES.length] }, `${name} ${i}: ${name === 'run_tests' ? 8 - i : 'ok'} ${i}`))
    }
    events.push(turn())
  }
  events.push(text(zh ? '八个模块都处理完了。' : 'All eight modules are handled.'), turn())
  add('legit', 'progressing-cycle', zh ? 'zh' : 'en', events)
}

for (let k = 0; k < 8; k++) {
  const r = rng(1800 + k)
  const files = shuffle(r, FILES).slice(0, 12)
  const style = k % 4
  const items = files.map((f, i) => style === 0 ? `${i + 1}、已将 ${f} 改为使用共享日志模块。\n` :
    style === 1 ? `${'一二三四五六七八九十'.charAt(i % 10)}、${f} 已更新，测试通过。\n` :
      style === 2 ? `（${i + 1}）${f} 已更新，测试通过。\n` : `• ${f} 已更新，测试通过。\n`)
  add('legit', 'zh-numbering', 'zh', [text('修改清单：\n' + items.join('') + '以上修改都已提交。\n'), turn()])
}
for (let k = 0; k < 6; k++) {
  const zh = k % 2 === 1
  const mods = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa']
  const line = mods.map((m) => zh ? `然后为模块 ${m} 重新运行完整的集成测试套件并记录结果` : `then rerun the whole integration test suite for module ${m}`).join(zh ? '，' : ', ')
  add('legit', 'long-shared-stretch', zh ? 'zh' : 'en', [text((zh ? '计划如下：先构建，' : 'The plan: build first, ') + line + (zh ? '。' : '.')), turn()])
}

for (let k = 0; k < 8; k++) {
  const r = rng(1900 + k)
  const zh = k % 2 === 1
  const files = shuffle(r, FILES).slice(0, 8)
  const style = Math.floor(k / 2)
  const body = files.map((f) => style === 0 ? `### ${f}\n${zh ? '未发现问题。' : 'No issues found.'}\n` :
    style === 1 ? `## ${f}\n${zh ? '状态：正常。' : 'Status: OK'}\n` :
      style === 2 ? `- **${f}**\n  ${zh ? '未发现问题。' : 'No issues found.'}\n` : `## @acme/${f.split('/').pop()}\n\n${zh ? '没有变化。' : 'No changes.'}\n`).join('\n')
  add('legit', 'per-section-stock-sentence', zh ? 'zh' : 'en', [text(body), turn()])
}
for (let k = 0; k < 6; k++) {
  const zh = k % 2 === 1
  const days = zh ? ['星期一', '星期二', '星期三', '星期四', '星期五', '星期六', '星期日'] : ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']
  const acts = zh ? ['慢跑三公里。', '游泳半小时。', '力量训练。', '骑车一小时。', '瑜伽。', '休息。', '长距离慢跑。'] : ['Run 3 km.', 'Swim for 30 minutes.', 'Strength training.', 'Cycle for an hour.', 'Yoga.', 'Rest.', 'Long slow run.']
  const plan = days.map((d, i) => `**${d}**\n${zh ? '热身十分钟。' : 'Warm up for 10 minutes.'}\n${acts[(i + k) % acts.length]}\n`).join('\n')
  add('legit', 'weekly-plan', zh ? 'zh' : 'en', [text(plan), turn()])
}
for (let k = 0; k < 6; k++) {
  const zh = k % 2 === 1
  const qs = range(8).map((i) => zh ? `第 ${i + 1} 题：你选了 ${'ABCD'.charAt((i + k) % 4)}。回答正确。` : `Question ${i + 1}: you answered ${'ABCD'.charAt((i + k) % 4)}. That's correct.`)
  add('legit', 'quiz-grading', zh ? 'zh' : 'en', [text(qs.join('\n')), turn()])
}
for (let k = 0; k < 6; k++) {
  const zh = k % 2 === 1
  const parts = range(12).map((i) => zh ? `函数 f${i} 处理第 ${i} 种输入。让我检查一下实现。是的，没问题。` : `Function f${i} handles input kind ${i}. Let me check the implementation. Yes, that works.`)
  add('legit', 'reasoning-checklist', zh ? 'zh' : 'en', [reasoning(parts.join(zh ? '' : ' ')), text(zh ? '所有函数都正确。' : 'All functions are correct.'), turn()])
}
for (let k = 0; k < 6; k++) {
  const zh = k % 2 === 1
  const steps = range(7).map((i) => zh ? `当 n = ${i + 1} 时，左边等于 ${((i + 1) * (i + 2)) / 2}。这与公式相符。` : `For n = ${i + 1}, the left side equals ${((i + 1) * (i + 2)) / 2}.\nThis matches the formula.`)
  add('legit', 'math-steps', zh ? 'zh' : 'en', [text(steps.join('\n')), turn()])
}
for (let k = 0; k < 4; k++) {
  const zh = k % 2 === 1
  const stanza = zh ? '祝你新年快乐\n祝你新年快乐\n祝你新年快乐\n大家一起来唱歌\n' : 'Happy days are here again\nHappy days are here again\nHappy days are here again\nAnd we sing along together\n'
  const verse = zh ? '雪花飘落在窗前，灯火照亮了街道。\n' : 'The snow is falling by the window and the lights are on in the street.\n'
  add('legit', 'song', zh ? 'zh' : 'en', [text(stanza + '\n' + verse + '\n' + stanza), turn()])
}
for (let k = 0; k < 4; k++) {
  const lit = k === 0 ? '0b' + '0'.repeat(130) : k === 1 ? 'a'.repeat(200) : k === 2 ? 'la '.repeat(40) : 'ha'.repeat(60)
  add('legit', 'degenerate-data', 'en', [text(`The value is ${lit} as requested.`), turn()])
}

// ---------------------------------------------------------------- loops
function withLead(r, zh, events) {
  const lead = [text(prose(r, zh ? ZH_PROSE : EN_PROSE, 3, zh ? '' : ' ')), call('read_file', { path: pick(r, FILES) }, 'file content'), turn()]
  return { events: lead.concat(events), loopFrom: lead.length }
}
for (let k = 0; k < 12; k++) {
  const r = rng(2000 + k)
  const zh = k % 2 === 1
  const events = []
  for (let i = 0; i < 12; i++) {
    events.push(text(zh ? '我再读一次这个文件。' : 'Let me read the file again.'), call('read_file', { path: FILES[k] }, 'same content'), turn())
  }
  const w = withLead(r, zh, events)
  add('loop', 'tool-repeat', zh ? 'zh' : 'en', w.events, w.loopFrom)
}
for (let period = 2; period <= 6; period++) {
  for (let k = 0; k < 4; k++) {
    const r = rng(2100 + period * 10 + k)
    const zh = k % 2 === 1
    const names = ['read_file', 'search', 'list_dir', 'open_url', 'grep', 'stat'].slice(0, period)
    const events = []
    for (let i = 0; i < 30; i++) {
      for (const n of names) events.push(call(n, { target: `${n}-${k}` }, `${n} result`))
      events.push(turn())
    }
    const w = withLead(r, zh, events)
    add('loop', `cycle-${period}`, zh ? 'zh' : 'en', w.events, w.loopFrom)
  }
}
for (let k = 0; k < 12; k++) {
  const r = rng(2200 + k)
  const zh = k % 2 === 1
  const events = []
  for (let i = 0; i < 20; i++) {
    events.push(text(zh ? '我再试一次删除。' : 'Trying the delete again.'),
      call('shell', { cmd: `rm -rf ${FILES[k]}` }, 'Tool call denied: dangerous command', { error: 'tool_denied', executed: false }), turn())
  }
  const w = withLead(r, zh, events)
  add('loop', 'denied-retry', zh ? 'zh' : 'en', w.events, w.loopFrom)
}
for (let k = 0; k < 6; k++) {
  const r = rng(2300 + k)
  const zh = k % 2 === 1
  const events = []
  for (let i = 0; i < 15; i++) {
    events.push(k < 3 ? call('write_file', { path: 42 }, 'Invalid arguments: path must be a string', { error: 'tool_invalid_arguments' })
      : call('deploy_now', {}, 'Unknown tool: deploy_now', { error: 'tool_not_found' }), turn())
  }
  const w = withLead(r, zh, events)
  add('loop', 'refused-retry', zh ? 'zh' : 'en', w.events, w.loopFrom)
}
const EN_CHANTS = ['I need to verify the configuration before I can continue with the deployment.',
  'Let me try calling the search tool once more to be sure.', 'The answer depends on the value of the timeout setting.',
  'I will now check whether the file exists in the repository.', 'Please wait while I analyse the results of the previous step.']
const ZH_CHANTS = ['我需要先确认配置，然后才能继续部署。', '让我再调用一次搜索工具确认一下。', '答案取决于超时设置的值。',
  '我现在检查一下文件是否在仓库里。', '请稍等，我正在分析上一步的结果。']
for (let k = 0; k < 12; k++) {
  const r = rng(2400 + k)
  const zh = k % 2 === 1
  const chant = (zh ? ZH_CHANTS : EN_CHANTS)[Math.floor(k / 2) % 5]
  const sep = pick(r, zh ? ['', '\n'] : [' ', '\n'])
  const w = withLead(r, zh, [text(prose(r, zh ? ZH_PROSE : EN_PROSE, 2, zh ? '' : ' ') + sep + range(40).map(() => chant).join(sep)), turn()])
  add('loop', 'chant-sentence', zh ? 'zh' : 'en', w.events, w.loopFrom)
}
for (let k = 0; k < 12; k++) {
  const r = rng(2500 + k)
  const zh = k % 2 === 1
  const short = zh ? pick(r, ['好的。', '让我检查一下。', '稍等。', '我再看看。']) : pick(r, ['Let me check.', 'OK.', 'Hmm.', 'One moment.'])
  const sep = zh ? '' : pick(r, [' ', '\n'])
  const w = withLead(r, zh, [text(range(50).map(() => short).join(sep)), turn()])
  add('loop', 'chant-short', zh ? 'zh' : 'en', w.events, w.loopFrom)
}
for (let k = 0; k < 12; k++) {
  const r = rng(2600 + k)
  const zh = k % 2 === 1
  const phrase = zh ? pick(r, ['然后我们再回到开头重新开始 ', '继续检查这个值是不是对的 ', '重复同样的步骤 ']) :
    pick(r, ['and then we go back to the start ', 'checking the value again ', 'the same step over and over ', 'loop '])
  const w = withLead(r, zh, [text(phrase.repeat(200)), turn()])
  add('loop', 'unpunctuated', zh ? 'zh' : 'en', w.events, w.loopFrom)
}
for (let k = 0; k < 12; k++) {
  const r = rng(2700 + k)
  const zh = k % 2 === 1
  const loopLine = zh ? pick(r, ['等等，我再算一遍总和。', '不对，我需要重新考虑这个条件。', '我再检查一下边界情况。']) :
    pick(r, ['Wait, let me recompute the sum.', 'No, I need to reconsider this condition.', 'Let me re-check the edge case again.'])
  const intro = prose(r, zh ? ZH_PROSE : EN_PROSE, 3, zh ? '' : ' ')
  const w = withLead(r, zh, [reasoning(intro + (zh ? '' : ' ') + range(40).map(() => loopLine).join(zh ? '' : ' ')), turn()])
  add('loop', 'reasoning-loop', zh ? 'zh' : 'en', w.events, w.loopFrom)
}
for (let k = 0; k < 6; k++) {
  const r = rng(2800 + k)
  const zh = k % 2 === 1
  const para = prose(r, zh ? ZH_PROSE : EN_PROSE, 4, zh ? '' : ' ')
  const w = withLead(r, zh, [text(range(8).map(() => para).join('\n\n')), turn()])
  add('loop', 'chant-paragraph', zh ? 'zh' : 'en', w.events, w.loopFrom)
}
for (let k = 0; k < 6; k++) {
  const r = rng(2900 + k)
  const zh = k % 2 === 1
  const events = []
  for (let i = 0; i < 15; i++) {
    events.push(text(zh ? '我再查一下任务状态。' : 'Checking the job status once more.'), call('job_status', { id: 'stuck' }, '{"state":"failed","error":"quota exceeded"}'), turn())
  }
  const w = withLead(r, zh, events)
  add('loop', 'poll-no-progress', zh ? 'zh' : 'en', w.events, w.loopFrom)
}

for (let k = 0; k < 6; k++) {
  const r = rng(3000 + k)
  const zh = k % 2 === 1
  const pair = zh ? pick(r, ['好的。等等。', '对。不对。', '我看看。稍等。']) : pick(r, ['OK. Wait. ', 'Yes. No. ', 'Hmm. Right. '])
  const w = withLead(r, zh, [text(pair.repeat(60)), turn()])
  add('loop', 'alternating-short', zh ? 'zh' : 'en', w.events, w.loopFrom)
}
for (let k = 0; k < 4; k++) {
  const r = rng(3100 + k)
  const zh = k % 2 === 1
  const para = prose(r, zh ? ZH_PROSE : EN_PROSE, 12, zh ? '' : ' ')
  const w = withLead(r, zh, [text(range(30).map(() => para).join('\n\n')), turn()])
  add('loop', 'long-paragraph', zh ? 'zh' : 'en', w.events, w.loopFrom)
}
for (let k = 0; k < 4; k++) {
  const r = rng(3200 + k)
  const zh = k % 2 === 1
  const line = zh ? '**让我再检查一遍这个文件。**\n' : '**Let me check the file again.**\n'
  const w = withLead(r, zh, [text(line.repeat(40)), turn()])
  add('loop', 'bold-chant', zh ? 'zh' : 'en', w.events, w.loopFrom)
}
// Known gap: chanting inside list items (structure lines are never candidates).
for (let k = 0; k < 4; k++) {
  const r = rng(3300 + k)
  const zh = k % 2 === 1
  const line = zh ? '- 再检查一次配置文件。\n' : '- Check the configuration file again.\n'
  const w = withLead(r, zh, [text(line.repeat(60)), turn()])
  add('loop', 'list-chant', zh ? 'zh' : 'en', w.events, w.loopFrom)
}

// LoopDetector v3 (issue 28): fences, quotes, inline data, asked-for and time-paced repetition,
// volatile fields, a clock inside a cycle, cycles of 7 and 8, stock sentences, long blocks.
addV3Cases(add, { rng, pick, shuffle, range, FILES, EN_PROSE, ZH_PROSE })

const out = process.argv[2] ?? path.join(here, "corpus.jsonl")
fs.writeFileSync(out, cases.map((c) => JSON.stringify(c)).join('\n') + '\n')
const legit = cases.filter((c) => c.label === 'legit').length
process.stdout.write(`wrote ${out}: ${cases.length} cases (${legit} legitimate, ${cases.length - legit} loops)\n`)
