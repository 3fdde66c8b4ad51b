// Files written so that a crash leaves the old or the new content, never a mix.
import { promises as fs } from 'node:fs'

export function keyFile(key: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(key)) {
    throw new Error(`Invalid storage key '${key}'`)
  }
  return `${key}.val`
}

export async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw e
  }
}

export async function writeDurably(file: string, value: string): Promise<void> {
  const handle = await fs.open(file, 'w')
  try {
    await handle.writeFile(value, 'utf8')
    await handle.sync()
  } finally {
    await handle.close()
  }
}

export async function syncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined
  try {
    handle = await fs.open(dir, 'r')
    await handle.sync()
  } catch (e) {
    // Some file systems cannot fsync a directory; the rename is still atomic there.
    if ((e as NodeJS.ErrnoException).code !== 'EISDIR' && (e as NodeJS.ErrnoException).code !== 'EINVAL' &&
      (e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
  } finally {
    await handle?.close()
  }
}
