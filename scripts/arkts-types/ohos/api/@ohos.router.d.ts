// @ohos.router (API 12): page navigation by URL (pages listed in main_pages.json).
declare namespace router {
  interface RouterOptions {
    url: string;
    params?: Object;
  }

  function pushUrl(options: RouterOptions): Promise<void>;
  function back(): void;
}

export default router;
