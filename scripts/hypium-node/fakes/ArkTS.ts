// Node fake of @kit.ArkTS util.TextDecoder (API 12 decodeToString with {stream}), faithful to
// commonlibrary_ets_utils 5.0.0 (js_util_module/util/js_textdecoder.cpp, TextDecoder::DecodeToString)
// where it differs from WHATWG: an empty input returns `undefined` at once (limit = 0: "limit is
// error", return nullptr) — even with {stream: false} it neither flushes the bytes a streaming
// call left pending (they stay in the converter and surface at the front of the next non-empty
// call) nor returns ''. An argument that is not a Uint8Array throws 401.
import { FakeNapiThrow } from './BusinessError'

class TextDecoder {
  private readonly inner: globalThis.TextDecoder

  constructor(readonly encoding: string, readonly fatal: boolean, readonly ignoreBOM: boolean) {
    this.inner = new globalThis.TextDecoder(encoding, { fatal, ignoreBOM })
  }
  static create(encoding = 'utf-8', options: { fatal?: boolean, ignoreBOM?: boolean } = {}): TextDecoder {
    return new TextDecoder(encoding, options.fatal ?? false, options.ignoreBOM ?? false)
  }
  decodeToString(input: Uint8Array, options: { stream?: boolean } = {}): string {
    if (!(input instanceof Uint8Array)) throw new FakeNapiThrow(401, 'Parameter error. The type of Parameter must be Uint8Array.')
    if (input.length === 0) return undefined as unknown as string
    try {
      return this.inner.decode(input, { stream: options.stream ?? false })
    } catch {
      throw new FakeNapiThrow(401, 'Parameter error. Please check if the decode data matches the encoding format.')
    }
  }
}

export const util = { TextDecoder }
