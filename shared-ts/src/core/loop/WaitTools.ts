/** A shell sleep in a call's arguments: `sleep 30`, `Start-Sleep -s 5`, `time.sleep(2)`. */
const SLEEP_COMMAND: RegExp = /(?:^|[^a-z])sleep[\s(]+\d|start-sleep/i

/** Which calls wait: a wait between two calls makes the second one time-paced (see LoopDetector). */
export class WaitTools {
  private readonly names: Set<string>
  private readonly memo: Map<string, boolean> = new Map<string, boolean>()

  constructor(names: string[]) {
    this.names = new Set<string>(names)
  }

  /**
   * A tool that waits: listed in waitTools, or named like one — a word of its name (split at
   * non-letters and camelCase) is `wait`, `await` or `sleep`, or its first word is `pause`, `delay`
   * or `backoff`.
   */
  isWait(name: string): boolean {
    if (this.names.has(name)) {
      return true
    }
    const known = this.memo.get(name)
    if (known !== undefined) {
      return known
    }
    const words = WaitTools.wordsOf(name)
    let wait = words.length > 0 && (words[0] === 'pause' || words[0] === 'delay' || words[0] === 'backoff')
    for (let i = 0; i < words.length && !wait; i++) {
      wait = words[i] === 'wait' || words[i] === 'await' || words[i] === 'sleep'
    }
    if (this.memo.size >= 512) {
      this.memo.clear()
    }
    this.memo.set(name, wait)
    return wait
  }

  private static wordsOf(name: string): string[] {
    const words: string[] = []
    let word = ''
    for (let i = 0; i < name.length; i++) {
      const ch = name.charAt(i)
      const lower = ch.toLowerCase()
      const letter = lower !== ch.toUpperCase()
      if (!letter) {
        if (word.length > 0) {
          words.push(word)
        }
        word = ''
      } else if (ch !== lower && word.length > 0 && name.charAt(i - 1).toLowerCase() === name.charAt(i - 1)) {
        // camelCase boundary
        words.push(word)
        word = lower
      } else {
        word += lower
      }
    }
    if (word.length > 0) {
      words.push(word)
    }
    return words
  }

  /** Arguments that wait themselves (`sleep 30 && kubectl get pods`). */
  static sleepsIn(argumentsJson: string): boolean {
    return argumentsJson.indexOf('leep') >= 0 && SLEEP_COMMAND.test(argumentsJson)
  }
}
