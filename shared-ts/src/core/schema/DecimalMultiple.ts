/** A finite number as digits × 10^exponent (digits without leading or trailing zeros; '' for zero). */
class Decimal {
  readonly digits: string
  readonly exponent: number

  constructor(digits: string, exponent: number) {
    this.digits = digits
    this.exponent = exponent
  }

  /** From JavaScript's shortest round-trip text of |x| ("0.0075", "1.5e-7", "1e+21"). */
  static of(x: number): Decimal {
    const text = String(Math.abs(x))
    const e = text.indexOf('e')
    const mantissa = e < 0 ? text : text.substring(0, e)
    let exponent = e < 0 ? 0 : Number(text.substring(e + 1))
    const dot = mantissa.indexOf('.')
    let digits = mantissa
    if (dot >= 0) {
      digits = mantissa.substring(0, dot) + mantissa.substring(dot + 1)
      exponent -= mantissa.length - dot - 1
    }
    let start = 0
    while (start < digits.length && digits.charAt(start) === '0') {
      start++
    }
    let end = digits.length
    while (end > start && digits.charAt(end - 1) === '0') {
      end--
      exponent++
    }
    return new Decimal(digits.substring(start, end), exponent)
  }
}

/**
 * `multipleOf` decided exactly on the numbers' decimal values (the shortest text that round-trips
 * the double, which is the JSON text the number came from when it had at most 17 significant
 * digits): 0.0075 is a multiple of 0.0001, 0.3 is a multiple of 0.1, 1e308 is not a multiple of
 * 0.123456789. No division in floating point, so no rounding and no overflow to Infinity.
 */
export class DecimalMultiple {
  /** Whether `value` is an integer multiple of `divisor` (divisor > 0, both finite). */
  static test(value: number, divisor: number): boolean {
    if (value === 0) {
      return true
    }
    const v = Decimal.of(value)
    const d = Decimal.of(divisor)
    // value / divisor = (V × 10^k) / D with k = ev - ed; an integer when D divides V × 10^k.
    const k = v.exponent - d.exponent
    const numerator = k > 0 ? v.digits + '0'.repeat(k) : v.digits
    const denominator = k < 0 ? d.digits + '0'.repeat(-k) : d.digits
    if (denominator.length > numerator.length) {
      return false
    }
    return DecimalMultiple.divides(denominator, numerator)
  }

  /** Whether the decimal integer `d` (no leading zeros) divides `n`: long division, digit by digit. */
  private static divides(d: string, n: string): boolean {
    const divisor = DecimalMultiple.toDigits(d)
    let rest: number[] = []
    for (let i = 0; i < n.length; i++) {
      if (rest.length > 0 || n.charCodeAt(i) !== 48) {
        rest.push(n.charCodeAt(i) - 48)
      }
      while (DecimalMultiple.compare(rest, divisor) >= 0) {
        rest = DecimalMultiple.subtract(rest, divisor)
      }
    }
    return rest.length === 0
  }

  private static toDigits(s: string): number[] {
    const out: number[] = []
    for (let i = 0; i < s.length; i++) {
      out.push(s.charCodeAt(i) - 48)
    }
    return out
  }

  /** Compares two digit arrays without leading zeros. */
  private static compare(a: number[], b: number[]): number {
    if (a.length !== b.length) {
      return a.length - b.length
    }
    for (let i = 0; i < a.length; i++) {
      if (a[i] !== b[i]) {
        return a[i] - b[i]
      }
    }
    return 0
  }

  /** a - b for a >= b, without leading zeros. */
  private static subtract(a: number[], b: number[]): number[] {
    const out: number[] = a.slice()
    let borrow = 0
    for (let i = 0; i < out.length; i++) {
      const ai = out.length - 1 - i
      const bi = b.length - 1 - i
      let digit = out[ai] - borrow - (bi >= 0 ? b[bi] : 0)
      borrow = 0
      if (digit < 0) {
        digit += 10
        borrow = 1
      }
      out[ai] = digit
    }
    let start = 0
    while (start < out.length && out[start] === 0) {
      start++
    }
    return out.slice(start)
  }
}
