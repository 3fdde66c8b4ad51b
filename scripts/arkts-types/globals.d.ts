// Globals of the ArkTS runtime (API 12) that the core may use. The lint runs without the DOM
// library, so anything browser- or Node-only (fetch, TextDecoder, AbortController, Buffer,
// process) is a compile error here, exactly as on a device.
declare function setTimeout(handler: Function | string, delay?: number, ...args: Object[]): number;
declare function clearTimeout(timeoutID?: number): void;
declare function setInterval(handler: Function | string, delay: number, ...args: Object[]): number;
declare function clearInterval(intervalID?: number): void;
declare interface Console {
  debug(message?: string, ...arguments: Object[]): void;
  log(message?: string, ...arguments: Object[]): void;
  info(message?: string, ...arguments: Object[]): void;
  warn(message?: string, ...arguments: Object[]): void;
  error(message?: string, ...arguments: Object[]): void;
}
declare const console: Console;
