// Node fake of @kit.ArkTS util.TextDecoder (API 12 decodeToString with {stream}).
class TextDecoder {
  private readonly inner: globalThis.TextDecoder

  constructor(readonly encoding: string, readonly fatal: boolean, readonly ignoreBOM: boolean) {
    this.inner = new globalThis.TextDecoder(encoding, { fatal, ignoreBOM })
  }
  static create(encoding = 'utf-8', options: { fatal?: boolean, ignoreBOM?: boolean } = {}): TextDecoder {
    return new TextDecoder(encoding, options.fatal ?? false, options.ignoreBOM ?? false)
  }
  decodeToString(input: Uint8Array, options: { stream?: boolean } = {}): string {
    return this.inner.decode(input, { stream: options.stream ?? false })
  }
}

export const util = { TextDecoder }
