// @ohos.router (API 12): page navigation by URL (pages listed in main_pages.json). The @throws tags are
// the SDK's, so a pushUrl outside a try is the compiler's TS28040 warning here too.
declare namespace router {
  interface RouterOptions {
    url: string;
    params?: Object;
  }

  /**
   * @throws { BusinessError } 401 - Parameter error.
   * @throws { BusinessError } 100001 - Internal error.
   * @throws { BusinessError } 100002 - Uri error. The URI of the page to redirect is incorrect or does not exist.
   * @throws { BusinessError } 100003 - Page stack error. Too many pages are pushed.
   */
  function pushUrl(options: RouterOptions): Promise<void>;
  function back(): void;
}

export default router;
