// Values cut to what a backend accepts (HarmonyOS preferences: 8192 bytes on older versions).
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { splitByUtf8Bytes, utf8Length } from '../util/Text'
import { SegmentedStorageOptions } from './SegmentedStorageOptions'

/** `text` cut into values the backend accepts: halving the UTF-8 budget until each stored part fits. */
export function partsOf(text: string, options: SegmentedStorageOptions): string[] {
  const max = options.maxValueBytes
  let parts = splitByUtf8Bytes(text, max)
  const measure = options.storedBytes
  for (let budget = max; measure !== undefined && budget > 1 && anyOver(parts, measure, max);) {
    budget = Math.floor(budget / 2)
    parts = splitByUtf8Bytes(text, budget)
  }
  return parts
}

function anyOver(parts: string[], measure: (text: string) => number, max: number): boolean {
  for (let i = 0; i < parts.length; i++) {
    if (measure(parts[i]) > max) {
      return true
    }
  }
  return false
}

function storedLength(text: string, options: SegmentedStorageOptions): number {
  const measure = options.storedBytes
  return measure !== undefined ? measure(text) : utf8Length(text)
}

export function checkValueSize(text: string, options: SegmentedStorageOptions): void {
  if (options.maxValueBytes > 0 && storedLength(text, options) > options.maxValueBytes) {
    throw new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateSaveFailed,
      `The state header is larger than the backend's value limit of ${options.maxValueBytes} bytes`,
      ErrorRetryability.never)
  }
}
