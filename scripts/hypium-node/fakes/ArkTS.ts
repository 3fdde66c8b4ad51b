// Node fake of @kit.ArkTS util.TextDecoder (API 12 decodeToString with {stream}), faithful to
// commonlibrary_ets_utils 5.0.0 where it differs from WHATWG: an empty input returns '' at once —
// even with {stream: false} it does not flush the bytes a streaming call left pending (they stay
// in the converter and surface at the front of the next non-empty call).
class TextDecoder {
  private readonly inner: globalThis.TextDecoder

  constructor(readonly encoding: string, readonly fatal: boolean, readonly ignoreBOM: boolean) {
    this.inner = new globalThis.TextDecoder(encoding, { fatal, ignoreBOM })
  }
  static create(encoding = 'utf-8', options: { fatal?: boolean, ignoreBOM?: boolean } = {}): TextDecoder {
    return new TextDecoder(encoding, options.fatal ?? false, options.ignoreBOM ?? false)
  }
  decodeToString(input: Uint8Array, options: { stream?: boolean } = {}): string {
    if (input === undefined || input.length === 0) return ''
    return this.inner.decode(input, { stream: options.stream ?? false })
  }
}

export const util = { TextDecoder }
