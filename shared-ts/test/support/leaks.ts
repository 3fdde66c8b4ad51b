// Helpers of the leak tests: everything reachable from a value as text, and every file under a folder.
import { promises as fs } from 'node:fs'
import path from 'node:path'

/** Everything reachable from `value` as text: Error messages, stacks, codes and causes included. */
export function dump(value: unknown, seen = new Set<unknown>(), depth = 0): string {
  if (value === null || value === undefined) return String(value)
  if (typeof value !== 'object' && typeof value !== 'function') return String(value)
  if (seen.has(value) || depth > 14) return ''
  seen.add(value)
  const out: string[] = []
  if (value instanceof Error) {
    out.push(value.name, value.message, value.stack ?? '', String(value), dump((value as { cause?: unknown }).cause, seen, depth + 1))
  }
  try { out.push(JSON.stringify(value) ?? '') } catch { /* circular: walked below */ }
  for (const key of Reflect.ownKeys(value as object)) {
    try { out.push(dump((value as Record<string | symbol, unknown>)[key], seen, depth + 1)) } catch { /* a throwing getter */ }
  }
  if (value instanceof Map) for (const [k, v] of value) out.push(dump(k, seen, depth + 1), dump(v, seen, depth + 1))
  return out.join('\n')
}

/** The text of every file under `dir`, recursively. */
export async function filesUnder(dir: string): Promise<string> {
  const out: string[] = []
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    out.push(entry.isDirectory() ? await filesUnder(full) : await fs.readFile(full, 'utf8'))
  }
  return out.join('\n')
}
