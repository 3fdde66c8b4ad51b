// @ohos.resourceManager (API 12): the members ArkAgent's demo reads.
declare namespace resourceManager {
  interface ResourceManager {
    /**
     * The string of a resource id (`$r('app.string.x').id`). The @throws tags are those of
     * interface_sdk-js at OpenHarmony-v5.0.0-Release (401-only tags not mirrored): ets-loader warns
     * (TS28040) about a call no try/catch surrounds.
     *
     * @throws { BusinessError } 9001001 - If the resId invalid.
     * @throws { BusinessError } 9001002 - If the resource not found by resId.
     * @throws { BusinessError } 9001006 - If the resource re-ref too much.
     */
    getStringSync(resId: number): string;
  }
}

export default resourceManager;
