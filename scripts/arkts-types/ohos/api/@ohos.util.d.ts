// @ohos.util (API 12): the UTF-8 codec. decodeToString with {stream: true} keeps an incomplete
// multi-byte sequence for the next call.
declare namespace util {
  interface TextDecoderOptions {
    fatal?: boolean;
    ignoreBOM?: boolean;
  }

  interface DecodeToStringOptions {
    stream?: boolean;
  }

  class TextDecoder {
    readonly encoding: string;
    readonly fatal: boolean;
    readonly ignoreBOM: boolean;
    static create(encoding?: string, options?: TextDecoderOptions): TextDecoder;
    decodeToString(input: Uint8Array, options?: DecodeToStringOptions): string;
  }

  class TextEncoder {
    constructor(encoding?: string);
    encodeInto(input?: string): Uint8Array;
  }
}

export default util;
