// Which keys name a volatile value: of a tool result (`updated_at`, `request_id`, `took`, `retry_count`)
// and of a call's arguments (`request_id`, `nonce`, `ts`, attempt counters). See Volatile.ts.

/** Result keys whose value is volatile (lower case, `_`, `-` and `.` removed). */
const RESULT_KEYS: Set<string> = new Set<string>(['at', 'ts', 'time', 'timestamp', 'date', 'datetime', 'now', 'mtime',
  'ctime', 'atime', 'lastmodified', 'lastupdated', 'lastchecked', 'lastseen', 'lastpoll', 'servertime', 'currenttime',
  'localtime', 'utc', 'elapsed', 'duration', 'took', 'latency', 'ms', 'uptime', 'requestid', 'reqid', 'traceid', 'spanid',
  'correlationid', 'nonce', 'etag', 'attempt', 'attempts', 'retry', 'retries', 'try', 'tries', 'seq', 'seqno', 'sequence',
  'counter', 'iteration', 'tick', 'poll', 'polls', 'pollcount', 'checkcount'])

/** `<prefix><suffix>` keys (`retry_count`, `attemptNumber`, `poll_no`) count the calls themselves. */
const COUNTER_PREFIXES: Set<string> = new Set<string>(['retry', 'retries', 'attempt', 'attempts', 'poll', 'polls', 'check',
  'checks', 'try', 'tries', 'call', 'calls', 'request', 'requests', 'iteration', 'run', 'runs'])
const COUNTER_SUFFIXES: string[] = ['count', 'number', 'num', 'no']

/** Argument keys whose value is unique per call by design. */
const ARG_KEYS: Set<string> = new Set<string>(['requestid', 'reqid', 'traceid', 'spanid', 'correlationid', 'nonce',
  'idempotencykey', 'cachebuster', 'ts', 'timestamp', 'now', 'attempt', 'attempts', 'retry', 'retries', 'try', 'tries',
  'seq', 'seqno', 'sequence', 'iteration', 'counter', 'tick'])

const KEY_MEMO_LIMIT: number = 512
const resultKeyMemo: Map<string, boolean> = new Map<string, boolean>()
const argKeyMemo: Map<string, boolean> = new Map<string, boolean>()

function compactKey(key: string): string {
  let out = ''
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i)
    if (c === 95 || c === 45 || c === 46 || c === 32) {
      continue
    }
    out += (c >= 65 && c <= 90) ? String.fromCharCode(c + 32) : key.charAt(i)
  }
  return out
}

function classifyResultKey(key: string): boolean {
  const k = compactKey(key)
  if (RESULT_KEYS.has(k)) {
    return true
  }
  // created_at / updatedAt / checked-at, *_time / startTime, *timestamp, *_ms / durationMs, *_ts, *requestid.
  const n = key.length
  if (n > 3 && (key.endsWith('_at') || key.endsWith('-at') || key.endsWith('At'))) {
    return true
  }
  if (n > 3 && (key.endsWith('_ms') || key.endsWith('Ms') || key.endsWith('_ts') || key.endsWith('-ms'))) {
    return true
  }
  // retry_count, attemptNumber, poll_no, checkNum: a counter of the calls themselves.
  for (let i = 0; i < COUNTER_SUFFIXES.length; i++) {
    const suffix = COUNTER_SUFFIXES[i]
    if (k.endsWith(suffix) && COUNTER_PREFIXES.has(k.substring(0, k.length - suffix.length))) {
      return true
    }
  }
  return k.endsWith('time') || k.endsWith('timestamp') || k.endsWith('requestid') || k.endsWith('traceid') ||
    k.endsWith('elapsed') || k.endsWith('duration') || k.endsWith('latency')
}

/** A key (of a result) whose value says when, how long or which request — not what happened. */
export function isVolatileKey(key: string): boolean {
  const known = resultKeyMemo.get(key)
  if (known !== undefined) {
    return known
  }
  const v = classifyResultKey(key)
  if (resultKeyMemo.size >= KEY_MEMO_LIMIT) {
    resultKeyMemo.clear()
  }
  resultKeyMemo.set(key, v)
  return v
}

/** An argument key whose value is unique per call by design (see the file comment). */
export function isVolatileArgKey(key: string): boolean {
  const known = argKeyMemo.get(key)
  if (known !== undefined) {
    return known
  }
  const k = compactKey(key)
  const v = ARG_KEYS.has(k) || k.endsWith('requestid') || k.endsWith('traceid') || k.endsWith('correlationid') ||
    k.endsWith('idempotencykey') || k.endsWith('nonce')
  if (argKeyMemo.size >= KEY_MEMO_LIMIT) {
    argKeyMemo.clear()
  }
  argKeyMemo.set(key, v)
  return v
}
