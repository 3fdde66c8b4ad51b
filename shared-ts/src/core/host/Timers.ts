/**
 * Timer handles are numbers on ArkTS and Timeout objects on Node; both platforms' clearTimeout
 * accepts what their setTimeout returned. Core code keeps handles opaque through these helpers.
 */
export function startTimer(handler: () => void, ms: number): number {
  return setTimeout(handler, ms) as Object as number
}

export function stopTimer(handle: number): void {
  clearTimeout(handle)
}
