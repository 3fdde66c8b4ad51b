/** Runs async operations one after another, in call order; a failure does not block later ones. */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve()
  private waiting: number = 0

  run<T>(op: () => Promise<T>): Promise<T> {
    this.waiting++
    const result = this.tail.then((): Promise<T> => op())
    this.tail = result.then((): void => {
      this.waiting--
    }, (): void => {
      this.waiting--
    })
    return result
  }

  /** No operation queued or running. */
  get idle(): boolean {
    return this.waiting === 0
  }
}
