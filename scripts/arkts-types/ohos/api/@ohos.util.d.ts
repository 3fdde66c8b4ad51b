// @ohos.util (API 12): the UTF-8 codec. decodeToString with {stream: true} keeps an incomplete
// multi-byte sequence for the next call. @throws tags as in the SDK (interface_sdk-js 5.0.0).
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
    /**
     * @throws { BusinessError } 401 - Parameter error. Possible causes: 1.Incorrect parameter types.
     */
    static create(encoding?: string, options?: TextDecoderOptions): TextDecoder;
    /**
     * @throws { BusinessError } 401 - Parameter error. Possible causes:
     * 1.Mandatory parameters are left unspecified;
     * 2.Incorrect parameter types.
     */
    decodeToString(input: Uint8Array, options?: DecodeToStringOptions): string;
  }

  class TextEncoder {
    constructor(encoding?: string);
    encodeInto(input?: string): Uint8Array;
  }
}

export default util;
