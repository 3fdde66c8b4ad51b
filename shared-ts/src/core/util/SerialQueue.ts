/** Runs async operations one after another, in call order; a failure does not block later ones. */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve()

  run<T>(op: () => Promise<T>): Promise<T> {
    const result = this.tail.then((): Promise<T> => op())
    this.tail = result.then((): void => {}, (): void => {})
    return result
  }
}
