// Errors shaped like the system's BusinessError: an Error with a numeric code.
export class FakeBusinessError extends Error {
  readonly code: number

  constructor(code: number, message: string) {
    super(message)
    this.name = 'BusinessError'
    this.code = code
  }
}

/** Behaviour a real device would not show; hypium-node fails the run when any is recorded. */
export const violations: string[] = []

/**
 * What a synchronous napi throw looks like on a device: napi_throw_error(env, "401", msg) sets
 * `code` to the *string* "401" (arkui_napi native_api.cpp, napi_throw_error: StringRef::NewFromUtf8
 * for the code). Preferences and relationalStore parameter errors are thrown this way
 * (napi_preferences_error.h PRE_NAPI_ASSERT_BASE, napi_rdb_error.h RDB_NAPI_ASSERT_BASE); their
 * rejected promises carry a numeric code (napi_create_int32).
 */
export class FakeNapiThrow extends Error {
  readonly code: string

  constructor(code: number, message: string) {
    super(message)
    this.name = 'Error'
    this.code = String(code)
  }
}
