/**
 * The forms a secret can take on its way out: as given, JSON-escaped, URL-encoded, and base64 (and
 * base64url) at each of the three byte alignments it can start at inside longer data. A leak in any
 * of them is a leak.
 */
export class SecretForms {
  private static readonly B64: string = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

  /** Every form of `secret` worth scanning for (distinct, non-empty). */
  static of(secret: string): string[] {
    const forms: string[] = [secret]
    SecretForms.add(forms, SecretForms.jsonEscaped(secret))
    SecretForms.add(forms, SecretForms.urlEncoded(secret))
    const bytes = SecretForms.utf8(secret)
    for (let align = 0; align < 3; align++) {
      const b64 = SecretForms.base64Inner(bytes, align)
      SecretForms.add(forms, b64)
      SecretForms.add(forms, b64.replace(/\+/g, '-').replace(/\//g, '_'))
    }
    return forms
  }

  private static add(forms: string[], form: string): void {
    if (form.length > 0 && forms.indexOf(form) < 0) {
      forms.push(form)
    }
  }

  /** What JSON.stringify writes between the quotes. */
  static jsonEscaped(s: string): string {
    const quoted = JSON.stringify(s)
    return quoted.substring(1, quoted.length - 1)
  }

  /** encodeURIComponent, and '' for text it cannot encode (a lone surrogate). */
  static urlEncoded(s: string): string {
    try {
      return encodeURIComponent(s)
    } catch (e) {
      return ''
    }
  }

  static utf8(s: string): number[] {
    const out: number[] = []
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i)
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        const next = s.charCodeAt(i + 1)
        if (next >= 0xdc00 && next <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00)
          i++
        }
      }
      if (c < 0x80) {
        out.push(c)
      } else if (c < 0x800) {
        out.push(0xc0 | (c >> 6), 0x80 | (c & 63))
      } else if (c < 0x10000) {
        out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63))
      } else {
        out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63))
      }
    }
    return out
  }

  /** Base64 (or base64url) text decoded as UTF-8; '' when it is not base64 or not UTF-8. */
  static decodeBase64(text: string): string {
    const clean = text.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/')
    let bits = 0
    let value = 0
    let hex = ''
    for (let i = 0; i < clean.length; i++) {
      const d = SecretForms.B64.indexOf(clean.charAt(i))
      if (d < 0) {
        return ''
      }
      value = (value << 6) | d
      bits += 6
      if (bits >= 8) {
        bits -= 8
        const byte = (value >> bits) & 255
        hex += '%' + (byte < 16 ? '0' : '') + byte.toString(16)
      }
    }
    try {
      return decodeURIComponent(hex)
    } catch (e) {
      return ''
    }
  }

  /**
   * The base64 characters that depend only on the secret's bytes when the secret starts `align`
   * bytes into a 3-byte group of longer data: the group it starts in and the group it ends in mix
   * in other bytes, so they are left out.
   */
  static base64Inner(bytes: number[], align: number): string {
    const padded: number[] = []
    for (let i = 0; i < align; i++) {
      padded.push(0)
    }
    for (let i = 0; i < bytes.length; i++) {
      padded.push(bytes[i])
    }
    let out = ''
    const whole = padded.length - padded.length % 3
    for (let i = 0; i < whole; i += 3) {
      const n = (padded[i] << 16) | (padded[i + 1] << 8) | padded[i + 2]
      out += SecretForms.B64.charAt((n >> 18) & 63) + SecretForms.B64.charAt((n >> 12) & 63) +
        SecretForms.B64.charAt((n >> 6) & 63) + SecretForms.B64.charAt(n & 63)
    }
    // Drop the first group when it holds padding bytes; a partial last group was never encoded.
    return align > 0 ? out.substring(4) : out
  }
}
