// What a segmented storage is configured with, and what it is asked to do.

/** What a storage is asked to do (told to `beforeOperation`). */
export enum StorageOperation {
  load = 'load',
  save = 'save',
  mark = 'mark',
  delete = 'delete'
}

/** How a segmented storage cuts a session: messages per segment and the largest value its backend accepts. */
export class SegmentedStorageOptions {
  /** Messages per history segment. */
  segmentSize: number = 64
  /** Largest value the backend accepts, in UTF-8 bytes (0 = no limit); bigger segments are split into parts. */
  maxValueBytes: number = 0
  /**
   * How many bytes the backend stores for a text, for a backend that stores some characters in
   * more bytes than their UTF-8 (HarmonyOS preferences escape what XML rejects); undefined: the
   * UTF-8 length. Parts are cut so that each stays within maxValueBytes by this measure.
   */
  storedBytes: ((text: string) => number) | undefined = undefined
}
