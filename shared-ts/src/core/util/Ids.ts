/** Generates ids that are unique within a process and unlikely to collide across restarts. */
export class Ids {
  private static counter: number = 0

  static next(prefix: string): string {
    Ids.counter++
    const rand = Math.floor(Math.random() * 0xffffffff).toString(36)
    return `${prefix}_${Date.now().toString(36)}${Ids.counter.toString(36)}${rand}`
  }
}
