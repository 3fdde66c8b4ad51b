// @ohos.resourceManager (API 12): the members ArkAgent's demo reads.
declare namespace resourceManager {
  interface ResourceManager {
    /** The string of a resource id (`$r('app.string.x').id`); throws 9001001 for an invalid id. */
    getStringSync(resId: number): string;
  }
}

export default resourceManager;
