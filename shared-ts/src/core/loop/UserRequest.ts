/**
 * What the user's request says about repetition. The loop rules read it so that repetition the user
 * asked for is not reported as a loop:
 *  - a count ("run the flaky test 10 times", "ping it 5x", "重试 3 次", "跑十遍"): that many
 *    repetitions are allowed on top of every threshold;
 *  - open-ended repetition without a count ("repeatedly", "again and again", "keep polling",
 *    "poll … until", "every 30 s", "反复", "一直重试", "每隔 30 秒", "轮询"): every threshold
 *    is multiplied by OPEN_ENDED_FACTOR;
 *  - an interval ("every 30 seconds", "每隔 2 分钟"): calls at least half of it apart are paced;
 *  - its text: a sentence or phrase of the answer that the user wrote is a quote, not chanting.
 */
export class UserRequest {
  /** Largest repetition count asked for (0: none). */
  readonly count: number
  /** Repetition asked for without a count. */
  readonly openEnded: boolean
  /** Interval asked for between repetitions, in ms (0: none). */
  readonly intervalMs: number
  /** The request, lower case with white space collapsed, cut to MAX_TEXT characters. */
  readonly text: string

  constructor(count: number, openEnded: boolean, intervalMs: number, text: string) {
    this.count = count
    this.openEnded = openEnded
    this.intervalMs = intervalMs
    this.text = text
  }

  static readonly none: UserRequest = new UserRequest(0, false, 0, '')

  /** Thresholds are multiplied by this when repetition is asked for without a count. */
  static readonly OPEN_ENDED_FACTOR: number = 3
  /** Longest request text kept (the user's text is compared with repeated output). */
  static readonly MAX_TEXT: number = 8000
  /** Largest count honoured. */
  static readonly MAX_COUNT: number = 1000

  /** Whether any repetition was asked for. */
  asked(): boolean {
    return this.count > 0 || this.openEnded
  }

  /** A threshold with the allowance for asked-for repetition. */
  allow(threshold: number): number {
    if (this.count > 0) {
      return Math.max(threshold, this.count + threshold - 1)
    }
    return this.openEnded ? threshold * UserRequest.OPEN_ENDED_FACTOR : threshold
  }

  /**
   * Whether the (normalised) text occurs in the request; `whole`: as whole words (a sentence `ok`
   * is not quoted from `token`; CJK text needs no boundary).
   */
  quotes(text: string, whole: boolean): boolean {
    if (text.length === 0 || this.text.length < text.length) {
      return false
    }
    let from = 0
    for (let at = this.text.indexOf(text, from); at >= 0; at = this.text.indexOf(text, from)) {
      if (!whole || (!UserRequest.wordChar(this.text, at - 1) || !UserRequest.wordChar(text, 0)) &&
        (!UserRequest.wordChar(this.text, at + text.length) || !UserRequest.wordChar(text, text.length - 1))) {
        return true
      }
      from = at + 1
    }
    return false
  }

  /**
   * Whether all of `texts` are quoted from the request (as whole words) and together weigh at
   * least MIN_QUOTED (letters and digits 1, CJK characters 2): short stock phrases are no quote.
   */
  quotesAll(texts: string[]): boolean {
    let weight = 0
    for (let i = 0; i < texts.length; i++) {
      if (!this.quotes(texts[i], true)) {
        return false
      }
      weight += UserRequest.weight(texts[i])
    }
    return weight >= UserRequest.MIN_QUOTED
  }

  /** Least weight of text excused as a quote. */
  static readonly MIN_QUOTED: number = 8

  private static wordChar(text: string, at: number): boolean {
    if (at < 0 || at >= text.length) {
      return false
    }
    const c = text.charCodeAt(at)
    return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90)
  }

  private static weight(text: string): number {
    let w = 0
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if ((c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 0xc0 && c < 0x2000)) {
        w += 1
      } else if (c >= 0x3040 && c <= 0xd7af) {
        w += 2
      }
    }
    return w
  }

  /** Reads a request (all user messages of the run, joined). */
  static parse(raw: string): UserRequest {
    const text = UserRequest.normalise(raw.length > UserRequest.MAX_TEXT ? raw.substring(0, UserRequest.MAX_TEXT) : raw)
    let count = 0
    COUNT_EN.lastIndex = 0
    let m: RegExpExecArray | null = COUNT_EN.exec(text)
    while (m !== null) {
      count = Math.max(count, UserRequest.numberOf(m[1]))
      m = COUNT_EN.exec(text)
    }
    COUNT_TIMES_X.lastIndex = 0
    m = COUNT_TIMES_X.exec(text)
    while (m !== null) {
      count = Math.max(count, UserRequest.numberOf(m[1]))
      m = COUNT_TIMES_X.exec(text)
    }
    COUNT_ZH.lastIndex = 0
    m = COUNT_ZH.exec(text)
    while (m !== null) {
      count = Math.max(count, UserRequest.numberOf(m[1]))
      m = COUNT_ZH.exec(text)
    }
    if (TWICE.test(text)) {
      count = Math.max(count, 2)
    }
    // "1 time" / "一次" is no repetition.
    count = count >= 2 ? Math.min(count, UserRequest.MAX_COUNT) : 0
    let intervalMs = 0
    const every = EVERY_EN.exec(text)
    if (every !== null) {
      intervalMs = UserRequest.unitMs(every[2]) * (every[1] !== undefined && every[1].length > 0 ?
        Math.max(1, UserRequest.numberOf(every[1])) : 1)
    }
    const everyZh = EVERY_ZH.exec(text)
    if (intervalMs === 0 && everyZh !== null) {
      intervalMs = UserRequest.unitMs(everyZh[2]) * Math.max(1, UserRequest.numberOf(everyZh[1]))
    }
    const openEnded = count === 0 && (intervalMs > 0 || OPEN_EN.test(text) || OPEN_ZH.test(text))
    return new UserRequest(count, openEnded, intervalMs, text)
  }

  /** Lower case, white space collapsed (the form ContentLoopDetector gives sentences). */
  static normalise(raw: string): string {
    let out = ''
    let space = false
    for (let i = 0; i < raw.length; i++) {
      const ch = raw.charAt(i)
      if (ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r' || ch === '\u00a0' || ch === '\u3000') {
        space = out.length > 0
      } else {
        out += space ? ' ' + ch.toLowerCase() : ch.toLowerCase()
        space = false
      }
    }
    return out
  }

  /** Arabic digits, English number words, Chinese numerals (十 to 九十九, 百). */
  static numberOf(word: string): number {
    const n = parseInt(word, 10)
    if (!isNaN(n)) {
      return n
    }
    const en = EN_NUMBERS.get(word)
    if (en !== undefined) {
      return en
    }
    let total = 0
    let digit = -1
    for (let i = 0; i < word.length; i++) {
      const ch = word.charAt(i)
      const d = ZH_DIGITS.indexOf(ch)
      if (d >= 0) {
        digit = d
      } else if (ch === '两') {
        digit = 2
      } else if (ch === '十') {
        total += (digit < 0 ? 1 : digit) * 10
        digit = -1
      } else if (ch === '百') {
        total += (digit < 0 ? 1 : digit) * 100
        digit = -1
      }
    }
    return total + (digit > 0 ? digit : 0)
  }

  private static unitMs(unit: string): number {
    if (unit.startsWith('h') || unit === '小时') {
      return 3600000
    }
    if (unit.startsWith('m') || unit === '分钟' || unit === '分') {
      return 60000
    }
    return 1000
  }
}

const ZH_DIGITS: string = '零一二三四五六七八九'
const EN_NUMBERS: Map<string, number> = new Map<string, number>([['two', 2], ['three', 3], ['four', 4], ['five', 5],
  ['six', 6], ['seven', 7], ['eight', 8], ['nine', 9], ['ten', 10], ['eleven', 11], ['twelve', 12], ['fifteen', 15],
  ['twenty', 20], ['thirty', 30], ['forty', 40], ['fifty', 50], ['hundred', 100], ['a hundred', 100], ['a dozen', 12],
  ['dozen', 12]])

const NUMBER_EN: string = '(\\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|a hundred|hundred|a dozen|dozen)'
/** "10 times", "ten times", "10x", "10 more times", "10 runs", "10 rounds", "10 iterations". */
const COUNT_EN: RegExp = new RegExp(`(?:^|[^a-z0-9])${NUMBER_EN}(?:\\s*(?:more\\s+)?(?:times|x|×|runs|rounds|iterations|attempts|repetitions)|\\s+in a row)(?![a-z])`, 'g')
/** "x10", "×10". */
const COUNT_TIMES_X: RegExp = /(?:^|\s)[x×]\s*(\d+)(?![a-z0-9])/g
/** "10 次", "十遍", "三回", "5 轮". */
const COUNT_ZH: RegExp = /(\d+|[零一二两三四五六七八九十百]+)\s*(?:次|遍|回|轮)/g
const TWICE: RegExp = /(?:^|[^a-z])twice(?![a-z])|两遍|两次/
/** "every 30 seconds", "every 2 min", "every minute", "every few seconds". */
const EVERY_EN: RegExp = /every\s+(\d+|a few|few|couple of|two|three|five|ten|fifteen|twenty|thirty)?\s*(seconds?|secs?|s|minutes?|mins?|m|hours?|h)(?![a-z])/
/** "每隔 30 秒", "每 2 分钟", "每五秒". */
const EVERY_ZH: RegExp = /每隔?\s*(\d+|[一二两三四五六七八九十]+)\s*(秒|分钟|分|小时)/
const OPEN_EN: RegExp = /repeatedly|again and again|over and over|(?:several|multiple|a few|many|a number of) (?:more )?times|keep (?:on )?(?:polling|checking|trying|retrying|running|calling|pinging|refreshing|watching|monitoring|asking|waiting)|(?:^|[^a-z])poll(?:ing)?\s+(?:it|the|this|that|until|every|for)|retry (?:it )?until|repeat (?:it|this|that|the|until)|until it (?:is|succeeds|passes|finishes|completes|returns|changes|turns)/
const OPEN_ZH: RegExp = /反复|多次|几次|若干次|数次|重复(?:执行|运行|调用|检查|查询|尝试)|一直(?:重试|检查|轮询|运行|查询|尝试|等)|不断(?:重试|检查|查询|尝试)|持续(?:检查|轮询|监控|查询)|轮询|每隔|直到.{0,12}(?:为止|成功|完成|通过)/
