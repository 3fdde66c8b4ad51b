/**
 * Cheap non-cryptographic 53-bit string hash (two 32-bit multiply-xor lanes, cyrb53 style). 53 bits
 * fit a JS number exactly, so hashes work as Map keys, and collisions between the handful of
 * results a loop window compares are negligible — unlike a single 32-bit FNV-1a.
 */
export function hash53(text: string, seed: number = 0): number {
  return hash53Of3(text, '', '', seed)
}

/**
 * hash53(a + b + c) without building the concatenation: a concatenated string is a rope, and
 * reading it char by char is several times slower than reading its flat parts.
 */
export function hash53Of3(a: string, b: string, c: string, seed: number = 0): number {
  let h1 = 0xdeadbeef ^ seed
  let h2 = 0x41c6ce57 ^ seed
  for (let part = 0; part < 3; part++) {
    const text = part === 0 ? a : (part === 1 ? b : c)
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i)
      h1 = Math.imul(h1 ^ ch, 2654435761)
      h2 = Math.imul(h2 ^ ch, 1597334677)
    }
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507)
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507)
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return 4294967296 * (2097151 & h2) + (h1 >>> 0)
}

/**
 * The same two lanes as hash53, fed piece by piece: strings, and single codes used as structure
 * tokens or lengths. Lets a structure be hashed without first serializing it to a string.
 */
export class Hash53 {
  private h1: number
  private h2: number

  constructor(seed: number = 0) {
    this.h1 = 0xdeadbeef ^ seed
    this.h2 = 0x41c6ce57 ^ seed
  }

  addCode(code: number): void {
    this.h1 = Math.imul(this.h1 ^ code, 2654435761)
    this.h2 = Math.imul(this.h2 ^ code, 1597334677)
  }

  addString(text: string): void {
    let h1 = this.h1
    let h2 = this.h2
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i)
      h1 = Math.imul(h1 ^ ch, 2654435761)
      h2 = Math.imul(h2 ^ ch, 1597334677)
    }
    this.h1 = h1
    this.h2 = h2
  }

  digest(): number {
    let h1 = Math.imul(this.h1 ^ (this.h1 >>> 16), 2246822507)
    h1 ^= Math.imul(this.h2 ^ (this.h2 >>> 13), 3266489909)
    let h2 = Math.imul(this.h2 ^ (this.h2 >>> 16), 2246822507)
    h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909)
    return 4294967296 * (2097151 & h2) + (h1 >>> 0)
  }
}

/** Shortens evidence text so verdicts stay small whatever the tool arguments were. */
export function preview(text: string, maxChars: number): string {
  if (text.length <= maxChars) {
    return text
  }
  return text.substring(0, Math.max(0, maxChars - 1)) + '…'
}
