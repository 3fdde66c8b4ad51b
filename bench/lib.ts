// Small measurement helpers shared by the benchmark sections.
import os from 'node:os'

export interface Stats {
  median: number
  min: number
  max: number
  q1: number
  q3: number
  samples: number[]
}

export function stats(samples: number[]): Stats {
  const s = samples.slice().sort((a, b) => a - b)
  const at = (q: number): number => {
    const pos = (s.length - 1) * q
    const lo = Math.floor(pos)
    const hi = Math.ceil(pos)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)
  }
  return { median: at(0.5), min: s[0], max: s[s.length - 1], q1: at(0.25), q3: at(0.75), samples }
}

/** Runs `fn` `warmup` times unmeasured, then `iterations` times; returns the measured durations in ms. */
export async function measure(warmup: number, iterations: number, fn: () => Promise<void> | void): Promise<number[]> {
  for (let i = 0; i < warmup; i++) {
    await fn()
  }
  const out: number[] = []
  for (let i = 0; i < iterations; i++) {
    gc()
    const t0 = process.hrtime.bigint()
    await fn()
    out.push(Number(process.hrtime.bigint() - t0) / 1e6)
  }
  return out
}

export function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc
  if (g !== undefined) {
    g()
    g()
  }
}

export function heapUsed(): number {
  gc()
  return process.memoryUsage().heapUsed
}

export function environment(): string {
  const cpus = os.cpus()
  const model = cpus.length > 0 ? cpus[0].model.trim() : 'unknown CPU'
  return `Node ${process.version}, ${model} (${cpus.length} cores), ${os.platform()} ${os.release()}`
}

export function fmt(n: number, digits: number = 0): string {
  if (!Number.isFinite(n)) {
    return String(n)
  }
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
}

/** A deterministic PRNG (mulberry32) so every run feeds the same data. */
export function rng(seed: number): () => number {
  let a = seed >>> 0
  return (): number => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function check(ok: boolean, message: string): void {
  if (!ok) {
    throw new Error(`benchmark sanity check failed: ${message}`)
  }
}
