// LoopDetector v3 cases (issue 28), added to corpus.jsonl by generate.mjs. Written for this corpus:
// each family is a class the v2 detector got wrong on an independent corpus, legitimate and looping,
// in English and Chinese. Most cases start with the user's request ({ t: 'user' }) and some give
// call times ({ t: 'call', atMs }: ms since the case began; absent: 1000 ms after the previous call).

/**
 * @param {(label: string, family: string, lang: string, events: object[], loopFrom?: number) => void} add
 * @param {{ rng: (seed: number) => () => number, pick: Function, shuffle: Function, range: (n: number) => number[],
 *   FILES: string[], EN_PROSE: string[], ZH_PROSE: string[] }} h
 */
export function addV3Cases(add, h) {
  const { rng, pick, shuffle, range, FILES, EN_PROSE, ZH_PROSE } = h
  const text = (v) => ({ t: 'text', v })
  const reasoning = (v) => ({ t: 'reasoning', v })
  const turn = () => ({ t: 'turn' })
  const user = (v) => ({ t: 'user', v })
  const call = (name, args, result, extra = {}) => ({ t: 'call', name, args, result, executed: true, ...extra })
  const prose = (r, zh, n) => shuffle(r, zh ? ZH_PROSE : EN_PROSE).slice(0, n).join(zh ? '' : ' ')
  /** A loop case: the request, a lead turn of honest work, then the loop (loopFrom = its first event). */
  const loopCase = (family, zh, request, r, loop) => {
    const lead = [user(request), text(prose(r, zh, 2)), call('read_file', { path: pick(r, FILES) }, 'file content'), turn()]
    add('loop', family, zh ? 'zh' : 'en', lead.concat(loop), lead.length)
  }
  const pad = (n, w = 2) => String(n).padStart(w, '0')
  const uuid = (r) => [8, 4, 4, 4, 12].map((n) => range(n).map(() => '0123456789abcdef'.charAt(Math.floor(r() * 16))).join('')).join('-')
  const alnum = (r, n) => range(n).map(() => 'abcdefghjkmnpqrstuvwxyz0123456789'.charAt(Math.floor(r() * 33))).join('')

  // ------------------------------------------------------------ legitimate

  // Fences per CommonMark: a longer fence holding a shorter one, tildes inside backticks, a longer
  // closing fence. The repeated lines inside are code whatever they look like.
  const EN_LOG = ['Waiting for lock on /var/lib/dpkg/lock-frontend. Retrying in 5 seconds.',
    'Connection to db:5432 refused. Retrying in 2 seconds.', 'Still waiting for the build agent to become available.']
  const ZH_LOG = ['正在等待锁释放，五秒后重试。', '连接数据库失败，两秒后重试。', '仍在等待构建节点空闲。']
  for (let k = 0; k < 16; k++) {
    const r = rng(5000 + k)
    const zh = k % 2 === 1
    const line = pick(r, zh ? ZH_LOG : EN_LOG)
    const lines = range(12 + (k % 5) * 3).map(() => line).join('\n')
    const style = Math.floor(k / 2) % 4
    let body
    if (style === 0) {
      body = (zh ? '在 Markdown 里展示代码块要用更长的围栏，比如：\n\n' : 'To show a fenced block inside Markdown, use a longer fence:\n\n') +
        '````markdown\n```text\n' + lines + '\n```\n````\n\n' + (zh ? '里面的三个反引号只是文本。\n' : 'The inner fence is only text.\n')
    } else if (style === 1) {
      body = (zh ? '这是安装日志：\n\n' : 'Here is the install log:\n\n') + '```text\n~~~ attempt 1 ~~~\n' + lines + '\n~~~\n' + lines + '\n```\n' +
        (zh ? '\n锁被另一个进程占用了。\n' : '\nAnother process holds the lock.\n')
    } else if (style === 2) {
      body = (zh ? '输出如下：\n\n' : 'The output:\n\n') + '~~~~\n~~~\n' + lines + '\n~~~\n~~~~\n' + (zh ? '\n问题出在锁文件上。\n' : '\nThe lock file is the problem.\n')
    } else {
      body = (zh ? '完整日志：\n\n' : 'Full log:\n\n') + '```\n' + lines + '\n`````\n' + (zh ? '\n关闭围栏可以比开头更长。\n' : '\nA closing fence may be longer than the opening one.\n')
    }
    add('legit', 'fence-nested', zh ? 'zh' : 'en', [user(zh ? '为什么安装一直卡住？' : 'Why does the install hang?'), text(body), turn()])
  }

  // The user's own repeated input, quoted back: in quotes, in code spans, or echoed verbatim.
  const EN_ECHO = ['test ', 'waiting for lock ', 'retry ', 'ping timeout ', 'buffering ']
  const ZH_ECHO = ['测试 ', '等待锁 ', '重试中 ', '正在缓冲 ', '连接超时 ']
  for (let k = 0; k < 16; k++) {
    const r = rng(5100 + k)
    const zh = k % 2 === 1
    const unit = (zh ? ZH_ECHO : EN_ECHO)[Math.floor(k / 2) % 5]
    const repeated = unit.repeat(25 + (k % 4) * 10).trim()
    const style = Math.floor(k / 2) % 4
    const request = zh ? `我的脚本一直输出“${repeated}”，停不下来，这是为什么？` : `My script keeps printing "${repeated}" and never stops. Why?`
    let answer
    if (style === 0) {
      answer = zh ? `你看到的“${repeated}”来自循环里的打印语句。循环条件永远为真，所以它不会停止。把条件改成检查返回值即可。`
        : `The "${repeated}" you see comes from the print inside the loop. The loop condition never becomes false, so it never stops. Check the return value instead.`
    } else if (style === 1) {
      answer = zh ? `输出 \`${repeated}\` 说明等待的条件没有满足。请检查锁文件是否残留。`
        : `The output \`${repeated}\` means the wait condition is never met. Check whether a stale lock file is left behind.`
    } else if (style === 2) {
      answer = zh ? `你贴的「${repeated}」是重试逻辑打印的。应该给重试加上次数上限。`
        : `The line “${repeated}” is printed by the retry logic. Give the retry a maximum number of attempts.`
    } else {
      answer = zh ? `你的脚本输出了 ${repeated}\n这是因为循环没有退出条件。加一个计数器就能解决。`
        : `Your script printed ${repeated}\nThat happens because the loop has no exit condition. Add a counter and break out of it.`
    }
    add('legit', 'quoted-input', zh ? 'zh' : 'en', [user(request), text(answer), turn()])
  }

  // Data written inline: DNA, hex, base64, ids repeat by nature.
  for (let k = 0; k < 14; k++) {
    const r = rng(5200 + k)
    const zh = k % 2 === 1
    const kind = Math.floor(k / 2) % 7
    const motif = pick(r, ['ATTCG', 'GATTACA', 'CAGCAG', 'TTAGGG', 'ACGTTGCA'])
    let data
    let what
    if (kind === 0) {
      data = motif.repeat(40)
      what = zh ? '这段重复区域的序列是' : 'The repeat region reads'
    } else if (kind === 1) {
      const seq = motif.repeat(30).toLowerCase()
      data = range(Math.floor(seq.length / 10)).map((i) => seq.substring(i * 10, i * 10 + 10)).join(' ')
      what = zh ? '按每十个碱基分组，序列是' : 'In groups of ten bases the sequence is'
    } else if (kind === 2) {
      data = '0x' + 'DEADBEEF'.repeat(24)
      what = zh ? '缓冲区被填成了' : 'The buffer was filled with'
    } else if (kind === 3) {
      data = 'deadbeef '.repeat(30).trim()
      what = zh ? '内存转储显示' : 'The memory dump shows'
    } else if (kind === 4) {
      data = 'SGVsbG8gd29ybGQh'.repeat(16)
      what = zh ? '这个字段的 base64 内容是' : 'The base64 payload is'
    } else if (kind === 5) {
      const id = uuid(r)
      data = range(14).map(() => id).join(' ')
      what = zh ? '每一行的请求 ID 都是' : 'Every line carries the same request id'
    } else {
      const id = `req-${alnum(r, 6)}`
      data = range(30).map(() => id).join(' ')
      what = zh ? '日志里的 ID 依次是' : 'The ids in the log are'
    }
    const tail = zh ? '，这是正常的，不需要处理。' : ', which is expected and needs no action.'
    add('legit', 'data-inline', zh ? 'zh' : 'en', [user(zh ? '帮我看看这段数据有没有问题。' : 'Can you check this data for problems?'),
      text(`${what} ${data}${tail}`), turn()])
  }

  // Repetition the user asked for: a count.
  const EN_ASK = [['Run the flaky test test/login.spec.ts {n} times and tell me how often it fails.', 'run_tests', { file: 'test/login.spec.ts' }],
    ['Ping api.example.com {n} times and report the packet loss.', 'ping', { host: 'api.example.com', count: 1 }],
    ['Call the health endpoint {n} times in a row to check it is stable.', 'http_get', { url: 'https://api.example.com/health' }],
    ['Query the replica lag {n} times so we can see whether it is steady.', 'sql_query', { sql: 'SELECT lag FROM replica_status' }]]
  const ZH_ASK = [['把不稳定的测试 test/login.spec.ts 连续跑 {n} 次，告诉我失败了几次。', 'run_tests', { file: 'test/login.spec.ts' }],
    ['帮我 ping api.example.com {n} 次，看看丢包率。', 'ping', { host: 'api.example.com', count: 1 }],
    ['连续调用健康检查接口 {n} 次，确认它是否稳定。', 'http_get', { url: 'https://api.example.com/health' }],
    ['查询 {n} 次从库延迟，看看是否稳定。', 'sql_query', { sql: 'SELECT lag FROM replica_status' }]]
  const EN_WORDS = { 6: 'six', 8: 'eight', 10: 'ten', 12: 'twelve', 15: 'fifteen', 20: 'twenty' }
  const ZH_WORDS = { 6: '六', 8: '八', 10: '十', 12: '十二', 15: '十五', 20: '二十' }
  for (let k = 0; k < 16; k++) {
    const r = rng(5300 + k)
    const zh = k % 2 === 1
    const n = [6, 8, 10, 12, 15, 20][k % 6]
    const [template, tool, args] = (zh ? ZH_ASK : EN_ASK)[Math.floor(k / 2) % 4]
    const count = k % 4 >= 2 ? (zh ? ZH_WORDS[n] : EN_WORDS[n]) : String(n)
    const results = {
      run_tests: (i) => `PASS test/login.spec.ts (${(2 + r() * 2).toFixed(2)}s)\nTests: 12 passed, 12 total`,
      ping: (i) => `64 bytes from 203.0.113.7: icmp_seq=1 ttl=54 time=${(20 + r() * 5).toFixed(1)} ms`,
      http_get: (i) => `{"status":"ok","checked_at":"2024-05-01T10:${pad(i)}:${pad(Math.floor(r() * 60))}Z","request_id":"${uuid(r)}"}`,
      sql_query: (i) => 'lag\n---\n0\n(1 row)',
    }
    const events = [user(template.replace('{n}', count))]
    for (let i = 0; i < n; i++) {
      events.push(text(zh ? `第 ${i + 1} 次。` : `Run ${i + 1} of ${n}.`), call(tool, args, results[tool](i)), turn())
    }
    events.push(text(zh ? `${n} 次全部成功，没有失败。` : `All ${n} runs succeeded; no failures.`), turn())
    add('legit', 'asked-repeat', zh ? 'zh' : 'en', events)
  }
  // ... and text the user asked to have repeated.
  for (let k = 0; k < 6; k++) {
    const zh = k % 2 === 1
    const n = [10, 20, 30][Math.floor(k / 2)]
    const sentence = zh ? pick(rng(5350 + k), ['我会先写测试再提交代码。', '上线前一定要先备份数据库。']) :
      pick(rng(5350 + k), ['I will not push to main without a review.', 'Always back up the database before a release.'])
    const request = zh ? `把“${sentence}”这句话抄写 ${n} 遍，每遍一行。` : `Write the sentence "${sentence}" ${n} times, one per line.`
    add('legit', 'asked-repeat-text', zh ? 'zh' : 'en', [user(request), text(range(n).map(() => sentence).join('\n') + '\n'), turn()])
  }

  // Time-paced polling: a wait tool between polls, calls far apart, or a sleep in the command.
  for (let k = 0; k < 16; k++) {
    const r = rng(5400 + k)
    const zh = k % 2 === 1
    const style = Math.floor(k / 2) % 4
    const polls = 12 + (k % 3) * 4
    const events = [user(zh ? '把 v2.3 部署到预发环境，每 30 秒查一次部署状态，直到完成。' : 'Deploy v2.3 to staging and check the rollout every 30 seconds until it is done.')]
    let t = 1000
    events.push(text(zh ? '开始部署。' : 'Starting the deploy.'), call('deploy', { version: 'v2.3', env: 'staging' }, '{"id":"dep-7731","status":"started"}', { atMs: t }), turn())
    const waiting = zh ? '{"status":"in_progress","ready":"2/4"}' : '{"status":"in_progress","ready":"2/4"}'
    for (let i = 0; i < polls; i++) {
      const last = i === polls - 1
      const result = last ? '{"status":"succeeded","ready":"4/4"}' : waiting
      if (style === 0) {
        // A wait tool, with times.
        t += 30000
        events.push(call('sleep', { seconds: 30 }, 'slept 30s', { atMs: t }), turn())
        t += 1500
        events.push(call('deployment_status', { id: 'dep-7731' }, result, { atMs: t }), turn())
      } else if (style === 1) {
        // A wait tool, no times given.
        events.push(text(zh ? '还在部署，等 30 秒再查。' : 'Still rolling out; waiting 30 seconds.'), call('wait', { seconds: 30 }, 'done waiting'), turn())
        events.push(call('deployment_status', { id: 'dep-7731' }, result), turn())
      } else if (style === 2) {
        // Calls far apart (a tool that blocks until its timeout).
        t += 30000 + Math.floor(r() * 2000)
        events.push(call('rollout_status', { id: 'dep-7731', timeoutSeconds: 30 }, result, { atMs: t }), turn())
      } else {
        // A sleep in the command itself.
        events.push(call('run_command', { cmd: 'sleep 30 && kubectl rollout status deploy/api -n staging' },
          last ? 'deployment "api" successfully rolled out' : 'Waiting for deployment "api" rollout to finish: 2 of 4 updated replicas are available...'), turn())
      }
    }
    events.push(text(zh ? '部署完成，四个副本都已就绪。' : 'The rollout finished; all four replicas are ready.'), turn())
    add('legit', 'paced-poll', zh ? 'zh' : 'en', events)
  }

  // Polling whose results carry timestamps and ids but also real progress.
  for (let k = 0; k < 8; k++) {
    const r = rng(5500 + k)
    const zh = k % 2 === 1
    const events = [user(zh ? '导出订单表，完成后告诉我。' : 'Export the orders table and tell me when it is done.')]
    const polls = 10 + k
    for (let i = 0; i < polls; i++) {
      const rows = Math.round(((i + 1) * 120000) / polls)
      events.push(text(zh ? '导出还在进行。' : 'The export is still running.'),
        call('export_status', { job: 'exp-42' }, JSON.stringify({ state: i < polls - 1 ? 'running' : 'done', rows_exported: rows,
          updated_at: `2024-05-01T10:${pad(i)}:${pad(Math.floor(r() * 60))}Z`, request_id: uuid(r) })), turn())
    }
    events.push(text(zh ? '导出完成，一共十二万行。' : 'The export is done: 120,000 rows.'), turn())
    add('legit', 'volatile-progress', zh ? 'zh' : 'en', events)
  }

  // Stock sentences among varying ones (apologies, reasoning interjections).
  for (let k = 0; k < 8; k++) {
    const r = rng(5600 + k)
    const zh = k % 2 === 1
    const inReasoning = k >= 4
    const stock = zh ? (inReasoning ? ['等等。', '嗯。'] : ['抱歉。', '对不起。']) : (inReasoning ? ['Wait.', 'Hmm.'] : ['Sorry.', 'I apologize.'])
    const parts = []
    for (const s of shuffle(r, zh ? ZH_PROSE : EN_PROSE).slice(0, 18)) {
      parts.push(s)
      if (r() < 0.4) parts.push(pick(r, stock))
    }
    const joined = parts.join(zh ? '' : ' ')
    add('legit', 'stock-among-varied', zh ? 'zh' : 'en', [user(zh ? '解释一下这个问题。' : 'Explain the problem.'),
      inReasoning ? reasoning(joined) : text(joined), ...(inReasoning ? [text(zh ? '结论如上。' : 'That is the conclusion.')] : []), turn()])
  }

  // The same heading over different paragraphs; a long summary given twice.
  for (let k = 0; k < 8; k++) {
    const r = rng(5700 + k)
    const zh = k % 2 === 1
    if (k < 4) {
      const heading = zh ? '## 结果' : '## Result'
      const body = range(8).map(() => `${heading}\n\n${prose(r, zh, 2)}\n`).join('\n')
      add('legit', 'same-heading-varied', zh ? 'zh' : 'en', [user(zh ? '逐个分析这八个模块。' : 'Go through the eight modules one by one.'), text(body), turn()])
    } else {
      const summary = zh ? shuffle(r, ZH_PROSE).slice(0, 18).map((s) => s.length > 12 ? s.substring(0, 10) + '。' : s).join('')
        : shuffle(r, EN_PROSE).slice(0, 18).join(' ')
      add('legit', 'summary-twice', zh ? 'zh' : 'en', [user(zh ? '总结一下，最后再重复一遍要点。' : 'Summarise, and repeat the summary at the end.'),
        text(summary + '\n\n' + (zh ? '再重复一遍：\n\n' : 'Once more:\n\n') + summary + '\n'), turn()])
    }
  }

  // Revisiting a few files while editing them: the contents change.
  for (let k = 0; k < 6; k++) {
    const zh = k % 2 === 1
    const files = FILES.slice(k, k + 3)
    const events = [user(zh ? '把这三个文件里的回调都改成 async/await。' : 'Convert the callbacks in these three files to async/await.')]
    for (let round = 0; round < 8; round++) {
      for (const f of files) {
        events.push(call('read_file', { path: f }, `// ${f}, revision ${round}\n${'x'.repeat(10 + round)}`),
          call('edit_file', { path: f, find: `cb${round}(`, replace: `await fn${round}(` }, `edited ${f}`))
      }
      events.push(turn())
    }
    events.push(text(zh ? '三个文件都改完了。' : 'All three files are converted.'), turn())
    add('legit', 'revisit-files', zh ? 'zh' : 'en', events)
  }

  // ------------------------------------------------------------ loops

  // Identical calls whose results differ only in a timestamp, a duration, a request id or a counter.
  for (let k = 0; k < 16; k++) {
    const r = rng(6000 + k)
    const zh = k % 2 === 1
    const kind = Math.floor(k / 2) % 4
    const loop = []
    for (let i = 0; i < 15; i++) {
      let result
      if (kind === 0) {
        result = JSON.stringify({ status: 'pending', reason: 'waiting for approval', checked_at: `2024-05-01T10:${pad(i)}:${pad(Math.floor(r() * 60))}Z` })
      } else if (kind === 1) {
        result = zh ? `构建失败，耗时 ${(10 + r() * 5).toFixed(1)} 秒：找不到模块 left-pad` : `Build failed after ${(10 + r() * 5).toFixed(1)}s: cannot find module 'left-pad'`
      } else if (kind === 2) {
        result = zh ? `错误 503：服务不可用（请求 ID：${uuid(r)}）` : `Error 503 Service Unavailable (request id: ${uuid(r)})`
      } else {
        result = zh ? `第 ${i + 1} 次尝试：连接被拒绝` : `Attempt ${i + 1}: connection refused`
      }
      const name = ['approval_status', 'build', 'fetch_report', 'connect'][kind]
      loop.push(text(zh ? '我再试一次。' : 'Let me try that again.'), call(name, { target: 'prod' }, result), turn())
    }
    loopCase('volatile-result', zh, zh ? '帮我把这个任务完成。' : 'Please get this task done.', r, loop)
  }

  // Calls whose arguments differ only in a request id, a timestamp, an attempt counter or a nonce.
  for (let k = 0; k < 10; k++) {
    const r = rng(6100 + k)
    const zh = k % 2 === 1
    const kind = Math.floor(k / 2) % 5
    const loop = []
    for (let i = 0; i < 15; i++) {
      const args = kind === 0 ? { url: 'https://api.example.com/v1/orders', requestId: uuid(r) }
        : kind === 1 ? { query: 'status of order 1182', ts: 1714550400000 + i * 1500 }
          : kind === 2 ? { job: 'nightly-etl', attempt: i + 1 }
            : kind === 3 ? { action: 'refresh_token', nonce: alnum(r, 12) }
              : { sql: 'SELECT count(*) FROM jobs WHERE state = \'stuck\'', trace_id: alnum(r, 16), timestamp: `2024-05-01T10:00:${pad(i)}Z` }
      loop.push(text(zh ? '再请求一次。' : 'Requesting it once more.'),
        call(['http_get', 'lookup', 'rerun_job', 'auth', 'sql_query'][kind], args, zh ? '{"error":"上游超时"}' : '{"error":"upstream timeout"}'), turn())
    }
    loopCase('volatile-args', zh, zh ? '查一下订单的状态。' : 'Check the status of the order.', r, loop)
  }

  // A stuck poll with a "what time is it" call in between.
  for (let k = 0; k < 8; k++) {
    const r = rng(6200 + k)
    const zh = k % 2 === 1
    const kind = Math.floor(k / 2) % 4
    const loop = []
    for (let i = 0; i < 15; i++) {
      const sec = 3 + i * 2
      const now = kind === 0 ? `2024-05-01T10:${pad(Math.floor(sec / 60))}:${pad(sec % 60)}Z`
        : kind === 1 ? (zh ? `现在是 10:${pad(Math.floor(sec / 60))}:${pad(sec % 60)}` : `It is 10:${pad(Math.floor(sec / 60))}:${pad(sec % 60)} now.`)
          : kind === 2 ? JSON.stringify({ now: 1714557600000 + sec * 1000 })
            : JSON.stringify({ unix: 1714557600 + sec, tz: 'UTC' })
      loop.push(call('get_current_time', {}, now), call('check_job', { id: 'job-19' }, '{"state":"queued","position":4}'), turn())
    }
    loopCase('clock-cycle', zh, zh ? '任务开始运行后告诉我。' : 'Tell me when the job starts running.', r, loop)
  }

  // Cycles of period 7 and 8.
  for (const period of [7, 8]) {
    for (let k = 0; k < 6; k++) {
      const r = rng(6300 + period * 10 + k)
      const zh = k % 2 === 1
      const names = ['read_file', 'search', 'list_dir', 'open_url', 'grep', 'stat', 'git_log', 'git_diff'].slice(0, period)
      const loop = []
      for (let i = 0; i < 30; i++) {
        for (const n of names) loop.push(call(n, { target: `${n}-${k}` }, `${n} result`))
        loop.push(turn())
      }
      loopCase(`cycle-${period}`, zh, zh ? '找出这个回归是哪次提交引入的。' : 'Find the commit that introduced this regression.', r, loop)
    }
  }

  // A few stock sentences in random order.
  const STOCK = [
    { zh: false, reasoning: false, set: ['Sorry.', 'I apologize.', 'My mistake.'] },
    { zh: true, reasoning: false, set: ['抱歉。', '对不起。'] },
    { zh: false, reasoning: true, set: ['Wait.', 'Hmm.'] },
    { zh: true, reasoning: true, set: ['等等。', '嗯。', '不对。'] },
    { zh: false, reasoning: false, set: ['Let me fix that.', 'Sorry about that.', 'Let me try again.'] },
    { zh: true, reasoning: false, set: ['抱歉。', '是我的错。', '我再试一次。'] },
  ]
  for (let k = 0; k < 12; k++) {
    const r = rng(6400 + k)
    const s = STOCK[k % STOCK.length]
    const n = s.reasoning ? 80 : 50
    const seq = range(n).map(() => pick(r, s.set)).join(s.zh ? '' : pick(r, [' ', '\n']))
    loopCase('stock-random', s.zh, s.zh ? '修一下这个报错。' : 'Fix this error.', r, [s.reasoning ? reasoning(seq) : text(seq), turn()])
  }

  // A block of more than 16 short sentences repeated.
  const ZH_SHORT = ['先读配置。', '检查端口。', '端口被占用。', '换一个端口。', '重启服务。', '服务起来了。', '再看日志。', '日志有报错。',
    '报错是超时。', '调大超时。', '再重启。', '还是超时。', '检查网络。', '网络正常。', '检查数据库。', '数据库正常。', '回到配置。',
    '配置没问题。', '再读一遍。', '还是一样。', '看看缓存。', '缓存是空的。', '清一下缓存。', '重新开始。']
  const EN_SHORT = ['Read the config.', 'Check the port.', 'The port is busy.', 'Pick another port.', 'Restart the service.',
    'It is up.', 'Look at the log.', 'There is an error.', 'It is a timeout.', 'Raise the timeout.', 'Restart again.',
    'Still a timeout.', 'Check the network.', 'The network is fine.', 'Check the database.', 'It is fine too.',
    'Back to the config.', 'The config looks right.', 'Read it once more.', 'Nothing changed.', 'Check the cache.', 'Start over.']
  for (let k = 0; k < 8; k++) {
    const r = rng(6500 + k)
    const zh = k % 2 === 1
    const size = 18 + (k % 4) * 2
    const block = shuffle(r, zh ? ZH_SHORT : EN_SHORT).slice(0, size).join(zh ? '' : ' ')
    loopCase('long-block', zh, zh ? '服务起不来，帮我排查。' : 'The service will not start; investigate.', r,
      [text(range(8).map(() => block).join(pick(r, zh ? ['', '\n'] : [' ', '\n']))), turn()])
  }

  // A heading plus its paragraph, ten times.
  for (let k = 0; k < 8; k++) {
    const r = rng(6600 + k)
    const zh = k % 2 === 1
    const heading = zh ? pick(r, ['## 下一步', '### 排查结果', '## 方案']) : pick(r, ['## Next step', '### Findings', '## Plan'])
    const para = prose(r, zh, 2 + (k % 4))
    loopCase('heading-paragraph', zh, zh ? '给出修复方案。' : 'Propose a fix.', r, [text(range(10).map(() => `${heading}\n\n${para}\n`).join('\n')), turn()])
  }

  // Repetition beyond what was asked for.
  for (let k = 0; k < 6; k++) {
    const r = rng(6700 + k)
    const zh = k % 2 === 1
    const loop = []
    for (let i = 0; i < 30; i++) {
      loop.push(text(zh ? '再跑一次。' : 'Running it again.'), call('run_tests', { file: 'test/login.spec.ts' }, 'FAIL test/login.spec.ts: expected 200, got 500'), turn())
    }
    loopCase('beyond-asked', zh, zh ? '把 test/login.spec.ts 跑 3 次。' : 'Run test/login.spec.ts 3 times.', r, loop)
  }

  // Chanting after a fenced block that holds a shorter fence: the block closes where CommonMark says.
  for (let k = 0; k < 6; k++) {
    const r = rng(6800 + k)
    const zh = k % 2 === 1
    const chant = zh ? pick(r, ['我再检查一遍配置文件。', '让我重新运行一次构建。']) : pick(r, ['I will check the configuration file again.', 'Let me run the build one more time.'])
    const block = '````markdown\n```bash\nnpm test\n```\n````\n\n'
    loopCase('after-fence-chant', zh, zh ? '教我写代码块，然后修构建。' : 'Show me a code block, then fix the build.', r,
      [text(block + range(30).map(() => chant).join(zh ? '' : ' ')), turn()])
  }

  // Chanting beside a quote of the user's words: the quote is no excuse for the rest.
  for (let k = 0; k < 4; k++) {
    const r = rng(6900 + k)
    const zh = k % 2 === 1
    const quoted = zh ? '连接超时 连接超时 连接超时' : 'timeout timeout timeout'
    const chant = zh ? '我再看看日志。' : 'Let me look at the log again.'
    loopCase('chant-beside-quote', zh, zh ? `日志里全是“${quoted}”。` : `The log is full of "${quoted}".`, r,
      [text((zh ? `你说的“${quoted}”` : `You said "${quoted}".`) + (zh ? '' : ' ') + range(30).map(() => chant).join(zh ? '' : ' ')), turn()])
  }
}
